/**
 * Sweeps end to end in the browser mode: a tiny sweep started from the builder (two axes of a
 * fine-grained chase), its view with the table of points and the chart, as lines and as a heatmap,
 * its PDF report downloaded; the run library with the sweep's runs grouped under its row;
 * screenshots of the view and the library at 1024 x 700, light and dark. Needs `npm run build` first.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useLabServer, type LabServerHandle } from './lab-server';

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
  await page.getByTestId(`runs-sweep-${sweepId}`).click();
  await expect(page).toHaveURL(new RegExp(`#/sweeps/${sweepId}$`));
});
