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
  conversionNote,
  convertCycles,
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
const L1_SOURCES = assumedL1Sources('LUO24', 'GH100');

/** Hopper Tuning Guide / CUDA C++ Programming Guide, compute capability 9.0: shared memory of 0 to 228 KB of the SM's 256 KB. */
const CARVEOUTS = carveouts(256, [0, 8, 16, 32, 64, 100, 132, 164, 196, 228], L1_SETS, L1_POLICY);
const CARVEOUT_SOURCE =
  'NVIDIA Hopper Tuning Guide, unified L1 and shared memory (shared memory 0, 8, 16, 32, 64, 100, 132, 164, 196 or 228 KB of a unified 256 KB)';

/** The cards the latencies were measured on (LUO24 Table III; JIA18 Table 3.1) and the one the presets model. */
export const H800_PCIE: Card = { name: 'H800 PCIe', clockMHz: 1755 };
const V100: Card = { name: 'V100 PCIe', clockMHz: 1380 };
export const H100_SXM5: Card = { name: 'H100 SXM5', clockMHz: 1980 };

/** LUO24 Table IV (H800 PCIe, cycles at 1755 MHz). */
const LUO24 = { l1: 40.7, shared: 29.0, l2: 263.0, global: 478.8 };
/** JIA18's V100 TLB-miss penalties (Fig 3.12 chart; Fig 3.2: 1029 - 375), cycles at 1380 MHz. */
const V100_TLB = { l1Miss: 11, l2MissCached: 130, walk: 654 };

/** A GH100 preset: the SM and caches of LUO24's Hopper and NVIDIA's documents, at `card`'s clock. */
/** The L2 of a GH100 part: its size, the ways (the sets follow, a power of two) and where the size comes from. */
interface Gh100L2 {
  mb: number;
  ways: number;
  source: string;
}

const H100_L2: Gh100L2 = { mb: 50, ways: 25, source: 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (50 MB L2)' };

function gh100(id: string, name: string, device: string, memory: string, card: Card, cardSource: string, memorySource: string, l2: Gh100L2 = H100_L2): Preset {
  const l2Hit = convertCycles(LUO24.l2, LUO24.l1, H800_PCIE, card);
  const dram = convertCycles(LUO24.global, LUO24.l1, H800_PCIE, card);
  const pen = (c: number): number => convertPenalty(c, V100, card);
  const r1 = (x: number): number => Math.round(x * 10) / 10;
  return {
    id,
    name,
    device,
    generation: 'Hopper',
    computeCapability: '9.0',
    description: `LUO24 latencies (H800 PCIe) at ${card.clockMHz} MHz: L1 40.7, L2 ${l2Hit}, DRAM ${dram}, shared 29 cycles; L1 of 28-256 KB by carveout; ${l2.mb} MB L2 in two partitions, far lines copied to the near one; ${memory}.`,
    chip: { sms: 132, smPerTpc: 2, coreClockMHz: card.clockMHz },
    measurement: { clockOverhead: 2, tpcOffsets: [0] },
    alu: { spLatency: 4 },
    shared: modernShared(8 * KB, 256 * KB, LUO24.shared, 2),
    spaces: {
      global: {
        description: `Global memory: L1 248 KB (8 KB shared memory carveout) of 128 B lines in 32 B sectors; L2 ${l2.mb} MB of 128 B lines in two partitions; L1/L2 TLBs.`,
        levels: [
          modernL1(248 * KB, L1_SETS, L1_POLICY),
          modernL2(l2.mb * MB, 128, l2.ways, { sectorBytes: 32, fillBytes: 64, partitions: { count: 2, interleaveBytes: 4096, farLatencyRatio: 1.75, replicateFar: true } }),
        ],
        translation: modernTranslation(),
        latency: {
          'L1/-': LUO24.l1,
          'L2/l1': l2Hit,
          'L2/l2': r1(l2Hit + pen(V100_TLB.l1Miss)),
          'L2/miss': r1(l2Hit + pen(V100_TLB.l2MissCached)),
          'memory/l1': dram,
          'memory/l2': r1(dram + pen(V100_TLB.l1Miss)),
          'memory/miss': r1(dram + pen(V100_TLB.walk)),
        },
        interconnectFrom: 1,
      },
    },
    l1Configs: CARVEOUTS,
    provenance: {
      'chip.sms': 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (H100 SXM5: 132 SMs); LUO24 Table III\'s H800 PCIe has 114',
      'chip.smPerTpc': 'NVIDIA H100 Tensor Core GPU Architecture whitepaper (two SMs per TPC)',
      'chip.coreClockMHz': cardSource,
      'measurement.clockOverhead': 'assumed: LUO24 gives no clock overhead; 2 cycles, as ABD22 IV-A measures with two consecutive clock reads on the A100',
      'measurement.tpcOffsets': 'assumed: no TPC placement dependence beyond the L2 partitions is modelled',
      'alu.spLatency': 'assumed: the four-cycle dependent FMA latency of Volta to Ampere (JIA18 Table 4.1, JIA19 4.1, ABD22 V-A); LUO24 gives none for Hopper',
      'shared.sizeBytes': `${CARVEOUT_SOURCE}; the default is the largest L1 that leaves shared memory (8 KB)`,
      'shared.onChipBytes': 'NVIDIA H100 Tensor Core GPU Architecture whitepaper; LUO24 Fig 1 ("256 KB L1 / Shared Memory" per SM)',
      'shared.latency.base': 'LUO24 Table IV (H800 shared memory: 29.0 cycles; SM pipeline cycles, not converted)',
      ...modernSharedProvenance(
        'NVIDIA CUDA C++ Programming Guide, compute capability 5.x and later, shared memory (32 banks)',
        'assumed: LUO24 gives no conflict cost; 2 cycles per further thread on one bank, as JIA18 Fig 3.9 and JIA19 Fig 3.11 show on V100 and T4',
      ),
      'spaces.global.levels.0.sizeBytes': `${CARVEOUT_SOURCE}; the default carveout leaves 8 KB of shared memory`,
      ...l1GeometryProvenance('spaces.global.levels.0.geometry', L1_SOURCES),
      'spaces.global.levels.1.sizeBytes': l2.source,
      'spaces.global.levels.1.geometry.lineBytes': 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (L2: 128 B lines of four 32 B sectors)',
      'spaces.global.levels.1.geometry.sectorBytes': 'NVIDIA Nsight Compute Kernel Profiling Guide, memory tables (32 B sectors)',
      'spaces.global.levels.1.geometry.fillBytes':
        'assumed: no paper gives the GH100 device-memory fill unit; 64 B, the fill JIA18 Fig 3.2 and JIA19 Fig 3.5 show on V100 and T4 (a DRAM access every 64 B). The H100 runs show 64 B too and were seen before: H100-REAL declares that check recovered, not predicted',
      'spaces.global.levels.1.geometry.ways': `assumed: no paper gives the L2 associativity; ${l2.ways} ways make the set count a power of two`,
      'spaces.global.levels.1.geometry.sets': `assumed: ${l2.mb} MB / (${l2.ways} ways x 128 B)`,
      'spaces.global.levels.1.geometry.policy': 'assumed: LRU; no paper gives the L2 replacement rule',
      'spaces.global.levels.1.partitions.count':
        'assumed: LUO24 does not study the L2 partitions; two, as NVIDIA\'s A100 whitepaper describes for GA100',
      'spaces.global.levels.1.partitions.interleaveBytes': 'assumed: no source gives the address interleave of the partitions; 4 KB granules dealt alternately',
      'spaces.global.levels.1.partitions.farLatencyRatio':
        "assumed: no paper at hand gives the GH100's far-partition cost; the A100's 1.75 (NVIDIA GTC 2021 session S33322)",
      'spaces.global.levels.1.partitions.replicateFar':
        'assumed: LUO24 Table IV reads one L2 latency (263) from a warmed chase, not a mix of near and far; so the model copies a far line into the near partition, which a warmed chase then hits. Chosen with the H100 runs of tests/fixtures/real/h100 already seen (their L2 plateau is flat to 22 MB): H100-REAL checks nothing this decides as a prediction',
      ...at(
        'spaces.global',
        translationProvenance(
          'assumed: no paper measures the GH100 TLBs; the Volta and Turing structure of JIA18 and JIA19 Table 3.1 (32 MB in 2 MB entries, 8 GB in 32 MB entries)',
          'assumed: as JIA18 and JIA19 3.8 find on V100 and T4, the L1 is looked up before the TLBs and an L1 hit needs no translation',
        ),
      ),
      'spaces.global.latency.L1/-': 'LUO24 Table IV (H800 L1 cache: 40.7 cycles; SM pipeline cycles, not converted)',
      'spaces.global.latency.L2/l1': `LUO24 Table IV (H800 L2 cache): ${conversionNote(LUO24.l2, LUO24.l1, H800_PCIE, card)}; the rule (beyond the L1 hit a latency is fixed in time) was chosen with the H100's 290.7 already measured, so H100-REAL's L2 check is a method check (recovered), not a prediction`,
      'spaces.global.latency.L2/l2': `assumed: LUO24 measures no TLB miss; the L2 hit plus the V100's 11-cycle L1 TLB miss (JIA18 Fig 3.12, chart) at ${card.clockMHz}/1380: ${pen(V100_TLB.l1Miss)}`,
      'spaces.global.latency.L2/miss': `assumed: the L2 hit plus the V100's 130-cycle L2 TLB miss (JIA18 Fig 3.12, chart) at ${card.clockMHz}/1380: ${pen(V100_TLB.l2MissCached)}`,
      'spaces.global.latency.memory/l1': `LUO24 Table IV and III-A-4 (H800 global memory, measured after a TLB warm-up): ${conversionNote(LUO24.global, LUO24.l1, H800_PCIE, card)}; ${memorySource}`,
      'spaces.global.latency.memory/l2': `assumed: the DRAM latency plus the V100's L1 TLB miss (JIA18 Fig 3.12) at ${card.clockMHz}/1380: ${pen(V100_TLB.l1Miss)}`,
      'spaces.global.latency.memory/miss': `assumed: the DRAM latency plus the V100's page walk (JIA18 Fig 3.2: 1029 - 375 = 654 cycles) at ${card.clockMHz}/1380: ${pen(V100_TLB.walk)}`,
      'spaces.global.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
      ...carveoutProvenance(CARVEOUTS, CARVEOUT_SOURCE, L1_SOURCES),
    },
  };
}

/**
 * H100 SXM5 (GH100, cc 9.0) at 1980 MHz. The latencies are LUO24's, measured on an H800 PCIe at
 * 1755 MHz and converted to this clock (src-sim/presets/modern.ts, convertCycles); sizes come from
 * NVIDIA's whitepaper and tuning guide. Built from these sources only, never from runs on a real
 * H100: reference/rows-h100.ts holds it against one.
 */
export const hopper: Preset = gh100(
  'hopper',
  'Hopper',
  'H100 SXM5 (80 GB HBM3), 1980 MHz',
  'HBM3, 80 GB',
  H100_SXM5,
  'NVIDIA H100 SXM5 specifications (GPU boost clock 1980 MHz, the clock the CUDA runtime reports for the device); LUO24 measured its H800 PCIe at 1755 MHz (Table III)',
  'the H100 SXM5\'s HBM3 is taken to have the latency of the H800 PCIe\'s HBM2e in time (assumed: no paper at hand measures the H100\'s)',
);

/**
 * H200 SXM (GH100, cc 9.0, 141 GB HBM3e): the H100's SM with NVIDIA's H200 memory and the 60 MB L2
 * the CUDA runtime reports for it. The latency tier does not model capacity or bandwidth; the DRAM
 * latency is the H100's, no paper at hand measuring HBM3e.
 */
export const h200: Preset = gh100(
    'h200',
    'Hopper H200',
    'H200 SXM (141 GB HBM3e), 1980 MHz',
    'HBM3e, 141 GB at 4.8 TB/s',
    H100_SXM5,
    'assumed: the H100 SXM5\'s 1980 MHz boost clock (the same GH100 chip); NVIDIA\'s H200 specifications give its memory (141 GB HBM3e, 4.8 TB/s)',
    'assumed: the H200\'s HBM3e is taken to have the H800\'s device-memory latency in time; no paper at hand measures HBM3e',
  { mb: 60, ways: 30, source: "NVIDIA CUDA runtime, the L2 size attribute (cudaDevAttrL2CacheSize) an H200 reports: 62914560 B (the device line of tests/fixtures/real/h200); NVIDIA's H200 specifications give none" },
  );
