import { describe, expect, it } from 'vitest';
import { checkOne, decidingNumber, ruleOf, runRow } from '../../src-sim/reference/check';
import { PREDICTED } from '../../src-sim/reference/kinds';
import type { Reference } from '../../src-sim/reference/types';
import { selectRows } from '../../src-sim/reference';
import { findPreset } from '../../src-sim/presets';

const ref = (r: Partial<Reference>): Reference => ({ name: 'x', value: 1, unit: '', tolerance: 'exact', citation: 'test', ...r }) as Reference;

describe('each check states its rule and band at the precision that decides it', () => {
  it('numbers keep the digits that decide a check', () => {
    expect(decidingNumber(0.24)).toBe('0.24');
    expect(decidingNumber(0.179)).toBe('0.179');
    expect(decidingNumber(0.35)).toBe('0.35');
    expect(decidingNumber(87.4)).toBe('87.4');
    expect(decidingNumber(1209.43)).toBe('1209.4');
    expect(decidingNumber(116)).toBe('116');
  });

  it('names the rule of every tolerance with its band', () => {
    expect(ruleOf(ref({ value: 116, unit: 'cycles', tolerance: 'latency' }))).toBe("within 5 % of the paper's value: 110.2..121.8 cycles");
    expect(ruleOf(ref({ value: 0.17, tolerance: 'range', range: [0.1, 0.24] }))).toBe("inside the paper's range: 0.1..0.24");
    expect(ruleOf(ref({ value: 1.4, unit: 'x', tolerance: 'half' }))).toBe("within half of the paper's value either way: 0.7..2.1 x");
    expect(ruleOf(ref({ value: 1.4, unit: 'x', tolerance: 'half-gain' }))).toBe("a gain (or loss) within half of the paper's, measured from 1: 1.2..1.6 x");
    expect(ruleOf(ref({ value: 32, tolerance: 'exact' }))).toBe("exactly the paper's value");
    expect(ruleOf(ref({ value: 'LRU', tolerance: 'exact' }))).toBe("the paper's word");
  });

  it('a check carries its rule, and its target and value are not rounded past the band', () => {
    const c = checkOne(ref({ value: 0.17, tolerance: 'range', range: [0.1, 0.24] }), 0.179, PREDICTED);
    expect(c.target).toBe('0.1..0.24');
    expect(c.simulated).toBe('0.179');
    expect(c.rule).toBe("inside the paper's range: 0.1..0.24");
  });

  it("MEI Fig 8's shares and MEI Fig 9's miss rates show their bands as the rows hold them", () => {
    const fermi = findPreset('fermi')!;
    for (const id of ['MEI-F8', 'MEI-F9']) {
      const [row] = selectRows(id);
      const refs = row.references(fermi).filter((x) => x.tolerance === 'range' && x.range);
      expect(refs.length).toBeGreaterThan(0);
      const r = runRow(row, fermi, 1);
      for (const x of refs) {
        const c = r.checks.find((k) => k.name === x.name)!;
        // The band as the row holds it, not rounded to one decimal (0.1..0.24 was shown as 0.1..0.2).
        expect(c.target.replace(/ .*$/, '')).toBe(`${x.range![0]}..${x.range![1]}`);
        expect(c.rule).toContain(c.target);
      }
    }
  });
});
