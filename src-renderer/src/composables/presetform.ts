/**
 * The presets view's logic, as pure functions over plain preset data (types only from src-sim):
 *  - dotted paths into a preset, the provenance of each number (longest matching dotted prefix in
 *    `preset.provenance`, the same rule as src-sim's validator) and the unit of each field;
 *  - the editor's form: sections of fields made from the preset (chip, shared memory, every cache
 *    once even where several spaces share it, latency tables, TLBs), the derived values shown live
 *    (lines = size / line, capacity = sets x ways x line) and how a field's value is written back;
 *  - the timing tier's block (`preset.timing`): its fields in sections (SMs, L1, L2, interconnect,
 *    DRAM, shared memory, clocks), made from the block itself so new fields appear, with units and
 *    the values they imply (L1 size = sets x ways x line, the MLP bound = mergers x min(lines,
 *    MSHRs), bandwidths in GB/s at the core clock) and checks of their consistency;
 *  - the diff against the base preset and the provenance the form writes for changed paths;
 *  - the server's validator messages ("path: message" lines) placed beside the fields they name.
 */
import type { CacheLevelConfig, PathConfig } from '../../../src-sim/model/path';
import { GENERATIONS } from '../../../src-sim/presets/types';
import type { CacheGeometry, ReplacementPolicy } from '../../../src-sim/model/types';
import type { Preset } from '../../../src-sim/presets/types';
import { L1_ALLOCATE_POLICIES, SET_INDEX_FUNCTIONS, type TimingConfig } from '../../../src-sim/timing/types';
import { stateMemoryProblem } from '../../../src-sim/presets/state-memory';
import { formatBytes, formatQuantity } from './quantity';
import { provenanceOf, type ProvenanceHit } from '../../../src-sim/presets/provenance';

// ---------------------------------------------------------------------------------------------
// Dotted paths
// ---------------------------------------------------------------------------------------------

type Scalar = number | string | boolean;

/** The value at a dotted path ("spaces.global.levels.0.sizeBytes"), or undefined. */
export function getAt(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function hasPath(root: unknown, path: string): boolean {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, part)) return false;
    cur = (cur as Record<string, unknown>)[part];
  }
  return true;
}

/** Writes a value at a dotted path whose parent exists; returns false when it does not. */
export function setAt(root: unknown, path: string, value: unknown): boolean {
  const parts = path.split('.');
  const last = parts.pop()!;
  const parent = parts.length ? getAt(root, parts.join('.')) : root;
  if (parent === null || typeof parent !== 'object') return false;
  (parent as Record<string, unknown>)[last] = value;
  return true;
}

/** A deep copy as plain JSON data (no proxies, no shared references): what the API is sent. */
export function plainCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Every scalar of a value with its dotted path (arrays by index), in document order. */
export function leaves(value: unknown, prefix = '', out: { path: string; value: Scalar }[] = []): { path: string; value: Scalar }[] {
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') out.push({ path: prefix, value });
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, prefix ? `${prefix}.${i}` : String(i), out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

/** The preset without its provenance map (the data the provenance describes). */
export function presetData(preset: Preset): Omit<Preset, 'provenance'> {
  const { provenance: _p, ...data } = preset;
  return data;
}

// ---------------------------------------------------------------------------------------------
// Provenance and units
// ---------------------------------------------------------------------------------------------

export { provenanceOf, type ProvenanceHit };

/** Whether a provenance text is assumed (rather than measured in a paper). */
export function isAssumed(text: string): boolean {
  return text.startsWith('assumed:');
}

/** The unit of a preset field, from its path. */
export function unitOf(path: string): string {
  const parts = path.split('.');
  const last = parts[parts.length - 1]!;
  const field = /^\d+$/.test(last) ? parts[parts.length - 2]! : last;
  if (parts[0] === 'timing') return timingUnit(parts, field);
  if (/Bytes$/.test(field)) return 'B';
  if (parts.includes('latency') || field === 'clockOverhead' || field === 'tpcOffsets' || field === 'spLatency' || field === 'issueCycles') return 'cycles';
  switch (field) {
    case 'coreClockMHz':
      return 'MHz';
    case 'sms':
      return 'SMs';
    case 'smPerTpc':
      return 'SM/TPC';
    case 'banks':
      return 'banks';
    case 'issueGroup':
      return 'threads';
    case 'slotWords':
    case 'rowWords':
      return 'words';
    case 'sets':
      return 'sets';
    case 'ways':
    case 'setWays':
      return 'ways';
    case 'shiftBits':
      return 'bits';
    case 'virtualLevels':
      return 'levels';
    default:
      return '';
  }
}

/** The unit of a field of the timing block (core cycles and bytes, as src-sim/timing/types.ts says). */
function timingUnit(parts: readonly string[], field: string): string {
  if (/Bytes$/.test(field) || field === 'bytesPerSM') return 'B';
  if (/^bytesPerCycle/.test(field)) return 'B/cycle';
  if (/[lL]atency$/.test(field)) return 'cycles';
  if (/MHz$/.test(field)) return 'MHz';
  switch (field) {
    case 'sms':
      return 'SMs';
    case 'maxWarpsPerSM':
      return 'warps';
    case 'maxThreadsPerSM':
      return 'threads';
    case 'maxBlocksPerSM':
      return 'blocks';
    case 'schedulers':
      return 'schedulers';
    case 'sets':
      return 'sets';
    case 'ways':
      return 'ways';
    case 'mshrEntries':
      return 'entries';
    case 'mshrMergers':
      return 'fields';
    case 'partitions':
      return 'slices';
    case 'channels':
      return 'channels';
    case 'registersPerSM':
      return 'registers';
    default:
      return parts.includes('latency') ? 'cycles' : '';
  }
}

/** What a field means where its name alone does not say (shown as a hint). */
export function hintOf(path: string): string {
  const field = path.split('.').pop()!;
  if (path.startsWith('timing.')) {
    const hint = TIMING_HINTS[field];
    if (hint) return hint;
  }
  switch (field) {
    case 'hotWay':
      return 'way index, counting from 0';
    case 'hotProbability':
      return 'probability (0 to 1) that a miss replaces the hot way';
    case 'interconnectFrom':
      return 'index of the first level reached over the interconnect (levels count = memory)';
    case 'tpcOffsets':
      return 'one offset, or one per TPC';
    default:
      return '';
  }
}

export interface ParamRow {
  path: string;
  /** The group the row belongs to: "chip", "shared", "spaces.global", "l1Configs.0"... */
  group: string;
  /** The path within its group. */
  name: string;
  value: Scalar;
  unit: string;
  /** The value with its unit, as shown. */
  text: string;
  provenance: ProvenanceHit | null;
}

const IDENTITY = ['id', 'name', 'device', 'generation', 'computeCapability', 'description'];

function groupOf(path: string): string {
  const parts = path.split('.');
  if ((parts[0] === 'spaces' || parts[0] === 'l1Configs' || parts[0] === 'timing') && parts.length > 2) return `${parts[0]}.${parts[1]}`;
  return parts.length > 1 ? parts[0]! : 'identity';
}

/** Every parameter of a preset (every scalar but the provenance map), with its unit and provenance. */
export function parameterRows(preset: Preset): ParamRow[] {
  return leaves(presetData(preset))
    .filter((l) => !IDENTITY.includes(l.path))
    .map((l) => {
      const group = groupOf(l.path);
      const unit = typeof l.value === 'number' ? unitOf(l.path) : '';
      const text = typeof l.value === 'number' && unit === 'B' ? `${formatBytes(l.value)}${l.value >= 1024 ? ` (${l.value.toLocaleString('en-US')} B)` : ''}` : formatQuantity(l.value, unit);
      return { path: l.path, group, name: l.path.slice(group.length + 1), value: l.value, unit, text, provenance: provenanceOf(l.path, preset.provenance) };
    });
}

/** A group's heading: "Chip", "Space: global", "L1 configuration 48KB". */
export function groupTitle(group: string, preset: Preset): string {
  const [head, sub] = group.split('.');
  if (head === 'spaces') return `Memory space: ${sub}`;
  if (head === 'l1Configs') return `L1 configuration ${preset.l1Configs?.[Number(sub)]?.id ?? sub}`;
  if (head === 'timing') return `Timing: ${sub ? (TIMING_PARTS[sub] ?? words(sub)) : TIMING_PARTS['']}`;
  const names: Record<string, string> = { chip: 'Chip', measurement: 'Measurement', alu: 'ALU', shared: 'Shared memory', identity: 'Identity' };
  return names[head!] ?? head!;
}

// ---------------------------------------------------------------------------------------------
// Cloning
// ---------------------------------------------------------------------------------------------

const ID_RE = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** A preset id not in `taken`: "fermi-custom", "fermi-custom-2", ... (at most 40 characters). */
export function uniqueId(wanted: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = wanted.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+/, '').slice(0, 33) || 'custom';
  if (!used.has(base) && ID_RE.test(base)) return base;
  for (let i = 2; ; i++) {
    const id = `${base}-${i}`;
    if (!used.has(id)) return id;
  }
}

/**
 * A copy of a preset to edit as a new custom one: a new id and name, and a description that says
 * what it was cloned from (the source's own would describe a GPU the clone may no longer be);
 * everything else as the base.
 */
export function cloneForEditing(base: Preset, takenIds: Iterable<string>, takenNames: Iterable<string> = []): Preset {
  const copy = plainCopy(base);
  copy.id = uniqueId(`${base.id}-custom`, takenIds);
  const names = new Set(takenNames);
  const stem = base.name.slice(0, 44);
  copy.name = `${stem} (custom)`;
  for (let i = 2; names.has(copy.name); i++) copy.name = `${stem} (custom ${i})`;
  copy.description = `A clone of ${base.name} (${base.device}): edit this to say what you changed. ${base.name}: ${base.description}`.slice(0, 400);
  return copy;
}

// ---------------------------------------------------------------------------------------------
// The form
// ---------------------------------------------------------------------------------------------

export type FieldKind = 'bytes' | 'int' | 'number' | 'int-list' | 'number-list' | 'enum' | 'boolean' | 'text' | 'textarea';

export interface FieldDesc {
  /** The first path: the field's identity (and data-testid). */
  id: string;
  label: string;
  /** Every place the value lives (a cache several memory spaces share appears once, written everywhere). */
  paths: string[];
  kind: FieldKind;
  unit: string;
  options?: readonly string[];
  hint?: string;
}

export interface CacheRef {
  /** Object paths of each occurrence of this cache (levels, TLB levels, L1 configurations). */
  paths: string[];
  tlb: boolean;
}

export interface SectionDesc {
  id: string;
  title: string;
  note?: string;
  fields: FieldDesc[];
  /** Sections that edit a cache show its derived geometry. */
  cache?: CacheRef;
  /** Sections of the timing block show what their numbers imply (see timingDerived): the part. */
  timing?: string;
}

export const POLICIES = ['lru', 'fifo', 'random', 'fermi', 'lip'] as const;

function field(paths: string | string[], label: string, kind: FieldKind, extra: Partial<FieldDesc> = {}): FieldDesc {
  const list = Array.isArray(paths) ? paths : [paths];
  return { id: list[0]!, label, paths: list, kind, unit: extra.unit ?? unitOf(list[0]!), hint: extra.hint ?? hintOf(list[0]!), ...extra };
}

const SCOPE_WORDS: Record<string, string> = { sm: 'per SM', tpc: 'per TPC', chip: 'per chip' };

interface CacheGroup {
  name: string;
  scope: string;
  tlb: boolean;
  paths: string[];
  usedBy: string[];
}

/** Every physical cache of a preset once: levels and TLBs of the same name and scope are one cache. */
export function cachesOf(preset: Preset): CacheGroup[] {
  const groups = new Map<string, CacheGroup>();
  const add = (level: CacheLevelConfig, path: string, space: string, tlb: boolean) => {
    const key = `${level.name}@${level.scope}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { name: level.name, scope: level.scope, tlb, paths: [], usedBy: [] }));
    g.paths.push(path);
    if (!g.usedBy.includes(space)) g.usedBy.push(space);
  };
  const spaces = Object.entries(preset.spaces) as [string, PathConfig | undefined][];
  for (const [space, p] of spaces) p?.levels.forEach((l, i) => add(l, `spaces.${space}.levels.${i}`, space, false));
  for (const [space, p] of spaces) {
    if (!p?.translation) continue;
    add(p.translation.l1, `spaces.${space}.translation.l1`, space, true);
    add(p.translation.l2, `spaces.${space}.translation.l2`, space, true);
  }
  return [...groups.values()];
}

function cacheFields(preset: Preset, paths: string[], tlb: boolean): FieldDesc[] {
  const at = (suffix: string) => paths.map((p) => `${p}.${suffix}`);
  const g = getAt(preset, `${paths[0]}.geometry`) as CacheGeometry;
  const fields: FieldDesc[] = [
    field(at('sizeBytes'), tlb ? 'Reach' : 'Size', 'bytes', tlb ? { hint: 'entries x bytes each entry covers' } : {}),
    field(at('geometry.lineBytes'), tlb ? 'Entry covers' : 'Line', 'bytes'),
  ];
  if (g.setWays) fields.push(field(at('geometry.setWays'), 'Ways of each set', 'int-list', { hint: 'one count per set; sets and ways follow' }));
  else fields.push(field(at('geometry.sets'), 'Sets', 'int'), field(at('geometry.ways'), 'Ways', 'int'));
  // A sectored cache: the bytes one fill brings in (blank: one sector).
  if (g.sectorBytes !== undefined) fields.push(field(at('geometry.fillBytes'), 'Fill unit', 'bytes', { hint: 'bytes one miss fills, sector to line; blank: one sector' }));
  fields.push(field(at('geometry.policy.kind'), 'Replacement', 'enum', { options: POLICIES, unit: '' }));
  if (g.policy.kind === 'fermi') {
    fields.push(field(at('geometry.policy.hotWay'), 'Hot way', 'int'), field(at('geometry.policy.hotProbability'), 'Hot-way probability', 'number'));
  }
  // A partitioned level (CacheLevelConfig.partitions): its split, interleave, far latency and far copies.
  if (!tlb && getAt(preset, `${paths[0]}.partitions`) !== undefined) {
    fields.push(
      field(at('partitions.count'), 'Partitions', 'int', { unit: 'partitions', hint: 'the level is this many caches of size / count; its sets must divide by it' }),
      field(at('partitions.interleaveBytes'), 'Partition interleave', 'bytes', { hint: 'the address granule dealt to the partitions in turn (a power of two, at least a line)' }),
      field(at('partitions.farLatencyRatio'), 'Far-partition latency ratio', 'number', { unit: 'x', hint: "a far partition's hit latency over the near one's" }),
      field(at('partitions.replicateFar'), 'Copy far lines into the near partition', 'boolean', { unit: '' }),
    );
  }
  return fields;
}

/** The editor's sections for a preset (they follow the draft: a policy or set layout change adds fields). */
export function formSections(preset: Preset): SectionDesc[] {
  const sections: SectionDesc[] = [
    {
      id: 'identity',
      title: 'Identity',
      fields: [
        field('id', 'Id', 'text', { hint: 'lower-case letters, digits and dashes; a new id saves a new preset' }),
        field('name', 'Name', 'text'),
        field('device', 'Device', 'text'),
        field('generation', 'Generation', 'enum', { options: GENERATIONS }),
        field('computeCapability', 'Compute capability', 'text'),
        field('description', 'Description', 'textarea'),
      ],
    },
    {
      id: 'chip',
      title: 'Chip and measurement',
      fields: [
        // The timing block repeats the chip's SM count and clock (the validator holds them equal): one field writes both.
        field(['chip.sms', ...(preset.timing ? TIMING_LINKS['chip.sms']! : [])], 'SMs', 'int'),
        field('chip.smPerTpc', 'SMs per TPC', 'int'),
        field(['chip.coreClockMHz', ...(preset.timing ? TIMING_LINKS['chip.coreClockMHz']! : [])], 'Core clock', 'number'),
        field('measurement.clockOverhead', 'clock() overhead', 'number'),
        field('measurement.tpcOffsets', 'TPC placement offsets', 'number-list'),
        field('alu.spLatency', 'SP ALU latency', 'number'),
      ],
    },
    {
      id: 'shared',
      title: 'Shared memory',
      fields: [
        field('shared.sizeBytes', 'Size', 'bytes'),
        // Shared memory and L1 split one on-chip memory where the preset says how large (the validator holds them to it).
        ...(preset.shared.onChipBytes !== undefined ? [field('shared.onChipBytes', 'On-chip memory (shared + L1)', 'bytes')] : []),
        field('shared.banks', 'Banks', 'int'),
        field('shared.issueGroup', 'Issue group', 'int'),
        field('shared.latency.base', 'Conflict-free latency', 'number'),
        field('shared.latency.perConflict', 'Per further conflicting row', 'number'),
      ],
    },
  ];
  for (const c of cachesOf(preset)) {
    sections.push({
      id: `cache:${c.name}@${c.scope}`,
      title: `${c.tlb ? 'TLB' : 'Cache'}: ${c.name} (${SCOPE_WORDS[c.scope] ?? c.scope})`,
      note: c.usedBy.length > 1 ? `shared by the ${c.usedBy.join(', ')} spaces: an edit applies to all of them` : `in the ${c.usedBy[0]} space`,
      fields: cacheFields(preset, c.paths, c.tlb),
      cache: { paths: c.paths, tlb: c.tlb },
    });
  }
  (preset.l1Configs ?? []).forEach((cfg, i) => {
    const path = `l1Configs.${i}`;
    sections.push({
      id: `l1config:${i}`,
      title: `L1 configuration ${cfg.id}`,
      note: 'replaces the SM-scoped L1 of the global paths when an experiment selects it',
      fields: cacheFields(preset, [path], false),
      cache: { paths: [path], tlb: false },
    });
  });
  for (const [space, p] of Object.entries(preset.spaces) as [string, PathConfig | undefined][]) {
    if (!p) continue;
    const base = `spaces.${space}`;
    const fields = Object.keys(p.latency).map((k) => field(`${base}.latency.${k}`, latencyLabel(k), 'number', { unit: 'cycles' }));
    if (p.translation) {
      fields.push(field(`${base}.translation.pageBytes`, 'Page size', 'bytes'));
      if (p.translation.activeWindowBytes !== undefined) fields.push(field(`${base}.translation.activeWindowBytes`, 'Active page window', 'bytes'));
    }
    sections.push({ id: `space:${space}`, title: `Memory space: ${space}`, note: p.description, fields });
  }
  sections.push(...timingSections(preset));
  return sections;
}

// ---------------------------------------------------------------------------------------------
// The timing block (preset.timing: src-sim/timing/types.ts)
// ---------------------------------------------------------------------------------------------

/** The timing block of a preset, if it has one. */
export function timingOf(preset: Preset): TimingConfig | undefined {
  return preset.timing;
}

/** Titles of the timing block's parts ('' = its own numbers: SMs, warps, schedulers). */
const TIMING_PARTS: Record<string, string> = {
  '': 'SMs, warps and schedulers',
  l1: 'L1 data cache (per SM)',
  l2: 'L2 (slices)',
  interconnect: 'Interconnect',
  dram: 'DRAM',
  shared: 'Shared memory',
  clocks: 'Clocks',
};

const TIMING_LABELS: Record<string, string> = {
  sms: 'SMs',
  maxWarpsPerSM: 'Warp slots per SM',
  maxThreadsPerSM: 'Threads per SM',
  maxBlocksPerSM: 'Blocks per SM',
  schedulers: 'Warp schedulers per SM',
  aluLatency: 'ALU latency',
  coalesceBytes: 'Coalescing granularity',
  bypassBytes: 'Request size without L1',
  registersPerSM: 'Registers per SM',
  sets: 'Sets',
  ways: 'Ways',
  lineBytes: 'Line',
  mshrEntries: 'MSHR entries',
  mshrMergers: 'Merger fields per MSHR entry',
  hitLatency: 'Hit latency',
  policy: 'Replacement',
  setIndex: 'Set index function',
  allocate: 'Line allocation',
  partitions: 'Slices (sub-partitions)',
  bytesPerCycle: 'Bandwidth',
  uncached: 'No L2 for global memory',
  latency: 'Latency',
  bytesPerCyclePerSM: 'Bandwidth per SM',
  bytesPerCycleTotal: 'Bandwidth, all SMs',
  channels: 'Channels',
  burstBytes: 'Burst',
  bytesPerSM: 'Size per SM',
  coreMHz: 'Core clock',
  memoryMHz: 'Memory clock',
};

const TIMING_HINTS: Record<string, string> = {
  mshrMergers: 'requests one outstanding line can hold (LASH IV)',
  mshrEntries: 'distinct lines outstanding at once',
  coalesceBytes: "a warp's addresses are grouped into aligned blocks of this size",
  bypassBytes: 'granularity of a request below L1 when L1 is off',
  bytesPerCyclePerSM: 'bytes one SM can receive per core cycle',
  bytesPerCycleTotal: 'bytes per core cycle over all SMs',
  memoryMHz: 'for provenance: the model counts core cycles',
  uncached: 'every request goes to DRAM (GT200)',
  allocate: "'miss': a miss reserves a way at once; 'fill': the line takes a way when its data arrives",
};

/** Timing fields that repeat a chip field: edited with it (in the chip section), not on their own. */
const TIMING_LINKS: Record<string, string[]> = { 'chip.sms': ['timing.sms'], 'chip.coreClockMHz': ['timing.clocks.coreMHz'] };
const LINKED = new Set(Object.values(TIMING_LINKS).flat());

/**
 * The timing checks of the validator name the whole block ("timing: l1.lineBytes / bypassBytes must
 * be at most 30"); where a message starts with a field of the block, it is put at that field's path.
 */
export function refineTimingIssues(issues: readonly Issue[]): Issue[] {
  return issues.map((i) => {
    if (i.path !== 'timing') return i;
    // (field names may hold digits: l1.sets, l2.partitions)
    const m = /^([a-zA-Z][a-zA-Z0-9]*(?:\.[a-zA-Z][a-zA-Z0-9]*)?)\b/.exec(i.message);
    const key = m?.[1];
    return key && (key.includes('.') || key in TIMING_LABELS) ? { path: `timing.${key}`, message: i.message } : i;
  });
}

/** Whole-number fields of the timing block (counts); the others are numbers. */
const TIMING_COUNTS = new Set(['sms', 'maxWarpsPerSM', 'maxThreadsPerSM', 'maxBlocksPerSM', 'schedulers', 'sets', 'ways', 'mshrEntries', 'mshrMergers', 'partitions', 'channels', 'registersPerSM']);
/** The timing block's fields that take one of a few words. */
const TIMING_ENUMS: Record<string, readonly string[]> = { policy: ['lru', 'fifo'], setIndex: SET_INDEX_FUNCTIONS, allocate: L1_ALLOCATE_POLICIES };

/** "bytesPerCycle" -> "bytes per cycle" (for fields this form does not know yet). */
function words(key: string): string {
  const w = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function timingField(path: string, key: string, value: unknown): FieldDesc | null {
  const label = TIMING_LABELS[key] ?? words(key);
  if (typeof value === 'boolean') return field(path, label, 'boolean', { unit: '' });
  if (typeof value === 'string') {
    const options = TIMING_ENUMS[key];
    return options ? field(path, label, 'enum', { options, unit: '' }) : field(path, label, 'text', { unit: '' });
  }
  if (typeof value !== 'number') return null;
  const unit = unitOf(path);
  return field(path, label, unit === 'B' && Number.isInteger(value) ? 'bytes' : TIMING_COUNTS.has(key) ? 'int' : 'number');
}

/** The timing block's sections: its own numbers first, then one per part (L1 only where the preset has one). */
export function timingSections(preset: Preset): SectionDesc[] {
  const t = timingOf(preset) as Record<string, unknown> | undefined;
  if (!t || typeof t !== 'object') return [];
  const top: FieldDesc[] = [];
  const parts: SectionDesc[] = [];
  for (const [key, value] of Object.entries(t)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const fields = Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !LINKED.has(`timing.${key}.${k}`))
        .map(([k, v]) => timingField(`timing.${key}.${k}`, k, v))
        .filter((f): f is FieldDesc => f !== null);
      const note = key === 'clocks' ? 'the core clock is the chip\'s (Chip and measurement)' : undefined;
      parts.push({ id: `timing:${key}`, title: `Timing: ${TIMING_PARTS[key] ?? words(key)}`, ...(note ? { note } : {}), fields, timing: key });
    } else if (!LINKED.has(`timing.${key}`)) {
      const f = timingField(`timing.${key}`, key, value);
      if (f) top.push(f);
    }
  }
  const note = 'the cycle-level timing tier (LASH, SL1): cycles are core cycles; the SM count and core clock are the chip\'s (Chip and measurement)';
  return [{ id: 'timing:sm', title: `Timing: ${TIMING_PARTS['']}`, note, fields: top, timing: '' }, ...parts];
}

export interface DerivedValue {
  label: string;
  /** The value with its unit. */
  text: string;
  /** How it follows from the fields ("32 sets x 4 ways x 128 B"). */
  how: string;
  /** false: the numbers contradict each other (the text says how). */
  ok: boolean;
}

/** Bytes per core cycle at the core clock, in GB/s (10^9 B/s). */
export function gbPerSecond(bytesPerCycle: number, coreMHz: number): number {
  return (bytesPerCycle * coreMHz) / 1000;
}

function gbs(bytesPerCycle: number, t: TimingConfig): string {
  const mhz = t.clocks?.coreMHz;
  return typeof mhz === 'number' && mhz > 0 ? `${formatQuantity(+gbPerSecond(bytesPerCycle, mhz).toFixed(1), 'GB/s')}` : '—';
}

function cacheValues(c: TimingConfig['l1'] & object, name: string, slices = 1): DerivedValue[] {
  const lines = c.sets * c.ways;
  const size = lines * c.lineBytes;
  const outstanding = Math.min(lines, c.mshrEntries);
  const out: DerivedValue[] = [
    { label: `${name} size`, text: formatBytes(size), how: `${c.sets} sets x ${c.ways} ways x ${formatBytes(c.lineBytes)}`, ok: Number.isFinite(size) && size > 0 },
    {
      label: 'MLP bound',
      text: formatQuantity(c.mshrMergers * outstanding, 'requests'),
      how: `${c.mshrMergers} mergers x min(${lines.toLocaleString('en-US')} lines, ${c.mshrEntries} MSHRs)${slices > 1 ? ' per slice' : ''}`,
      ok: c.mshrEntries > 0 && c.mshrMergers > 0,
    },
    { label: 'Data in flight', text: formatBytes(outstanding * c.lineBytes), how: `min(lines, MSHRs) x ${formatBytes(c.lineBytes)}`, ok: true },
  ];
  if (slices > 1) out.splice(1, 0, { label: `${name} total`, text: formatBytes(size * slices), how: `${slices} slices x ${formatBytes(size)}`, ok: true });
  return out;
}

/**
 * What the numbers of one part of the timing block imply, shown live beside the form and in the
 * preset view: sizes, the MLP bound of LASH IV, bandwidths in GB/s, residency; `ok: false` where
 * they contradict each other (more threads than warp slots hold, a line that the coalescer splits).
 */
export function timingDerived(t: TimingConfig | undefined, part: string, preset?: Preset): DerivedValue[] {
  if (!t) return [];
  const out: DerivedValue[] = [];
  switch (part) {
    case '': {
      const warpThreads = t.maxWarpsPerSM * 32;
      out.push(
        { label: 'Threads the warp slots hold', text: formatQuantity(warpThreads, 'threads'), how: `${t.maxWarpsPerSM} warps x 32`, ok: t.maxThreadsPerSM <= warpThreads },
        { label: 'Resident warps, whole GPU', text: formatQuantity(t.sms * t.maxWarpsPerSM, 'warps'), how: `${t.sms} SMs x ${t.maxWarpsPerSM}`, ok: true },
        { label: 'Peak issue', text: formatQuantity(t.sms * t.schedulers, 'warp instructions/cycle'), how: `${t.sms} SMs x ${t.schedulers} schedulers`, ok: t.schedulers > 0 },
      );
      if (t.maxThreadsPerSM > warpThreads) out[0]!.text += ` < ${t.maxThreadsPerSM.toLocaleString('en-US')} threads per SM`;
      break;
    }
    case 'l1':
      if (t.l1) {
        out.push(...cacheValues(t.l1, 'L1'));
        // The two tiers model one L1: an edit of either (a clone's L1 size, say) must reach both.
        const latencyL1 = preset?.spaces.global.levels.find((l) => l.scope === 'sm');
        if (latencyL1) {
          const size = t.l1.sets * t.l1.ways * t.l1.lineBytes;
          out.push({
            label: "Latency tier's L1",
            text: formatBytes(latencyL1.sizeBytes),
            how: latencyL1.sizeBytes === size ? 'the same size as this L1' : `spaces.global's ${latencyL1.name} is ${formatBytes(latencyL1.sizeBytes)}, this L1 ${formatBytes(size)}: edit both`,
            ok: latencyL1.sizeBytes === size,
          });
        }
        if (t.l1.lineBytes % t.coalesceBytes !== 0 && t.coalesceBytes % t.l1.lineBytes !== 0)
          out.push({ label: 'Coalescing', text: 'mismatch', how: `a ${formatBytes(t.l1.lineBytes)} line and ${formatBytes(t.coalesceBytes)} coalescing blocks do not divide one another`, ok: false });
      }
      break;
    case 'l2':
      out.push(...cacheValues(t.l2, 'Slice', t.l2.partitions));
      if (typeof t.l2.bytesPerCycle === 'number') out.push({ label: 'L2 bandwidth', text: gbs(t.l2.bytesPerCycle, t), how: `${t.l2.bytesPerCycle} B/cycle x ${t.clocks.coreMHz} MHz`, ok: true });
      break;
    case 'interconnect': {
      const i = t.interconnect;
      const all = i.bytesPerCyclePerSM * t.sms;
      out.push(
        { label: 'Per SM', text: gbs(i.bytesPerCyclePerSM, t), how: `${i.bytesPerCyclePerSM} B/cycle x ${t.clocks.coreMHz} MHz`, ok: true },
        { label: 'All SMs', text: gbs(i.bytesPerCycleTotal, t), how: `${i.bytesPerCycleTotal} B/cycle x ${t.clocks.coreMHz} MHz`, ok: true },
        {
          label: 'Bound of a full GPU',
          text: all > i.bytesPerCycleTotal ? 'the total' : 'the SMs',
          how: `${t.sms} SMs x ${i.bytesPerCyclePerSM} B/cycle = ${formatQuantity(all, 'B/cycle')} ${all > i.bytesPerCycleTotal ? '>' : '≤'} ${formatQuantity(i.bytesPerCycleTotal, 'B/cycle')} total`,
          ok: i.bytesPerCycleTotal >= i.bytesPerCyclePerSM,
        },
      );
      break;
    }
    case 'dram': {
      const d = t.dram;
      out.push(
        { label: 'Peak bandwidth', text: gbs(d.bytesPerCycle, t), how: `${d.bytesPerCycle} B/cycle x ${t.clocks.coreMHz} MHz`, ok: true },
        { label: 'Per channel', text: gbs(d.bytesPerCycle / Math.max(1, d.channels), t), how: `/ ${d.channels} channels`, ok: d.channels > 0 },
      );
      break;
    }
    case 'shared':
      out.push({ label: 'Bandwidth per SM', text: gbs(t.shared.bytesPerCycle, t), how: `${t.shared.bytesPerCycle} B/cycle x ${t.clocks.coreMHz} MHz`, ok: true });
      break;
    case 'clocks':
      out.push({ label: 'Memory / core clock', text: `${+(t.clocks.memoryMHz / t.clocks.coreMHz).toFixed(3)}`, how: `${t.clocks.memoryMHz} MHz / ${t.clocks.coreMHz} MHz`, ok: t.clocks.coreMHz > 0 });
      break;
  }
  return out;
}

const TLB_WORDS: Record<string, string> = { '-': '', l1: 'L1 TLB hit', l2: 'L2 TLB hit', miss: 'TLB miss', inactive: 'inactive page window' };

/** "L1/l1" -> "L1 hit · L1 TLB hit"; "memory/miss" -> "memory · TLB miss". */
export function latencyLabel(key: string): string {
  const cut = key.lastIndexOf('/');
  const level = cut < 0 ? key : key.slice(0, cut);
  const tlb = cut < 0 ? '-' : key.slice(cut + 1);
  const where = level === 'memory' ? 'memory' : `${level} hit`;
  const words = TLB_WORDS[tlb] ?? tlb;
  return words ? `${where} · ${words}` : where;
}

/** The text a field shows for a value. */
export function fieldText(kind: FieldKind, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (kind === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.join(', ');
  if (kind === 'bytes' && typeof value === 'number') return formatBytes(value).replace('−', '-');
  return String(value);
}

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** Reads a field's text: sizes ("16 KB", "16384"), whole numbers, numbers, lists; a message when it cannot. */
export function parseField(kind: FieldKind, text: string): Parsed {
  const t = text.trim();
  switch (kind) {
    case 'text':
    case 'textarea':
    case 'enum':
      return { ok: true, value: kind === 'textarea' ? text : t };
    case 'boolean':
      if (t === 'yes' || t === 'no') return { ok: true, value: t === 'yes' };
      return { ok: false, error: 'choose yes or no' };
    case 'bytes': {
      const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(t);
      const mult = m ? BYTE_UNITS[m[2]!.toLowerCase()] : undefined;
      if (!m || mult === undefined) return { ok: false, error: 'write a size: 16384, 16 KB, 2 MB' };
      const v = parseFloat(m[1]!) * mult;
      if (!Number.isInteger(v)) return { ok: false, error: `${t} is not a whole number of bytes` };
      return { ok: true, value: v };
    }
    case 'int': {
      if (!/^-?\d+$/.test(t)) return { ok: false, error: 'write a whole number' };
      return { ok: true, value: Number(t) };
    }
    case 'number': {
      const v = t === '' ? NaN : Number(t);
      if (!Number.isFinite(v)) return { ok: false, error: 'write a number' };
      return { ok: true, value: v };
    }
    case 'int-list':
    case 'number-list': {
      const parts = t.split(/[\s,]+/).filter(Boolean);
      if (!parts.length) return { ok: false, error: 'give at least one value, separated by commas' };
      const values = parts.map(Number);
      const bad = parts.find((p, i) => !Number.isFinite(values[i]!) || (kind === 'int-list' && !/^-?\d+$/.test(p)));
      if (bad !== undefined) return { ok: false, error: `"${bad}" is not a ${kind === 'int-list' ? 'whole number' : 'number'}` };
      return { ok: true, value: values };
    }
  }
}

/**
 * Writes a field's value into the draft at every path it lives. A replacement policy change
 * replaces the policy object (the Fermi policy gets a hot way and probability); a list of ways per
 * set also sets the set count and the largest way count, as the validator expects.
 */
export function applyField(draft: Preset, f: FieldDesc, value: unknown): void {
  for (const path of f.paths) {
    if (path.endsWith('.geometry.policy.kind')) {
      const gPath = path.slice(0, -'.policy.kind'.length);
      const g = getAt(draft, gPath) as CacheGeometry | undefined;
      if (!g || g.policy.kind === value) continue;
      const prev = g.policy;
      const next: ReplacementPolicy =
        value === 'fermi'
          ? { kind: 'fermi', hotWay: prev.kind === 'fermi' ? prev.hotWay : 0, hotProbability: prev.kind === 'fermi' ? prev.hotProbability : 0.5 }
          : { kind: value as 'lru' | 'fifo' | 'random' | 'lip' };
      g.policy = next;
    } else if (path.endsWith('.geometry.setWays') && Array.isArray(value)) {
      const g = getAt(draft, path.slice(0, -'.setWays'.length)) as CacheGeometry | undefined;
      if (!g) continue;
      g.setWays = [...(value as number[])];
      g.sets = value.length;
      g.ways = Math.max(...(value as number[]));
    } else {
      setAt(draft, path, Array.isArray(value) ? [...value] : value);
    }
  }
}

export interface CacheDerived {
  size: number;
  lineBytes: number;
  /** size / line (may be fractional: a mismatch). */
  lines: number;
  /** sets x ways, or the sum of the unequal sets' ways. */
  entries: number;
  /** entries x line. */
  capacity: number;
  /** "32 sets x 4 ways x 128 B" or "(17 + 8 + 8) ways x 2 MB". */
  shape: string;
  match: boolean;
}

/** What a cache's numbers imply, for the live check beside the form. */
export function cacheDerived(level: { sizeBytes: number; geometry: CacheGeometry }): CacheDerived {
  const g = level.geometry;
  const entries = g.setWays ? g.setWays.reduce((a, b) => a + b, 0) : g.sets * g.ways;
  const capacity = entries * g.lineBytes;
  const shape = g.setWays ? `(${g.setWays.join(' + ')}) ways x ${formatBytes(g.lineBytes)}` : `${g.sets} sets x ${g.ways} ways x ${formatBytes(g.lineBytes)}`;
  return { size: level.sizeBytes, lineBytes: g.lineBytes, lines: level.sizeBytes / g.lineBytes, entries, capacity, shape, match: capacity === level.sizeBytes && Number.isFinite(capacity) };
}

// ---------------------------------------------------------------------------------------------
// Diff and provenance
// ---------------------------------------------------------------------------------------------

export interface Change {
  path: string;
  /** undefined: the field is new. */
  before: Scalar | undefined;
  /** undefined: the field was removed. */
  after: Scalar | undefined;
}

/** Every field that differs between the base and the edited preset (the provenance map aside). */
export function diffPresets(base: Preset, edited: Preset): Change[] {
  const before = new Map(leaves(presetData(base)).map((l) => [l.path, l.value]));
  const after = leaves(presetData(edited));
  const changes: Change[] = [];
  const seen = new Set<string>();
  for (const l of after) {
    seen.add(l.path);
    const b = before.get(l.path);
    if (b !== l.value) changes.push({ path: l.path, before: b, after: l.value });
  }
  for (const [path, value] of before) if (!seen.has(path)) changes.push({ path, before: value, after: undefined });
  return changes;
}

/** Whether a changed path gets provenance written for it (the numbers and settings, not the name). */
export function needsProvenance(path: string): boolean {
  return !IDENTITY.includes(path);
}

/** What the form writes for a changed number unless the user writes their own. */
export function editedProvenance(baseId: string): string {
  return `assumed: edited by the user from ${baseId}`;
}

/**
 * The preset to save: a plain copy whose provenance names, for every changed path, the user's own
 * text or "assumed: edited by the user from <base>", and no longer names fields that are gone.
 */
export function withProvenance(edited: Preset, base: Preset, own: Record<string, string> = {}): Preset {
  const out = plainCopy(edited);
  const provenance: Record<string, string> = { ...out.provenance };
  for (const c of diffPresets(base, out)) {
    if (c.after === undefined || !needsProvenance(c.path)) continue;
    const text = own[c.path]?.trim();
    provenance[c.path] = text || editedProvenance(base.id);
  }
  const data = presetData(out);
  for (const key of Object.keys(provenance)) if (!hasPath(data, key)) delete provenance[key];
  out.provenance = provenance;
  return out;
}

// ---------------------------------------------------------------------------------------------
// The validator's messages
// ---------------------------------------------------------------------------------------------

export interface Issue {
  path: string;
  message: string;
}

const ISSUE_LINE = /^([\w()-]+(?:\.[^.:]+)*): (.+)$/;

/** The "path: message" lines of a refused save (src-sim formatIssues via the store's LabError). */
export function parseIssues(message: string): Issue[] {
  const out: Issue[] = [];
  for (const raw of message.split('\n')) {
    const m = ISSUE_LINE.exec(raw.trim());
    if (m && !/\s/.test(m[1]!.split('.')[0]!)) out.push({ path: m[1]!, message: m[2]! });
  }
  return out;
}

export interface PlacedIssues {
  /** Messages beside a field, by field id. */
  fields: Record<string, string[]>;
  /** Messages about the provenance the user wrote for a changed path, by that path. */
  provenance: Record<string, string[]>;
  /** Everything that names no field on the form, as "path: message". */
  other: string[];
}

/** Puts each message beside the field whose path it names (or a field above it), else in the list. */
export function placeIssues(issues: readonly Issue[], fields: readonly FieldDesc[], provenancePaths: readonly string[] = []): PlacedIssues {
  const placed: PlacedIssues = { fields: {}, provenance: {}, other: [] };
  const push = (rec: Record<string, string[]>, key: string, msg: string) => (rec[key] ??= []).push(msg);
  for (const issue of issues) {
    const exact = fields.find((f) => f.paths.includes(issue.path));
    const above = exact ?? fields.find((f) => f.paths.some((p) => issue.path.startsWith(`${p}.`)));
    if (above) {
      push(placed.fields, above.id, issue.message);
      continue;
    }
    if (issue.path.startsWith('provenance.')) {
      const key = issue.path.slice('provenance.'.length);
      if (provenancePaths.includes(key)) {
        push(placed.provenance, key, issue.message);
        continue;
      }
    }
    placed.other.push(`${issue.path}: ${issue.message}`);
  }
  return placed;
}

// ---------------------------------------------------------------------------------------------
// The memory bound, checked as the draft changes
// ---------------------------------------------------------------------------------------------

/** A draft over the simulator's memory bound: the message and the field it belongs beside (null: none on the form). */
export interface MemoryIssue {
  fieldId: string | null;
  message: string;
}

/**
 * The validator's memory-bound refusal of a draft (src-sim/presets/state-memory.ts: the state asked
 * for, the limit and the largest cache), placed beside that cache's size field (or its first field
 * on the form); null while the draft is within the bound.
 */
export function memoryIssue(preset: Preset, fields: readonly FieldDesc[]): MemoryIssue | null {
  let problem: ReturnType<typeof stateMemoryProblem>;
  try {
    problem = stateMemoryProblem(preset);
  } catch {
    return null; // a shape the validator refuses anyway
  }
  if (!problem) return null;
  const under = (f: FieldDesc) => f.paths.some((p) => p === problem.path || p.startsWith(`${problem.path}.`));
  const at = fields.find((f) => f.paths.includes(`${problem.path}.sizeBytes`)) ?? fields.find(under);
  return { fieldId: at?.id ?? null, message: problem.message };
}
