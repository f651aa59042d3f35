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

/** Turing Tuning Guide: 96 KB per SM, 32 KB or 64 KB of it shared memory. */
const CARVEOUTS = carveouts(96, [32, 64]);
const CARVEOUT_SOURCE = 'NVIDIA Turing Tuning Guide, unified L1 and shared memory (96 KB per SM: 64 KB L1 with 32 KB shared, or 32 KB L1 with 64 KB shared)';

/** Tesla T4 (TU104, cc 7.5), the GPU of Jia et al.'s Turing report (JIA19). */
export const turing: Preset = {
  id: 'turing',
  name: 'Turing',
  device: 'Tesla T4',
  generation: 'Turing',
  computeCapability: '7.5',
  description: 'JIA19: sectored L1 of 32 or 64 KB (the carveout), 32-cycle hits; 4 MB L2 of 64 B lines, 188-cycle hits; 2 MB L1 TLB entries, 32 MB L2 TLB entries.',
  chip: { sms: 40, smPerTpc: 2, coreClockMHz: 1590 },
  measurement: { clockOverhead: 28, tpcOffsets: [0] },
  alu: { spLatency: 4 },
  shared: modernShared(32 * KB, 96 * KB, 19),
  spaces: {
    global: {
      description: 'Global memory: L1 64 KB (32 KB shared memory carveout) of 128 B lines in 32 B sectors, L2 4 MB of 64 B lines, L1/L2 TLBs.',
      levels: [modernL1(64 * KB), modernL2(4096 * KB, 64, 16)],
      translation: modernTranslation(),
      latency: modernLatency(32, 188, 400),
      interconnectFrom: 1,
    },
  },
  l1Configs: CARVEOUTS,
  provenance: {
    'chip.sms': 'NVIDIA Turing whitepaper, appendix (Tesla T4: 40 SMs)',
    'chip.smPerTpc': 'NVIDIA Turing whitepaper (two SMs per TPC)',
    'chip.coreClockMHz': 'NVIDIA Turing whitepaper, appendix (Tesla T4: 1590 MHz boost clock)',
    'measurement.clockOverhead': 'assumed: JIA19 reports latencies with the clock overhead removed; the GT200 figure of WONG IV-A stands in',
    'measurement.tpcOffsets': 'assumed: no placement dependence is modelled',
    'alu.spLatency': 'NVIDIA Turing Tuning Guide, instruction scheduling (dependent FMA issue latency: four clock cycles, as on Volta)',
    'shared.sizeBytes': `${CARVEOUT_SOURCE}; the default is the 64 KB L1 carveout`,
    'shared.onChipBytes': CARVEOUT_SOURCE,
    'shared.latency.base': 'JIA19 Table 3.1 (shared memory: about 19 cycles)',
    ...MODERN_SHARED_PROVENANCE,
    'spaces.global.levels.0.sizeBytes': `${CARVEOUT_SOURCE}; JIA19 Table 3.1 (L1 data cache: 32 or 64 KB)`,
    ...l1GeometryProvenance('spaces.global.levels.0.geometry'),
    'spaces.global.levels.0.geometry.sectorBytes': 'JIA19 Table 3.1 (L1 load granularity 32 B, update granularity 128 B)',
    'spaces.global.levels.0.geometry.policy': 'assumed: LRU; JIA19 does not give a rule the model could follow',
    'spaces.global.levels.1.sizeBytes': 'JIA19 Table 3.1 (L2: 4096 KB)',
    'spaces.global.levels.1.geometry.lineBytes': 'JIA19 Table 3.1 (L2 line: 64 B)',
    'spaces.global.levels.1.geometry.sectorBytes': 'assumed: 32 B sectors, the L1 load granularity of JIA19 Table 3.1',
    'spaces.global.levels.1.geometry.ways': 'assumed: no paper gives the L2 associativity; 16 ways',
    'spaces.global.levels.1.geometry.sets': 'assumed: 4096 KB / (16 ways x 64 B)',
    ...at('spaces.global', translationProvenance('JIA19 Table 3.1')),
    'spaces.global.latency.L1/-': 'JIA19 Table 3.1 (L1 hit latency: 32 cycles)',
    'spaces.global.latency.L2/l1': 'JIA19 Table 3.1 (L2 hit latency: about 188 cycles)',
    'spaces.global.latency.memory/l1':
      'assumed: JIA19 gives no DRAM latency the model can use; 400 cycles, a round figure between the L2 hit and the DRAM latencies of ABD22 and LUO24',
    ...at('spaces.global.latency', TLB_MISS_LATENCY_PROVENANCE),
    'spaces.global.interconnectFrom': 'assumed: the L2 is reached over the crossbar',
    ...carveoutProvenance(CARVEOUTS, CARVEOUT_SOURCE),
  },
};
