import type { Preset } from './types';
import { KB } from './build';
import {
  at,
  carveoutProvenance,
  carveouts,
  l1GeometryProvenance,
  MODERN_SHARED_PROVENANCE,
  modernL1,
  modernL2,
  modernLatency,
  modernShared,
  modernTranslation,
  TLB_MISS_LATENCY_PROVENANCE,
  translationProvenance,
} from './modern';

/** CUDA C++ Programming Guide, compute capability 7.0: shared memory of 0, 8, 16, 32, 64 or 96 KB of the SM's 128 KB. */
const CARVEOUTS = carveouts(128, [0, 8, 16, 32, 64, 96]);
const CARVEOUT_SOURCE = 'NVIDIA CUDA C++ Programming Guide, compute capability 7.x (shared memory 0, 8, 16, 32, 64 or 96 KB of a unified 128 KB)';

/** Tesla V100 (GV100, cc 7.0), the GPU of Jia et al.'s Volta report (JIA18). */
export const volta: Preset = {
  id: 'volta',
  name: 'Volta',
  device: 'Tesla V100 (SXM2, 16 GB)',
  generation: 'Volta',
  computeCapability: '7.0',
  description:
    'JIA18: sectored L1 of 32-128 KB (the carveout), 28-cycle hits; 6 MB L2 of 64 B lines, 193-cycle hits; 2 MB L1 TLB entries, 32 MB L2 TLB entries.',
  chip: { sms: 80, smPerTpc: 2, coreClockMHz: 1530 },
  measurement: { clockOverhead: 28, tpcOffsets: [0] },
  alu: { spLatency: 4 },
  shared: modernShared(8 * KB, 128 * KB, 19),
  spaces: {
    global: {
      description: 'Global memory: L1 120 KB (8 KB shared memory carveout) of 128 B lines in 32 B sectors, L2 6 MB of 64 B lines, L1/L2 TLBs.',
      levels: [modernL1(120 * KB), modernL2(6144 * KB, 64, 24)],
      translation: modernTranslation(),
      latency: modernLatency(28, 193, 400),
      interconnectFrom: 1,
    },
  },
  l1Configs: CARVEOUTS,
  provenance: {
    'chip.sms': 'NVIDIA Tesla V100 whitepaper, Table 1 (80 SMs)',
    'chip.smPerTpc': 'NVIDIA Tesla V100 whitepaper (two SMs per TPC)',
    'chip.coreClockMHz': 'NVIDIA Tesla V100 whitepaper, Table 1 (1530 MHz boost clock)',
    'measurement.clockOverhead': 'assumed: JIA18 reports latencies with the clock overhead removed; the GT200 figure of WONG IV-A stands in',
    'measurement.tpcOffsets': 'assumed: no placement dependence is modelled',
    'alu.spLatency': 'NVIDIA Volta Tuning Guide 4.1.1 (dependent FMA issue latency: four clock cycles)',
    'shared.sizeBytes': `${CARVEOUT_SOURCE}; the default is the largest L1 that leaves shared memory (8 KB)`,
    'shared.onChipBytes': 'NVIDIA Tesla V100 whitepaper (128 KB of combined L1 data cache and shared memory per SM)',
    'shared.latency.base': 'JIA18 Table 3.1 (shared memory: about 19 cycles)',
    ...MODERN_SHARED_PROVENANCE,
    'spaces.global.levels.0.sizeBytes': `${CARVEOUT_SOURCE}; JIA18 Table 3.1 (L1 data cache: 32 to 128 KB)`,
    ...l1GeometryProvenance('spaces.global.levels.0.geometry'),
    'spaces.global.levels.0.geometry.sectorBytes': 'JIA18 Table 3.1 (L1 load granularity 32 B, update granularity 128 B)',
    'spaces.global.levels.0.geometry.policy': 'assumed: LRU; JIA18 does not give a rule the model could follow',
    'spaces.global.levels.1.sizeBytes': 'JIA18 Table 3.1 (L2: 6144 KB)',
    'spaces.global.levels.1.geometry.lineBytes': 'JIA18 Table 3.1 (L2 line: 64 B)',
    'spaces.global.levels.1.geometry.sectorBytes': 'assumed: 32 B sectors, the L1 load granularity of JIA18 Table 3.1',
    'spaces.global.levels.1.geometry.ways': 'assumed: no paper gives the L2 associativity; 24 ways make the set count a power of two',
    'spaces.global.levels.1.geometry.sets': 'assumed: 6144 KB / (24 ways x 64 B)',
    ...at('spaces.global', translationProvenance('JIA18 Table 3.1')),
    'spaces.global.latency.L1/-': 'JIA18 Table 3.1 (L1 hit latency: 28 cycles)',
    'spaces.global.latency.L2/l1': 'JIA18 Table 3.1 (L2 hit latency: about 193 cycles)',
    'spaces.global.latency.memory/l1':
      'assumed: JIA18 gives no DRAM latency the model can use; 400 cycles, a round figure between the L2 hit and the DRAM latencies of ABD22 and LUO24',
    ...at('spaces.global.latency', TLB_MISS_LATENCY_PROVENANCE),
    'spaces.global.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    ...carveoutProvenance(CARVEOUTS, CARVEOUT_SOURCE),
  },
};

