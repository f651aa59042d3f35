import type { Preset } from './types';
import { FERMI480_TIMING, FERMI480_TIMING_PROVENANCE } from './timing';
import { KB, level } from './build';
import { fermi } from './fermi';

const L1 = level('L1', 'sm', 16 * KB, 128, 32, 4);
const L2 = level('L2', 'chip', 768 * KB, 128, 768, 8);

/**
 * GeForce GTX 480 (cc 2.0) as the GPGPU-Sim configuration of LASH Table II. The latency tier has no
 * measured latencies for it (LASH simulates, it does not microbenchmark), so it takes MEI's Fermi
 * latency tables, and says so.
 */
export const fermi480: Preset = {
  id: 'fermi480',
  name: 'Fermi (GTX 480)',
  device: 'GeForce GTX 480 (GPGPU-Sim configuration)',
  generation: 'Fermi',
  computeCapability: '2.0',
  description: "LASH's GPGPU-Sim GTX 480: 15 SMs, LRU L1 16 KB (32 sets x 4 ways), L2 12 x 64 KB (64 sets x 8 ways), 128 B lines.",
  chip: { sms: 15, smPerTpc: 1, coreClockMHz: 1400 },
  measurement: fermi.measurement,
  alu: fermi.alu,
  shared: fermi.shared,
  spaces: {
    global: { ...fermi.spaces.global, description: 'Global memory, L1 enabled: L1 16 KB LRU, L2 768 KB, TLBs.', levels: [L1, L2] },
    'global-cg': { ...fermi.spaces['global-cg']!, description: 'Global memory, L1 bypassed: L2 768 KB, TLBs.', levels: [L2] },
    texture: { ...fermi.spaces.texture!, levels: [fermi.spaces.texture!.levels[0], L2] },
  },
  timing: FERMI480_TIMING,
  provenance: {
    // The 48 KB L1 configuration and the timing data of MEI's card are not part of this preset: drop their provenance.
    ...Object.fromEntries(Object.entries(fermi.provenance).filter(([k]) => !k.startsWith('l1Configs') && !k.startsWith('timing.'))),
    ...Object.fromEntries(Object.entries(FERMI480_TIMING_PROVENANCE).map(([k, v]) => [`timing.${k}`, v])),
    'chip.sms': 'LASH Tables I, II (15 SMs)',
    'chip.coreClockMHz': 'LASH Table I (1.40 GHz core clock)',
    'spaces.global.levels.0': 'LASH Table II (L1 16 KB: 32 sets, 4 ways, 128 B lines)',
    'spaces.global.levels.0.geometry.policy': "assumed: LRU, GPGPU-Sim 3.2's default (LASH Table II names no policy)",
    'spaces.global.levels.1': 'LASH Table II (L2 per sub-partition 64 KB: 64 sets, 8 ways, 128 B lines; 6 controllers x 2 = 12 sub-partitions: 768 KB)',
    'spaces.global.levels.1.geometry': 'LASH Table II (12 x 64 sets of 8 ways, 128 B lines, seen as one L2 of 768 sets)',
    'spaces.global-cg.levels.0': 'LASH Table II (L2 12 x 64 KB)',
    'spaces.global-cg.levels.0.geometry': 'LASH Table II (12 x 64 sets of 8 ways, 128 B lines)',
    'spaces.texture.levels.1': 'LASH Table II (the shared L2)',
    'spaces.global.latency': 'assumed: LASH reports no latencies; MEI Table 3 (Fermi GTX 560 Ti, L1 on)',
    'spaces.global-cg.latency': 'assumed: LASH reports no latencies; MEI Table 3 (Fermi GTX 560 Ti, L1 off)',
    'spaces.texture.latency': 'assumed: LASH reports no latencies; MEI Table 5 (Fermi GTX 560 Ti)',
    'spaces.global.translation': 'assumed: GPGPU-Sim models no TLBs; MEI Table 4 (Fermi GTX 560 Ti)',
    'spaces.global-cg.translation': 'assumed: GPGPU-Sim models no TLBs; MEI Table 4',
    'spaces.texture.translation': 'assumed: GPGPU-Sim models no TLBs; MEI Table 4',
  },
};
