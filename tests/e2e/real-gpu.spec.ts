/**
 * The Real GPU page in the browser mode, end to end: an H100 output imported through the page's
 * file input opens as a stored run marked real (its device, no preset or paper beside the findings),
 * appears in the run library, lines up beside a simulated run of the same parameters in compare,
 * and makes a preset; the program of an experiment downloads as a .cu file. Screenshots of the
 * page (light and dark, at 1024 x 700) and of the real run land in test-results/screenshots/.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { useLabServer, waitForRuns, type LabServerHandle } from './lab-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(ROOT, 'tests/fixtures/real/h100/banks-64.jsonl');
/** `gpulab gpu characterise --out` on an H200: every probe's output, 2.1 MB of JSON once gunzipped. */
const CHARACTERISATION = join(ROOT, 'tests/fixtures/real/h200/characterise/run1.json.gz');

let lab: LabServerHandle;
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1024, height: 700 }, acceptDownloads: true });
useLabServer({ poolSize: 1 }, (started) => {
  lab = started;
});

async function openRealGpu(page: Page): Promise<void> {
  await page.goto(lab.pageUrl);
  await expect(page.getByTestId('version')).toContainText('browser mode');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Real GPU', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Real GPU' })).toBeVisible();
}

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  const dir = join(test.info().project.outputDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(1000);
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

test('imports an H100 output through the page and sees the stored run, marked real', async ({ page }) => {
  await openRealGpu(page);
  // Without nvcc and a GPU on this machine the page says so in one line and offers no Run button.
  await expect(page.getByTestId('real-status')).toBeVisible();
  const status = await lab.api.gpu.status();
  if (!status.canRun) await expect(page.getByTestId('real-run')).toHaveCount(0);

  await page.getByTestId('real-file').setInputFiles(FIXTURE);
  await expect(page).toHaveURL(/#\/runs\/[0-9a-f-]{36}/, { timeout: 30_000 });
  await expect(page.getByTestId('real-badge')).toHaveText('real');
  await expect(page.getByTestId('run-preset')).toContainText('NVIDIA H100');
  await expect(page.getByTestId('real-note')).toBeVisible();
  await expect(page.getByTestId('run-facts')).toContainText('228 KB per SM');
  await expect(page.getByTestId('rerun')).toHaveCount(0);
  await shot(page, 'real-run', true);
  const runId = /#\/runs\/([0-9a-f-]{36})/.exec(page.url())![1]!;

  // The library lists it under the device's name, marked real.
  const list = await lab.api.runs.list({});
  expect(list.items.find((r) => r.id === runId)).toMatchObject({ real: true, presetName: expect.stringMatching(/H100.*\(real\)/) });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs', exact: true }).click();
  await expect(page.getByRole('row', { name: /H100.*\(real\)/ }).first()).toBeVisible();

  // Compare: beside a simulated run of the same experiment and parameters.
  const real = await lab.api.runs.get({ id: runId });
  const { runId: simId } = await lab.api.runs.start({ experiment: 'shared-bank-stride', preset: 'fermi', params: { strideFrom: real.params.strideFrom as number, strideTo: real.params.strideTo as number } });
  const [sim] = await waitForRuns(lab.api, [simId], 120_000);
  expect(sim!.status).toBe('done');
  await page.goto(`${lab.origin}/#/runs/${runId}`);
  await page.getByTestId('compare-simulated').click();
  await expect(page).toHaveURL(new RegExp(`#/compare\\?runs=${runId}(,|%2C)${simId}`));
  await expect(page.getByText(/H100.*\(real\)/).first()).toBeVisible();
  await shot(page, 'real-compare', true);

  // Make a preset from this GPU.
  await page.goto(`${lab.origin}/#/runs/${runId}`);
  await page.getByTestId('make-preset').click();
  await page.getByTestId('preset-name').fill('H100 shared memory');
  await page.getByTestId('preset-name').press('Enter');
  await expect(page).toHaveURL(/#\/presets\?id=h100-shared-memory/);
  const made = (await lab.api.presets.get({ id: 'h100-shared-memory' })).preset;
  expect(made.provenance['shared.latency.perConflict']).toContain(`run ${runId}`);
});

test('a malformed output is refused on the page with the line it names; the program downloads', async ({ page }) => {
  await openRealGpu(page);
  const cut = readFileSync(FIXTURE, 'utf8').split('\n').slice(0, 3).join('\n');
  await page.getByTestId('real-file').setInputFiles({ name: 'cut.jsonl', mimeType: 'text/plain', buffer: Buffer.from(cut) });
  await expect(page.getByTestId('real-import-error')).toContainText('cut.jsonl');
  await expect(page.getByTestId('real-import-error')).toContainText('end line');
  await page.getByTestId('real-experiment').selectOption('pchase-fine');
  await expect(page.getByTestId('real-build-line')).toHaveText('nvcc -O2 -arch=native -o pchase-fine pchase-fine.cu');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('real-download').click()]);
  expect(download.suggestedFilename()).toBe('pchase-fine.cu');
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text).toContain('__global__');
});

test('a file whose device line lacks fields is refused in words, naming the line; the database is left as it was', async ({ page }) => {
  await openRealGpu(page);
  const before = (await lab.api.runs.list({})).total;
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  const incomplete = ['{"type":"device","name":"NVIDIA H100 80GB HBM3","computeCapability":"9.0"}', ...lines.slice(1)].join('\n');
  await page.getByTestId('real-file').setInputFiles({ name: 'incomplete.jsonl', mimeType: 'text/plain', buffer: Buffer.from(incomplete) });
  const error = page.getByTestId('real-import-error');
  await expect(error).toContainText('incomplete.jsonl: line 1: the device line is incomplete: it lacks "sms"');
  await expect(error).not.toContainText('damaged');
  await expect(error).not.toContainText('gpu.import');
  expect((await lab.api.runs.list({})).total).toBe(before);
  expect((await lab.api.app.checkDatabase()).ok).toBe(true);
});

test('screenshots of the Real GPU page, light and dark, fit 1024 x 700 without a horizontal scroll', async ({ page }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openRealGpu(page);
    await expect(page.getByTestId('real-build-line')).toBeVisible();
    const overflow = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return d.scrollWidth - d.clientWidth;
    });
    await shot(page, `real-gpu-${scheme}`);
    expect(overflow).toBeLessThanOrEqual(0);
  }
});

test('imports an H200 characterisation file through the page: its summary shows, and its link opens the saved comparison of its runs', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'gpulab-e2e-characterisation-'));
  try {
    const text = gunzipSync(readFileSync(CHARACTERISATION)).toString('utf8');
    const file = join(dir, 'characterisation.json');
    writeFileSync(file, text);
    const probes = (JSON.parse(text) as { summary: { probes: { name: string; experiment: string; ok: boolean }[] } }).summary.probes.filter((p) => p.ok);
    expect(probes.length).toBeGreaterThan(10);
    const before = (await lab.api.runs.list({})).total;

    await openRealGpu(page);
    await page.getByTestId('real-file').setInputFiles(file);
    // The import replays the analysers over every probe's output: seconds.
    const summary = page.getByTestId('real-characterisation-summary');
    await expect(summary).toContainText('Characterisation of NVIDIA H200', { timeout: 120_000 });
    await expect(summary).toContainText('L1 TLB entries');
    await expect(page.getByTestId('real-import-error')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Real GPU' })).toBeVisible();
    const name = page.getByTestId('real-characterisation').locator('strong');
    await expect(name).toHaveText(/^Characterisation of NVIDIA H200 \(real\), \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    await shot(page, 'real-characterisation', true);

    // Stored: a real run per probe that ran, grouped in a saved comparison whose notes are the summary shown.
    const href = await page.getByTestId('real-characterisation-open').getAttribute('href');
    const id = /[?&]comparison=([0-9a-f-]{36})$/.exec(href ?? '')?.[1];
    expect(id, `the link ${href}`).toBeTruthy();
    const saved = await lab.api.comparisons.get({ id: id! });
    expect(saved.name).toBe(await name.textContent());
    expect(await summary.textContent()).toBe(saved.notes);
    expect(saved.runIds).toHaveLength(probes.length);
    expect((await lab.api.runs.list({})).total).toBe(before + probes.length);
    const runs = await Promise.all(saved.runIds.map((r) => lab.api.runs.get({ id: r })));
    expect(runs.map((r) => r.experiment)).toEqual(probes.map((p) => p.experiment));
    for (const r of runs) expect(r).toMatchObject({ real: true, status: 'done', presetName: 'NVIDIA H200 (real)', tags: expect.arrayContaining(['characterisation']) });

    // The link opens Compare on the saved comparison: its probes' experiments, each with its count of runs.
    await page.getByTestId('real-characterisation-open').click();
    await expect(page).toHaveURL(new RegExp(`#/compare\\?comparison=${id}$`));
    await expect(page.getByTestId('comparison-name')).toContainText('Characterisation of NVIDIA H200 (real)');
    const mixed = page.getByTestId('compare-mixed');
    await expect(mixed).toBeVisible({ timeout: 30_000 });
    const counts = new Map<string, number>();
    for (const p of probes) counts.set(p.experiment, (counts.get(p.experiment) ?? 0) + 1);
    for (const n of counts.values()) await expect(mixed).toContainText(`(${n} run${n === 1 ? '' : 's'})`);
    await shot(page, 'real-characterisation-compare', true);
    // One experiment's runs side by side: the six L1 TLB probes, each a column of the H200 (real).
    const tlb = counts.get('tlb-probes')!;
    await mixed.getByRole('button', { name: new RegExp(`^Compare the ${tlb} .* runs$`) }).filter({ hasText: /TLB/i }).click();
    await expect(page.getByTestId('compare-run')).toHaveCount(tlb);
    await expect(page.getByTestId('compare-run').first()).toContainText('NVIDIA H200 (real)');
    const tlbIds = runs.filter((r) => r.experiment === 'tlb-probes').map((r) => r.id);
    await expect(page).toHaveURL(new RegExp(`#/compare\\?runs=${tlbIds.join('(,|%2C)')}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
