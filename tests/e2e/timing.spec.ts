/**
 * The timing tier's views end to end in the browser mode (Debian Chromium; `npm run build` first):
 *  - a small LASH stencil run from the builder, opened: the stall breakdown as stacked bars on the
 *    data types, and the MSHR-occupancy timeline whose window inputs follow and drive the zoom;
 *  - LASH Fig 7's resource sweep and SL1 Fig 7's no L1 / hardware L1 / S-L1 comparison, each built,
 *    run small and opened: their bars and findings;
 *  - two stored timing results (imported as a bundle, so the test knows every number) overlaid in
 *    Compare: one stacked bar per GPU at each data type.
 * Screenshots land in test-results/screenshots/timing-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunDetail } from '../../src-main/contract';
import { encodeBundle } from '../../src-main/services/store';
import { findPreset } from '../../src-sim/presets';
import { mshr, timingResult, TYPES } from '../unit/renderer-timing-fixtures';
import { useLabServer, waitForRuns, type LabServerHandle } from './lab-server';

const SIM_TIMEOUT = 120_000;
let lab: LabServerHandle;

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1400, height: 900 } });

useLabServer({ poolSize: 1 }, (started) => {
  lab = started;
});

async function openLab(page: Page, route?: string): Promise<void> {
  await page.goto(lab.pageUrl);
  await expect(page.getByTestId('version')).toContainText('browser mode');
  if (route) {
    await page.evaluate((hash) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
    }, `#${route}`);
    await expect(page).toHaveURL((url) => url.hash.startsWith(`#${route.split('?')[0]}`));
  }
}

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  const dir = join(test.info().project.outputDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(1200);
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

test('runs a small LASH stencil from the builder; the run shows the stall breakdown and the MSHR timeline with its window', async ({ page }) => {
  const catalog = await lab.api.experiments.list();
  expect(catalog.map((e) => e.id)).toContain('lash-stencil');
  await openLab(page);
  await page.getByTestId('experiment-lash-stencil').click();
  await expect(page.getByRole('heading', { level: 2, name: /LASH: 1D stencil/ })).toBeVisible();
  const picker = page.getByTestId('preset-picker');
  await picker.getByRole('button', { name: 'None', exact: true }).click();
  await picker.getByTestId('preset-fermi480').getByRole('checkbox').check();
  // Small: 64K elements, one launch, an epoch every 100 cycles (well under a second of simulation).
  const field = (name: string) => page.getByTestId(`param-${name}`).getByRole('textbox');
  await field('n').fill('65536');
  await field('iterations').fill('1');
  await field('epochCycles').fill('100');
  await page.getByLabel('Title (optional)').fill('e2e stencil');
  await page.getByTestId('run').click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Queued 1 run' })).toBeVisible();
  const list = await lab.api.runs.list({ text: 'e2e stencil' });
  expect(list.total).toBe(1);
  const [done] = await waitForRuns(lab.api, [list.items[0]!.id], SIM_TIMEOUT);
  expect(done!.status, done!.error ?? '').toBe('done');

  await openLab(page, `/runs/${done!.id}`);
  await expect(page.getByTestId('run-status')).toHaveText('done');
  // Bars on the data types: time, requests, DRAM use, latency, miss rate, and the stall breakdown.
  const bars = page.locator('[data-testid="lab-chart"][data-categorical="true"]');
  await expect(bars).toHaveCount(7);
  const stalls = page.locator('[data-testid="lab-chart"][data-categorical="true"]:has([aria-label="LSU stall cycles vs type"])');
  await expect(stalls).toHaveCount(1);
  await expect(stalls.locator('canvas').first()).toBeVisible();
  // The MSHR and merger occupancy over time: two timelines (int, short, char each), with their windows.
  const timelines = page.getByTestId('run-timeline');
  await expect(timelines).toHaveCount(2);
  const timeline = timelines.first();
  await expect(timeline.locator('[aria-label="MSHR occupancy vs time"]')).toBeVisible();
  await expect(timeline.locator('[data-testid="timeline-stats"] tbody tr')).toHaveCount(3);
  const from = timeline.getByTestId('timeline-from');
  const to = timeline.getByTestId('timeline-to');
  const end = Number(await to.inputValue());
  expect(end).toBeGreaterThan(1000);
  await shot(page, 'timing-run');
  // The first quarter of the run, typed and applied with Enter; then the next quarter.
  const quarter = Math.round(end / 4);
  await from.fill('0');
  await to.fill(String(quarter));
  await to.press('Enter');
  await expect(timeline.getByTestId('timeline-message')).toHaveText(`${quarter.toLocaleString('en-US')} cycles shown of ${end.toLocaleString('en-US')} cycles`);
  await timeline.getByTestId('timeline-later').click();
  await expect(from).toHaveValue(String(quarter));
  await expect(to).toHaveValue(String(2 * quarter));
  await timeline.scrollIntoViewIfNeeded();
  await shot(page, 'timing-run-window', false);
});

test("LASH Fig 7's sweep and SL1 Fig 7's comparison from the builder, each opened with its bars and findings", async ({ page }) => {
  const field = (name: string) => page.getByTestId(`param-${name}`).getByRole('textbox');
  const pick = async (presetId: string) => {
    const picker = page.getByTestId('preset-picker');
    await picker.getByRole('button', { name: 'None', exact: true }).click();
    await picker.getByTestId(`preset-${presetId}`).getByRole('checkbox').check();
  };
  const runIt = async (title: string) => {
    await page.getByLabel('Title (optional)').fill(title);
    await page.getByTestId('run').click();
    // The newest notice: the previous run's may still be showing.
    await expect(page.getByTestId('notice').filter({ hasText: 'Queued 1 run' }).last()).toBeVisible();
    const list = await lab.api.runs.list({ text: title });
    expect(list.total).toBe(1);
    const [done] = await waitForRuns(lab.api, [list.items[0]!.id], SIM_TIMEOUT);
    expect(done!.status, done!.error ?? '').toBe('done');
    return done!.id;
  };

  // LASH Fig 7: the nine machines (baseline, MSHR+/-, Mergers+/-, Sets+/-, Ways+/-) on a small stencil.
  await openLab(page);
  await page.getByTestId('experiment-lash-sensitivity').click();
  await pick('fermi480');
  await field('n').fill('16384');
  await field('iterations').fill('1');
  const sweep = await runIt('e2e fig7 sweep');
  await openLab(page, `/runs/${sweep}`);
  await expect(page.getByTestId('run-status')).toHaveText('done');
  // Bars on the nine machines: time relative to each type's baseline, and to int's.
  const sweepBars = page.locator('[data-testid="lab-chart"][data-categorical="true"]');
  await expect(sweepBars).toHaveCount(2);
  await expect(sweepBars.first().locator('canvas').first()).toBeVisible();
  for (const key of ['sens.int.maxChange', 'sens.mergersPlus.gapWidening', 'sens.mergersMinus.shortSlowdown', 'sens.mergersMinus.charBeatsShort'])
    await expect(page.getByTestId(`finding-${key}`)).toBeVisible();
  await shot(page, 'timing-fig7-sweep');

  // SL1 Fig 7: wc with no L1, the hardware L1 and S-L1, at two launch shapes, short windows.
  await openLab(page);
  await page.getByTestId('experiment-sl1-apps').click();
  await pick('titan');
  await page.getByTestId('param-apps').getByRole('combobox').selectOption('wc');
  await field('threadsPerSM').fill('128, 256');
  await field('windowAccesses').fill('16');
  await page.getByTestId('param-overhead').getByRole('checkbox').uncheck();
  await page.getByTestId('param-lineSizes').getByRole('checkbox').uncheck();
  const apps = await runIt('e2e sl1 fig7');
  await openLab(page, `/runs/${apps}`);
  await expect(page.getByTestId('run-status')).toHaveText('done');
  const fig7 = page.locator('[data-testid="lab-chart"][data-categorical="true"]:has([aria-label*="Fig 7"])');
  await expect(fig7).toHaveCount(1);
  await expect(fig7.locator('canvas').first()).toBeVisible();
  const speedup = page.getByTestId('finding-sl1.speedupOverNoL1.mean').getByTestId('finding-value');
  await expect(speedup).toHaveText(/\d/);
  // S-L1 beats no L1 on wc (SL1 4.2: wc is one of the two "multiple times faster").
  expect(Number((await speedup.textContent())!.replace(/[^\d.]/g, ''))).toBeGreaterThan(1);
  await expect(page.getByTestId('finding-hw.slowerThanNoL1')).toBeVisible();
  await shot(page, 'timing-sl1-fig7');
});

test('Compare overlays two GPUs\' stall breakdowns: one stacked bar per GPU at each data type', async ({ page }) => {
  const ids = ['fermi480', 'titan'].map(() => randomUUID());
  const runs: RunDetail[] = ['fermi480', 'titan'].map((presetId, i) => {
    const preset = findPreset(presetId)!;
    const t = Date.UTC(2026, 10, 2, 9, i);
    return {
      id: ids[i]!,
      experiment: 'lash-stencil',
      title: `e2e stalls ${presetId}`,
      presetId,
      presetName: preset.name,
      seed: 1,
      simVersion: 'e2e',
      status: 'done',
      error: null,
      createdAt: t,
      startedAt: t,
      finishedAt: t + 1000,
      durationMs: 1000,
      tags: [],
      notes: '',
      preset,
      params: {},
      result: timingResult(20_000, 1 + 0.4 * i),
    };
  });
  const report = await lab.api.bundles.import({ bytes: new Uint8Array(encodeBundle(runs, 'e2e', Date.now())) });
  expect(report.imported).toEqual(ids);

  await openLab(page, `/compare?runs=${ids.join(',')}`);
  await expect(page.getByTestId('compare-run')).toHaveCount(2);
  const charts = page.getByTestId('compare-chart');
  await expect(charts).toHaveCount(3);
  const stalls = charts.filter({ hasText: 'Stall breakdown' });
  await expect(stalls).toHaveAttribute('data-series', '8');
  await expect(stalls.locator('svg').first()).toBeVisible();
  // Category labels and the legend "preset · reason" are drawn (SVG text).
  for (const t of TYPES) await expect(stalls.locator('svg text', { hasText: new RegExp(`^${t}$`) })).toHaveCount(1);
  await expect(stalls.locator('svg text', { hasText: 'nomerger' }).first()).toBeVisible();
  await stalls.scrollIntoViewIfNeeded();
  await shot(page, 'timing-compare');

  // One of them alone: bars, stacked bars, and the occupancy timeline with its window of cycles.
  await openLab(page, `/runs/${ids[0]}`);
  await expect(page.getByTestId('run-title')).toHaveText('e2e stalls fermi480');
  await expect(page.locator('[data-testid="lab-chart"][data-categorical="true"]')).toHaveCount(2);
  const timeline = page.getByTestId('run-timeline');
  await expect(timeline).toHaveCount(1);
  const last = (20_000 - 1) * 100;
  await expect(timeline.getByTestId('timeline-to')).toHaveValue(String(last));
  await shot(page, 'timing-run-stored');
  await timeline.getByTestId('timeline-from').fill('300000');
  await timeline.getByTestId('timeline-to').fill('400000');
  await timeline.getByTestId('timeline-to').press('Enter');
  await expect(timeline.getByTestId('timeline-message')).toHaveText(`100,000 cycles shown of ${last.toLocaleString('en-US')} cycles`);
  await timeline.getByTestId('timeline-later').click();
  await expect(timeline.getByTestId('timeline-from')).toHaveValue('400000');
  await expect(timeline.getByTestId('timeline-to')).toHaveValue('500000');
  // Epochs 4000..5000 of the fixture: the mean MSHR occupancy in the window, as the table says.
  let sum = 0;
  for (let i = 4000; i <= 5000; i++) sum += mshr(i);
  const mean = timeline.locator('[data-series="MSHR entries in use"] [data-testid="timeline-mean"]');
  await expect(mean).toHaveText(/^[\d.,]+ entries$/);
  expect(Number((await mean.textContent())!.replace(/[, ]|entries/g, ''))).toBeCloseTo(sum / 1001, 2);
  await timeline.scrollIntoViewIfNeeded();
  await shot(page, 'timing-run-stored-window', false);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'timing-run-stored-dark', false);
});

test("a preset's timing block: units, provenance and derived values; a clone's edit updates them live and saves", async ({ page }) => {
  await openLab(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Presets', exact: true }).click();
  await page.getByTestId('preset-item-fermi480').click();
  const params = page.getByTestId('preset-params');
  await expect(params).toBeVisible();
  const mergers = params.locator('[data-testid="param-row"][data-path="timing.l1.mshrMergers"]');
  await expect(mergers).toContainText('8 fields');
  await expect(mergers.getByTestId('param-provenance')).toContainText('LASH');
  await expect(params.locator('[data-testid="param-derived"][data-group="timing.l1"]').filter({ hasText: 'MLP bound' })).toContainText('256 requests');
  await page.getByTestId('param-filter').fill('timing.l');
  await shot(page, 'timing-preset-view');

  await page.getByTestId('preset-clone').click();
  const editor = page.getByTestId('preset-editor');
  const l1 = editor.getByTestId('section-timing:l1');
  await expect(l1).toBeVisible();
  await expect(editor.getByTestId('derived-timing:l1')).toContainText('MLP bound 256 requests');
  await editor.getByTestId('field-name').getByRole('textbox').fill('GTX 480 fewer mergers');
  await l1.getByTestId('field-timing.l1.mshrMergers').getByRole('textbox').fill('4');
  await expect(editor.getByTestId('derived-timing:l1')).toContainText('MLP bound 128 requests');
  await expect(page.getByTestId('preset-diff').locator('[data-path="timing.l1.mshrMergers"]')).toContainText('4');
  await l1.scrollIntoViewIfNeeded();
  await shot(page, 'timing-preset-editor', false);
  await editor.getByTestId('preset-save').click();
  await expect(editor).toBeHidden();
  await expect(page.getByTestId('preset-params').locator('[data-path="timing.l1.mshrMergers"]')).toContainText('4 fields');
});
