/**
 * The experiment builder's parameter form: field text <-> parameter values, the same rules as
 * src-sim/experiments/params.ts (resolveParams) so that a message appears while the user types,
 * before the API is asked; the server's messages (cross-parameter rules, work limits) are placed
 * beside the field they name.
 *
 * Sizes are parsed and written by src-sim's own pure helpers (experiments/params.ts). Messages read as in src-sim without the `parameter "name"` prefix, since they sit beside
 * the field.
 */
import { computed, reactive, ref, type Ref } from 'vue';
import { formatBytes, parseBytes } from '../../../src-sim/experiments/params';
import type { ParamSpec, ParamValue, ParamValues } from '../../../src-sim/experiments/types';

export { formatBytes, parseBytes };

/** A whole number with thin grouping: 1 048 576 -> "1,048,576". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

type Ranged = ParamSpec & { min: number; max: number };

function isBytes(spec: ParamSpec): boolean {
  return spec.kind === 'bytes' || spec.kind === 'bytes-list';
}

function hasRange(spec: ParamSpec): spec is Ranged {
  return 'min' in spec && 'max' in spec;
}

/** The allowed range in words ("4 B to 16 GB", "1 to 64 cycles"), or '' for enums and booleans. */
export function rangeText(spec: ParamSpec): string {
  if (!hasRange(spec)) return '';
  if (isBytes(spec)) return `${formatBytes(spec.min)} to ${formatBytes(spec.max)}`;
  return `${formatCount(spec.min)} to ${formatCount(spec.max)}${spec.unit ? ` ${spec.unit}` : ''}`;
}

/** src-sim's range() (numbers unformatted), for messages that read like the server's. */
function simRange(spec: Ranged): string {
  return isBytes(spec) ? `${formatBytes(spec.min)} to ${formatBytes(spec.max)}` : `${spec.min} to ${spec.max}`;
}

/** What a form field holds: text for numbers, sizes and lists; the option for an enum; a boolean for a checkbox. */
export type FieldValue = string | boolean;

/** The form text of a parameter value (sizes as "4 KB", lists comma-separated). */
export function toFieldValue(spec: ParamSpec, value: unknown): FieldValue {
  switch (spec.kind) {
    case 'boolean':
      return value === true || value === 'true';
    case 'enum':
      return typeof value === 'string' ? value : String(value ?? '');
    case 'bytes':
      return typeof value === 'number' ? formatBytes(value) : String(value ?? '');
    case 'bytes-list':
      return Array.isArray(value) ? value.map((v) => (typeof v === 'number' ? formatBytes(v) : String(v))).join(', ') : String(value ?? '');
    case 'integer-list':
      return Array.isArray(value) ? value.join(', ') : String(value ?? '');
    case 'text':
      return typeof value === 'string' ? value : String(value ?? '');
    default:
      return typeof value === 'number' ? String(value) : String(value ?? '');
  }
}

export type Checked = { ok: true; value: ParamValue } | { ok: false; error: string };

function checkNumber(spec: Ranged, v: number, integer: boolean): Checked {
  const bytes = isBytes(spec);
  if (!Number.isFinite(v))
    return { ok: false, error: bytes ? `must be a size such as 4096, 4KB or 2MB (${simRange(spec)})` : `must be a number (${`${simRange(spec)} ${spec.unit}`.trim()})` };
  if (integer && !Number.isInteger(v)) return { ok: false, error: `must be a whole number (${simRange(spec)})` };
  if (v < spec.min || v > spec.max)
    return { ok: false, error: `is ${bytes ? formatBytes(v) : v}; allowed: ${simRange(spec)}${bytes ? '' : ` ${spec.unit}`}`.trimEnd() };
  return { ok: true, value: v };
}

/** Parses and checks one field as resolveParams would; the message omits the parameter's name. */
export function checkField(spec: ParamSpec, raw: FieldValue): Checked {
  switch (spec.kind) {
    case 'integer':
    case 'number': {
      if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, error: `must be a number (${simRange(spec)})` };
      return checkNumber(spec, Number(raw.trim()), spec.kind === 'integer');
    }
    case 'bytes': {
      if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, error: `must be a size such as 4096, 4KB or 2MB (${simRange(spec)})` };
      return checkNumber(spec, parseBytes(raw), true);
    }
    case 'bytes-list':
    case 'integer-list': {
      const items = typeof raw === 'string' ? raw.split(',').filter((s) => s.trim() !== '') : [];
      if (items.length === 0) return { ok: false, error: 'must be a comma-separated list with at least one value' };
      if (items.length > spec.maxItems) return { ok: false, error: `has ${items.length} values; at most ${spec.maxItems}` };
      const out: number[] = [];
      for (const it of items) {
        const c = checkNumber(spec, spec.kind === 'bytes-list' ? parseBytes(it) : it.trim() === '' ? NaN : Number(it.trim()), true);
        if (!c.ok) return c;
        out.push(c.value as number);
      }
      return { ok: true, value: out };
    }
    case 'enum':
      return typeof raw === 'string' && spec.options.includes(raw) ? { ok: true, value: raw } : { ok: false, error: `must be one of: ${spec.options.join(', ')}` };
    case 'boolean':
      if (raw === true || raw === 'true') return { ok: true, value: true };
      if (raw === false || raw === 'false') return { ok: true, value: false };
      return { ok: false, error: 'must be true or false' };
    case 'text':
      if (typeof raw !== 'string') return { ok: false, error: 'must be text' };
      return raw.length > spec.maxLength ? { ok: false, error: `has ${raw.length} characters; at most ${spec.maxLength}` } : { ok: true, value: raw };
  }
}

/** What a size field's text means, e.g. "= 4,096 B" beside "4KB"; '' when nothing to add. */
export function parsedHint(spec: ParamSpec, raw: FieldValue): string {
  if (spec.kind !== 'bytes' && spec.kind !== 'bytes-list') return '';
  const c = checkField(spec, raw);
  if (!c.ok) return '';
  const values = Array.isArray(c.value) ? c.value : [c.value as number];
  const shown = values.slice(0, 6).map((v) => `${formatCount(v)} B`);
  return `= ${shown.join(', ')}${values.length > 6 ? `, … (${values.length} values)` : ''}`;
}

/** A parameter's default as the form shows it ("1 KB", "64, 128"). */
export function defaultText(spec: ParamSpec): string {
  if (spec.kind === 'boolean') return spec.default ? 'on' : 'off';
  if (spec.kind === 'text') return `${spec.default.split('\n').length} lines, up to ${formatCount(spec.maxLength)} characters`;
  const v = toFieldValue(spec, spec.default);
  return typeof v === 'string' ? v : String(v);
}

// ---------------------------------------------------------------------------------------------
// Server messages
// ---------------------------------------------------------------------------------------------

export interface PlacedError {
  /** The parameter the message names (one of the specs), or null when it names none. */
  param: string | null;
  /** The message without the call and parameter prefixes. */
  message: string;
}

/**
 * Finds the parameter a server message names. The service words them
 * `runs.start: params.sizeTo: parameter "sizeTo" must not be smaller than "sizeFrom"`; parseArgs
 * `runs.start: params.sizeTo: must be ...`; toLabError `sizeTo: ...`; an ExperimentError alone
 * `parameter "sizeTo" ...`.
 */
export function placeServerError(message: string, specs: readonly ParamSpec[]): PlacedError {
  const names = new Set(specs.map((s) => s.name));
  let rest = message.replace(/^runs\.start:\s*/, '');
  let param: string | null = null;
  const path = /^params\.([A-Za-z][A-Za-z0-9_]*)(?:\.\d+)?:\s*/.exec(rest);
  if (path && names.has(path[1]!)) {
    param = path[1]!;
    rest = rest.slice(path[0].length);
  } else {
    const bare = /^([A-Za-z][A-Za-z0-9_]*):\s*/.exec(rest);
    if (bare && names.has(bare[1]!)) {
      param = bare[1]!;
      rest = rest.slice(bare[0].length);
    }
  }
  const named = /parameter "([A-Za-z][A-Za-z0-9_]*)"\s*/.exec(rest);
  if (named && names.has(named[1]!)) {
    param ??= named[1]!;
    if (named[1] === param && named.index === 0) rest = rest.slice(named[0].length);
  }
  return { param, message: rest.trim() || message };
}

// ---------------------------------------------------------------------------------------------
// Work estimate
// ---------------------------------------------------------------------------------------------

export interface WorkEstimate {
  /** Measurement points (sweep points x curves) per preset. */
  points: number;
  /** How the count was made, e.g. "125 sizes × 2 strides". */
  detail: string;
}

function sweepCount(from: unknown, to: unknown, step: unknown): number | null {
  if (typeof from !== 'number' || typeof to !== 'number' || typeof step !== 'number') return null;
  if (step <= 0 || to < from) return null;
  return Math.floor((to - from) / step) + 1;
}

/**
 * A simple estimate of the work of one run: the sweep's points (xFrom..xTo by xStep) times the
 * curves (the longest list parameter). Null when the schema has no recognisable sweep (or a
 * sweep left to the experiment's defaults, given as 0).
 */
export function estimateWork(specs: readonly ParamSpec[], values: ParamValues): WorkEstimate | null {
  const parts: string[] = [];
  let points = 1;
  let found = false;
  for (const spec of specs) {
    const m = /^(.*)From$/.exec(spec.name);
    if (!m) continue;
    const base = m[1]!;
    const n = sweepCount(values[`${base}From`], values[`${base}To`], values[`${base}Step`]);
    if (n === null) continue;
    found = true;
    points *= n;
    parts.push(`${formatCount(n)} ${base === 'size' ? 'size' : base}${n === 1 ? '' : 's'}`);
  }
  const lists = specs.filter((s) => (s.kind === 'bytes-list' || s.kind === 'integer-list') && Array.isArray(values[s.name]));
  if (found && lists.length > 0) {
    // The first list is the one the curves follow (strides, counts).
    const list = lists[0]!;
    const n = (values[list.name] as number[]).length;
    points *= n;
    parts.push(`${n} curve${n === 1 ? '' : 's'} (${list.label.toLowerCase().replace(/\s*\(.*\)$/, '')})`);
  }
  if (!found) return null;
  return { points, detail: parts.join(' × ') };
}

// ---------------------------------------------------------------------------------------------
// The form
// ---------------------------------------------------------------------------------------------

/**
 * The state of a parameter form for the given schema: field values, live messages (client rules
 * and the server's, the latter cleared when the field changes), the resolved parameters when all
 * fields are valid, reset and prefill.
 */
export function useParamForm(specs: Ref<readonly ParamSpec[]>) {
  const fields = reactive<Record<string, FieldValue>>({});
  const serverErrors = reactive<Record<string, string>>({});
  /** Fields the user changed since the last reset (for a hint; validation shows regardless). */
  const touched = ref(new Set<string>());

  function reset(): void {
    for (const key of Object.keys(fields)) delete fields[key];
    for (const key of Object.keys(serverErrors)) delete serverErrors[key];
    for (const spec of specs.value) fields[spec.name] = toFieldValue(spec, spec.default);
    touched.value = new Set();
  }

  /** Prefills from parameter values (a run's, a template's, the route's); unknown names are ignored. */
  function fill(values: Record<string, unknown>): string[] {
    reset();
    const ignored: string[] = [];
    for (const [name, value] of Object.entries(values)) {
      const spec = specs.value.find((s) => s.name === name);
      if (!spec) {
        ignored.push(name);
        continue;
      }
      fields[name] = toFieldValue(spec, value);
    }
    return ignored;
  }

  function set(name: string, value: FieldValue): void {
    fields[name] = value;
    delete serverErrors[name];
    touched.value.add(name);
  }

  const checks = computed(() => {
    const out: Record<string, Checked> = {};
    for (const spec of specs.value) out[spec.name] = checkField(spec, fields[spec.name] ?? toFieldValue(spec, spec.default));
    return out;
  });

  /** The message shown beside each field: the client rule's first, else the server's. */
  const errors = computed(() => {
    const out: Record<string, string> = {};
    for (const spec of specs.value) {
      const c = checks.value[spec.name]!;
      if (!c.ok) out[spec.name] = c.error;
      else if (serverErrors[spec.name]) out[spec.name] = serverErrors[spec.name]!;
    }
    return out;
  });

  const valid = computed(() => specs.value.every((s) => checks.value[s.name]?.ok));

  /** The parameters as values (numbers, byte counts, lists, booleans); null while a field is invalid. */
  const resolved = computed<ParamValues | null>(() => {
    if (!valid.value) return null;
    const out: ParamValues = {};
    for (const spec of specs.value) out[spec.name] = (checks.value[spec.name] as { ok: true; value: ParamValue }).value;
    return out;
  });

  const estimate = computed(() => (resolved.value ? estimateWork(specs.value, resolved.value) : null));

  reset();

  return { fields, serverErrors, errors, valid, resolved, estimate, touched, reset, fill, set };
}
