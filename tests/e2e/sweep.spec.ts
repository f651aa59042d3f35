/**
 * Sweeps end to end in the browser mode: a tiny sweep started from the builder (two axes of a
 * fine-grained chase), its view with the table of points and the chart, as lines and as a heatmap,
 * its PDF report downloaded; the run library with the sweep's runs grouped under its row, whose
 * checkbox selects them all;
 * screenshots of the view and the library at 1024 x 700, light and dark. A Slurm sweep's folder
 * (written by the CLI's `sweep --slurm`, two points run by `sweep task`, a bundle of the wrong point)
 * collected from the run library through the folder input, its result and resubmit.sh, then again
 * from the sweep's view through the file input (nothing imported twice). Needs `npm run build` first.
 */
import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useLabServer, type LabServerHandle } from './lab-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let lab: LabServerHandle;
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1024, height: 700 } });
useLabServer({}, (started) => {
  lab = started;
});

async function shot(page: Page, name: string): Promise<void> {
  const dir = join(test.info().project.outputDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(1200);
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

test('starts a sweep from the builder and shows its points as a table and a chart', async ({ page }) => {
  await page.goto(lab.pageUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Experiments' })).toBeVisible();
  await page.getByTestId('experiment-pchase-fine').click();
  await page.getByTestId('param-iterations').getByRole('textbox').fill('64');
  await page.getByTestId('param-size').getByRole('textbox').fill('4KB');

  await page.getByTestId('sweep-toggle').click();
  await page.getByTestId('sweep-add-axis').click();
  await page.getByTestId('sweep-axis-0').getByTestId('sweep-axis-param').selectOption('stride');
  await page.getByTestId('sweep-axis-0').getByTestId('sweep-axis-values').fill('32..128 x2');
  await page.getByTestId('sweep-add-axis').click();
  await page.getByTestId('sweep-axis-1').getByTestId('sweep-axis-param').selectOption('iterations');
  await page.getByTestId('sweep-axis-1').getByTestId('sweep-axis-values').fill('32, 64');
  await page.getByTestId('sweep-name').fill('e2e stride sweep');
  await expect(page.getByTestId('sweep-estimate')).toContainText('6 runs');
  await page.getByTestId('sweep-start').click();

  await expect(page).toHaveURL(/#\/sweeps\//);
  await expect(page.getByTestId('sweep-view').getByRole('heading', { level: 1 })).toHaveText('e2e stride sweep');
  await expect(page.getByTestId('sweep-progress')).toContainText('6 done', { timeout: 120_000 });
  const table = page.getByTestId('sweep-table');
  await expect(table.locator('tbody tr')).toHaveCount(6);
  await expect(page.getByTestId('sweep-point-5')).toContainText('128');
  await expect(page.getByTestId('sweep-point-5')).toContainText('done');
  await expect(page.getByTestId('sweep-chart').locator('svg')).toBeVisible();
  await shot(page, 'sweep-view-light');
  await page.getByTestId('sweep-kind').selectOption('heatmap');
  await expect(page.getByTestId('sweep-chart').locator('svg')).toBeVisible();
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'sweep-view-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // The PDF report, with the chart as shown (a heatmap now): a download of a PDF file.
  const sweepId = /#\/sweeps\/([0-9a-f-]+)/.exec(page.url())![1]!;
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('sweep-pdf').click()]);
  expect(download.suggestedFilename()).toMatch(/^gpulab-sweep-e2e-stride-sweep-.*\.pdf$/);
  const path = await download.path();
  expect(path, `download failed: ${await download.failure()}`).toBeTruthy();
  const dir = join(test.info().project.outputDir, 'exports');
  mkdirSync(dir, { recursive: true });
  await download.saveAs(join(dir, download.suggestedFilename()));
  expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The run library: the sweep is one row with its progress; its button shows its runs under it.
  await page.goto(lab.pageUrl.replace(/#.*/, '#/runs'));
  const row = page.getByTestId(`sweep-row-${sweepId}`);
  await expect(row).toContainText('e2e stride sweep');
  await expect(row).toContainText('6 runs');
  await expect(row).toContainText('6/6');
  const toggle = page.getByTestId(`sweep-toggle-${sweepId}`);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator(`tr[data-sweep="${sweepId}"]`)).toHaveCount(0);
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator(`tr[data-sweep="${sweepId}"]`)).toHaveCount(6);
  // Under the sweep, a run's title leaves out the sweep's name and the preset (the GPU column says it): its point remains.
  await expect(page.locator(`tr[data-sweep="${sweepId}"]`).first().getByRole('link')).toHaveText(/^stride=\d+, iterations=\d+$/);
  await shot(page, 'runs-library-sweep-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'runs-library-sweep-dark');
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator(`tr[data-sweep="${sweepId}"]`)).toHaveCount(0);
  // The row's checkbox selects all of the sweep's runs (collapsed: read from the lab), and clears them.
  const selectSweep = page.getByRole('checkbox', { name: 'Select the runs of sweep e2e stride sweep' });
  await expect(selectSweep).not.toBeChecked();
  await expect(page.getByTestId('compare-selected')).toBeDisabled();
  await selectSweep.click();
  await expect(page.getByTestId('selection-bar')).toContainText('6 selected');
  await expect(selectSweep).toBeChecked();
  await expect(page.getByTestId('compare-selected')).toBeEnabled();
  await expect(page.getByTestId('report-selected')).toBeEnabled();
  await toggle.click();
  await expect(page.locator(`tr[data-sweep="${sweepId}"] input[type="checkbox"]:checked`)).toHaveCount(6);
  await page.locator(`tr[data-sweep="${sweepId}"] input[type="checkbox"]`).first().uncheck();
  await expect(page.getByTestId('selection-bar')).toContainText('5 selected');
  await expect(selectSweep).toHaveJSProperty('indeterminate', true);
  await selectSweep.click();
  await expect(page.getByTestId('selection-bar')).toContainText('6 selected');
  await expect(selectSweep).toBeChecked();
  await selectSweep.click();
  await expect(page.getByTestId('selection-bar')).toContainText('0 selected');
  await expect(selectSweep).not.toBeChecked();
  await toggle.click();
  await page.getByTestId(`runs-sweep-${sweepId}`).click();
  await expect(page).toHaveURL(new RegExp(`#/sweeps/${sweepId}$`));
});

/** The command line, as a user runs it (tsx from the checkout). */
function gpulab(...args: string[]): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, `gpulab ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

test("collects a Slurm sweep's folder from the run library and again from the sweep's view", async ({ page }) => {
  const tmp = mkdtempSync(join(tmpdir(), 'gpulab-e2e-slurm-'));
  try {
    // The folder as on a cluster: the plan written with --slurm, points 0 and 1 run as array tasks;
    // point 2's bundle is a copy of point 0's (the wrong point: refused with the reason).
    const planFile = join(tmp, 'plan.json');
    writeFileSync(planFile, JSON.stringify({ name: 'e2e slurm sweep', experiment: 'pchase-fine', presets: ['fermi'], params: { size: '4KB', iterations: 32 }, axes: [{ param: 'stride', values: [32, 64, 128] }] }));
    const dir = join(tmp, 'sweep-1');
    gpulab('sweep', planFile, '--slurm', dir, '--db', join(tmp, 'plan.db'));
    for (const i of ['0', '1']) gpulab('sweep', 'task', join(dir, 'plan.json'), '--index', i, '--out', join(dir, 'bundles'));
    copyFileSync(join(dir, 'bundles', 'point-000000.gmlbundle'), join(dir, 'bundles', 'point-000002.gmlbundle'));
    const sweepId = (JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as { id: string }).id;

    // The page with its token first (kept for this tab), then the run library.
    await page.goto(lab.pageUrl);
    await expect(page.getByRole('heading', { level: 1, name: 'Experiments' })).toBeVisible();
    await page.goto(lab.pageUrl.replace(/#.*/, '#/runs'));
    await page.getByTestId('runs-collect').click();
    const dialog = page.getByTestId('collect-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('collect-choose-folder')).toBeFocused();
    await page.getByTestId('collect-folder').setInputFiles(dir);
    const result = page.getByTestId('collect-result');
    await expect(result).toBeVisible({ timeout: 60_000 });
    await expect(result.getByRole('heading', { level: 3 })).toHaveText('e2e slurm sweep');
    await expect(page.getByTestId('collect-imported')).toHaveText('2 imported');
    await expect(page.getByTestId('collect-counts')).toContainText('3 read: 2 imported, 0 already here, 1 refused');
    await expect(page.getByTestId('collect-done')).toHaveText('2 of 3 done');
    await expect(page.getByTestId('collect-missing')).toHaveText('1 (point 2)');
    await expect(page.getByTestId('collect-refused')).toContainText("point-000002.gmlbundle: run");
    await expect(page.getByTestId('collect-refused')).toContainText("is not point 2 of this sweep: its stride is 32, the point's 128");
    await shot(page, 'sweep-collect-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'sweep-collect-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // resubmit.sh for the point missing, as `collect --resubmit` writes it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('collect-resubmit').click()]);
    expect(download.suggestedFilename()).toBe('resubmit.sh');
    const script = readFileSync((await download.path())!, 'utf8');
    expect(script).toMatch(/^part 0 '2' "\$@"$/m);

    // The sweep is in the library now; its view opens from the dialog.
    await page.getByTestId('collect-open').click();
    await expect(page).toHaveURL(new RegExp(`#/sweeps/${sweepId}$`));
    await expect(page.getByTestId('sweep-progress')).toContainText('2 done');
    await expect(page.getByTestId('sweep-point-2')).toContainText('pending');

    // Again from the sweep's view, with the files chosen one by one (keyboard: Enter on the button): nothing twice.
    await page.getByTestId('sweep-collect').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('collect-dialog')).toBeVisible();
    await page
      .getByTestId('collect-files')
      .setInputFiles([join(dir, 'plan.json'), join(dir, 'sweep.sbatch'), join(dir, 'bundles', 'point-000000.gmlbundle'), join(dir, 'bundles', 'point-000001.gmlbundle')]);
    await expect(page.getByTestId('collect-counts')).toContainText('2 read: 0 imported, 2 already here', { timeout: 60_000 });
    await expect(page.getByTestId('collect-open')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('collect-dialog')).toHaveCount(0);
    await expect(page.getByTestId('sweep-collect')).toBeFocused();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
