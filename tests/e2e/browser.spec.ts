/**
 * The workbench end to end in the browser mode (Debian Chromium), from a fresh database: the lab
 * server (`src-main/web/main.ts`) runs as a child process on a temporary database for this file
 * (./lab-server.ts) and serves the BUILT renderer: `npm run build` first.
 *
 * Each test builds what it needs (through the UI where that is what it tests, through the API
 * otherwise), so a test can run alone (`-g`) and one failure does not cascade. Screenshots of every
 * view land in test-results/screenshots/ (light, and a few in dark).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LabApi } from '../../src-main/contract';
import { useLabServer, waitForRuns, type LabServerHandle } from './lab-server';

/** Simulations run in worker processes on a shared machine: give them room. */
const SIM_TIMEOUT = 120_000;

type Params = Record<string, string | number | boolean | number[]>;

let lab: LabServerHandle;

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });

useLabServer({}, (started) => {
  lab = started;
});

// ---- helpers -------------------------------------------------------------------------------------

/** Opens the workbench with this launch's token, then (optionally) a route such as `/runs/<id>`. */
async function openLab(page: Page, route?: string): Promise<void> {
  await page.goto(lab.pageUrl);
  // The app takes the token out of the address bar and lands on the builder.
  await expect(page.getByTestId('version')).toContainText('browser mode');
  await expect(page.getByRole('heading', { level: 1, name: 'Experiments' })).toBeVisible();
  if (route) await goTo(page, route);
}

/** Routes the open workbench (hash history) to `route`, e.g. `/runs/<id>`. */
async function goTo(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#${route}`);
  await expect(page).toHaveURL((url) => url.hash.startsWith(`#${route.split('?')[0]}`));
}

/** Follows a sidebar link. */
async function nav(page: Page, name: 'Experiments' | 'Kernels' | 'Queue' | 'Runs' | 'Compare' | 'Presets' | 'Reports' | 'Scorecard'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

/** A screenshot for the human pass: test-results/screenshots/<name>.png, also attached to the report. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  const dir = join(test.info().project.outputDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  // Let charts finish their entry animation (and a theme switch's redraw).
  await page.waitForTimeout(1500);
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/** Starts runs through the API and waits until they are finished; returns their ids. */
async function runViaApi(api: LabApi, experiment: string, presets: string[], params: Params, title: string): Promise<string[]> {
  const ids: string[] = [];
  for (const preset of presets) ids.push((await api.runs.start({ experiment, preset, params, title: `${title} ${preset}` })).runId);
  const runs = await waitForRuns(api, ids, SIM_TIMEOUT);
  for (const r of runs) expect(r.status, `${r.title}: ${r.error ?? ''}`).toBe('done');
  return ids;
}

/** The builder's text field of a parameter. */
function param(page: Page, name: string): Locator {
  return page.getByTestId(`param-${name}`).getByRole('textbox');
}

/** Ticks exactly these GPUs in the builder's preset picker. */
async function chooseGpus(page: Page, ids: string[]): Promise<void> {
  const picker = page.getByTestId('preset-picker');
  await picker.getByRole('button', { name: 'None', exact: true }).click();
  for (const id of ids) await picker.getByTestId(`preset-${id}`).getByRole('checkbox').check();
  await expect(picker.getByRole('checkbox', { checked: true })).toHaveCount(ids.length);
}

/** Clicks, waits for the browser's download and reads it (a copy is kept in test-results/exports/). */
async function readDownload(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), click()]);
  const path = await download.path();
  expect(path, `download failed: ${await download.failure()}`).toBeTruthy();
  const name = download.suggestedFilename();
  const dir = join(test.info().project.outputDir, 'exports');
  mkdirSync(dir, { recursive: true });
  await download.saveAs(join(dir, name));
  return { name, bytes: readFileSync(path!) };
}

// ---- the tests -------------------------------------------------------------------------------------

test('builds an experiment on Fermi and Kepler and watches it progress in the queue', async ({ page }) => {
  const before = (await lab.api.runs.list()).total;
  await openLab(page);
  await page.getByTestId('experiment-pchase-average').click();
  await expect(page.getByRole('heading', { level: 2, name: 'P-chase: average latency vs array size' })).toBeVisible();
  await chooseGpus(page, ['fermi', 'kepler']);
  // A sweep long enough (a few seconds per GPU) to be watched while it runs.
  await param(page, 'strides').fill('128B');
  await param(page, 'sizeFrom').fill('256KB');
  await param(page, 'sizeTo').fill('4MB');
  await param(page, 'sizeStep').fill('32KB');
  await param(page, 'traversals').fill('8');
  await page.getByLabel('Title (optional)').fill('e2e sweep');
  await expect(page.getByTestId('param-sizeTo').getByTestId('parsed')).toContainText('4,194,304 B');
  await expect(page.getByTestId('estimate')).toContainText('on 2 GPUs');
  const run = page.getByTestId('run');
  await expect(run).toHaveText('Run on 2 GPUs');
  await run.click();

  const started = page.getByTestId('started');
  await expect(started.getByTestId('started-fermi')).toBeVisible();
  await expect(started.getByTestId('started-kepler')).toBeVisible();
  await expect(page.getByTestId('notice').filter({ hasText: 'Queued 2 runs' })).toBeVisible();

  await started.getByRole('link', { name: /Watch them in the queue/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Queue' })).toBeVisible();
  const table = page.getByTestId('queue-table');
  await expect(table.locator('tr.queue-item')).toHaveCount(2);
  await expect(table.getByRole('cell', { name: 'Fermi', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Kepler', exact: true })).toBeVisible();
  // A progress bar moves: some run reports a percentage between its start and its end.
  await expect(table.getByRole('progressbar').and(page.locator('[aria-valuenow]')).first()).toBeVisible({ timeout: SIM_TIMEOUT });
  await expect(page.getByTestId('queue-summary')).toContainText(/[12] running/);
  await expect(table.getByTestId('queue-count-text').first()).toHaveText(/\d+ \/ \d+|starting|waiting/);
  await shot(page, '02-queue-running', false);

  // Then the finished state: the queue empties and the runs library has both, done.
  await expect(page.getByTestId('queue-empty')).toBeVisible({ timeout: SIM_TIMEOUT });
  await expect(page.getByTestId('queue-count')).toHaveCount(0);
  const page1 = await lab.api.runs.list({ text: 'e2e sweep' });
  expect(page1.total).toBe(2);
  expect(page1.items.map((r) => r.status)).toEqual(['done', 'done']);
  expect((await lab.api.runs.list()).total).toBe(before + 2);

  await nav(page, 'Runs');
  for (const r of page1.items) {
    const row = page.getByTestId(`run-row-${r.id}`);
    await expect(row).toContainText('e2e sweep');
    await expect(row).toContainText('done');
  }
});

test('opens a run and shows its chart, findings and metadata', async ({ page }) => {
  // Titan's L1 is LRU: the curve's reader decides its levels, so each level's true value shows beside it.
  const [id] = await runViaApi(lab.api, 'pchase-average', ['titan'], {}, 'e2e chart');
  await openLab(page);
  await nav(page, 'Runs');
  await page.getByTestId('runs-search').fill('e2e chart');
  await page.getByTestId(`open-${id}`).click();

  await expect(page.getByTestId('run-title')).toHaveText('e2e chart titan');
  await expect(page.getByTestId('run-status')).toHaveText('done');
  await expect(page.getByTestId('run-preset')).toContainText('Titan');
  const chart = page.getByTestId('lab-chart').first();
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas, svg').first()).toBeVisible();
  expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(0);

  const findings = page.getByTestId('findings-table');
  await expect(findings).toBeVisible();
  await expect(findings.locator('tbody tr').first()).toBeVisible();
  // The analyser recovers the L1 (16 KB) and its hit latency from the measured curve ...
  const preset = (await lab.api.presets.get({ id: 'titan' })).preset;
  // Small arrays stay in the first page: an L1 TLB hit.
  const hit = preset.spaces.global.latency[`${preset.spaces.global.levels[0]!.name}/l1`]!;
  await expect(page.getByTestId('finding-s = 64 B.level1.sizeBytes').getByTestId('finding-value')).toContainText('16');
  await expect(page.getByTestId('finding-s = 64 B.plateau1.latency').getByTestId('finding-value')).toContainText(String(hit));
  // ... and beside them, the preset's true values read from the run's snapshot.
  await expect(page.getByTestId('finding-s = 64 B.level1.sizeBytes').getByTestId('finding-truth')).toHaveText('16 KB');
  await expect(page.getByTestId('finding-s = 64 B.plateau1.latency').getByTestId('finding-truth')).toHaveText(`${hit} cycles`);
  await expect(page.getByTestId('meta-seed')).toHaveText('1');
  await shot(page, '04-run-view');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, '04-run-view-dark', false);
});

test("a run of a reproduction row shows the paper's values beside its findings", async ({ page }) => {
  const [id] = await runViaApi(lab.api, 'global-latency-patterns', ['fermi'], { space: 'global' }, 'e2e paper');
  await openLab(page, `/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('done');
  // MEI Table 3 (Fermi, L1 enabled): pattern 1 is 116 cycles in the paper.
  const row = page.getByTestId('finding-pattern1.latency');
  await expect(row.getByTestId('finding-paper')).toContainText('116 cycles');
  await expect(row.getByTestId('finding-paper')).toContainText('MEI Table 3');
  await expect(row.getByTestId('finding-paper')).toHaveAttribute('title', /MEI Table 3 \(Fermi, L1 enabled, pattern 1\)/);
  await expect(row.getByTestId('finding-dev-paper')).toHaveText(/%$/);
  await expect(row.getByTestId('finding-verdict')).toContainText('vs paper');
  await expect(page.getByTestId('findings-paper-rows')).toContainText('MEI-T3');
  // The L1-disabled values of the same table sit beside no finding of this run.
  await expect(page.getByTestId('findings-unmatched')).toContainText('5 more values');
  await shot(page, '04b-run-view-paper');
});

test('steps the cache view of a fine-grained P-chase', async ({ page }) => {
  const [id] = await runViaApi(lab.api, 'pchase-fine', ['fermi'], {}, 'e2e fine');
  await openLab(page, `/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('done');
  await expect(page.getByTestId('trace-chart')).toBeVisible();
  await page.getByTestId('open-cache').click();

  await expect(page.getByTestId('cache-title')).toContainText('Cache view');
  const grid = page.getByTestId('cache-grid');
  await expect(grid).toBeVisible();
  await expect(page.getByTestId('cache-shape')).toContainText('sets');
  const pos = page.getByTestId('cache-pos');
  await expect(pos).toHaveText('1');
  await expect(grid.locator('td.cell.current')).toHaveCount(1);

  // Keyboard stepping: → three times, ← once.
  await page.getByTestId('cache-title').click();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(pos).toHaveText('4');
  await page.keyboard.press('ArrowLeft');
  await expect(pos).toHaveText('3');
  // The button steps too.
  await page.getByTestId('step-forward').click();
  await expect(pos).toHaveText('4');

  const current = grid.locator('td.cell.current');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveClass(/\b(hit|miss)\b/);
  await expect(page.getByTestId('cache-outcome')).toHaveText(/^(hit|miss)$/);
  const COUNTS = /So far: (\d+) hits?, (\d+) miss(?:es)?/;
  await expect(page.getByTestId('cache-counts')).toHaveText(COUNTS);
  const counts = COUNTS.exec(await page.getByTestId('cache-counts').innerText())!;
  expect(Number(counts[1]) + Number(counts[2])).toBe(4);
  await expect(page.getByTestId('split-set')).toHaveText(/^\d+$/);
  await shot(page, '05-cache-view');

  // Jump far in: the trace is 2048 accesses long, and a cold 16 KB + 128 B chase misses somewhere.
  await page.getByTestId('jump-input').fill('300');
  await page.getByTestId('jump-go').click();
  await expect(pos).toHaveText('300');
  await expect(grid.locator('td.cell.current')).toHaveCount(1);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, '05-cache-view-dark', false);
});

test('the cache view of a warm P-chase starts from the state its warm-up pass left', async ({ page }) => {
  // MEI-T5's global L1 hit chase: 64 lines, all resident after the untimed traversal.
  const [id] = await runViaApi(lab.api, 'pchase-fine', ['fermi'], { space: 'global', size: 8192, stride: 128, iterations: 1024, warmup: true }, 'e2e warm');
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|unsafe-eval/i.test(m.text())) csp.push(m.text());
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, `/runs/${id}/cache`);
  const grid = page.getByTestId('cache-grid');
  await expect(grid).toBeVisible();
  await expect(page.getByTestId('cache-warm')).toContainText('includes the warm-up pass');
  await expect(page.getByTestId('cache-warm')).toContainText('64 warm-up accesses');
  // Access 1 hits line 0 where the warm-up left it; nothing disagrees, to the end.
  await expect(page.getByTestId('cache-pos')).toHaveText('1');
  await expect(page.getByTestId('cache-outcome')).toHaveText('hit');
  await expect(grid.locator('td.cell.current')).toHaveClass(/\bhit\b/);
  await expect(grid.locator('td.cell[data-line="0"]')).toHaveCount(1);
  await shot(page, '05-cache-view-warm', false);
  await page.getByTestId('cache-title').click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('cache-pos')).toHaveText('1,024');
  await expect(page.getByTestId('cache-counts')).toHaveText('So far: 1,024 hits, 0 misses');
  await expect(page.getByTestId('cache-disagree')).toHaveCount(0);
  await page.keyboard.press('Home');
  await expect(page.getByTestId('cache-access')).toContainText('the state the warm-up pass left');
  await expect(grid.locator('td.cell:not([data-line="-1"])')).toHaveCount(64);
  expect(csp).toEqual([]);
});

test('compares two runs: overlaid series, findings side by side, saved', async ({ page }) => {
  const params = { strides: '128B', sizeFrom: '4KB', sizeTo: '96KB', sizeStep: '2KB' };
  const [a, b] = await runViaApi(lab.api, 'pchase-average', ['fermi', 'kepler'], params, 'e2e compare');
  await openLab(page);
  await nav(page, 'Runs');
  await page.getByTestId('runs-search').fill('e2e compare');
  await expect(page.getByTestId(`run-row-${a}`)).toBeVisible();
  await page.getByTestId(`select-${a}`).check();
  await page.getByTestId(`select-${b}`).check();
  await page.getByTestId('compare-selected').click();

  await expect(page.getByRole('heading', { level: 1, name: 'Compare' })).toBeVisible();
  await expect(page.getByTestId('compare-run')).toHaveCount(2);
  const chart = page.getByTestId('compare-chart').first();
  await expect(chart).toHaveAttribute('data-series', '2');
  // The SVG chart's legend: one entry per GPU ("preset · series").
  await expect(chart.locator('svg text', { hasText: /^Fermi · / }).first()).toBeVisible();
  await expect(chart.locator('svg text', { hasText: /^Kepler · / }).first()).toBeVisible();

  const findings = page.getByTestId('compare-findings');
  await expect(findings).toBeVisible();
  await expect(findings.locator('thead th')).toContainText(['Finding', 'Fermi', 'Kepler']);
  await expect(findings.getByTestId('finding-diff').first()).toBeVisible();
  await expect(findings.locator('tbody tr').first()).toBeVisible();

  // Save it.
  await page.getByTestId('save-comparison').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('comparison-name-input').fill('e2e Fermi vs Kepler');
  await dialog.getByTestId('confirm-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('comparison-name')).toContainText('e2e Fermi vs Kepler');
  await expect(page.getByTestId('saved-comparison').filter({ hasText: 'e2e Fermi vs Kepler' })).toBeVisible();
  await shot(page, '06-compare');
});

test('clones a preset, edits a latency, finds it in the builder and runs on it', async ({ page }) => {
  await openLab(page);
  await nav(page, 'Presets');
  await page.getByTestId('preset-item-fermi').click();
  await expect(page.getByTestId('preset-detail')).toContainText('Fermi');
  await expect(page.getByTestId('preset-params')).toBeVisible();
  await shot(page, '07-presets');
  await page.getByTestId('preset-clone').click();

  const editor = page.getByTestId('preset-editor');
  await expect(editor).toBeVisible();
  const name = editor.getByTestId('field-name').getByRole('textbox');
  await name.fill('Fermi e2e');
  const latency = editor.getByTestId('field-spaces.global.latency.L1/l1').getByRole('textbox');
  await expect(latency).toHaveValue('116');
  await latency.fill('150');
  // The diff against the base shows the change live, with the provenance it will be saved with.
  const diff = page.getByTestId('preset-diff');
  await expect(diff.locator('[data-path="spaces.global.latency.L1/l1"]')).toContainText('150');
  await shot(page, '07-preset-editor', false);
  await editor.getByTestId('preset-save').click();

  await expect(editor).toBeHidden();
  await expect(page.getByTestId('notice').filter({ hasText: 'Fermi e2e' })).toBeVisible();
  const item = page.getByTestId('preset-list').getByRole('button', { name: /Fermi e2e/ });
  await expect(item).toBeVisible();
  const id = new URL(page.url()).hash.match(/id=([^&]+)/)?.[1];
  expect(id).toBeTruthy();
  await expect(page.getByTestId('preset-params').locator('[data-path="spaces.global.latency.L1/l1"]')).toContainText('150');

  // The builder offers it; a fine-grained chase on it measures the edited L1 latency.
  await nav(page, 'Experiments');
  await page.getByTestId('experiment-pchase-fine').click();
  const option = page.getByTestId(`preset-${id}`);
  await expect(option).toContainText('Fermi e2e');
  await chooseGpus(page, [id!]);
  await page.getByTestId('run').click();
  await page.getByTestId(`started-${id}`).click();
  await expect(page.getByTestId('run-status')).toHaveText('done', { timeout: SIM_TIMEOUT });
  await expect(page.getByTestId('run-preset')).toContainText('Fermi e2e');
  await expect(page.getByTestId('finding-trace.level1.latency').getByTestId('finding-value')).toContainText('150');
});

test('exports a CSV and a PDF of chosen runs', async ({ page }) => {
  await runViaApi(lab.api, 'shared-bank-stride', ['fermi', 'kepler'], { strideTo: 16 }, 'e2e export');
  await openLab(page);
  await nav(page, 'Reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await page.getByTestId('run-search').fill('e2e export');
  await page.getByTestId('run-search').press('Enter');
  await page.getByRole('checkbox', { name: 'Choose e2e export fermi on Fermi' }).check();
  await page.getByRole('checkbox', { name: 'Choose e2e export kepler on Kepler' }).check();
  await expect(page.getByTestId('picked-run')).toHaveCount(2);
  await expect(page.getByTestId('report-count')).toHaveText('2 runs');

  const csv = await readDownload(page, () => page.getByTestId('report-csv').click());
  expect(csv.name).toMatch(/\.csv$/);
  const text = csv.bytes.toString('utf8');
  expect(text.startsWith('# gpulab'), text.slice(0, 80)).toBe(true);
  expect(text).toContain('Fermi');
  expect(text).toContain('Kepler');
  await expect(page.getByTestId('report-saved')).toContainText(csv.name);

  await page.getByTestId('report-title').fill('e2e report');
  const pdf = await readDownload(page, () => page.getByTestId('report-pdf').click());
  expect(pdf.name).toMatch(/\.pdf$/);
  expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.bytes.length).toBeGreaterThan(2000);
  await expect(page.getByTestId('report-saved')).toContainText(pdf.name);
  // The full report (every chart and the evidence) is longer than the handout.
  await page.getByTestId('report-evidence').check();
  const full = await readDownload(page, () => page.getByTestId('report-pdf').click());
  expect(full.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(full.bytes.length).toBeGreaterThan(pdf.bytes.length);
  await shot(page, '08-reports');
});

test("the scorecard reproduces the latency tier's papers row by row: every MEI and WONG row passes", async ({ page }) => {
  // MEI's and WONG's rows take seconds; LASH's and SL1's (the timing tier) minutes, so CI runs those
  // with `reproduce` and this spec checks the paper selection instead of running them.
  test.setTimeout(4 * 60_000);
  await openLab(page);
  await nav(page, 'Scorecard');
  await expect(page.getByRole('heading', { level: 1, name: 'Reproduction scorecard' })).toBeVisible();
  await expect(page.getByTestId('score-preset')).toHaveValue('');
  await expect(page.getByTestId('score-paper')).toHaveValue('');
  await expect(page.getByTestId('score-paper').locator('option')).toHaveText(['Every paper', /^MEI /, /^WONG /, /^LASH /, /^SL1 /]);
  let total = 0;
  for (const paper of ['MEI', 'WONG']) {
    await page.getByTestId('score-paper').selectOption(paper);
    await page.getByTestId('score-run-all').click();
    await expect(page.getByTestId('score-run-all')).toHaveText('Run all', { timeout: 3 * 60_000 });
    await expect(page.getByTestId('score-summary')).toBeVisible();
    const rows = page.getByTestId('score-row');
    const ids = await rows.evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-row') ?? '', pass: e.getAttribute('data-pass') === 'true' })));
    expect(ids.length).toBeGreaterThan(5);
    expect(ids.every((r) => r.id.startsWith(`${paper}-`))).toBe(true);
    // The summary counts what the rows show, and every row of these finished issues passes.
    expect(ids.filter((r) => !r.pass)).toEqual([]);
    await expect(page.getByTestId('score-passed')).toHaveText(`${ids.length} passed`);
    await expect(page.getByTestId('score-failed')).toHaveText('0 failed');
    // The headline counts predicted checks; the method checks (recovered: both papers' structure rows) stand
    // beside it, apart from the consistency ones.
    await expect(page.getByTestId('score-predicted')).toContainText(/Predicted checks: (\d+) of \1 passed/);
    await expect(page.getByTestId('score-predicted')).not.toContainText('recovered');
    await expect(page.getByTestId('score-recovered')).toContainText(/Method checks \(recovered\): ([1-9]\d*) of \1 passed/);
    await expect(page.getByTestId('score-consistency')).toContainText(/calibrated \d+ of \d+/);
    total += ids.length;
  }
  expect(total).toBeGreaterThan(30);
  // A row's checks unfold with each one's kind.
  await page.getByTestId('score-row').first().getByRole('button', { name: /Show the checks of/ }).click();
  await expect(page.getByTestId('score-kind').first()).toContainText(/predicted|recovered|calibrated|specification/);
  await shot(page, '09-scorecard');
});

test('a bad parameter shows its message beside the field and queues nothing', async ({ page }) => {
  const before = (await lab.api.runs.list()).total;
  await openLab(page);
  await page.getByTestId('experiment-pchase-average').click();
  await chooseGpus(page, ['fermi', 'kepler']);

  // Checked in the form: a size that is not a size.
  await param(page, 'sizeFrom').fill('lots');
  const fromField = page.getByTestId('param-sizeFrom');
  await expect(fromField.getByTestId('param-error')).toContainText('must be a size');
  await expect(param(page, 'sizeFrom')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('run')).toBeDisabled();

  // Checked by the lab (the API refuses it): a sweep that ends before it starts.
  await param(page, 'sizeFrom').fill('64KB');
  await param(page, 'sizeTo').fill('8KB');
  await expect(page.getByTestId('run')).toBeEnabled();
  await page.getByTestId('run').click();
  const toField = page.getByTestId('param-sizeTo');
  await expect(toField.getByTestId('param-error')).toHaveText(/must not be smaller than "sizeFrom"/);
  await expect(param(page, 'sizeTo')).toHaveAttribute('aria-invalid', 'true');
  await expect(param(page, 'sizeTo')).toBeFocused();
  await expect(page.getByTestId('started')).toContainText('Not started');
  await shot(page, '03-builder-error', false);

  // Nothing was queued.
  expect((await lab.api.runs.list()).total).toBe(before);
  await expect(page.getByTestId('queue-count')).toHaveCount(0);

  // A run that does not exist: the lab's refusal in words.
  await goTo(page, '/runs/no-such-run');
  await expect(page.getByTestId('run-missing').or(page.getByTestId('run-error'))).toContainText(/run/);
});

test('keyboard: Enter runs the builder, Escape closes a dialog', async ({ page }) => {
  await openLab(page);
  await page.getByTestId('experiment-shared-bank-stride').click();
  await chooseGpus(page, ['kepler']);
  const strideTo = param(page, 'strideTo');
  await strideTo.fill('8');
  await page.getByLabel('Title (optional)').fill('e2e keyboard');
  await strideTo.focus();
  await page.keyboard.press('Enter');
  const link = page.getByTestId('started-kepler');
  await expect(link).toBeVisible();
  await expect(page.getByTestId('started')).toContainText('done', { timeout: SIM_TIMEOUT });
  const runs = await lab.api.runs.list({ text: 'e2e keyboard' });
  expect(runs.total).toBe(1);

  // Escape closes the delete confirmation in the runs library (and deletes nothing).
  await nav(page, 'Runs');
  const id = runs.items[0]!.id;
  await page.getByTestId(`select-${id}`).check();
  await page.getByTestId('delete-selected').click();
  const dialog = page.getByTestId('delete-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('delete-cancel')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId(`run-row-${id}`)).toBeVisible();
  expect((await lab.api.runs.list({ text: 'e2e keyboard' })).total).toBe(1);

  // And the edit dialog: Escape leaves the title as it was.
  await page.getByTestId(`edit-${id}`).click();
  const edit = page.getByTestId('edit-dialog');
  await expect(edit).toBeVisible();
  await page.getByTestId('edit-title').fill('changed and abandoned');
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  await expect(page.getByTestId(`run-row-${id}`)).toContainText('e2e keyboard');
});

test('a reload finds everything persisted', async ({ page }) => {
  const [id] = await runViaApi(lab.api, 'shared-bank-stride', ['fermi'], { strideTo: 8 }, 'e2e persisted');
  await openLab(page);
  await nav(page, 'Runs');
  await page.getByTestId('runs-search').fill('e2e persisted');
  await page.getByTestId(`edit-${id}`).click();
  await page.getByTestId('edit-tags').fill('lab-3, e2e');
  await page.getByTestId('edit-notes').fill('Notes written in the browser.');
  await page.getByTestId('edit-save').click();
  await expect(page.getByTestId('edit-dialog')).toBeHidden();
  await expect(page.getByTestId(`run-row-${id}`)).toContainText('lab-3');

  await page.reload();
  // The token survives the reload (the tab keeps it), and so does everything saved.
  await expect(page.getByTestId('version')).toContainText('browser mode');
  await nav(page, 'Runs');
  const total = (await lab.api.runs.list()).total;
  await expect(page.getByTestId('runs-total')).toHaveText(`${total} run${total === 1 ? '' : 's'}`);
  await page.getByTestId('runs-search').fill('e2e persisted');
  const row = page.getByTestId(`run-row-${id}`);
  await expect(row).toContainText('lab-3');
  await page.getByTestId(`open-${id}`).click();
  await expect(page.getByTestId('run-status')).toHaveText('done');
  await expect(page.getByText('Notes written in the browser.')).toBeVisible();

  const customs = (await lab.api.presets.list()).filter((p) => !p.builtin);
  const comparisons = await lab.api.comparisons.list();
  await nav(page, 'Presets');
  for (const p of customs) await expect(page.getByTestId(`preset-item-${p.id}`)).toBeVisible();
  await nav(page, 'Compare');
  await expect(page.getByTestId('saved-comparison')).toHaveCount(comparisons.length);
});

test('screenshots of every view', async ({ page }) => {
  // Data for the views that need some, if the tests above did not run.
  if ((await lab.api.runs.list({ experiment: 'pchase-fine' })).total === 0) await runViaApi(lab.api, 'pchase-fine', ['fermi'], {}, 'e2e tour');
  if ((await lab.api.runs.list({ experiment: 'pchase-average' })).total === 0) await runViaApi(lab.api, 'pchase-average', ['fermi', 'kepler'], {}, 'e2e tour');

  await openLab(page);
  // The viewport only: the builder's sticky Run bar would float mid-page in a full-page capture.
  await shot(page, '01-experiments', false);
  await page.getByTestId('tab-gallery').click();
  await expect(page.getByTestId('gallery')).toBeVisible();
  await shot(page, '01-experiments-gallery');

  await nav(page, 'Queue');
  await expect(page.getByTestId('queue-empty').or(page.getByTestId('queue-table'))).toBeVisible();
  await shot(page, '02-queue');

  await nav(page, 'Runs');
  await expect(page.getByTestId('runs-table')).toBeVisible();
  await shot(page, '03-runs');

  const fine = (await lab.api.runs.list({ experiment: 'pchase-fine', status: ['done'] })).items[0]!;
  await page.getByTestId(`open-${fine.id}`).click();
  await expect(page.getByTestId('trace-chart')).toBeVisible();
  await shot(page, '04-run-view-fine');
  await page.getByTestId('open-cache').click();
  await expect(page.getByTestId('cache-grid')).toBeVisible();
  await page.getByTestId('cache-title').click();
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
  await shot(page, '05-cache-view-stepped', false);

  const avg = (await lab.api.runs.list({ experiment: 'pchase-average', status: ['done'], limit: 2 })).items;
  await nav(page, 'Compare');
  await expect(page.getByRole('heading', { level: 1, name: 'Compare' })).toBeVisible();
  await shot(page, '06-compare-empty');
  if (avg.length === 2) {
    await goTo(page, `/compare?runs=${avg.map((r) => r.id).join(',')}`);
    await expect(page.getByTestId('compare-chart').first()).toBeVisible();
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '06-compare-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  }

  await nav(page, 'Presets');
  await expect(page.getByTestId('preset-params')).toBeVisible();
  await shot(page, '07-presets-list', false);

  await nav(page, 'Reports');
  await expect(page.getByTestId('run-picker')).toBeVisible();
  await shot(page, '08-reports-empty', false);

  await nav(page, 'Scorecard');
  await shot(page, '09-scorecard-start', false);
});

test('a second tab of the same address works; a tab without the token gets one clear page, not a toast per call', async ({ browser }) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await openLab(first);
  // A new tab of the address without the token (as a copied URL is): the token kept for this address serves it.
  const second = await context.newPage();
  await second.goto(new URL(lab.pageUrl).origin + '/');
  await expect(second.getByTestId('version')).toContainText('browser mode');
  await expect(second.getByTestId('notice')).toHaveCount(0);
  await context.close();
  // A browser that never had the token: one page that says how to open the workbench.
  const fresh = await browser.newContext();
  const page = await fresh.newPage();
  await page.goto(new URL(lab.pageUrl).origin + '/');
  await expect(page.getByTestId('access-denied')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Open the workbench from its address' })).toBeVisible();
  await expect(page.getByTestId('access-denied')).toContainText('npm run web');
  await expect(page.getByTestId('notice')).toHaveCount(0);
  await shot(page, 'access-denied');
  await fresh.close();
});

test('every view fits a 1024 x 700 laptop screen without a horizontal page scroll', async ({ page }) => {
  if ((await lab.api.runs.list({ experiment: 'pchase-fine' })).total === 0) await runViaApi(lab.api, 'pchase-fine', ['fermi'], {}, 'e2e tour');
  if ((await lab.api.runs.list({ experiment: 'pchase-average' })).total < 2) await runViaApi(lab.api, 'pchase-average', ['fermi', 'kepler'], {}, 'e2e tour');
  await page.setViewportSize({ width: 1024, height: 700 });
  await openLab(page);
  /** The page's own width against the window's: a wider page scrolls sideways. */
  const fits = async (what: string): Promise<void> => {
    await page.waitForTimeout(1500);
    // Plain JavaScript run in the page (this file is type-checked without the DOM's types).
    const { scroll, client, wide } = (await page.evaluate(`(() => {
      const d = document.documentElement;
      const past = (e) => e.getBoundingClientRect().right > d.clientWidth + 1;
      // Past the window and not clipped by a scrolling or hidden ancestor that fits.
      const unclipped = (e) => {
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible' && !past(a)) return false;
        return true;
      };
      const pos = (e) => ['absolute', 'fixed'].includes(getComputedStyle(e).position);
      const name = (e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.');
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => past(e) && (unclipped(e) || pos(e)) && ![...e.children].some((c) => past(c) && (unclipped(c) || pos(c))))
        .slice(0, 4)
        .map((e) => name(e) + ' "' + (e.textContent || '').trim().slice(0, 40) + '"');
      if (d.scrollWidth > d.clientWidth && !wide.length) {
        // Text wider than its box (a long word that does not wrap) widens the page without any element reaching past it.
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n && wide.length < 8; n = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(n);
          if (range.getBoundingClientRect().right > d.clientWidth + 1) wide.push('text in ' + name(n.parentElement) + ': "' + (n.textContent || '').trim().slice(0, 50) + '"');
        }
      }
      return { scroll: d.scrollWidth, client: d.clientWidth, wide };
    })()`)) as { scroll: number; client: number; wide: string[] };
    expect.soft(scroll, `${what}: the page is ${scroll} px wide in a ${client} px window (${wide.join('; ')})`).toBeLessThanOrEqual(client);
    await shot(page, `1024-${what}`, false);
  };
  await fits('experiments');
  await page.getByTestId('tab-gallery').click();
  await fits('experiments-gallery');
  await nav(page, 'Queue');
  await fits('queue');
  await nav(page, 'Runs');
  await expect(page.getByTestId('runs-table')).toBeVisible();
  await fits('runs');
  const fine = (await lab.api.runs.list({ experiment: 'pchase-fine', status: ['done'] })).items[0]!;
  await goTo(page, `/runs/${fine.id}`);
  await expect(page.getByTestId('trace-chart')).toBeVisible();
  await fits('run-view');
  await goTo(page, `/runs/${fine.id}/cache`);
  await expect(page.getByTestId('cache-grid')).toBeVisible();
  await fits('cache-view');
  const avg = (await lab.api.runs.list({ experiment: 'pchase-average', status: ['done'], limit: 2 })).items;
  await goTo(page, `/compare?runs=${avg.map((r) => r.id).join(',')}`);
  await expect(page.getByTestId('compare-chart').first()).toBeVisible();
  await fits('compare');
  await nav(page, 'Presets');
  await expect(page.getByTestId('preset-params')).toBeVisible();
  await fits('presets');
  await nav(page, 'Reports');
  await fits('reports');
  await nav(page, 'Kernels');
  await fits('kernels');
  await nav(page, 'Scorecard');
  await page.getByTestId('score-paper').selectOption('MEI');
  await page.getByTestId('score-run-all').click();
  await expect(page.getByTestId('score-table')).toBeVisible({ timeout: SIM_TIMEOUT });
  await fits('scorecard');
});

test('a long run title shows whole in the Runs table, and the findings keep their verdict in the window, at 1024 x 700 and 1440 x 900', async ({ page }) => {
  const title = 'pchase-average, MEI Fig 8, lab 1, group B'; // 46 characters with the preset the run adds
  const [id] = await runViaApi(lab.api, 'pchase-average', ['fermi'], {}, title);
  for (const [width, height] of [[1024, 700], [1440, 900]] as const) {
    await page.setViewportSize({ width, height });
    await openLab(page, '/runs');
    const link = page.getByTestId(`open-${id}`);
    await expect(link).toBeVisible();
    // Plain JavaScript run in the page (this file is type-checked without the DOM's types).
    const box = (await page.evaluate(`(() => {
      const e = document.querySelector('[data-testid="open-${id}"]');
      return { sh: e.scrollHeight, ch: e.clientHeight, sw: e.scrollWidth, cw: e.clientWidth };
    })()`)) as { sh: number; ch: number; sw: number; cw: number };
    await shot(page, `runs-title-${width}`, false);
    expect(box.sh > box.ch + 1 || box.sw > box.cw + 1, `the title "${title} fermi" is cut at ${width} px (${JSON.stringify(box)})`).toBe(false);
    await goTo(page, `/runs/${id}`);
    const table = page.getByTestId('findings-table');
    await expect(table).toBeVisible();
    const fit = (await page.evaluate(`(() => {
      const t = document.querySelector('[data-testid="findings-table"]');
      const box = t.parentElement;
      const verdicts = [...t.querySelectorAll('[data-testid="finding-verdict"]')].map((e) => e.getBoundingClientRect().right);
      return { scroll: box.scrollWidth, client: box.clientWidth, right: Math.max(...verdicts), window: document.documentElement.clientWidth };
    })()`)) as { scroll: number; client: number; right: number; window: number };
    expect(fit.scroll, `the findings table is ${fit.scroll} px wide in ${fit.client} px at ${width} px`).toBeLessThanOrEqual(fit.client + 1);
    expect(fit.right, `the verdict column ends at ${fit.right} px in a ${fit.window} px window`).toBeLessThanOrEqual(fit.window);
    await table.scrollIntoViewIfNeeded();
    await shot(page, `findings-${width}`, false);
  }
});

test('the theme switch in the sidebar turns the workbench dark and light, whatever the system says', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openLab(page);
  const bg = () => page.evaluate(() => (globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string }; document: { documentElement: unknown } }).getComputedStyle((globalThis as unknown as { document: { documentElement: unknown } }).document.documentElement).backgroundColor);
  const light = await bg();
  await page.getByTestId('theme').selectOption('dark');
  await expect.poll(bg).not.toBe(light);
  await shot(page, 'theme-dark', false);
  // Kept for the next visit.
  await page.reload();
  await expect(page.getByTestId('theme')).toHaveValue('dark');
  await expect.poll(bg).not.toBe(light);
  await page.getByTestId('theme').selectOption('system');
  await expect.poll(bg).toBe(light);
});

test('the sidebar stays in view on a long page: its theme control is in the window at the top and at the foot, at 1024 x 700', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openLab(page, '/real-gpu');
  await expect(page.getByTestId('real-gpu-view')).toBeVisible();
  const inView = async () => {
    const box = await page.getByTestId('theme').boundingBox();
    return box !== null && box.y >= 0 && box.y + box.height <= 700;
  };
  // The page is longer than the window (the program's form), so the window scrolls.
  expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight)).toBeGreaterThan(1000);
  expect(await inView()).toBe(true);
  await page.mouse.wheel(0, 5000);
  await expect.poll(() => page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).toBeGreaterThan(300);
  expect(await inView()).toBe(true);
  await shot(page, 'sidebar-sticky-1024', false);
});
