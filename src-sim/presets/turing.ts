import type { Preset } from './types';
import type { L1GeometrySources } from './modern';
import { KB, level } from './build';
import {
  at,
  carveoutProvenance,
  carveouts,
  JIA_PER_CONFLICT,
  JIA_VIRTUAL_L1,
  l1GeometryProvenance,
  modernL1,
  modernL2,
  modernShared,
  modernSharedProvenance,
  modernTranslation,
  translationProvenance,
  withPolicy,
} from './modern';

/** JIA19 gives no set count for T4; 3.1.2: on saturation four consecutive 32 B lines (one 128 B line of the model) go at random. */
const L1_SETS = 4;
const L1_POLICY = { kind: 'random' as const };
const L1_SOURCES: L1GeometrySources = {
  lineBytes: 'JIA19 Table 3.1 (update granularity 128 B: what a line of the model holds; the paper calls its 32 B load unit the line)',
  sectorBytes: 'JIA19 Table 3.1 (line size and load granularity 32 B: a miss fetches one 32 B sector)',
  sets: 'assumed: JIA19 gives no set count for the T4; 4, the V100 figure of JIA18 Table 3.1 (JIA19 3.1.2: line, load and update granularity are as on Volta)',
  policy:
    'JIA19 3.1.2 ("when the L1 data cache saturates, Turing randomly evicts 4 consecutive cache lines (128 B)"): random replacement of the model\'s 128 B lines',
};

/** Turing Tuning Guide and JIA19 Table 3.1: 96 KB per SM, 32 KB or 64 KB of it shared memory. */
/** JIA19 Table 3.3: a pointer chase detects 7 KB less than each nominal L1 (3.1.2: "fell 7 KiB short"). */
const UNSEEN = 7 * KB;
const UNSEEN_SOURCE =
  'JIA19 Table 3.3 and 3.1.2 (the chase detects 57 / 25 KB at 32 / 64 KB of shared memory, "7 KiB short of the nominal L1 data cache size, on both Volta and Turing"; the paper cannot explain it)';
const CARVEOUTS = carveouts(96, [32, 64], L1_SETS, L1_POLICY, UNSEEN);
const CARVEOUT_SOURCE = 'JIA19 Table 3.1 (L1 32 or 64 KB; shared memory 32 or 64 KB per SM); NVIDIA Turing Tuning Guide (96 KB of unified L1 and shared memory per SM)';

/** The L2: JIA19 3.2, 16 ways of 64 B lines; Fig 3.5 shows a DRAM access every 64 B, so a miss fills the whole line. */
const L2 = modernL2(4096 * KB, 64, 16);

/** Tesla T4 (TU104, cc 7.5) at 1590 MHz: the card of Jia et al.'s Turing report (JIA19), its cycle counts used as measured. */
export const turing: Preset = {
  id: 'turing',
  name: 'Turing',
  device: 'Tesla T4 (16 GB GDDR6), 1590 MHz',
  generation: 'Turing',
  computeCapability: '7.5',
  description:
    'JIA19 (T4, 1590 MHz): L1 of 32 or 64 KB by carveout, 32-cycle hits, random eviction of 128 B blocks; 4 MB 16-way L2 of 64 B lines, 188-cycle hits; DRAM 296 cycles (616 on a TLB miss); constant caches of 2 KB and 46 KB.',
  chip: { sms: 40, smPerTpc: 2, coreClockMHz: 1590 },
  measurement: { clockOverhead: 2, tpcOffsets: [0] },
  alu: { spLatency: 4 },
  shared: modernShared(32 * KB, 96 * KB, 19, 2),
  spaces: {
    global: {
      description: 'Global memory: L1 64 KB (32 KB shared memory carveout; a chase sees 57 KB) of 128 B lines in 32 B sectors; L2 4 MB, 16-way, 64 B lines; L1/L2 TLBs.',
      levels: [modernL1(64 * KB - UNSEEN, L1_SETS, L1_POLICY), L2],
      translation: modernTranslation(),
      latency: { 'L1/-': 32, 'L2/l1': 188, 'L2/l2': 200, 'L2/miss': 328, 'memory/l1': 296, 'memory/l2': 308, 'memory/miss': 616 },
      interconnectFrom: 1,
    },
    constant: {
      description: 'Constant memory: L1 2 KB (64 B lines, 8 sets x 4 ways) and L1.5 (CI-L2) 46 KB (256 B lines) per SM, then the chip-wide L2.',
      levels: [withPolicy(level('C-L1', 'sm', 2 * KB, 64, 8, 4), { kind: 'random' }), level('CI-L2', 'sm', 46 * KB, 256, 8, 23), L2],
      latency: { 'C-L1/-': 26, 'CI-L2/-': 92, 'L2/-': 215, 'memory/-': 323 },
      interconnectFrom: 2,
    },
  },
  l1Configs: CARVEOUTS,
  provenance: {
    'chip.sms': 'JIA19 Table 3.1 (processors per chip: 40)',
    'chip.smPerTpc': 'NVIDIA Turing whitepaper (two SMs per TPC)',
    'chip.coreClockMHz': 'JIA19 Table 3.1 (T4, max graphics clock 1590 MHz: the clock its cycle counts were taken at)',
    'measurement.clockOverhead': 'assumed: JIA19 gives no clock overhead; 2 cycles, as ABD22 IV-A measures with two consecutive clock reads on the A100',
    'measurement.tpcOffsets': 'assumed: no placement dependence is modelled',
    'alu.spLatency': 'JIA19 4.1 (dependent-issue latency of the core FMA: 4 clock cycles)',
    'shared.sizeBytes': `${CARVEOUT_SOURCE}; the default is the 64 KB L1 carveout`,
    'shared.onChipBytes': CARVEOUT_SOURCE,
    'shared.latency.base': 'JIA19 Table 3.1 (shared memory no-conflict latency: 19 cycles)',
    ...modernSharedProvenance('JIA19 Table 3.1 (32 banks of 4 B per processor)', JIA_PER_CONFLICT('JIA19', 'Fig 3.11', 'T4')),
    'spaces.global.levels.0.sizeBytes': `${CARVEOUT_SOURCE}; the default carveout leaves 32 KB of shared memory, and 64 KB of L1 of which a chase sees 57 KB: ${UNSEEN_SOURCE}`,
    ...l1GeometryProvenance('spaces.global.levels.0.geometry', L1_SOURCES),
    'spaces.global.levels.1.sizeBytes': 'JIA19 Table 3.1 and 3.2 (L2: 4096 KB)',
    'spaces.global.levels.1.geometry.lineBytes': 'JIA19 Table 3.1 and 3.2 (L2 line: 64 B); JIA19 Fig 3.5 (at 32 B steps a 296-cycle DRAM access alternates with a 188-cycle L2 hit: the L2 is filled 64 B at a time, a whole line)',
    'spaces.global.levels.1.geometry.ways': 'JIA19 3.2 ("a 16-way, set-associative cache having a size of 4,096 KiB, a cache line of 64 B")',
    'spaces.global.levels.1.geometry.sets': 'JIA19 3.2 (4096 KB / (16 ways x 64 B) = 4096 sets)',
    'spaces.global.levels.1.geometry.policy': 'assumed: LRU; JIA19 gives no L2 replacement rule',
    ...at('spaces.global', translationProvenance('JIA19 Table 3.1 and 3.8', JIA_VIRTUAL_L1('JIA19'))),
    'spaces.global.latency.L1/-': 'JIA19 Table 3.1 and Fig 3.5 (L1 hit latency: 32 cycles)',
    'spaces.global.latency.L2/l1': 'JIA19 Table 3.1, 3.2 and Fig 3.5 (L1 miss, L2 hit: about 188 cycles)',
    'spaces.global.latency.L2/l2': 'JIA19 Fig 3.14, T4 panel, read from the chart (about 200 cycles with both TLBs hit, about 212 past the L1 TLB\'s 32 MB): 188 + 12',
    'spaces.global.latency.L2/miss': 'JIA19 Fig 3.14, T4 panel, read from the chart (about 340 cycles past the L2 TLB\'s 8 GB, 140 above the TLB-hit level): 188 + 140',
    'spaces.global.latency.memory/l1': 'JIA19 Fig 3.5 ("points with a 296-cycle latency correspond to an L2 miss and a TLB hit")',
    'spaces.global.latency.memory/l2': 'assumed: JIA19 measures no DRAM access with an L1 TLB miss alone; 296 plus the 12-cycle L1 TLB miss of Fig 3.14',
    'spaces.global.latency.memory/miss': 'JIA19 Fig 3.5 ("the 616-cycle latency of the first access is the result of both L2 cache miss and TLB miss")',
    'spaces.global.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    'spaces.constant.levels.0': 'JIA19 Table 3.1 (L1 constant: 2 KB, 64 B lines, 8 sets, 4-way) and 3.4 (private to the SM)',
    'spaces.constant.levels.0.geometry.policy': 'JIA19 3.4 ("the L1 constant cache uses a non-LRU replacement policy"), modelled as random: the paper gives no rule',
    'spaces.constant.levels.1': 'JIA19 Table 3.1 (L1.5 constant: about 46 KB, 256 B lines) and 3.4 (private to the SM; the same store as the L1 instruction cache, so named CI-L2)',
    'spaces.constant.levels.1.geometry.sets': 'assumed: JIA19 gives the size and line only; 8 sets as the L1 constant cache (the ways follow: 23)',
    'spaces.constant.levels.1.geometry.policy': 'assumed: LRU; JIA19 gives no L1.5 replacement rule',
    'spaces.constant.levels.2': 'JIA19 3.4 (the L2 is the third level of constant cache, shared by all SMs and unified): the global L2',
    'spaces.constant.latency.C-L1/-': 'JIA19 Table 3.1 (L1 constant broadcast latency: about 26 cycles)',
    'spaces.constant.latency.CI-L2/-': 'JIA19 Table 3.1 (L1.5 constant broadcast latency: 92 cycles)',
    'spaces.constant.latency.L2/-': 'JIA19 Table 3.1 (L2 constant broadcast latency: about 215 cycles)',
    'spaces.constant.latency.memory/-': 'assumed: JIA19 gives no constant-miss latency; 215 plus the global path\'s DRAM-over-L2 difference (296 - 188)',
    'spaces.constant.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    ...carveoutProvenance(CARVEOUTS, CARVEOUT_SOURCE, L1_SOURCES, UNSEEN_SOURCE),
  },
};
