/** A valid argument for every call of the contract (tests/unit/contract.test.ts breaks each; the fuzz, tests/repro/fuzz.ts, breaks them at random). */
import type { ArgsOf, CallName } from '../../src-main/contract';
import { findPreset } from '../../src-sim/presets';

export const RUN = '3b241101-e2bb-4255-8caf-4136c566a962';
export const RUN2 = '9f1c2d3e-4a5b-4c6d-8e7f-a0b1c2d3e4f5';

/** A valid argument for every call (each test breaks one of them). */
export const VALID: { [K in CallName]: ArgsOf<K> } = {
  'runs.start': { experiment: 'pchase-average', preset: 'fermi', params: { strides: [64, 128], sizeFrom: '4 KB', jitter: false }, seed: 3 },
  'runs.check': { experiment: 'pchase-average', preset: 'fermi', params: { sizeFrom: '64 KB', sizeTo: '4 KB' }, seed: 3 },
  'runs.list': { experiment: 'pchase-average', status: ['done', 'failed'], text: 'l1', from: '2026-01-01', to: 1_900_000_000_000, sort: 'duration', order: 'asc', limit: 20, offset: 40 },
  'runs.get': { id: RUN, full: true },
  'runs.trace': { id: RUN },
  'runs.cancel': { id: RUN },
  'runs.update': { id: RUN, title: 'L1 of Fermi', tags: ['fermi', 'l1'], notes: 'two\nlines' },
  'runs.delete': { ids: [RUN, RUN2] },
  'presets.list': {},
  'presets.get': { id: 'titan' },
  'presets.saveCustom': { preset: { ...structuredClone(findPreset('fermi')!), id: 'mine' } as unknown as Record<string, unknown> },
  'presets.deleteCustom': { id: 'mine' },
  'experiments.list': {},
  'comparisons.save': { name: 'L1 across GPUs', runIds: [RUN, RUN2], notes: '' },
  'comparisons.list': {},
  'comparisons.get': { id: RUN },
  'comparisons.delete': { id: RUN },
  'bundles.export': { runIds: [RUN] },
  'bundles.import': { bytes: new Uint8Array([0x1f, 0x8b, 1, 2]) },
  'exports.csv': { runIds: [RUN] },
  'exports.pdf': { runIds: [RUN, RUN2], title: 'Report' },
  'reproduce.rows': { selector: 'MEI-T3', preset: 'kepler', seed: 1 },
  'reproduce.cancel': {},
  'reproduce.references': { runId: RUN },
  'app.version': {},
  'app.checkDatabase': {},
  'sweeps.check': { plan: { experiment: 'pchase-fine', presets: ['fermi'], axes: [{ param: 'iterations', values: [64, 128] }] } },
  'sweeps.start': { plan: { experiment: 'pchase-fine', presets: ['fermi', 'kepler'], params: { size: '4KB' }, axes: [{ param: 'stride', range: { from: 32, to: 128, times: 2 } }], seed: { rule: 'per-point', base: 7 } }, resume: false },
  'sweeps.list': {},
  'sweeps.get': { id: RUN },
  'sweeps.cancel': { id: RUN },
  'sweeps.delete': { id: RUN },
  'sweeps.csv': { id: RUN },
  'sweeps.collect': { plan: '{"id":"x"}', presets: [{ name: 'mine.json', text: '{}' }], bundles: [{ name: 'point-000000.gmlbundle', bytes: new Uint8Array([0x1f, 0x8b]) }], resubmit: { sbatch: '#!/bin/bash', arrayMax: 5, maxParallel: 2 } },
  'sweeps.pdf': { id: RUN, quantity: 'mean:latency', x: 'stride', by: 'iterations', chart: 'heatmap', title: 'Stride sweep' },
  'gpu.emit': { experiment: 'pchase-average', params: { strides: '64' } },
  'gpu.import': { text: '{}', fileName: 'out.jsonl' },
  'gpu.status': {},
  'gpu.experiments': {},
  'gpu.run': { experiment: 'shared-bank-stride', params: {} },
  'gpu.cancel': {},
  'gpu.preset': { runId: RUN, name: 'My H100' },
  'gpu.characterise': { timeoutS: 120 },
  'gpu.importCharacterisation': { text: '{"type":"gpulab-characterisation"}', fileName: 'characterisation.json' },
};
