import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src-main/contract';
import { validateRun } from '../../src-main/services/pool/validate';
import { findExperiment } from '../../src-sim/experiments';
import { resolveParams } from '../../src-sim/experiments/params';
import type { ExperimentResult, Finding, ParamSpec } from '../../src-sim/experiments/types';
import { ExperimentError } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import { reproduce } from '../../src-sim/reference';
import { runRow } from '../../src-sim/reference/check';
import { ROWS } from '../../src-sim/reference/rows-simt';
import { analyseDivergence } from '../../src-sim/simt/analysis';
import { SIMT_EXAMPLES } from '../../src-sim/simt/examples';

const tesla = findPreset('tesla') as Preset;
const exp = (id: string) => findExperiment(id)!;
const value = (r: ExperimentResult, key: string): Finding['value'] | undefined => r.findings.find((f) => f.key === key)?.value;

describe('ParamSpec kind text', () => {
  const specs: ParamSpec[] = [{ name: 'src', label: 'Source', unit: '', kind: 'text', default: 'x', maxLength: 10, description: 'kernel text' }];
  it('takes multi-line text up to maxLength and refuses more or a non-string', () => {
    expect(resolveParams(specs, { src: 'a\nb' }).src).toBe('a\nb');
    expect(resolveParams(specs, {}).src).toBe('x');
    expect(() => resolveParams(specs, { src: 'x'.repeat(11) })).toThrow('parameter "src" has 11 characters; at most 10');
    expect(() => resolveParams(specs, { src: 3 })).toThrow('parameter "src" must be text');
  });
});

describe('simt-kernel', () => {
  it('takes a multi-line kernel through the API contract and the run validation', () => {
    const source = SIMT_EXAMPLES.find((e) => e.id === 'listing3')!.source;
    expect(source.length).toBeGreaterThan(256);
    const args = parseArgs('runs.start', { experiment: 'simt-kernel', preset: 'tesla', params: { source, threads: 64 } });
    expect(args.params.source).toBe(source);
    const v = validateRun({ experiment: 'simt-kernel', preset: tesla, params: args.params, seed: 1 });
    expect(v.params.source).toBe(source);
    expect(() => parseArgs('runs.start', { experiment: 'simt-kernel', preset: 'tesla', params: { source: 'int x = 1;\u0007' } })).toThrow(/params.source/);
    expect(() => validateRun({ experiment: 'simt-kernel', preset: tesla, params: { source: 'x'.repeat(16_001) }, seed: 1 })).toThrow('parameter "source" has 16001 characters; at most 16000');
  });

  it('reports a parse error as an ExperimentError on "source" naming line:column', () => {
    let err: unknown;
    try {
      exp('simt-kernel').run(tesla, { source: '__shared__ int s[4];\ns[tid] = 1\n__syncthreads();' }, 1, () => {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExperimentError);
    expect((err as ExperimentError).param).toBe('source');
    expect((err as Error).message).toBe("parameter \"source\" at 2:11: expected ';' after the statement");
  });

  it('runs its default kernel: per-kind timeline series, events, barriers, warps and memory, and findings', () => {
    const r = exp('simt-kernel').run(tesla, {}, 1, () => {});
    expect(r.series.map((s) => s.name)).toEqual(['path-start', 'reconverge', 'barrier-wait', 'barrier-release', 'exit']);
    for (const s of r.series) {
      expect(s.style).toBe('scatter');
      expect(s.x.length).toBe(s.y.length);
    }
    expect(r.tables.map((t) => t.name)).toEqual(['Timeline events', 'Barrier releases', 'Warps at the end', 'Final memory']);
    expect(value(r, 'simt.status')).toBe('finished');
    expect(value(r, 'simt.deadlock')).toBe('no');
    expect(value(r, 'simt.stuck')).toBe('none');
    expect(value(r, 'simt.pathOrder')).toBe('1, 3, 5, ... 31 (16 threads) (9:3) > 0, 2, 4, ... 30 (16 threads) (7:3)');
    expect(value(r, 'simt.reconvergence')).toBe('11:1');
    expect(value(r, 'simt.barriers')).toBe('1');
    const out = r.tables[3].rows.filter((row) => row.array === 'out');
    expect(String(out[0].values).split(', ').slice(0, 2)).toEqual(['1063', '620']);
  });

  it('runs a ready example with its own launch, and a deadlock is a result, not an error', () => {
    const r = exp('simt-kernel').run(tesla, { example: 'listing6', blocks: 4, threads: 512 }, 1, () => {});
    expect(value(r, 'simt.deadlock')).toBe('yes');
    expect(value(r, 'simt.stuck')).toBe('warp 0 waits at [1] (5:3); warp 1 spins at 9:3');
    expect(r.tables.find((t) => t.name === 'Warps at the end')!.rows.length).toBe(2);
    expect(r.notes.join(' ')).toMatch(/listing6 .* 1 block\(s\) of 64 threads/);
  });

  it('stops an endless kernel at its step budget', () => {
    const r = exp('simt-kernel').run(tesla, { source: 'int i = 0;\nwhile (i >= 0) i = (i + 1) % 7;', steps: 2000 }, 1, () => {});
    expect(value(r, 'simt.status')).toBe('budget');
    expect(value(r, 'simt.instructions')).toBe(2000);
  });
});

describe('simt-divergence (WONG Figs 7, 8)', () => {
  it('finds paths serialised, warps overlapping and the taken path first from the clock() stamps', () => {
    const r = exp('simt-divergence').run(tesla, {}, 1, () => {});
    expect(value(r, 'divergence.serialised')).toBe('yes');
    expect(value(r, 'divergence.warpsOverlap')).toBe('yes');
    expect(value(r, 'divergence.increasing.first')).toBe(31);
    expect(value(r, 'divergence.increasing.last')).toBe(0);
    expect(value(r, 'divergence.decreasing.first')).toBe(0);
    expect(value(r, 'divergence.takenFirst')).toBe('yes');
    // The random order's first lane is its c[31], whatever the seed.
    for (const seed of [1, 2, 3]) {
      const f = exp('simt-divergence').run(tesla, {}, seed, () => {}).findings.find((x) => x.key === 'divergence.random.first')!;
      expect(String(f.value)).toBe(/c\[31\] = (\d+)/.exec(f.evidence)![1]);
    }
    expect(r.series.length).toBe(3 * 2 * 2);
  });

  it('with one warp there is nothing to overlap', () => {
    const r = exp('simt-divergence').run(tesla, { warps: 1, random: false }, 1, () => {});
    expect(value(r, 'divergence.warpsOverlap')).toBe('n/a (one warp)');
  });

  it("the analysis sees overlapping paths and an order that is not the chain's reverse", () => {
    const start = Array.from({ length: 32 }, (_, l) => l * 10);
    const stop = start.map((s) => s + 15); // each path overlaps the next
    const a = analyseDivergence(start, stop, 1, Array.from({ length: 32 }, (_, i) => i));
    expect(a.serialised).toBe(false);
    expect(a.first).toBe(0);
    expect(a.takenFirst).toBe(false);
  });
});

describe('simt-sync (WONG Listings 4-7)', () => {
  it('reports the deadlocks, the stale reads and the barrier pairs', () => {
    const r = exp('simt-sync').run(tesla, {}, 1, () => {});
    expect(value(r, 'sync.listing4.deadlock')).toBe('yes');
    expect(value(r, 'sync.listing5.deadlock')).toBe('no');
    expect(value(r, 'sync.listing5.staleReads')).toBe(16);
    expect(value(r, 'sync.listing6.deadlock')).toBe('yes');
    expect(value(r, 'sync.listing7.deadlock')).toBe('no');
    expect(value(r, 'sync.listing7.pairs')).toBe('2+3, 1+4');
    expect(r.findings.find((f) => f.key === 'sync.listing6.deadlock')!.evidence).toMatch(/warp 0 at __syncthreads\(\) \[1\] \(5:3\).*warp 1 in the loop at 9:3/);
  });
});

describe('WONG-F7/F8 and WONG-SYNC rows', () => {
  it('cite WONG for every reference and name the finding that measures it', () => {
    expect(ROWS.map((r) => r.id)).toEqual(['WONG-F7/F8', 'WONG-SYNC']);
    for (const row of ROWS)
      for (const ref of row.references(tesla)) {
        expect(ref.citation).toMatch(/^WONG IV-/);
        expect(ref.finding?.experiment).toMatch(/^simt-/);
      }
  });

  for (const seed of [1, 7]) {
    it(`pass on the Tesla preset (seed ${seed})`, () => {
      for (const row of ROWS) {
        const res = runRow(row, tesla, seed);
        expect(res.checks.filter((c) => !c.pass), `${row.id}: ${res.simulated}`).toEqual([]);
        expect(res.pass).toBe(true);
      }
    });
  }

  it('reproduce() selects them by id', () => {
    expect(reproduce('WONG-SYNC').map((r) => [r.id, r.pass])).toEqual([['WONG-SYNC', true]]);
    expect(reproduce('WONG-F7/F8').map((r) => [r.id, r.pass])).toEqual([['WONG-F7/F8', true]]);
  });

  it('are deterministic: the same seed gives byte-identical experiment results', () => {
    for (const id of ['simt-divergence', 'simt-sync', 'simt-kernel']) {
      const a = JSON.stringify(exp(id).run(tesla, {}, 5, () => {}), (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v));
      const b = JSON.stringify(exp(id).run(tesla, {}, 5, () => {}), (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v));
      expect(b).toBe(a);
    }
  });
});
