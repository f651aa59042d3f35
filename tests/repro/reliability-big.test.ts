/**
 * The store under big inputs: a decompression bomb refused while inflating, in bounded memory, and
 * bundles of four 2 M-access runs exported and imported one run at a time (peak memory measured in a
 * child process). Gigabytes and half a minute: `npm run test:repro`, which CI runs.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabError } from '../../src-main/contract';
import { tsxExecArgv } from '../../src-main/services/pool/node-launcher';
import { BUNDLE_FORMAT, BUNDLE_VERSION, MAX_EXPANDED_BYTES } from '../../src-main/services/store';
import { TempDb } from '../unit/store-fixtures';

let tmp: TempDb;
beforeEach(() => (tmp = new TempDb()));
afterEach(() => tmp.cleanup());

describe('decompression bombs', () => {
  it(`a bundle that expands past ${MAX_EXPANDED_BYTES / 2 ** 20} MB is refused while inflating, in bounded memory`, async () => {
    // A real header, then one endless line of zeros: 40 gzip members of 64 MB each (2.5 GB), 2.6 MB on disk.
    const header = gzipSync(`${JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, createdAt: new Date(0).toISOString(), app: 'x', runCount: 1 })}\n{"run":"`);
    const zeros = gzipSync(Buffer.alloc(64 * 2 ** 20, 0x41), { level: 9 });
    const bomb = Buffer.concat([header, ...Array.from({ length: 40 }, () => zeros)]);
    expect(bomb.byteLength).toBeLessThan(8 * 2 ** 20);
    const store = tmp.open();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    const err = await store.importBundle(bomb).then(
      () => null,
      (e: unknown) => e as LabError,
    );
    clearInterval(timer);
    expect(err).toBeInstanceOf(LabError);
    expect(err!.message).toMatch(/bundle expands past 2048 MB/);
    const grewMB = (peak - rss0) / 2 ** 20;
    console.log(`bomb: ${(bomb.byteLength / 2 ** 20).toFixed(1)} MB refused in ${((performance.now() - t0) / 1000).toFixed(1)} s; memory grew ${grewMB.toFixed(0)} MB`);
    expect(grewMB).toBeLessThan(256);
    expect(store.listRuns().total).toBe(0);
    store.close();
  }, 60_000);
});

describe('bundles of big runs', () => {
  it('four pchase-fine runs of 2 M accesses export and import, one run in memory at a time', () => {
    const script = fileURLToPath(new URL('../unit/fixtures/bundle-memory.ts', import.meta.url));
    const dir = tmp.file('big');
    spawnSync('mkdir', ['-p', dir]);
    const run = (mode: string) => {
      const r = spawnSync(process.execPath, [...tsxExecArgv(), script, mode, dir], { encoding: 'utf8', timeout: 170_000 });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as { peakMB: number; startMB: number; bundleMB: number; seconds: number };
    };
    const out = run('export');
    const back = run('import');
    console.log(`export: ${JSON.stringify(out)}\nimport: ${JSON.stringify(back)}`);
    expect(back).toMatchObject({ imported: 4, accesses: 2_000_000 });
    // The results themselves are ~130 MB a run; the peak stays within a few runs' worth, not the bundle's expansion.
    expect(out.peakMB).toBeLessThan(1_400);
    expect(back.peakMB).toBeLessThan(1_200);
  }, 180_000);
});
