/**
 * Follow-up runs (`refine`): where a run's "cannot tell" names a parameter whose larger value would
 * decide it (`raise "name"`, or `raise "name" to 40 KB`, in the text after "; to decide: ", as the
 * analysers word it), the experiment runs once more with every such parameter raised to the value
 * named or else doubled (capped at its maximum), within a work bound, and reports each value the second run decides with both runs as evidence.
 *
 * One follow-up at most: its findings replace only the first run's "cannot tell" answers (a value
 * the first run decided stays the first run's), and its decided findings of keys the first run did not
 * report are added after them; its series and tables are added, marked
 * "(follow-up)" (in the first run's charts); the notes say what it changed, what it decided and what it left open. The
 * follow-up's seed is the run's seed + 1, so a refined run is as deterministic as any other.
 */
import { isCannotTell } from '../analysis/cannot-tell';
import { formatBytes, parseBytes, resolveParams } from './params';
import type { Experiment, ExperimentResult, Finding, ParamSpec, ParamValues, RawParams } from './types';
import { ExperimentError, MAX_ACCESSES } from './types';

export const REFINE_PARAM: ParamSpec = {
  name: 'refine',
  label: 'Follow-up run',
  unit: '',
  kind: 'boolean',
  default: true,
  description:
    'Where a "cannot tell" names a larger parameter that would decide it, run once more with it doubled (at most 4x the work of the first run) and report what that run decides, with both runs as evidence.',
};

/** A follow-up may do at most this many times the first run's estimated work. */
export const FOLLOW_UP_WORK = 4;

const NEXT = '; to decide: ';

/** The parameters the open findings ask to raise, each doubled and capped at its maximum; empty when none can rise. */
export function followUpParams(findings: readonly Finding[], specs: readonly ParamSpec[], values: ParamValues): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of findings) {
    if (!isCannotTell(f.value)) continue;
    const at = f.evidence.indexOf(NEXT);
    if (at < 0) continue;
    for (const m of f.evidence.slice(at + NEXT.length).matchAll(/raise "([A-Za-z]+)"(?: to (\d+(?:\.\d+)? ?[KMG]?B|\d+))?/g)) {
      const spec = specs.find((s) => s.name === m[1]);
      if (!spec || !('max' in spec) || (spec.kind !== 'integer' && spec.kind !== 'bytes' && spec.kind !== 'number')) continue;
      const now = values[spec.name];
      if (typeof now !== 'number' || now >= spec.max) continue;
      // The value the analyser names, else twice the present one; a 0 that means "automatic" is raised
      // only to a value named (twice nothing is no larger run).
      const named = m[2] === undefined ? undefined : spec.kind === 'bytes' ? parseBytes(m[2]) : Number(m[2]);
      const to = named ?? (now > 0 ? 2 * now : undefined);
      if (to === undefined || !Number.isFinite(to) || to <= now) continue;
      out[spec.name] = Math.max(out[spec.name] ?? 0, Math.min(spec.max, to));
    }
  }
  return out;
}

function shown(spec: ParamSpec | undefined, v: number): string {
  return spec?.kind === 'bytes' ? formatBytes(v) : String(v);
}

/** The experiment with a `refine` parameter (default on) that runs the follow-up described above. */
export function withFollowUps(e: Experiment): Experiment {
  const params = [...e.params, REFINE_PARAM];
  const own = (raw: RawParams): RawParams => {
    const { refine: _refine, ...rest } = raw;
    return rest;
  };
  return {
    ...e,
    params,
    estimate: (preset, raw) => e.estimate(preset, own(raw)),
    check: e.check ? (preset, values) => e.check!(preset, own(values) as ParamValues) : undefined,
    run(preset, raw, seed, progress) {
      const refine = resolveParams(params, raw).refine === true;
      const first = e.run(preset, own(raw), seed, progress);
      if (!refine) return first;
      const values = resolveParams(e.params, own(raw));
      const raise = followUpParams(first.findings, e.params, values);
      const names = Object.keys(raise);
      if (!names.length) return first;
      const changed = names.map((n) => `${n} ${shown(e.params.find((s) => s.name === n), values[n] as number)} → ${shown(e.params.find((s) => s.name === n), raise[n]!)}`).join(', ');
      const next = { ...own(raw), ...raise };
      const work = e.estimate(preset, next);
      const bound = Math.min(MAX_ACCESSES, FOLLOW_UP_WORK * Math.max(1, e.estimate(preset, own(raw))));
      if (work > bound)
        return { ...first, notes: [...first.notes, `Follow-up run not made: with ${changed} it would do ${work.toLocaleString('en')} accesses, more than ${FOLLOW_UP_WORK}x the first run's (set those parameters and run again to decide).`] };
      let second: ExperimentResult;
      try {
        second = e.run(preset, next, seed + 1, (done, total, phase) => progress(done, total, `follow-up (${changed}): ${phase}`));
      } catch (err) {
        if (!(err instanceof ExperimentError)) throw err;
        return { ...first, notes: [...first.notes, `Follow-up run not made: with ${changed}: ${err.message}.`] };
      }
      const decided: string[] = [];
      const open: string[] = [];
      const findings = first.findings.map((f) => {
        if (!isCannotTell(f.value)) return f;
        const g = second.findings.find((x) => x.key === f.key);
        if (!g || isCannotTell(g.value)) {
          open.push(f.key);
          return f;
        }
        decided.push(f.key);
        const before = f.evidence.split(NEXT)[0];
        return { ...g, evidence: `${g.evidence} (from a follow-up run with ${changed}; the first run could not tell: ${before})` };
      });
      // What only the follow-up reaches (the first run had no finding of that key): its decided values.
      const known = new Set(first.findings.map((f) => f.key));
      for (const g of second.findings) {
        if (known.has(g.key) || isCannotTell(g.value)) continue;
        decided.push(g.key);
        findings.push({ ...g, evidence: `${g.evidence} (from a follow-up run with ${changed})` });
      }
      const mark = (name: string): string => `${name} (follow-up)`;
      return {
        ...first,
        findings,
        // Overlaid on the first run's charts (same groups), named apart.
        series: [...first.series, ...second.series.map((s) => ({ ...s, name: mark(s.name) }))],
        tables: [...first.tables, ...second.tables.map((t) => ({ ...t, name: mark(t.name) }))],
        notes: [
          ...first.notes,
          `Follow-up run (refine) with ${changed}, seed ${seed + 1}: ${decided.length ? `decided ${decided.join(', ')}` : 'decided nothing more'}${open.length ? `; still cannot tell ${open.join(', ')}` : ''}. Its series and tables are marked "(follow-up)".`,
        ],
      };
    },
  };
}
