import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPERIMENTS } from '../../src-sim/experiments';
import type { ExperimentResult } from '../../src-sim/experiments/types';
import { ExperimentError } from '../../src-sim/experiments/types';
import { PRESETS } from '../../src-sim/presets';

/** A byte-exact serialisation: typed arrays as their raw bytes (hex), everything else as JSON. */
function bytes(r: ExperimentResult): string {
  return JSON.stringify(r, (_k, v: unknown) => {
    if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
    return v;
  });
}

/** Small-but-real parameters for experiments whose defaults sweep widely. */
const QUICK: Record<string, Record<string, unknown>> = {
  'pchase-average': { sizeFrom: '8KB', sizeTo: '24KB', sizeStep: '2KB', strides: '128', jitter: 2 },
  'pchase-fine': { iterations: 3000, jitter: 2 },
  'shared-bank-stride': { jitter: 2 },
  'global-latency-patterns': { jitter: 2, rounds: 2 },
  'tlb-probes': { sizeTo: '48MB', jitter: 2 },
  'cache-structure': { maxSize: '64KB', jitter: 2 },
  'lash-stencil': { n: 8192, iterations: 2 },
  'lash-apps': { stencilN: 4096, matmulN: 32, stereoWidth: 32 },
  'lash-sensitivity': { n: 4096, iterations: 1 },
  'lash-mlp': { maxLoads: 9 },
  'timing-sweep': { size: 4096, values: '4,8' },
  'sl1-throughput': { threads: '64,128', blockCurves: '1', maxBlocks: 2, iterations: 2 },
  'sl1-wc-l1': { threads: '32,64', chars: '64KB', maxChars: 128 },
  'sl1-apps': { apps: 'wc', threadsPerSM: '128,256', windowAccesses: 16, inputBytes: '1MB' },
  'launch-sweep': { apps: 'wc', threadsPerSM: '128,256', windowAccesses: 16, inputBytes: '1MB' },
};

/**
 * The timing tier's experiments (cycle-level, seconds each) run in `npm run test:repro`
 * (tests/repro/determinism-timing.test.ts sets GPULAB_DETERMINISM=all); `npm test` runs the rest.
 */
const TIMING_TIER = new Set(['lash-stencil', 'lash-apps', 'lash-sensitivity', 'lash-mlp', 'timing-sweep', 'sl1-throughput', 'sl1-wc-l1', 'sl1-apps', 'launch-sweep']);
const ALL = process.env.GPULAB_DETERMINISM === 'all';

/**
 * Stored digests (SHA-256 of the byte-exact serialisation) of every experiment's run above on every
 * preset it applies to, seed 42: a change of any result shows here even when it is deterministic. A
 * change meant (a model or an analyser changed on purpose) is recorded with
 * `GPULAB_WRITE_DIGESTS=1 npx vitest run tests/unit/determinism.test.ts` (and, for the timing tier,
 * `GPULAB_WRITE_DIGESTS=1 npm run test:repro -- determinism-timing`), and the diff of the file shows
 * which runs moved.
 */
const DIGESTS_FILE = resolve(__dirname, '../fixtures/determinism-digests.json');
const WRITE = process.env.GPULAB_WRITE_DIGESTS === '1';
const stored: Record<string, string> = existsSync(DIGESTS_FILE) ? (JSON.parse(readFileSync(DIGESTS_FILE, 'utf8')) as Record<string, string>) : {};
const digest = (r: ExperimentResult): string => createHash('sha256').update(bytes(r)).digest('hex').slice(0, 32);

function record(found: Record<string, string>): void {
  const fresh = existsSync(DIGESTS_FILE) ? (JSON.parse(readFileSync(DIGESTS_FILE, 'utf8')) as Record<string, string>) : {};
  const merged = { ...fresh, ...found };
  const sorted = Object.fromEntries(Object.keys(merged).sort().map((k) => [k, merged[k]!]));
  writeFileSync(DIGESTS_FILE, `${JSON.stringify(sorted, null, 1)}\n`);
}

describe('determinism: same preset, parameters and seed give byte-identical results', () => {
  for (const e of EXPERIMENTS.filter((x) => ALL || !TIMING_TIER.has(x.id))) {
    it(e.id, () => {
      let ran = 0;
      let first: { preset: (typeof PRESETS)[number]; params: Record<string, unknown>; bytes: string } | undefined;
      const found: Record<string, string> = {};
      for (const preset of PRESETS) {
        const params = QUICK[e.id] ?? {};
        let a: ExperimentResult;
        try {
          a = e.run(preset, params, 42, () => {});
        } catch (err) {
          // Not every experiment applies to every preset (no constant space on Fermi): that must be a clear ExperimentError.
          expect(err).toBeInstanceOf(ExperimentError);
          continue;
        }
        // Twice in this process where the run is the first (every time with GPULAB_DETERMINISM=all):
        // the stored digests hold every result across processes; the repeat after the others shows
        // that a run leaves no state behind for the runs after it.
        if (ran === 0) first = { preset, params, bytes: bytes(a) };
        else if (ALL) expect(bytes(e.run(preset, params, 42, () => {}))).toBe(bytes(a));
        found[`${e.id}/${preset.id}`] = digest(a);
        ran++;
      }
      expect(ran).toBeGreaterThan(0);
      if (first) expect(bytes(e.run(first.preset, first.params, 42, () => {}))).toBe(first.bytes);
      if (WRITE) return record(found);
      // The same results as stored: a run that moved is named (record it if the change is meant).
      const moved = Object.keys(found).filter((k) => stored[k] !== found[k]);
      expect(moved, 'runs whose results differ from tests/fixtures/determinism-digests.json (GPULAB_WRITE_DIGESTS=1 records a change meant)').toEqual([]);
    });
  }
  it('a different seed changes a jittered result', () => {
    const e = EXPERIMENTS.find((x) => x.id === 'pchase-fine')!;
    const a = e.run(PRESETS[1], QUICK['pchase-fine'], 1, () => {});
    const b = e.run(PRESETS[1], QUICK['pchase-fine'], 2, () => {});
    expect(bytes(a)).not.toBe(bytes(b));
  });
});
