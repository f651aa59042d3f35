import { describe, expect, it } from 'vitest';
import { planOp, PORT_SFU, PORT_SP, runChains } from '../../src-sim/core/issue';
import type { CoreConfig, CoreOp } from '../../src-sim/core/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';

const tesla = findPreset('tesla') as Preset;
const core = tesla.core as CoreConfig;
const op = (id: string): CoreOp => core.ops.find((o) => o.id === id) as CoreOp;

/** Throughput (ops/clk) and mean per-warp latency of `warps` warps of chains of `chain`. */
function measure(c: CoreConfig, o: CoreOp, warps: number, chain = 256): { tput: number; lat: number; lats: number[] } {
  const r = runChains(c, o, { warps, chain });
  const lats = Array.from({ length: warps }, (_, k) => (r.end[k] - r.start[k]) / chain);
  return { tput: (warps * c.scheduler.warpSize * chain) / r.cycles, lat: lats.reduce((a, b) => a + b, 0) / warps, lats };
}

describe('issue model: one SM, dependent chains (WONG IV-B)', () => {
  it('a lone warp sees each operation\'s latency, multi-instruction operations as that many dependent steps', () => {
    for (const id of ['int.add', 'int.mul', 'int.mad', '__log2f', 'double.add', 'double.div', 'sqrt']) {
      const o = op(id);
      const a = runChains(core, o, { warps: 1, chain: 32 });
      const b = runChains(core, o, { warps: 1, chain: 64 });
      expect((b.cycles - a.cycles) / 32, id).toBeCloseTo(o.latency, 6);
      const issues = a.portIssues.reduce((x, y) => x + y, 0);
      expect(issues, id).toBe(32 * planOp(core, o).steps);
    }
    expect(planOp(core, op('int.mul')).steps).toBe(4);
    expect(planOp(core, op('int.mad')).steps).toBe(5);
    expect(planOp(core, op('uint.div')).steps).toBe(1);
  });

  it('many warps reach each unit\'s rate: 32 / occupancy per warp instruction', () => {
    expect(measure(core, op('double.add'), 16, 64).tput).toBeGreaterThan(0.99);
    expect(measure(core, op('double.add'), 16, 64).tput).toBeLessThanOrEqual(1 + 1e-9);
    expect(measure(core, op('__log2f'), 16, 64).tput).toBeCloseTo(2, 1);
    expect(measure(core, op('int.add'), 16, 64).tput).toBeLessThanOrEqual(8);
  });

  it('Fig 6: 24 cycles up to five warps, six and seven short of full, saturation from eight', () => {
    const add = op('int.add');
    const rows = Array.from({ length: 12 }, (_, i) => measure(core, add, i + 1));
    for (let w = 1; w <= 5; w++) {
      expect(rows[w - 1].lat).toBeCloseTo(24, 1);
      expect(rows[w - 1].tput / w).toBeCloseTo(32 / 24, 2); // linear
    }
    const sat = rows[11].tput;
    expect(sat).toBeGreaterThan(7.8);
    expect(rows[5].tput).toBeLessThan(0.95 * sat);
    expect(rows[6].tput).toBeLessThan(0.97 * sat);
    expect(rows[7].tput).toBeGreaterThan(0.99 * sat);
    // Fair scheduler: every warp sees the same latency.
    for (const r of rows) expect(Math.max(...r.lats) - Math.min(...r.lats)).toBeLessThan(0.5);
  });

  it('without the busy write-back delay six warps fill the pipeline: the delay is what Fig 6 shows', () => {
    const plain: CoreConfig = { ...core, scheduler: { ...core.scheduler, busyWritebackDelay: 0 } };
    const add = op('int.add');
    expect(measure(plain, add, 6).tput).toBeGreaterThan(0.99 * measure(plain, add, 12).tput);
    expect(measure(core, add, 6).tput).toBeLessThan(0.9 * measure(core, add, 12).tput);
  });

  it('float mul goes to the SP and the SFUs; as an SP-only operation it could not pass the SP', () => {
    const mul = op('float.mul');
    const r = runChains(core, mul, { warps: 16, chain: 64 });
    expect(r.portIssues[PORT_SP]).toBeGreaterThan(0);
    expect(r.portIssues[PORT_SFU]).toBeGreaterThan(0);
    expect(measure(core, mul, 16, 64).tput).toBeGreaterThan(core.units.sp.throughput);
    const spOnly: CoreOp = { ...mul, unit: 'sp', throughput: 100 };
    const s = runChains(core, spOnly, { warps: 16, chain: 64 });
    expect(s.portIssues[PORT_SFU]).toBe(0);
  });

  it('a slower scheduler caps the rate: one warp instruction every issueCycles', () => {
    const slow: CoreConfig = { ...core, scheduler: { ...core.scheduler, issueCycles: 8 } };
    expect(measure(slow, op('int.add'), 16, 64).tput).toBeLessThanOrEqual(32 / 8 + 1e-9);
  });

  it('is deterministic', () => {
    const a = runChains(core, op('float.mul'), { warps: 7, chain: 100 });
    const b = runChains(core, op('float.mul'), { warps: 7, chain: 100 });
    expect(Array.from(a.end)).toEqual(Array.from(b.end));
  });
});
