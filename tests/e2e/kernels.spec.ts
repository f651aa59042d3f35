/**
 * The kernel editor end to end in the browser mode (Debian Chromium; `npm run build` first):
 *  - WONG's Listings 3 to 7 loaded from the examples menu and run on Tesla, each with its per-warp
 *    timeline; Listing 4 and 6 stop with a deadlock message that names the waiting warps;
 *  - a kernel with a syntax error shows line:column under the editor, its line marked, and runs nothing;
 *  - a user's own diverging kernel runs (Ctrl+Enter) and shows its timeline, also on the run's page;
 *  - the GT200 core's latency/throughput (wong-warps) and register-occupancy (wong-regfile) charts.
 * Screenshots land in test-results/screenshots/kernels-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { useLabServer, waitForRuns, type LabServerHandle } from './lab-server';

const SIM_TIMEOUT = 60_000;
let lab: LabServerHandle;

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1400, height: 1000 } });

useLabServer({ poolSize: 1 }, (started) => {
  lab = started;
});

async function openLab(page: Page, route: string): Promise<void> {
  await page.goto(lab.pageUrl);
  await expect(page.getByTestId('version')).toContainText('browser mode');
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#${route}`);
  await expect(page).toHaveURL((url) => url.hash.startsWith(`#${route}`));
}

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  const dir = join(test.info().project.outputDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(800);
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/** Runs the editor's kernel and waits for THIS run (the run link changes) to finish. */
async function runAndWait(page: Page): Promise<void> {
  const link = page.getByTestId('kernel-open-run');
  const before = (await link.count()) ? await link.getAttribute('href') : null;
  await page.getByTestId('kernel-run').click();
  await expect(link).not.toHaveAttribute('href', before ?? '');
  await expect(page.getByTestId('kernel-run-status')).toHaveText('done', { timeout: SIM_TIMEOUT });
}

test('Listings 3 to 7 from the examples menu, each with its timeline; Listing 4 and 6 deadlock with the waiting warps named', async ({ page }) => {
  await openLab(page, '/experiments');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Kernels', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Kernels' })).toBeVisible();
  await expect(page.getByTestId('kernel-preset')).toHaveValue('tesla');

  // Listing 4: a spin lock under SIMT. One warp, spinning forever.
  await page.getByTestId('kernel-example').selectOption('listing4');
  await expect(page.getByTestId('kernel-source')).toHaveValue(/WONG Listing 4/);
  await expect(page.getByTestId('kernel-threads')).toHaveValue('32');
  await runAndWait(page);
  await expect(page.getByTestId('kernel-message')).toContainText('deadlock: no warp can make progress');
  await expect(page.getByTestId('kernel-message')).toContainText('warp 0 in the loop at 5:1');
  await expect(page.getByTestId('kernel-deadlock')).toContainText('warp 0 spins in the loop at 5:1');
  await expect(page.getByTestId('kernel-timeline-chart').locator('svg')).toBeVisible();
  await shot(page, 'kernels-listing4');

  // Listing 6: warp 0 waits at the barrier while warp 1 spins.
  await page.getByTestId('kernel-example').selectOption('listing6');
  await runAndWait(page);
  await expect(page.getByTestId('kernel-deadlock')).toContainText('warp 0 waits at barrier [1] (5:3)');
  await expect(page.getByTestId('kernel-deadlock')).toContainText('warp 1 spins in the loop at 9:3');
  await shot(page, 'kernels-listing6');

  for (const [id, words] of [
    ['listing3', /finished: every warp exited/],
    ['listing5', /finished: every warp exited/],
    ['listing7', /finished: every warp exited/],
  ] as const) {
    await page.getByTestId('kernel-example').selectOption(id);
    await runAndWait(page);
    await expect(page.getByTestId('kernel-message')).toHaveText(words);
    await expect(page.getByTestId('kernel-deadlock')).toHaveCount(0);
    await expect(page.getByTestId('kernel-timeline-chart').locator('svg')).toBeVisible();
    await expect(page.getByTestId('kernel-paths')).toContainText('path from');
    if (id === 'listing7') await expect(page.getByText('Barriers met, per release (block 0)')).toBeVisible();
    await shot(page, `kernels-${id}`);
  }
});

test('a syntax error shows line:column with its line marked; a user\'s own diverging kernel runs with Ctrl+Enter and shows its timeline', async ({ page }) => {
  await openLab(page, '/kernels');
  const source = page.getByTestId('kernel-source');
  await source.fill('__global__ int out[64];\nint x = threadIdx.x;\nif (x < 40 {\n  x = 1;\n}\nout[threadIdx.x] = x;\n');
  await expect(page.getByTestId('kernel-problem')).toHaveText(/^3:\d+: /);
  await expect(page.getByTestId('kernel-error-line')).toHaveText('3');
  await expect(page.getByTestId('kernel-example')).toHaveValue('own');
  await shot(page, 'kernels-syntax-error', false);
  const before = (await lab.api.runs.list({})).total;
  await page.getByTestId('kernel-run').click();
  await expect(page.getByTestId('kernel-run-status')).toHaveCount(0);
  expect((await lab.api.runs.list({})).total).toBe(before);

  // The user's own kernel: lanes diverge three ways in each of two warps, then meet at a barrier.
  const own = [
    '__shared__ int s[64];',
    '__global__ int out[64];',
    'int x = threadIdx.x;',
    'if (laneId < 8) {',
    '  x = x * 2;',
    '} else if (laneId < 20) {',
    '  for (int i = 0; i < laneId % 3; i++) x += i;',
    '} else {',
    '  x = -x;',
    '}',
    's[threadIdx.x] = x;',
    '__syncthreads();',
    'out[threadIdx.x] = s[63 - threadIdx.x];',
    '',
  ].join('\n');
  await source.fill(own);
  await expect(page.getByTestId('kernel-ok')).toBeVisible();
  await expect(page.getByTestId('kernel-error-line')).toHaveCount(0);
  await source.press('Control+Enter');
  await expect(page.getByTestId('kernel-run-status')).toHaveText('done', { timeout: SIM_TIMEOUT });
  await expect(page.getByTestId('kernel-message')).toHaveText(/finished: every warp exited/);
  await expect(page.getByTestId('kernel-paths')).toContainText('path from 9:3');
  await expect(page.getByTestId('kernel-paths')).toContainText('reconverged at 11:1');
  await shot(page, 'kernels-own');

  // The same timeline on the run's own page (the run view mounts it for simt-* runs).
  await page.getByTestId('kernel-open-run').click();
  await expect(page.getByTestId('run-status')).toHaveText('done');
  await expect(page.getByRole('heading', { level: 2, name: 'Per-warp timeline' })).toBeVisible();
  await expect(page.getByTestId('kernel-timeline-chart').locator('svg')).toBeVisible();
  await shot(page, 'kernels-own-run-view');

  // Back in the editor, the kernel is still there.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Kernels', exact: true }).click();
  await expect(page.getByTestId('kernel-source')).toHaveValue(own);
});

test('the GT200 core charts: latency and throughput against warps, register occupancy', async ({ page }) => {
  const a = await lab.api.runs.start({ experiment: 'wong-warps', preset: 'tesla', params: {}, seed: 1 });
  const b = await lab.api.runs.start({ experiment: 'wong-regfile', preset: 'tesla', params: {}, seed: 1 });
  const done = await waitForRuns(lab.api, [a.runId, b.runId], SIM_TIMEOUT * 2);
  for (const r of done) expect(r.status, r.error ?? '').toBe('done');
  await openLab(page, `/runs/${a.runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('done');
  await expect(page.getByRole('heading', { level: 2, name: 'Charts' })).toBeVisible();
  await shot(page, 'kernels-wong-warps');
  await openLab(page, `/runs/${b.runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('done');
  await expect(page.getByRole('heading', { level: 2, name: 'Charts' })).toBeVisible();
  await shot(page, 'kernels-wong-regfile');
});
