import type { Preset } from '../../src-sim/presets/types';

/**
 * A generated preset whose caches are free-standing: the on-chip total of the base preset's SM
 * (shared.onChipBytes, which holds shared memory plus L1 to 64 KB on Fermi) does not bound a random
 * geometry, so it and its provenance are left out.
 */
export function freeStanding(p: Preset): Preset {
  const { onChipBytes: _onChip, ...shared } = p.shared;
  const provenance = Object.fromEntries(Object.entries(p.provenance).filter(([k]) => k !== 'shared.onChipBytes'));
  return { ...p, shared, provenance };
}
