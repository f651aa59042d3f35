import type { ParamSpec, ParamValue, ParamValues } from './types';
import { ExperimentError } from './types';
import { formatBytes, parseBytes } from '../bytes';

export { formatBytes, parseBytes } from '../bytes';

/**
 * Parses a decimal number as a person writes it: "16", "-1", "0.5", " 2.25 "; NaN for anything
 * else, blank text, hexadecimal ("0x10"), exponents ("1e1") and "Infinity" included (which
 * `Number()` would accept).
 */
export function parseDecimal(text: string): number {
  return /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text.trim()) : NaN;
}

function range(spec: ParamSpec & { min: number; max: number }): string {
  return spec.kind === 'bytes' || spec.kind === 'bytes-list'
    ? `${formatBytes(spec.min)} to ${formatBytes(spec.max)}`
    : `${spec.min} to ${spec.max}`;
}

function fail(spec: ParamSpec, why: string): never {
  throw new ExperimentError(`parameter "${spec.name}" ${why}`, spec.name);
}

function checkNumber(spec: ParamSpec & { min: number; max: number }, v: number, integer: boolean): number {
  const bytes = spec.kind === 'bytes' || spec.kind === 'bytes-list';
  if (!Number.isFinite(v))
    fail(spec, bytes ? `must be a size such as 4096, 4KB or 2MB (${range(spec)})` : `must be a number (${`${range(spec)} ${spec.unit}`.trim()})`);
  if (integer && !Number.isInteger(v)) fail(spec, `must be a whole number (${range(spec)})`);
  if (v < spec.min || v > spec.max) fail(spec, `is ${spec.kind.startsWith('bytes') ? formatBytes(v) : v}; allowed: ${range(spec)}${spec.kind.startsWith('bytes') ? '' : ` ${spec.unit}`}`.trimEnd());
  return v;
}

function one(spec: ParamSpec, raw: unknown): ParamValue {
  switch (spec.kind) {
    case 'integer':
    case 'number': {
      const v = typeof raw === 'string' ? parseDecimal(raw) : (raw as number);
      if (typeof v !== 'number' || raw === '') fail(spec, `must be a number (${range(spec)})`);
      return checkNumber(spec, v, spec.kind === 'integer');
    }
    case 'bytes': {
      const v = typeof raw === 'string' ? parseBytes(raw) : (raw as number);
      if (typeof v !== 'number') fail(spec, `must be a size such as 4096, 4KB or 2MB (${range(spec)})`);
      return checkNumber(spec, v, true);
    }
    case 'bytes-list':
    case 'integer-list': {
      const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').filter((s) => s.trim() !== '') : null;
      if (!items || items.length === 0) fail(spec, 'must be a comma-separated list with at least one value');
      if (items.length > spec.maxItems) fail(spec, `has ${items.length} values; at most ${spec.maxItems}`);
      return items.map((it) => {
        const v = typeof it === 'string' ? (spec.kind === 'bytes-list' ? parseBytes(it) : parseDecimal(it)) : (it as number);
        return checkNumber(spec, v, true);
      });
    }
    case 'enum': {
      if (typeof raw !== 'string' || !spec.options.includes(raw)) fail(spec, `must be one of: ${spec.options.join(', ')}`);
      return raw;
    }
    case 'text': {
      if (typeof raw !== 'string') fail(spec, 'must be text');
      if (raw.length > spec.maxLength) fail(spec, `has ${raw.length} characters; at most ${spec.maxLength}`);
      return raw;
    }
    case 'boolean': {
      if (raw === true || raw === 'true' || raw === '1' || raw === 'yes') return true;
      if (raw === false || raw === 'false' || raw === '0' || raw === 'no') return false;
      fail(spec, 'must be true or false');
    }
  }
}

/** Fills defaults and validates every parameter; unknown names are refused with the list of known ones. */
export function resolveParams(specs: readonly ParamSpec[], raw: Record<string, unknown> = {}): ParamValues {
  for (const name of Object.keys(raw)) {
    if (!specs.some((s) => s.name === name))
      throw new ExperimentError(`unknown parameter "${name}"; known: ${specs.map((s) => s.name).join(', ') || '(none)'}`, name);
  }
  const out: ParamValues = {};
  for (const spec of specs) out[spec.name] = raw[spec.name] === undefined ? spec.default : one(spec, raw[spec.name]);
  return out;
}

/**
 * A "cannot tell" whose next run raises a parameter already at its maximum, or asks for less jitter
 * in a run that has none, suggests what cannot help: that suggestion is dropped and the evidence says
 * so (`raise "name"` and "less jitter" in the text after "; to decide: ", as the analysers word it).
 */
export function withoutImpossibleNext<F extends { value: unknown; evidence: string }>(findings: F[], specs: readonly ParamSpec[], values: ParamValues): F[] {
  return findings.map((finding) => {
    let f = finding;
    const at = f.evidence.indexOf('; to decide: ');
    if (f.value !== 'cannot tell' || at < 0) return f;
    let next = f.evidence.slice(at + '; to decide: '.length);
    // Less jitter where a simulated run has none: that alternative goes, the others stay.
    if (values.jitter === 0 && /less jitter/.test(next)) {
      next = next.replace(/a (run|measurement) with less jitter,? or /, '');
      if (/less jitter/.test(next)) return { ...f, evidence: `${f.evidence.slice(0, at)} (no further run of this experiment decides it: the run has no jitter)` };
      f = { ...f, evidence: `${f.evidence.slice(0, at)}; to decide: ${next}` };
    }
    const stuck = [...next.matchAll(/raise "([A-Za-z]+)"/g)]
      .map((m) => specs.find((s) => s.name === m[1]))
      .filter((s): s is Extract<ParamSpec, { max: number }> => s !== undefined && 'max' in s && typeof s.max === 'number' && typeof values[s.name] === 'number' && (values[s.name] as number) >= s.max);
    if (!stuck.length) return f;
    const why = stuck.map((s) => `"${s.name}" is at its maximum (${s.unit === 'B' ? formatBytes(s.max) : s.max})`).join(', ');
    return { ...f, evidence: `${f.evidence.slice(0, at)} (no further run of this experiment decides it: ${why})` };
  });
}
