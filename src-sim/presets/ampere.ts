import type { Preset } from './types';
import type { Card } from './modern';
import { KB, MB } from './build';
import {
  ASSUMED_L1_POLICY,
  ASSUMED_L1_SETS,
  assumedL1Sources,
  at,
  carveoutProvenance,
  carveouts,
  convertPenalty,
  l1GeometryProvenance,
  modernL1,
  modernL2,
  modernShared,
  modernSharedProvenance,
  modernTranslation,
  translationProvenance,
} from './modern';

const L1_SETS = ASSUMED_L1_SETS;
const L1_POLICY = ASSUMED_L1_POLICY;
const L1_SOURCES = assumedL1Sources('ABD22', 'A100');

/** CUDA C++ Programming Guide, compute capability 8.0: shared memory of 0 to 164 KB of the SM's 192 KB. */
const CARVEOUTS = carveouts(192, [0, 8, 16, 32, 64, 100, 132, 164], L1_SETS, L1_POLICY);
const CARVEOUT_SOURCE =
  'NVIDIA CUDA C++ Programming Guide, compute capability 8.0 (shared memory 0, 8, 16, 32, 64, 100, 132 or 164 KB of a unified 192 KB)';

/** The card the TLB penalties are borrowed from (JIA18 Table 3.1) and the card this preset models. */
const V100: Card = { name: 'V100 PCIe', clockMHz: 1380 };
const A100: Card = { name: 'A100 PCIe', clockMHz: 1410 };
const pen = (c: number): number => convertPenalty(c, V100, A100);

/**
 * A100 (GA100, cc 8.0) with Abdelkhalik et al.'s latencies (ABD22 Table IV). ABD22 names neither the
 * form factor nor the clock; the SM count and clock are LUO24 Table III's A100 PCIe 40 GB.
 */
export const ampere: Preset = {
  id: 'ampere',
  name: 'Ampere',
  device: 'A100 PCIe (40 GB), 1410 MHz',
  generation: 'Ampere',
  computeCapability: '8.0',
  description:
    'ABD22 latencies (L1 33, L2 200, global 290, shared 23 cycles); L1 of 28-192 KB by carveout; 40 MB L2 in two partitions, far lines copied to the near one.',
  chip: { sms: 108, smPerTpc: 2, coreClockMHz: 1410 },
  measurement: { clockOverhead: 2, tpcOffsets: [0] },
  alu: { spLatency: 4 },
  shared: modernShared(8 * KB, 192 * KB, 23, 2),
  spaces: {
    global: {
      description: 'Global memory: L1 184 KB (8 KB shared memory carveout) of 128 B lines in 32 B sectors; L2 40 MB of 128 B lines in two partitions; L1/L2 TLBs.',
      levels: [
        modernL1(184 * KB, L1_SETS, L1_POLICY),
        modernL2(40 * MB, 128, 20, { sectorBytes: 32, fillBytes: 64, partitions: { count: 2, interleaveBytes: 4096, farLatencyRatio: 1.75, replicateFar: true } }),
      ],
      translation: modernTranslation(),
      latency: {
        'L1/-': 33,
        'L2/l1': 200,
        'L2/l2': +(200 + pen(11)).toFixed(1),
        'L2/miss': +(200 + pen(130)).toFixed(1),
        'memory/l1': 290,
        'memory/l2': +(290 + pen(11)).toFixed(1),
        'memory/miss': +(290 + pen(1029 - 375)).toFixed(1),
      },
      interconnectFrom: 1,
    },
  },
  l1Configs: CARVEOUTS,
  provenance: {
    'chip.sms': 'LUO24 Table III (A100 PCIe: 108 SMs x 64 cores)',
    'chip.smPerTpc': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (two SMs per TPC)',
    'chip.coreClockMHz':
      "LUO24 Table III (A100 PCIe max clock 1410 MHz); ABD22 states no clock, so its cycle counts are used as they are (taken as counted at this clock)",
    'measurement.clockOverhead': 'ABD22 IV-A ("we calculate the clock overhead using two consecutive clock reading instructions and find that it equals 2 cycles")',
    'measurement.tpcOffsets': 'assumed: no TPC placement dependence beyond the L2 partitions is modelled',
    'alu.spLatency': 'ABD22 V-A ("single precision add instruction shows 4 and 2 cycles" with and without a dependency)',
    'shared.sizeBytes': `${CARVEOUT_SOURCE}; the default is the largest L1 that leaves shared memory (8 KB)`,
    'shared.onChipBytes': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (192 KB of combined L1 data cache and shared memory per SM)',
    'shared.latency.base': 'ABD22 Table IV (shared memory ld/st: 23/19 cycles; the load)',
    ...modernSharedProvenance(
      'NVIDIA CUDA C++ Programming Guide, compute capability 5.x and later, shared memory (32 banks)',
      'assumed: ABD22 gives no conflict cost; 2 cycles per further thread on one bank, as JIA18 Fig 3.9 and JIA19 Fig 3.11 show on V100 and T4',
    ),
    'spaces.global.levels.0.sizeBytes': `${CARVEOUT_SOURCE}; the default carveout leaves 8 KB of shared memory`,
    ...l1GeometryProvenance('spaces.global.levels.0.geometry', L1_SOURCES),
    'spaces.global.levels.1.sizeBytes': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (40 MB L2)',
    'spaces.global.levels.1.geometry.lineBytes': 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (L2: 128 B lines of four 32 B sectors)',
    'spaces.global.levels.1.geometry.sectorBytes': 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (32 B sectors)',
    'spaces.global.levels.1.geometry.fillBytes':
      'assumed: no paper gives the A100 device-memory fill unit; 64 B, the fill JIA18 Fig 3.2 and JIA19 Fig 3.5 show on V100 and T4 (a DRAM access every 64 B)',
    'spaces.global.levels.1.geometry.ways': 'assumed: no paper gives the L2 associativity; 20 ways make the set count a power of two',
    'spaces.global.levels.1.geometry.sets': 'assumed: 40 MB / (20 ways x 128 B)',
    'spaces.global.levels.1.geometry.policy': 'assumed: LRU; no paper gives the L2 replacement rule',
    'spaces.global.levels.1.partitions.count': 'NVIDIA A100 Tensor Core GPU Architecture whitepaper (the L2 is divided into two partitions)',
    'spaces.global.levels.1.partitions.interleaveBytes': 'assumed: no source gives the address interleave of the partitions; 4 KB granules dealt alternately',
    'spaces.global.levels.1.partitions.farLatencyRatio':
      'NVIDIA GTC 2021 session S33322, Dissecting the Ampere GPU Architecture through Microbenchmarking (a far-partition L2 hit is about 1.75x a near one)',
    'spaces.global.levels.1.partitions.replicateFar':
      "assumed: ABD22 Table IV (200) and LUO24 Table IV (261.5) each read one L2 latency from a warmed chase, not a mix of near and far; so the model copies a far line into the near partition, which a warmed chase then hits",
    ...at(
      'spaces.global',
      translationProvenance(
        'assumed: no paper measures the A100 TLBs; the Volta and Turing structure of JIA18 and JIA19 Table 3.1 (32 MB in 2 MB entries, 8 GB in 32 MB entries)',
        'assumed: as JIA18 and JIA19 3.8 find on V100 and T4, the L1 is looked up before the TLBs and an L1 hit needs no translation',
      ),
    ),
    'spaces.global.latency.L1/-': 'ABD22 Table IV (L1 cache: 33 cycles)',
    'spaces.global.latency.L2/l1': 'ABD22 Table IV (L2 cache: 200 cycles)',
    'spaces.global.latency.L2/l2': `assumed: no paper measures the A100's TLB misses; 200 plus the V100's 11-cycle L1 TLB miss (JIA18 Fig 3.12, chart) at 1410/1380: ${pen(11)}`,
    'spaces.global.latency.L2/miss': `assumed: 200 plus the V100's 130-cycle L2 TLB miss (JIA18 Fig 3.12, chart) at 1410/1380: ${pen(130)}`,
    'spaces.global.latency.memory/l1':
      'ABD22 Table IV and V-B (global memory: 290 cycles, with caching disabled at every level, ld.cv, so that no cache miss cost is included); LUO24 Table IV reads 466.3 on an A100 PCIe',
    'spaces.global.latency.memory/l2': `assumed: 290 plus the V100's L1 TLB miss (JIA18 Fig 3.12) at 1410/1380: ${pen(11)}`,
    'spaces.global.latency.memory/miss': `assumed: 290 plus the V100's page walk (JIA18 Fig 3.2: 1029 - 375 = 654 cycles) at 1410/1380: ${pen(654)}`,
    'spaces.global.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    ...carveoutProvenance(CARVEOUTS, CARVEOUT_SOURCE, L1_SOURCES),
  },
};
