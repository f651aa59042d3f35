import type { Preset } from './types';
import { KEPLER_TIMING, KEPLER_TIMING_PROVENANCE } from './timing';
import { KB, level, MB } from './build';
import { FERMI_KEPLER_PROVENANCE, fermiKeplerTranslation, TEXTURE_L1, TEXTURE_L1_PROVENANCE, under } from './common';

const L2 = level('L2', 'chip', 1536 * KB, 128, 768, 16);

/** Kepler shared-memory banks (MEI Fig 6): 8-byte banks in both modes, conflicts only between rows. */
export const KEPLER_SHARED_MODES = {
  '4-byte': { slotWords: 1, rowWords: 64 },
  '8-byte': { slotWords: 2, rowWords: 64 },
};

/** GeForce GTX 780 (cc 3.5), MEI's Kepler card. */
export const kepler: Preset = {
  id: 'kepler',
  name: 'Kepler',
  device: 'GeForce GTX 780',
  generation: 'Kepler',
  computeCapability: '3.5',
  description: "MEI's Kepler: global loads skip L1 and are cached in a 1.5 MB L2; 512 MB window of active page entries; 4/8-byte banks.",
  chip: { sms: 12, smPerTpc: 1, coreClockMHz: 863 },
  measurement: { clockOverhead: 28, tpcOffsets: [0] },
  alu: { spLatency: 24 },
  shared: {
    sizeBytes: 48 * KB,
    banks: 32,
    issueGroup: 32,
    modes: KEPLER_SHARED_MODES,
    defaultMode: '4-byte',
    latency: { base: 50, perConflict: 37.4 },
    onChipBytes: 64 * KB,
  },
  spaces: {
    global: {
      description: 'Global memory: L1 skipped (cc 3.5), L2 1.5 MB, L1/L2 TLBs, 512 MB of active page entries.',
      levels: [L2],
      translation: fermiKeplerTranslation(512 * MB),
      latency: {
        'L2/l1': 230,
        'L2/l2': 236,
        'L2/miss': 289,
        'L2/inactive': 555,
        'memory/l1': 371,
        'memory/l2': 377,
        'memory/miss': 734,
        'memory/inactive': 1000,
      },
      interconnectFrom: 0,
    },
    texture: {
      description: 'Texture / read-only path: texture L1 12 KB per SM, then the shared L2 and TLBs.',
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
  timing: KEPLER_TIMING,
  provenance: {
    ...Object.fromEntries(Object.entries(KEPLER_TIMING_PROVENANCE).map(([k, v]) => [`timing.${k}`, v])),
    'chip.sms': 'assumed: NVIDIA specification of the GTX 780 (12 SMX); not in the papers',
    'chip.smPerTpc': 'MEI Table 1 (per-SM texture units)',
    'chip.coreClockMHz': 'assumed: NVIDIA specification (863 MHz); not in the papers',
    'measurement.clockOverhead': 'assumed: MEI does not report it; the GT200 figure of WONG IV-A',
    'measurement.tpcOffsets': 'assumed: MEI reports no placement dependence',
    'alu.spLatency': 'assumed: the GT200 figure of WONG Table II',
    'shared.sizeBytes': 'MEI Table 1 (16/32/48 KB)',
    'shared.onChipBytes': 'MEI Table 1 (shared memory 16/32/48 KB, the rest of 64 KB per SM being L1)',
    'shared.banks': 'MEI Table 1 (32 banks)',
    'shared.issueGroup': 'MEI 3.1 (one warp)',
    'shared.modes': 'MEI Fig 6 (4-byte mode: word w in bank w mod 32, row w div 64; 8-byte mode: bank (w div 2) mod 32)',
    'shared.latency.base': "assumed: MEI Fig 7's values are not in the text; Fermi's conflict-free latency (MEI Fig 5)",
    'shared.latency.perConflict': "assumed: Fermi's cost per further way (MEI Fig 5)",
    ...under('spaces.global', FERMI_KEPLER_PROVENANCE),
    ...under('spaces.texture', FERMI_KEPLER_PROVENANCE),
    'spaces.global.translation.activeWindowBytes': 'MEI 4.2 (only 512 MB of page entries are activated at launch)',
    'spaces.texture.translation.activeWindowBytes': 'MEI 4.2 (512 MB window)',
    'spaces.global.levels.0': 'MEI Table 1 (1536 KB L2; global loads are not cached in L1)',
    'spaces.global.levels.0.geometry': 'assumed: MEI measures no L2 geometry; 128 B lines, 16-way LRU (768 sets)',
    'spaces.texture.levels.0': TEXTURE_L1_PROVENANCE,
    'spaces.texture.levels.1': 'MEI slides "Texture memory" (the same L2 as global memory); geometry assumed',
    'spaces.texture.translation.virtualLevels': 'assumed: virtually indexed texture L1, as on GT200 (WONG IV-I2)',
    'spaces.global.latency.L2/l1': 'MEI Table 3, pattern 1 (230)',
    'spaces.global.latency.L2/l2': 'MEI Table 3, pattern 2 (236)',
    'spaces.global.latency.L2/miss': 'MEI Table 3, pattern 3 (289)',
    'spaces.global.latency.L2/inactive': 'assumed: pattern 3 plus the page-table switch of patterns 6 - 5 (1000 - 734)',
    'spaces.global.latency.memory/l1': 'MEI Table 3, pattern 4 (371)',
    'spaces.global.latency.memory/l2': 'assumed: pattern 4 plus the L1 TLB miss penalty of patterns 2 - 1 (6)',
    'spaces.global.latency.memory/miss': 'MEI Table 3, pattern 5 (734)',
    'spaces.global.latency.memory/inactive': 'MEI Table 3, pattern 6 (1000)',
    'spaces.global.interconnectFrom': 'MEI 4.2 (L2 is off-chip)',
    'spaces.texture.latency.Tex L1/-': 'MEI Table 5 (texture L1 hit: 110)',
    'spaces.texture.latency.L2/l1': 'MEI Table 5 (texture L1 miss, L2 hit: 220)',
    'spaces.texture.latency': 'assumed: the TLB-miss and DRAM rows are 220 plus the matching penalties of MEI Table 3 (Kepler row)',
    'spaces.texture.interconnectFrom': 'MEI 4.2 (L2 is off-chip)',
  },
};
