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

/** Hopper Tuning Guide / CUDA C++ Programming Guide, compute capability 9.0: shared memory of 0 to 228 KB of the SM's 256 KB. */
const CARVEOUTS = carveouts(256, [0, 8, 16, 32, 64, 100, 132, 164, 196, 228]);
const CARVEOUT_SOURCE =
  'NVIDIA Hopper Tuning Guide, unified L1 and shared memory (shared memory 0, 8, 16, 32, 64, 100, 132, 164, 196 or 228 KB of a unified 256 KB)';

/**
 * H100 (GH100, cc 9.0, SXM5). The latencies are LUO24's, measured on the H800 (the same GH100 SM
 * and memory hierarchy); sizes come from NVIDIA's whitepaper and tuning guide. Built from these
 * sources only, never from runs on a real H100: reference/h100-predictions.ts lists what to hold
 * against one.
 */
export const hopper: Preset = {
  id: 'hopper',
  name: 'Hopper',
  device: 'H100 (SXM5, 80 GB)',
  generation: 'Hopper',
  computeCapability: '9.0',
  description:
    'LUO24 latencies (L1 40.7, L2 263, DRAM 478.8, shared 29 cycles); sectored L1 of 28-256 KB (the carveout); 50 MB L2 in two partitions (near and far: 4 KB granules interleaved, a far access 1.75x the near latency).',
  chip: { sms: 132, smPerTpc: 2, coreClockMHz: 1755 },
  measurement: { clockOverhead: 28, tpcOffsets: [0] },
  alu: { spLatency: 4 },
  shared: modernShared(8 * KB, 256 * KB, 29),
  spaces: {
    global: {
      description: 'Global memory: L1 248 KB (8 KB shared memory carveout) of 128 B lines in 32 B sectors, L2 50 MB of 128 B lines in two partitions, L1/L2 TLBs.',
      levels: [modernL1(248 * KB), modernL2(50 * MB, 128, 25, { count: 2, interleaveBytes: 4 * KB, farLatencyRatio: 1.75, replicateFar: false })],
      translation: modernTranslation(),
      latency: modernLatency(40.7, 263, 478.8),
      interconnectFrom: 1,
    },
  },
  l1Configs: CARVEOUTS,
  provenance: {
    'chip.sms': 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (H100 SXM5: 132 SMs)',
    'chip.smPerTpc': 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (two SMs per TPC)',
    'chip.coreClockMHz': 'assumed: the H100 PCIe boost clock (1755 MHz); the latency tier counts cycles and does not use it',
    'measurement.clockOverhead': 'assumed: LUO24 reports latencies with the clock overhead removed; the GT200 figure of WONG IV-A stands in',
    'measurement.tpcOffsets': "assumed: no interconnect distance is modelled beyond the L2 partitions (an SM's near partition follows from its index: the first half of the SMs are near partition 0)",
    'alu.spLatency': 'assumed: the four-cycle dependent FMA latency of Volta to Ampere (NVIDIA Volta Tuning Guide, ABD22); no source gives Hopper its own',
    'shared.sizeBytes': `${CARVEOUT_SOURCE}; the default is the largest L1 that leaves shared memory (8 KB)`,
    'shared.onChipBytes': 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (256 KB of combined L1 data cache and shared memory per SM)',
    'shared.latency.base': 'LUO24, memory latency table (H800 shared memory: 29.0 cycles)',
    ...MODERN_SHARED_PROVENANCE,
    'spaces.global.levels.0.sizeBytes': CARVEOUT_SOURCE,
    ...l1GeometryProvenance('spaces.global.levels.0.geometry'),
    'spaces.global.levels.0.geometry.policy': 'assumed: LRU; no paper gives the L1 replacement rule of the H100',
    'spaces.global.levels.1.sizeBytes': 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (50 MB L2)',
    'spaces.global.levels.1.geometry.lineBytes': 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (L2: 128 B lines of four 32 B sectors)',
    'spaces.global.levels.1.geometry.sectorBytes': 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (32 B sectors)',
    'spaces.global.levels.1.geometry.ways': 'assumed: no paper gives the L2 associativity; 25 ways make the set count a power of two',
    'spaces.global.levels.1.geometry.sets': 'assumed: 50 MB / (25 ways x 128 B)',
    'spaces.global.levels.1.partitions.count': 'assumed: two partitions, as the A100 whitepaper describes for GA100; LUO24 benchmarks the partitioned L2 without a count the model could use',
    'spaces.global.levels.1.partitions.interleaveBytes': 'assumed: no source gives the address interleave; 4 KB granules',
    'spaces.global.levels.1.partitions.replicateFar': 'assumed: no copy of far lines in the near partition; no source gives the replication rule',
    'spaces.global.levels.1.partitions.farLatencyRatio':
      "assumed: the A100's far-partition ratio (NVIDIA GTC 2021 session S33322: about 1.75x); no paper gives the H100's",
    ...at(
      'spaces.global',
      translationProvenance('assumed: no paper measures the H100 TLBs; the Volta and Turing structure of JIA18 and JIA19 Table 3.1 (32 MB in 2 MB entries, 8 GB in 32 MB entries)'),
    ),
    'spaces.global.latency.L1/-': 'LUO24, memory latency table (H800 L1 cache: 40.7 cycles)',
    'spaces.global.latency.L2/l1': 'LUO24, memory latency table (H800 L2 cache: 263 cycles)',
    'spaces.global.latency.memory/l1': 'LUO24, memory latency table (H800 global memory: 478.8 cycles)',
    ...at('spaces.global.latency', TLB_MISS_LATENCY_PROVENANCE),
    'spaces.global.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    ...carveoutProvenance(CARVEOUTS, CARVEOUT_SOURCE),
  },
};
