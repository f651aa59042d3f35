import type { Preset } from './types';
import { KB, MB } from './build';
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

/** CUDA C++ Programming Guide, compute capability 8.0: shared memory of 0 to 164 KB of the SM's 192 KB. */
const CARVEOUTS = carveouts(192, [0, 8, 16, 32, 64, 100, 132, 164]);
const CARVEOUT_SOURCE =
  'NVIDIA CUDA C++ Programming Guide, compute capability 8.0 (shared memory 0, 8, 16, 32, 64, 100, 132 or 164 KB of a unified 192 KB)';

/** A100 (GA100, cc 8.0, SXM4 40 GB), the GPU of Abdelkhalik et al. (ABD22). */
export const ampere: Preset = {
  id: 'ampere',
  name: 'Ampere',
  device: 'A100 (SXM4, 40 GB)',
  generation: 'Ampere',
  computeCapability: '8.0',
  description:
    'ABD22 latencies (L1 33, L2 200, DRAM 290, shared 23 cycles); sectored L1 of 28-192 KB (the carveout); 40 MB L2 in two partitions (near and far: 4 KB granules interleaved, a far access 1.75x the near latency).',
  chip: { sms: 108, smPerTpc: 2, coreClockMHz: 1410 },
  measurement: { clockOverhead: 28, tpcOffsets: [0] },
  alu: { spLatency: 4 },
  shared: modernShared(8 * KB, 192 * KB, 23),
  spaces: {
    global: {
      description: 'Global memory: L1 184 KB (8 KB shared memory carveout) of 128 B lines in 32 B sectors, L2 40 MB of 128 B lines in two partitions, L1/L2 TLBs.',
      levels: [modernL1(184 * KB), modernL2(40 * MB, 128, 20, { count: 2, interleaveBytes: 4 * KB, farLatencyRatio: 1.75, replicateFar: false })],
      translation: modernTranslation(),
      latency: modernLatency(33, 200, 290),
      interconnectFrom: 1,
    },
  },
  l1Configs: CARVEOUTS,
  provenance: {
    'chip.sms': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (A100: 108 SMs)',
    'chip.smPerTpc': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (two SMs per TPC)',
    'chip.coreClockMHz': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (1410 MHz boost clock)',
    'measurement.clockOverhead': 'assumed: ABD22 reports latencies with the clock overhead removed; the GT200 figure of WONG IV-A stands in',
    'measurement.tpcOffsets': "assumed: no interconnect distance is modelled beyond the L2 partitions (an SM's near partition follows from its index: the first half of the SMs are near partition 0)",
    'alu.spLatency': 'ABD22 (add.f32 with a dependent operand: 4 cycles)',
    'shared.sizeBytes': `${CARVEOUT_SOURCE}; the default is the largest L1 that leaves shared memory (8 KB)`,
    'shared.onChipBytes': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (192 KB of combined L1 data cache and shared memory per SM)',
    'shared.latency.base': 'ABD22, memory access latency table (shared memory load: 23 cycles)',
    ...MODERN_SHARED_PROVENANCE,
    'spaces.global.levels.0.sizeBytes': CARVEOUT_SOURCE,
    ...l1GeometryProvenance('spaces.global.levels.0.geometry'),
    'spaces.global.levels.0.geometry.policy': 'assumed: LRU; no paper gives the L1 replacement rule of the A100',
    'spaces.global.levels.1.sizeBytes': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (40 MB L2)',
    'spaces.global.levels.1.geometry.lineBytes': 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (L2: 128 B lines of four 32 B sectors)',
    'spaces.global.levels.1.geometry.sectorBytes': 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (32 B sectors)',
    'spaces.global.levels.1.geometry.ways': 'assumed: no paper gives the L2 associativity; 20 ways make the set count a power of two',
    'spaces.global.levels.1.geometry.sets': 'assumed: 40 MB / (20 ways x 128 B)',
    'spaces.global.levels.1.partitions.count': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (the L2 is divided into two partitions)',
    'spaces.global.levels.1.partitions.interleaveBytes': 'assumed: no source gives the address interleave; 4 KB granules',
    'spaces.global.levels.1.partitions.replicateFar': 'assumed: no copy of far lines in the near partition; no source gives the replication rule',
    'spaces.global.levels.1.partitions.farLatencyRatio':
      'NVIDIA GTC 2021 session S33322, Dissecting the Ampere GPU Architecture through Microbenchmarking (a far-partition L2 access is about 1.75x slower)',
    ...at(
      'spaces.global',
      translationProvenance('assumed: no paper measures the A100 TLBs; the Volta and Turing structure of JIA18 and JIA19 Table 3.1 (32 MB in 2 MB entries, 8 GB in 32 MB entries)'),
    ),
    'spaces.global.latency.L1/-': 'ABD22, memory access latency table (L1 cache: 33 cycles)',
    'spaces.global.latency.L2/l1': 'ABD22, memory access latency table (L2 cache: 200 cycles)',
    'spaces.global.latency.memory/l1': 'ABD22, memory access latency table (global memory: 290 cycles)',
    ...at('spaces.global.latency', TLB_MISS_LATENCY_PROVENANCE),
    'spaces.global.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    ...carveoutProvenance(CARVEOUTS, CARVEOUT_SOURCE),
  },
};
