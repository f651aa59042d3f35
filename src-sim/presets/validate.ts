import { z } from 'zod';
import type { CacheLevelConfig, PathConfig } from '../model/path';
import { requiredLatencyKeys } from '../model/path';
import { capacityBytes, totalLines } from '../model/types';
import type { Preset } from './types';
import { GENERATIONS, SPACE_IDS } from './types';
import { provenanceOf } from './provenance';
import { checkTimingConfig } from '../timing/engine';
import { stateMemoryProblem } from './state-memory';
import { L1_ALLOCATE_POLICIES, SET_INDEX_FUNCTIONS, WARP_SCHEDULERS } from '../timing/types';

export interface PresetIssue {
  /** Dotted path of the offending field, e.g. "spaces.global.levels.0.sizeBytes". */
  path: string;
  message: string;
}

export type PresetValidation = { ok: true; preset: Preset } | { ok: false; issues: PresetIssue[] };

const positive = z.number().finite().positive();
const positiveInt = z.number().int().positive();

const geometrySchema = z.object({
  lineBytes: positiveInt,
  sets: positiveInt,
  ways: positiveInt,
  setWays: z.array(positiveInt).optional(),
  index: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('bits'), shiftBits: z.number().int().min(0).max(40).optional() }),
    z.object({ kind: z.literal('xor') }),
    z.object({ kind: z.literal('interleave') }),
  ]),
  policy: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('lru') }),
    z.object({ kind: z.literal('fifo') }),
    z.object({ kind: z.literal('random') }),
    z.object({ kind: z.literal('fermi'), hotWay: z.number().int().min(0), hotProbability: z.number().gt(0).max(1) }),
    z.object({ kind: z.literal('lip') }),
  ]),
  allocateOnMiss: z.boolean().optional(),
  sectorBytes: positiveInt.optional(),
  fillBytes: positiveInt.optional(),
});

const levelSchema = z.object({
  name: z.string().min(1).max(40),
  sizeBytes: positiveInt,
  geometry: geometrySchema,
  scope: z.enum(['sm', 'tpc', 'chip']),
  partitions: z
    .object({
      count: z.number().int().min(2, 'a partitioned level needs at least 2 partitions (drop partitions for one)').max(64),
      interleaveBytes: positiveInt.max(2 ** 30),
      farLatencyRatio: z.number().finite().min(1).max(100),
      replicateFar: z.boolean().optional(),
    })
    .optional(),
});

const pathSchema = z.object({
  description: z.string(),
  levels: z.array(levelSchema).max(6),
  translation: z
    .object({
      pageBytes: positiveInt,
      l1: levelSchema,
      l2: levelSchema,
      activeWindowBytes: positiveInt.optional(),
      virtualLevels: z.number().int().min(0),
    })
    .optional(),
  latency: z.record(z.string(), positive),
  interconnectFrom: z.number().int().min(0),
});

const timingCacheSchema = z.object({
  sets: positiveInt.max(1 << 16),
  ways: positiveInt.max(64),
  lineBytes: positiveInt.max(4096),
  mshrEntries: positiveInt.max(4096),
  mshrMergers: positiveInt.max(256),
  hitLatency: z.number().finite().min(0).max(1e5),
  policy: z.enum(['lru', 'fifo']),
  setIndex: z.enum(SET_INDEX_FUNCTIONS).optional(),
  allocate: z.enum(L1_ALLOCATE_POLICIES).optional(),
});

/** Preset.timing (src-sim/timing/types.ts TimingConfig); the engine's checkTimingConfig adds the cross-field rules. */
const timingSchema = z.object({
  sms: positiveInt.max(1024),
  maxWarpsPerSM: positiveInt.max(256),
  maxThreadsPerSM: positiveInt.max(8192),
  maxBlocksPerSM: positiveInt.max(64),
  schedulers: positiveInt.max(16),
  warpScheduler: z.enum(WARP_SCHEDULERS).optional(),
  aluLatency: positive.max(1e4),
  issueCycles: positiveInt.max(64).optional(),
  lsuCycles: positiveInt.max(64).optional(),
  coalesceBytes: positiveInt.max(4096),
  segmentBySize: z.boolean().optional(),
  accessOrder: z.enum(['ascending', 'descending']).optional(),
  memQueue: z.number().int().min(0).max(64).optional(),
  memCollectors: z.number().int().min(1).max(16).optional(),
  launchCycles: z.number().int().min(0).max(64).optional(),
  writebackPort: z.boolean().optional(),
  fetch: z.object({ ibuffer: positiveInt.max(64), latency: z.number().finite().min(0).max(1e4) }).optional(),
  storeAcks: z.boolean().optional(),
  storeTags: z.boolean().optional(),
  missQueue: z.object({ entries: positiveInt.max(1024), drainCycles: positiveInt.max(64), injectFlits: positiveInt.max(4096), flitBytes: positiveInt.max(4096) }).optional(),
  l1: timingCacheSchema.optional(),
  bypassBytes: positiveInt.max(4096),
  l2: timingCacheSchema.extend({
    partitions: positiveInt.max(256),
    bytesPerCycle: positive.optional(),
    uncached: z.boolean().optional(),
    sectorBytes: positiveInt.max(4096).optional(),
    writeMissFetch: z.boolean().optional(),
    ropBeforeLookup: z.boolean().optional(),
    addressMap: z.boolean().optional(),
    port: z.object({ bytes: positiveInt.max(4096), cycles: positiveInt.max(64) }).optional(),
    dramQueue: z.object({ missQueue: positiveInt.max(1024), queue: positiveInt.max(1024) }).optional(),
    responseQueue: positiveInt.max(1024).optional(),
    dramReturn: z.object({ queue: positiveInt.max(1024), returnQueue: positiveInt.max(4096) }).optional(),
  }),
  interconnect: z.object({
    latency: z.number().finite().min(0).max(1e5),
    bytesPerCyclePerSM: positive,
    bytesPerCycleTotal: positive,
    l2Input: z.object({ queue: positiveInt.max(1024), bufferFlits: positiveInt.max(4096), flitBytes: positiveInt.max(4096), cycles: positiveInt.max(64) }).optional(),
    responsePorts: z.boolean().optional(),
  }),
  dram: z.object({
    channels: positiveInt.max(256),
    latency: z.number().finite().min(0).max(1e5),
    bytesPerCycle: positive,
    burstBytes: positiveInt.max(4096),
    timing: z
      .object({
        clockMHz: positive,
        banks: positiveInt.max(256),
        bankGroups: positiveInt.max(64),
        queue: positiveInt.max(1024),
        atomBytes: positiveInt.max(4096),
        burstLength: positiveInt.max(64),
        dataCommandRatio: positiveInt.max(16),
        tCCD: z.number().int().min(0).max(1000),
        tCCDL: z.number().int().min(0).max(1000),
        tRRD: z.number().int().min(0).max(1000),
        tRCD: z.number().int().min(0).max(1000),
        tRAS: z.number().int().min(0).max(1000),
        tRP: z.number().int().min(0).max(1000),
        tRC: z.number().int().min(0).max(1000),
        CL: z.number().int().min(0).max(1000),
        WL: z.number().int().min(0).max(1000),
        tCDLR: z.number().int().min(0).max(1000),
        tWR: z.number().int().min(0).max(1000),
        tRTPL: z.number().int().min(0).max(1000),
        interleaveBytes: positiveInt,
        bankBits: z.array(z.number().int().min(0).max(52)).min(1).max(12),
        rowShift: z.number().int().min(0).max(52),
      })
      .optional(),
  }),
  shared: z.object({ bytesPerSM: positiveInt, latency: z.number().finite().min(0).max(1e5), bytesPerCycle: positive }),
  clocks: z.object({ coreMHz: positive, memoryMHz: positive }),
});

const coreUnitSchema = z.object({ count: positiveInt.max(64), latency: positive.max(1e5), throughput: positive.max(1024) });

/** Preset.core (src-sim/core/types.ts CoreConfig); WONG Tables II-IV, IV-E, IV-J3, IV-K. */
const coreSchema = z.object({
  scheduler: z.object({ warpSize: positiveInt.max(64), issueCycles: positive.max(64), busyWritebackDelay: z.number().finite().min(0).max(1e3) }),
  units: z.object({ sp: coreUnitSchema, sfu: coreUnitSchema.extend({ mulThroughput: positive.max(1024) }), dpu: coreUnitSchema }),
  ops: z
    .array(
      z.object({
        id: z.string().min(1).max(40),
        label: z.string().min(1).max(80),
        type: z.string().min(1).max(40),
        table: z.enum(['III', 'IV']),
        unit: z.enum(['sp', 'sfu', 'dpu', 'sp+sfu', 'routine']),
        instructions: positiveInt.max(64),
        latency: positive.max(1e5),
        throughput: positive.max(1024),
      }),
    )
    .max(64),
  regfile: z.object({
    registers: positiveInt.max(1 << 20),
    banks: positiveInt.max(1024),
    regGranularity: positiveInt.max(64),
    maxRegsPerThread: positiveInt.max(1024),
    maxThreadsPerBlock: positiveInt.max(4096),
    maxBytesPerBlock: positiveInt.max(1 << 24),
  }),
  icache: z.object({ fetchBytes: positiveInt.max(4096), instructionBytes: positiveInt.max(64), prefetchLines: z.number().int().min(0).max(16) }),
  constantL3: z.object({ bytesPerCyclePerSM: positive.max(1e4), bytesPerCycleTotal: positive.max(1e5) }),
});

/** The longest name a preset may have. */
export const PRESET_NAME_CHARS = 60;

const presetSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'use 1-40 lower-case letters, digits and dashes'),
  name: z.string().min(1).max(PRESET_NAME_CHARS),
  device: z.string().min(1).max(120),
  generation: z.enum(GENERATIONS),
  computeCapability: z.string().regex(/^\d\.\d$/, 'write it as major.minor, e.g. 2.1'),
  description: z.string().max(400),
  chip: z.object({ sms: positiveInt.max(1024), smPerTpc: positiveInt.max(16), coreClockMHz: positive }),
  measurement: z.object({
    clockOverhead: z.number().min(0),
    tpcOffsets: z.array(z.number().finite()).min(1),
    clockScope: z.enum(['sm', 'tpc', 'chip']).optional(),
  }),
  alu: z.object({ spLatency: positive, issueCycles: positive.optional() }),
  shared: z.object({
    sizeBytes: positiveInt,
    banks: positiveInt.max(64),
    issueGroup: positiveInt.max(32),
    modes: z.record(z.string(), z.object({ slotWords: positiveInt, rowWords: positiveInt })),
    defaultMode: z.string(),
    latency: z.object({ base: positive, perConflict: z.number().min(0) }),
    onChipBytes: positiveInt.optional(),
  }),
  // Strict: a key that is not a space id is refused by name, not carried into the checks below.
  spaces: z.strictObject(Object.fromEntries(SPACE_IDS.map((id) => [id, id === 'global' ? pathSchema : pathSchema.optional()]))),
  l1Configs: z
    .array(z.object({ id: z.string().min(1).max(20), sizeBytes: positiveInt, geometry: geometrySchema, sharedBytes: z.number().int().min(0).optional(), reservedBytes: z.number().int().min(0).optional() }))
    .max(12)
    .optional(),
  timing: timingSchema.optional(),
  core: coreSchema.optional(),
  provenance: z.record(z.string(), z.string().min(3)),
});

const isPow2 = (n: number): boolean => Number.isInteger(n) && n > 0 && Number.isInteger(Math.log2(n));

function checkLevel(level: CacheLevelConfig, path: string, issues: PresetIssue[]): void {
  const g = level.geometry;
  if (!isPow2(g.lineBytes)) issues.push({ path: `${path}.geometry.lineBytes`, message: `line size ${g.lineBytes} B is not a power of two` });
  if (g.setWays) {
    if (g.setWays.length !== g.sets)
      issues.push({ path: `${path}.geometry.setWays`, message: `lists ${g.setWays.length} sets but sets is ${g.sets}; give one way count per set` });
  }
  const lines = totalLines(g);
  const cap = capacityBytes(g);
  if (cap !== level.sizeBytes) {
    const shape = g.setWays ? `(${g.setWays.join(' + ')}) ways x ${g.lineBytes} B` : `${g.sets} sets x ${g.ways} ways x ${g.lineBytes} B`;
    issues.push({
      path: `${path}.sizeBytes`,
      message: `${level.name}: size ${level.sizeBytes} B does not equal ${shape} = ${cap} B (${lines} lines); change the size or the geometry`,
    });
  }
  if (g.sectorBytes !== undefined) {
    if (!isPow2(g.sectorBytes) || g.sectorBytes > g.lineBytes)
      issues.push({ path: `${path}.geometry.sectorBytes`, message: `sector size ${g.sectorBytes} B must be a power of two no larger than the ${g.lineBytes} B line` });
    else if (g.lineBytes / g.sectorBytes > 32)
      issues.push({ path: `${path}.geometry.sectorBytes`, message: `${g.lineBytes / g.sectorBytes} sectors a line; at most 32 (make the sectors larger)` });
  }
  if (g.fillBytes !== undefined) {
    const sector = g.sectorBytes ?? g.lineBytes;
    if (!isPow2(g.fillBytes) || g.fillBytes < sector || g.fillBytes > g.lineBytes)
      issues.push({
        path: `${path}.geometry.fillBytes`,
        message: `fill unit ${g.fillBytes} B must be a power of two from the ${sector} B ${g.sectorBytes !== undefined ? 'sector' : 'line (no sectors)'} to the ${g.lineBytes} B line`,
      });
  }
  if (g.setWays && g.index.kind !== 'interleave')
    issues.push({ path: `${path}.geometry.index`, message: `${level.name}: unequal sets need the 'interleave' index function` });
  const parts = level.partitions;
  if (parts) {
    if (g.sets % parts.count !== 0)
      issues.push({ path: `${path}.partitions.count`, message: `${level.name}: ${g.sets} sets do not divide into ${parts.count} partitions (each partition takes sets / count)` });
    if (!isPow2(parts.interleaveBytes) || parts.interleaveBytes < g.lineBytes)
      issues.push({
        path: `${path}.partitions.interleaveBytes`,
        message: `${level.name}: interleave of ${parts.interleaveBytes} B must be a power of two of at least the ${g.lineBytes} B line (the granule dealt to each partition in turn)`,
      });
  }
  if (g.policy.kind === 'fermi') {
    const minWays = g.setWays ? Math.min(...g.setWays) : g.ways;
    if (g.policy.hotWay >= minWays)
      issues.push({ path: `${path}.geometry.policy.hotWay`, message: `hot way ${g.policy.hotWay} does not exist in a ${minWays}-way set (ways count from 0)` });
  }
}

function checkPath(space: string, p: PathConfig, issues: PresetIssue[]): void {
  const base = `spaces.${space}`;
  p.levels.forEach((l, i) => checkLevel(l, `${base}.levels.${i}`, issues));
  const names = new Set<string>();
  p.levels.forEach((l, i) => {
    if (names.has(l.name) || l.name === 'memory') issues.push({ path: `${base}.levels.${i}.name`, message: `level name "${l.name}" is used twice or reserved` });
    names.add(l.name);
  });
  if (p.translation) {
    const t = p.translation;
    checkLevel(t.l1, `${base}.translation.l1`, issues);
    checkLevel(t.l2, `${base}.translation.l2`, issues);
    for (const [k, tl] of [['l1', t.l1], ['l2', t.l2]] as const)
      if (tl.partitions) issues.push({ path: `${base}.translation.${k}.partitions`, message: `${tl.name}: partitions apply to cache levels, not TLBs; remove them` });
    if (!isPow2(t.pageBytes)) issues.push({ path: `${base}.translation.pageBytes`, message: `page size ${t.pageBytes} B is not a power of two` });
    if (t.virtualLevels > p.levels.length)
      issues.push({ path: `${base}.translation.virtualLevels`, message: `${t.virtualLevels} virtually indexed levels but the path has ${p.levels.length}` });
    for (const tl of [t.l1, t.l2]) {
      if (tl.geometry.lineBytes < t.pageBytes)
        issues.push({ path: `${base}.translation`, message: `${tl.name} entries (${tl.geometry.lineBytes} B) are smaller than a page (${t.pageBytes} B)` });
    }
  }
  if (p.interconnectFrom > p.levels.length)
    issues.push({ path: `${base}.interconnectFrom`, message: `must be at most ${p.levels.length} (the memory)` });
  const required = requiredLatencyKeys(p);
  for (const k of required)
    if (p.latency[k] === undefined) issues.push({ path: `${base}.latency.${k}`, message: `latency table lacks "${k}" (cycles when the access is served there)` });
  for (const k of Object.keys(p.latency))
    if (!required.includes(k)) issues.push({ path: `${base}.latency.${k}`, message: `"${k}" is not an outcome this path can produce; expected one of ${required.join(', ')}` });
}

/** Dotted paths of every number in an object. */
function numericLeaves(value: unknown, path: string, out: string[]): void {
  if (typeof value === 'number') out.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => numericLeaves(v, `${path}.${i}`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) numericLeaves(v, path ? `${path}.${k}` : k, out);
}

/** A provenance entry starts with its source, or says it is assumed and why; a preset made from a real run says where it was measured. */
const SOURCE = /^((MEI|WONG|LASH|SL1|JIA18|JIA19|ABD22|LUO24|NVIDIA)\b.{3,}|assumed: .{8,}|measured on .{8,})/;

function covered(path: string, provenance: Record<string, string>): boolean {
  return provenanceOf(path, provenance) !== null;
}

function exists(root: unknown, path: string): boolean {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (cur && typeof cur === 'object' && part in (cur as object)) cur = (cur as Record<string, unknown>)[part];
    else return false;
  }
  return true;
}

const kib = (n: number): string => (n % 1024 === 0 ? `${n / 1024} KB` : `${n} B`);

/**
 * Shared memory and the SM's L1 data cache are one on-chip memory where the preset says how large
 * it is (`shared.onChipBytes`: 64 KB on Fermi and Kepler, split 16/48, 32/32 or 48/16): shared
 * memory plus the global path's SM-scoped L1 must fit it, so must the timing tier's, and each
 * alternative L1 configuration must leave shared memory some of it. A preset without the datum
 * (GT200, whose L1 is texture-only) is not checked.
 */
function checkOnChip(preset: Preset, issues: PresetIssue[]): void {
  const total = preset.shared.onChipBytes;
  if (total === undefined) return;
  const shared = preset.shared.sizeBytes;
  const of = `the SM's ${kib(total)} of on-chip memory (shared.onChipBytes)`;
  const first = preset.spaces.global.levels[0];
  const l1 = first?.scope === 'sm' ? first : undefined;
  if (shared + (l1?.sizeBytes ?? 0) > total)
    issues.push({
      path: 'shared.sizeBytes',
      message: l1
        ? `shared memory (${kib(shared)}) plus the L1 (${kib(l1.sizeBytes)}, spaces.global.levels.0) is ${kib(shared + l1.sizeBytes)}, more than ${of}; make one of them smaller`
        : `shared memory (${kib(shared)}) is more than ${of}`,
    });
  (preset.l1Configs ?? []).forEach((c, i) => {
    if (c.sharedBytes !== undefined) {
      const reserved = c.reservedBytes ?? 0;
      if (c.sizeBytes + reserved + c.sharedBytes !== total)
        issues.push({
          path: `l1Configs.${i}.sharedBytes`,
          message: `a carveout splits ${of}: L1 ${kib(c.sizeBytes)}${reserved ? ` plus ${kib(reserved)} a chase does not see` : ''} plus shared memory ${kib(c.sharedBytes)} is ${kib(c.sizeBytes + reserved + c.sharedBytes)}`,
        });
      return;
    }
    if (c.reservedBytes !== undefined)
      issues.push({ path: `l1Configs.${i}.reservedBytes`, message: 'reserved bytes belong to a carveout that names its shared memory (sharedBytes)' });
    if (c.sizeBytes >= total)
      issues.push({ path: `l1Configs.${i}.sizeBytes`, message: `an L1 of ${kib(c.sizeBytes)} leaves no shared memory in ${of}; the split must leave shared memory a part of it` });
  });
  const t = preset.timing;
  if (t) {
    const tl1 = t.l1 ? t.l1.sets * t.l1.ways * t.l1.lineBytes : 0;
    if (t.shared.bytesPerSM + tl1 > total)
      issues.push({
        path: 'timing.shared.bytesPerSM',
        message: `the timing tier's shared memory (${kib(t.shared.bytesPerSM)}) plus its L1 (${kib(tl1)}: sets x ways x line) is ${kib(t.shared.bytesPerSM + tl1)}, more than ${of}; make one of them smaller`,
      });
  }
}

/**
 * Checks a preset (built-in or a user's custom JSON) for shape and consistency, with messages a user
 * can act on: sizes that disagree with sets x ways x line, unequal sets that do not sum, incomplete
 * latency tables, shared memory and L1 over the SM's on-chip memory, numbers without provenance.
 */
export function validatePreset(input: unknown): PresetValidation {
  const parsed = presetSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(preset)', message: i.message })),
    };
  }
  const preset = input as Preset;
  const issues: PresetIssue[] = [];
  for (const space of SPACE_IDS) {
    const p = preset.spaces[space];
    if (p) checkPath(space, p, issues);
  }
  const l1Ids = new Set<string>();
  (preset.l1Configs ?? []).forEach((c, i) => {
    checkLevel({ name: `L1 ${c.id}`, scope: 'sm', sizeBytes: c.sizeBytes, geometry: c.geometry }, `l1Configs.${i}`, issues);
    if (l1Ids.has(c.id) || c.id === 'default') issues.push({ path: `l1Configs.${i}.id`, message: `L1 configuration id "${c.id}" is used twice or reserved` });
    l1Ids.add(c.id);
  });
  if (preset.l1Configs?.length && !preset.spaces.global.levels.some((l) => l.scope === 'sm'))
    issues.push({ path: 'l1Configs', message: 'the global path has no SM-scoped L1 for these configurations to replace' });
  const s = preset.shared;
  if (!s.modes[s.defaultMode]) issues.push({ path: 'shared.defaultMode', message: `"${s.defaultMode}" is not one of the modes: ${Object.keys(s.modes).join(', ')}` });
  checkOnChip(preset, issues);
  if (preset.timing) {
    const t = preset.timing;
    for (const message of checkTimingConfig(t)) issues.push({ path: 'timing', message });
    if (t.sms !== preset.chip.sms) issues.push({ path: 'timing.sms', message: `${t.sms} SMs, but chip.sms says ${preset.chip.sms}` });
    if (t.clocks.coreMHz !== preset.chip.coreClockMHz)
      issues.push({ path: 'timing.clocks.coreMHz', message: `${t.clocks.coreMHz} MHz, but chip.coreClockMHz says ${preset.chip.coreClockMHz}` });
  }
  const tpcs = Math.ceil(preset.chip.sms / preset.chip.smPerTpc);
  const offsets = preset.measurement.tpcOffsets.length;
  if (offsets !== 1 && offsets !== tpcs)
    issues.push({ path: 'measurement.tpcOffsets', message: `give one offset, or one per TPC (${tpcs}); got ${offsets}` });
  checkStateMemory(preset, issues);
  const leaves: string[] = [];
  const { provenance, ...data } = preset;
  numericLeaves(data, '', leaves);
  const missing = leaves.filter((p) => !covered(p, provenance));
  for (const p of missing) issues.push({ path: p, message: 'has no provenance: add "paper, table or figure" or "assumed: <reason>" under provenance' });
  for (const [key, source] of Object.entries(provenance))
    if (!SOURCE.test(source))
      issues.push({ path: `provenance.${key}`, message: `"${source}" names no source: start with the paper (MEI, WONG, LASH, SL1, JIA18, JIA19, ABD22, LUO24, NVIDIA) and its table or figure, write "assumed: <reason>", or "measured on <device>, <date>, run <id>"` });
  for (const key of Object.keys(provenance))
    if (!exists(data, key)) issues.push({ path: `provenance.${key}`, message: 'names a field the preset does not have' });
  return issues.length ? { ok: false, issues } : { ok: true, preset };
}

export function formatIssues(issues: PresetIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('\n');
}

// ---------------------------------------------------------------------------------------------
// Memory bound: the simulator state a preset asks for (state-memory.ts)
// ---------------------------------------------------------------------------------------------

export { MAX_STATE_BYTES, presetStateBytes, presetStateEntries, STATE_BYTES_PER_LINE, STATE_BYTES_PER_SET, stateMemoryProblem } from './state-memory';
export type { StateEntry } from './state-memory';

/** Adds the memory-bound issue (if any) to a validation's issues. */
export function checkStateMemory(preset: Preset, issues: PresetIssue[]): void {
  const problem = stateMemoryProblem(preset);
  if (problem) issues.push(problem);
}
