import type { CacheLevelConfig, TranslationConfig } from '../model/path';
import { KB, level, MB, unequalLevel } from './build';

/** Parts Fermi and Kepler share (MEI: "Fermi and Kepler have the same TLB structure"). */

/** MEI Table 4, Figs 10-11: L1 TLB 16 entries fully associative, L2 TLB 65 entries in 7 unequal sets, 2 MB pages. */
export function fermiKeplerTranslation(activeWindowBytes?: number): TranslationConfig {
  return {
    pageBytes: 2 * MB,
    l1: level('L1 TLB', 'chip', 32 * MB, 2 * MB, 1, 16),
    l2: unequalLevel('L2 TLB', 'chip', 130 * MB, 2 * MB, [17, 8, 8, 8, 8, 8, 8]),
    ...(activeWindowBytes !== undefined ? { activeWindowBytes } : {}),
    virtualLevels: 0,
  };
}

/** MEI Fig 12, Table 4: 12 KB, 32 B lines, 4 sets of 96, address bits 7-8 pick the set, LRU. */
export const TEXTURE_L1: CacheLevelConfig = level('Tex L1', 'sm', 12 * KB, 32, 4, 96, { kind: 'lru' }, { kind: 'bits', shiftBits: 7 });

export const FERMI_KEPLER_PROVENANCE: Record<string, string> = {
  'translation.pageBytes': 'MEI 4.2, slides "TLB" (2 MB pages on Fermi and Kepler)',
  'translation.l1': 'MEI Table 4 (L1 TLB: 32 MB reach, 2 MB entries, 1 set of 16, LRU)',
  'translation.l2': 'MEI Table 4, Figs 10-11 (L2 TLB: 130 MB, 2 MB entries, 7 sets: one of 17, six of 8, LRU)',
  'translation.l2.geometry.index':
    'assumed: MEI shows which N overflows which set (Fig 11), not the index function; entries dealt round-robin reproduce it',
  'translation.l1.scope': 'MEI 4.2 (TLBs are off-chip, shared by all SMs)',
  'translation.l2.scope': 'MEI 4.2 (TLBs are off-chip, shared by all SMs)',
  'translation.virtualLevels': 'MEI Table 3 (an L1 data hit still pays the L1 TLB miss: translation comes first)',
};

export const TEXTURE_L1_PROVENANCE = 'MEI Table 4, Fig 12 (12 KB, 32 B lines, 4 sets of 96, bits 7-8, LRU; per-SM, MEI Table 1)';

/** Prefixes every key of a provenance block with the path it describes. */
export function under(prefix: string, block: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(block).map(([k, v]) => [`${prefix}.${k}`, v]));
}
