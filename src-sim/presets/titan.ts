import type { Preset } from './types';
import { TITAN_TIMING, TITAN_TIMING_PROVENANCE } from './timing';
import { KB, level, MB } from './build';
import { FERMI_KEPLER_PROVENANCE, fermiKeplerTranslation, TEXTURE_L1, TEXTURE_L1_PROVENANCE, under } from './common';
import { KEPLER_SHARED_MODES } from './kepler';

const L1 = level('L1', 'sm', 16 * KB, 128, 4, 32);

/**
 * MEI's TLB and texture measurements (GTX 560 Ti and GTX 780) taken for the Titan Black: no paper
 * measured them on this card, so each is assumed (GK110, as GTX 780), with MEI's source kept.
 */
const gk110 = (v: string): string => (v.startsWith('assumed') ? v : `assumed: GK110 as MEI's GTX 780, no paper measured the Titan Black's (${v})`);
const asGk110 = (block: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(block).map(([k, v]) => [k, gk110(v)]));
const L2 = level('L2', 'chip', 1536 * KB, 128, 768, 16);

/** GeForce GTX Titan Black (GK110), SL1's card. */
export const titan: Preset = {
  id: 'titan',
  name: 'Titan',
  device: 'GeForce GTX Titan Black',
  generation: 'Kepler',
  computeCapability: '3.5',
  description: 'GK110 as SL1 measured it: L1 80, shared 80, L2 240, DRAM 350 cycles; 15 SMX, 1.5 MB L2.',
  chip: { sms: 15, smPerTpc: 1, coreClockMHz: 980 },
  measurement: { clockOverhead: 28, tpcOffsets: [0] },
  alu: { spLatency: 10 },
  shared: {
    sizeBytes: 48 * KB,
    banks: 32,
    issueGroup: 32,
    modes: KEPLER_SHARED_MODES,
    defaultMode: '4-byte',
    latency: { base: 80, perConflict: 37.4 },
    onChipBytes: 64 * KB,
  },
  spaces: {
    global: {
      description: 'Global memory with L1 caching enabled (as SL1 uses it): L1 16 KB, L2 1.5 MB, L1/L2 TLBs.',
      levels: [L1, L2],
      translation: fermiKeplerTranslation(512 * MB),
      latency: {
        'L1/l1': 80,
        'L1/l2': 86,
        'L1/miss': 139,
        'L1/inactive': 405,
        'L2/l1': 240,
        'L2/l2': 246,
        'L2/miss': 299,
        'L2/inactive': 565,
        'memory/l1': 350,
        'memory/l2': 356,
        'memory/miss': 713,
        'memory/inactive': 979,
      },
      interconnectFrom: 1,
    },
    'global-cg': {
      description: 'Global memory, L1 skipped (the Kepler default): L2 1.5 MB, L1/L2 TLBs.',
      levels: [L2],
      translation: fermiKeplerTranslation(512 * MB),
      latency: {
        'L2/l1': 240,
        'L2/l2': 246,
        'L2/miss': 299,
        'L2/inactive': 565,
        'memory/l1': 350,
        'memory/l2': 356,
        'memory/miss': 713,
        'memory/inactive': 979,
      },
      interconnectFrom: 0,
    },
    texture: {
      description: 'Texture / read-only path: texture L1 12 KB per SMX, then the shared L2 and TLBs.',
      levels: [TEXTURE_L1, L2],
      translation: { ...fermiKeplerTranslation(512 * MB), virtualLevels: 1 },
      latency: {
        'Tex L1/-': 110,
        'L2/l1': 220,
        'L2/l2': 226,
        'L2/miss': 279,
        'L2/inactive': 545,
        'memory/l1': 361,
        'memory/l2': 367,
        'memory/miss': 724,
        'memory/inactive': 990,
      },
      interconnectFrom: 1,
    },
  },
  timing: TITAN_TIMING,
  provenance: {
    ...Object.fromEntries(Object.entries(TITAN_TIMING_PROVENANCE).map(([k, v]) => [`timing.${k}`, v])),
    'chip.sms': 'SL1 2.1 (15 SMX)',
    'chip.smPerTpc': 'assumed: per-SM texture units as on GTX 780 (MEI Table 1)',
    'chip.coreClockMHz': 'SL1 4.1 (980 MHz)',
    'measurement.clockOverhead': 'assumed: the GT200 figure of WONG IV-A',
    'measurement.tpcOffsets': 'assumed: SL1 reports isolated latencies only',
    'alu.spLatency': 'SL1 2.1 (register access 10 cycles)',
    'shared.sizeBytes': 'SL1 4.1 (48 KB of the 64 KB on-chip memory)',
    'shared.onChipBytes': 'SL1 4.1 (64 KB of on-chip memory per SM, shared memory and L1)',
    'shared.banks': 'assumed: GK110 as GTX 780 (MEI Table 1)',
    'shared.issueGroup': 'assumed: one warp, as MEI 3.1',
    'shared.modes': 'assumed: GK110 as GTX 780 (MEI Fig 6)',
    'shared.latency.base': 'SL1 2.1 (shared memory 80 cycles)',
    'shared.latency.perConflict': "assumed: Fermi's cost per further way (MEI Fig 5)",
    ...under('spaces.global', asGk110(FERMI_KEPLER_PROVENANCE)),
    ...under('spaces.global-cg', asGk110(FERMI_KEPLER_PROVENANCE)),
    ...under('spaces.texture', asGk110(FERMI_KEPLER_PROVENANCE)),
    'spaces.global.translation': 'assumed: GK110 as GTX 780 (MEI Table 4, Figs 10-11, 4.2)',
    'spaces.global-cg.translation': 'assumed: GK110 as GTX 780 (MEI Table 4, Figs 10-11, 4.2)',
    'spaces.texture.translation': 'assumed: GK110 as GTX 780 (MEI Table 4, Figs 10-11, 4.2)',
    'spaces.global.levels.0': 'SL1 2.1, 4.1 (16-48 KB L1, 128 B lines; 16 KB with 48 KB shared)',
    'spaces.global.levels.0.geometry':
      "assumed: no paper gives it (SL1 gives size and line only); 4 sets of 32 ways, LRU, as the timing tier (timing.l1.sets) and GPGPU-Sim's Kepler Titan model (SM3_KEPLER_TITAN/gpgpusim.config dl1 S:4:128:32). Until 2026-11-27 this tier had 32 sets of 4 ways, GTX 780's assumed geometry, which no source of the Titan preset gives",
    'spaces.global.levels.1': 'SL1 2.1 (1.5 MB L2)',
    'spaces.global.levels.1.geometry': 'assumed: 128 B lines, 16-way LRU',
    'spaces.global-cg.levels.0': 'SL1 2.1 (1.5 MB L2)',
    'spaces.global-cg.levels.0.geometry': 'assumed: 128 B lines, 16-way LRU',
    'spaces.global.latency.L1/l1': 'SL1 2.1 (L1 80 cycles)',
    'spaces.global.latency.L2/l1': 'SL1 2.1 (L2 240 cycles)',
    'spaces.global.latency.memory/l1': 'SL1 2.1 (DRAM 350 cycles)',
    'spaces.global.latency': 'assumed: the TLB-miss rows are the SL1 latencies plus the Kepler penalties of MEI Table 3 (6, 59, 266 beyond pattern 5)',
    'spaces.global-cg.latency': 'SL1 2.1 (L2 240, DRAM 350); TLB-miss rows assumed from MEI Table 3 Kepler penalties',
    'spaces.global.interconnectFrom': 'SL1 2.3 (L2 and DRAM are reached over the interconnect)',
    'spaces.global-cg.interconnectFrom': 'SL1 2.3',
    'spaces.texture.levels.0': gk110(TEXTURE_L1_PROVENANCE),
    'spaces.texture.levels.1': 'assumed: the shared L2, as on GTX 780',
    'spaces.texture.translation.virtualLevels': 'assumed: virtually indexed texture L1, as on GT200 (WONG IV-I2)',
    'spaces.texture.latency': 'assumed: GTX 780 texture latencies (MEI Table 5 and the Kepler penalties of Table 3); SL1 does not measure texture',
    'spaces.texture.interconnectFrom': 'assumed: the L2 is off-chip as on Kepler (MEI 4.2)',
  },
};
