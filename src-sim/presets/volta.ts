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

/** JIA18 Table 3.1: the L1 has 4 sets; 3.1.2: lines enter at the lowest preservation priority. */
const L1_SETS = 4;
const L1_POLICY = { kind: 'lip' as const };
const L1_SOURCES: L1GeometrySources = {
  lineBytes: 'JIA18 Table 3.1 (update granularity 128 B: what a line of the model holds; the paper calls its 32 B load unit the line)',
  sectorBytes: 'JIA18 Table 3.1 (line size and load granularity 32 B: a miss fetches one 32 B sector)',
  sets: 'JIA18 Table 3.1 (number of sets: 4); 3.1.2 (the four lowest-priority lines come from the 4 cache sets)',
  policy:
    'JIA18 Table 3.1 (update policy non-LRU) and 3.1.2 ("the same four cache lines, from the 4 cache set, have the lowest preservation priority. These are replaced first and the remaining lines follow"), read as LRU insertion: a new line enters at the lowest priority, a hit raises it',
};

/** CUDA C++ Programming Guide, compute capability 7.0: shared memory of 0, 8, 16, 32, 64 or 96 KB of the SM's 128 KB. */
/** JIA18 Table 3.3: a pointer chase detects 7 KB less than each nominal L1 (3.1.2: "fell 7 KiB short"). */
const UNSEEN = 7 * KB;
const UNSEEN_SOURCE =
  'JIA18 Table 3.3 and 3.1.2 (the chase detects 121 / 57 / 25 KB at 0 / 64 / 96 KB of shared memory, "7 KiB short of the nominal L1 data cache size"; the paper cannot explain it); the same 7 KB taken at the carveouts it did not measure (assumed)';
const CARVEOUTS = carveouts(128, [0, 8, 16, 32, 64, 96], L1_SETS, L1_POLICY, UNSEEN);
const CARVEOUT_SOURCE =
  'NVIDIA CUDA C++ Programming Guide, compute capability 7.x (shared memory 0, 8, 16, 32, 64 or 96 KB of a unified 128 KB); JIA18 Table 3.1 (L1 32 to 128 KB, shared memory up to 96 KB)';

/** The L2: JIA18 3.2, 16 ways of 64 B lines; Fig 3.2 shows a DRAM access every 64 B, so a miss fills the whole line. */
const L2 = modernL2(6144 * KB, 64, 16);

/**
 * Tesla V100 PCIe (GV100, cc 7.0) at 1380 MHz: the card of Jia et al.'s Volta report (JIA18 Table 3.1:
 * "All data in this table are measured on PCI-E cards"), so its cycle counts are used as measured.
 */
export const volta: Preset = {
  id: 'volta',
  name: 'Volta',
  device: 'Tesla V100 PCIe (16 GB), 1380 MHz',
  generation: 'Volta',
  computeCapability: '7.0',
  description:
    'JIA18 (V100 PCIe, 1380 MHz): L1 of 32-128 KB by carveout, 4 sets, 28-cycle hits, lines entering at the lowest priority; 6 MB 16-way L2 of 64 B lines, 193-cycle hits; DRAM 375 cycles (1029 on a TLB miss); constant caches of 2 KB and 64 KB.',
  chip: { sms: 80, smPerTpc: 2, coreClockMHz: 1380 },
  measurement: { clockOverhead: 2, tpcOffsets: [0] },
  alu: { spLatency: 4 },
  shared: modernShared(8 * KB, 128 * KB, 19, 2),
  spaces: {
    global: {
      description: 'Global memory: L1 120 KB (8 KB shared memory carveout; a chase sees 113 KB) of 128 B lines in 32 B sectors, 4 sets; L2 6 MB, 16-way, 64 B lines; L1/L2 TLBs.',
      levels: [modernL1(120 * KB - UNSEEN, L1_SETS, L1_POLICY), L2],
      translation: modernTranslation(),
      latency: { 'L1/-': 28, 'L2/l1': 193, 'L2/l2': 204, 'L2/miss': 323, 'memory/l1': 375, 'memory/l2': 386, 'memory/miss': 1029 },
      interconnectFrom: 1,
    },
    constant: {
      description: 'Constant memory: L1 2 KB (64 B lines, 8 sets x 4 ways) and L1.5 (CI-L2) 64 KB (256 B lines) per SM, then the chip-wide L2.',
      levels: [
        withPolicy(level('C-L1', 'sm', 2 * KB, 64, 8, 4), { kind: 'random' }),
        level('CI-L2', 'sm', 64 * KB, 256, 8, 32),
        L2,
      ],
      latency: { 'C-L1/-': 27, 'CI-L2/-': 89, 'L2/-': 245, 'memory/-': 427 },
      interconnectFrom: 2,
    },
  },
  l1Configs: CARVEOUTS,
  provenance: {
    'chip.sms': 'JIA18 Table 3.1 (processors per chip: 80); NVIDIA Tesla V100 whitepaper, Table 1 (80 SMs)',
    'chip.smPerTpc': 'NVIDIA Tesla V100 whitepaper (seven TPCs per GPC, each with two SMs)',
    'chip.coreClockMHz': 'JIA18 Table 3.1 (V100 PCIe, max graphics clock 1380 MHz: the clock its cycle counts were taken at)',
    'measurement.clockOverhead': 'assumed: JIA18 gives no clock overhead; 2 cycles, as ABD22 IV-A measures with two consecutive clock reads on the A100',
    'measurement.tpcOffsets': 'assumed: no placement dependence is modelled',
    'alu.spLatency': 'NVIDIA Volta Tuning Guide 4.1.1 (dependent FMA issue latency: four clock cycles); JIA18 Table 4.1 (FFMA 4 cycles)',
    'shared.sizeBytes': `${CARVEOUT_SOURCE}; the default is the largest L1 that leaves shared memory (8 KB)`,
    'shared.onChipBytes': 'NVIDIA Tesla V100 whitepaper (128 KB of combined L1 data cache and shared memory per SM)',
    'shared.latency.base': 'JIA18 Table 3.1 (shared memory no-conflict latency: 19 cycles)',
    ...modernSharedProvenance('JIA18 Table 3.1 (32 banks of 4 B per processor)', JIA_PER_CONFLICT('JIA18', 'Fig 3.9', 'V100')),
    'spaces.global.levels.0.sizeBytes': `${CARVEOUT_SOURCE}; the default carveout leaves 8 KB of shared memory, and 120 KB of L1 of which a chase sees 113 KB: ${UNSEEN_SOURCE}`,
    ...l1GeometryProvenance('spaces.global.levels.0.geometry', L1_SOURCES),
    'spaces.global.levels.1.sizeBytes': 'JIA18 Table 3.1 and 3.2 (L2: 6144 KB)',
    'spaces.global.levels.1.geometry.lineBytes': 'JIA18 Table 3.1 and 3.2 (L2 line: 64 B); JIA18 Fig 3.2 (at 32 B steps a DRAM access alternates with an L2 hit: the L2 is filled 64 B at a time, a whole line, with no smaller sector)',
    'spaces.global.levels.1.geometry.ways': 'JIA18 3.2 ("a 16-way set-associative cache having a size of 6,144 KiB, a cache line of 64 B")',
    'spaces.global.levels.1.geometry.sets': 'JIA18 3.2 (6144 KB / (16 ways x 64 B) = 6144 sets)',
    'spaces.global.levels.1.geometry.policy': 'assumed: LRU; JIA18 gives no L2 replacement rule',
    ...at('spaces.global', translationProvenance('JIA18 Table 3.1 and 3.8', JIA_VIRTUAL_L1('JIA18'))),
    'spaces.global.latency.L1/-': 'JIA18 Table 3.1 and Fig 3.2 (L1 hit latency: 28 cycles)',
    'spaces.global.latency.L2/l1': 'JIA18 Table 3.1, 3.2 and Fig 3.2 (L1 miss, L2 hit: about 193 cycles)',
    'spaces.global.latency.L2/l2':
      'JIA18 Fig 3.12, V100 panel, read from the chart (about 222 cycles with both TLBs hit, about 233 past the L1 TLB\'s 32 MB): 193 + 11',
    'spaces.global.latency.L2/miss': 'JIA18 Fig 3.12, V100 panel, read from the chart (about 352 cycles past the L2 TLB\'s 8 GB, 130 above the TLB-hit level): 193 + 130',
    'spaces.global.latency.memory/l1': 'JIA18 Fig 3.2 ("the 375-cycle latency reflects an L2 cache miss latency with a TLB hit")',
    'spaces.global.latency.memory/l2': 'assumed: JIA18 measures no DRAM access with an L1 TLB miss alone; 375 plus the 11-cycle L1 TLB miss of Fig 3.12',
    'spaces.global.latency.memory/miss': 'JIA18 Fig 3.2 ("the 1029-cycle latency of the first access is the result of both L2 cache miss and TLB miss")',
    'spaces.global.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    'spaces.constant.levels.0': 'JIA18 Table 3.1 (L1 constant: 2 KB, 64 B lines, 8 sets, 4-way) and 3.4 (private to the SM)',
    'spaces.constant.levels.0.geometry.policy': 'JIA18 3.4 ("the L1 constant cache uses a non-LRU replacement policy"), modelled as random: the paper gives no rule',
    'spaces.constant.levels.1': 'JIA18 Table 3.1 (L1.5 constant: at least 64 KB, 256 B lines) and 3.4 (private to the SM; the same store as the L1 instruction cache, so named CI-L2)',
    'spaces.constant.levels.1.geometry.sets': 'assumed: JIA18 gives the size and line only; 8 sets as the L1 constant cache (the ways follow: 32)',
    'spaces.constant.levels.1.geometry.policy': 'assumed: LRU; JIA18 gives no L1.5 replacement rule',
    'spaces.constant.levels.2': 'JIA18 3.4 (the L2 is the third level of constant cache, shared by all SMs and unified): the global L2',
    'spaces.constant.latency.C-L1/-': 'JIA18 Table 3.1 (L1 constant broadcast latency: about 27 cycles)',
    'spaces.constant.latency.CI-L2/-': 'JIA18 Table 3.1 (L1.5 constant broadcast latency: about 89 cycles)',
    'spaces.constant.latency.L2/-': 'JIA18 Table 3.1 (L2 constant broadcast latency: about 245 cycles)',
    'spaces.constant.latency.memory/-': 'assumed: JIA18 gives no constant-miss latency; 245 plus the global path\'s DRAM-over-L2 difference (375 - 193)',
    'spaces.constant.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    ...carveoutProvenance(CARVEOUTS, CARVEOUT_SOURCE, L1_SOURCES, UNSEEN_SOURCE),
  },
};
