import { describe, expect, it } from 'vitest';
import { cacheStructure } from '../../src-sim/experiments/cache-structure';
import { FOLLOW_UP_WORK, followUpParams, withFollowUps } from '../../src-sim/experiments/refine';
import { tlbProbes } from '../../src-sim/experiments/tlb-probes';
import type { Experiment, ExperimentResult, Finding, ParamSpec } from '../../src-sim/experiments/types';
import { ExperimentError } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';

const kepler = findPreset('kepler') as Preset;
const fermi = findPreset('fermi') as Preset;
const quiet = (): void => {};
const value = (r: ExperimentResult, key: string): Finding['value'] | undefined => r.findings.find((f) => f.key === key)?.value;

describe('follow-up runs (refine)', () => {
  it('a reach sweep that ends before the L2 TLB: the follow-up at twice sizeTo decides it, with both runs as evidence', () => {
    const once = tlbProbes.run(kepler, { probe: 'reach', sizeTo: '96MB', refine: false }, 1, quiet);
    expect(value(once, 'tlb.l2.entries')).toBe('cannot tell');
    expect(once.findings.find((f) => f.key === 'tlb.l2.entries')!.evidence).toMatch(/raise "sizeTo"/);
    expect(once.series.some((s) => s.name.endsWith('(follow-up)'))).toBe(false);

    const phases: string[] = [];
    const refined = tlbProbes.run(kepler, { probe: 'reach', sizeTo: '96MB' }, 1, (_d, _t, phase) => phases.push(phase));
    // Kepler's L2 TLB (MEI Figs 10, 11): 65 entries in sets of 17, 8, 8, 8, 8, 8, 8, LRU, read by the analysers.
    expect(value(refined, 'tlb.l2.entries')).toBe(65);
    expect(value(refined, 'tlb.l2.setSizes')).toBe('17,8,8,8,8,8,8');
    const ev = refined.findings.find((f) => f.key === 'tlb.l2.entries')!.evidence;
    expect(ev).toContain('from a follow-up run with sizeTo 96 MB → 192 MB');
    expect(ev).toContain('the first run could not tell: no second translation step up to N = 96 MB');
    // The first run's L1 answers stay the first run's.
    for (const k of ['tlb.l1.entries', 'tlb.l1.reachBytes']) expect(refined.findings.find((f) => f.key === k)).toEqual(once.findings.find((f) => f.key === k));
    expect(refined.series.filter((s) => s.name.endsWith('(follow-up)')).length).toBeGreaterThan(0);
    expect(refined.notes.at(-1)).toMatch(/^Follow-up run \(refine\) with sizeTo 96 MB → 192 MB, seed 2: decided tlb\.l2\.entries/);
    expect(phases.some((p) => p.startsWith('follow-up (sizeTo 96 MB → 192 MB): '))).toBe(true);
    // Deterministic with its seed.
    expect(JSON.stringify(tlbProbes.run(kepler, { probe: 'reach', sizeTo: '96MB' }, 1, quiet))).toBe(JSON.stringify(refined));
  });

  it('a run that decides everything makes no follow-up', () => {
    const a = tlbProbes.run(kepler, { probe: 'reach', sizeTo: '256MB' }, 3, quiet);
    const b = tlbProbes.run(kepler, { probe: 'reach', sizeTo: '256MB', refine: false }, 3, quiet);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('no follow-up past a parameter\'s maximum, and none over the work bound (said in the notes)', () => {
    const specs: ParamSpec[] = [{ name: 'sizeTo', label: '', unit: 'B', kind: 'bytes', default: 1024, min: 1, max: 4096, description: '' }];
    const open = (next: string): Finding => ({ key: 'x', label: 'x', value: 'cannot tell', unit: '', evidence: `why; to decide: ${next}` });
    expect(followUpParams([open('a wider sweep (raise "sizeTo")')], specs, { sizeTo: 1024 })).toEqual({ sizeTo: 2048 });
    expect(followUpParams([open('a wider sweep (raise "sizeTo")')], specs, { sizeTo: 3000 })).toEqual({ sizeTo: 4096 });
    expect(followUpParams([open('a wider sweep (raise "sizeTo")')], specs, { sizeTo: 4096 })).toEqual({});
    expect(followUpParams([{ ...open('raise "sizeTo"'), value: 12 }], specs, { sizeTo: 1024 })).toEqual({});
    expect(followUpParams([open('raise "unknown"')], specs, { sizeTo: 1024 })).toEqual({});

    // An experiment whose work grows eightfold with sizeTo: the follow-up is not made.
    let runs = 0;
    const steep: Experiment = withFollowUps({
      id: 'steep',
      title: '',
      description: '',
      reproduces: [],
      params: specs,
      estimate: (_p, raw) => (Number(raw.sizeTo ?? 1024) / 1024) ** 3 * 1000,
      run: () => {
        runs++;
        return { series: [], tables: [], findings: [open('raise "sizeTo"')], notes: [] };
      },
    });
    const r = steep.run(fermi, {}, 1, quiet);
    expect(runs).toBe(1);
    expect(r.notes.at(-1)).toMatch(new RegExp(`^Follow-up run not made: with sizeTo 1 KB → 2 KB it would do 8,000 accesses, more than ${FOLLOW_UP_WORK}x the first run's`));
    expect(value(r, 'x')).toBe('cannot tell');
  });

  it('a follow-up the experiment refuses leaves the first run, with the reason; any other failure fails the run', () => {
    expect(cacheStructure.params.map((x) => x.name)).toContain('refine');
    const make = (fail: (k: unknown) => void): Experiment =>
      withFollowUps({
        id: 'refusing',
        title: '',
        description: '',
        reproduces: [],
        params: [{ name: 'k', label: '', unit: '', kind: 'integer', default: 4, min: 1, max: 64, description: '' }],
        estimate: () => 1,
        run: (_p, raw) => {
          fail(raw.k);
          return { series: [], tables: [], findings: [{ key: 'y', label: 'y', value: 'cannot tell', unit: '', evidence: 'why; to decide: raise "k"' }], notes: [] };
        },
      });
    const refused = make((k) => {
      if (k === 8) throw new ExperimentError('the sweep has 5000 sizes; at most 4000', 'k');
    }).run(fermi, {}, 1, quiet);
    expect(refused.notes.at(-1)).toBe('Follow-up run not made: with k 4 → 8: the sweep has 5000 sizes; at most 4000.');
    expect(value(refused, 'y')).toBe('cannot tell');
    const broken = make((k) => {
      if (k === 8) throw new Error('a bug');
    });
    expect(() => broken.run(fermi, {}, 1, quiet)).toThrow('a bug');
  });
});
