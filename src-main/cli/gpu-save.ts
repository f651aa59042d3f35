/**
 * The command line's real-GPU commands that write the database: `gpu import <file> --save` and
 * `gpu run ... --save` store the program's output as a run (with its measured-device record in
 * place of a preset), and `gpu preset <runId> --name ...` makes a custom preset from a real run.
 */
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { ImportError, ProgramFailed } from '../../src-sim/cuda/import';
import { characterisationText, isCharacterisationFile, replayCharacterisation, type CharacterisationFile } from '../../src-sim/cuda/characterise';
import { deviceLine, realDeviceLabel, realRunRecord } from '../../src-sim/cuda/run-record';
import type { RealRunRecord } from '../../src-sim/cuda/run-record';
import { LabError } from '../contract';
import { GpuService } from '../services/gpu';
import { RunStore } from '../services/store';
import { resultJson, resultText, DEFAULT_TRACE_LIMIT } from './format';
import { failed, type GpuCliOutput } from './gpu';
import { readOutputFile } from './read-output';
import { importRefusal } from '../gpu-contract';
import type { StoreContext } from './store';
import { dbPath } from './store';

export interface GpuSaveOptions {
  db?: string;
  'level-gap'?: string;
  title?: string;
  name?: string;
  base?: string;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';

function levelGap(v: GpuSaveOptions, ctx: StoreContext): number | undefined {
  if (v['level-gap'] === undefined) return undefined;
  const gap = Number(v['level-gap']);
  if (!Number.isFinite(gap) || gap <= 0) throw ctx.usage(`--level-gap must be a positive number of cycles; got "${v['level-gap']}"`);
  return gap;
}

function open(db: string, ctx: StoreContext): RunStore {
  try {
    return RunStore.open(db, { appVersion: ctx.version, recoverInterrupted: false });
  } catch (err) {
    if (err instanceof LabError) throw ctx.usage(err.message);
    throw err;
  }
}

/** Reads, analyses and stores a program's output; prints the stored run's id and its findings. */
export function saveGpuText(text: string, source: string, measuredAt: number, v: GpuSaveOptions, format: string, ctx: StoreContext): GpuCliOutput {
  const gap = levelGap(v, ctx);
  const db = dbPath(v.db, ctx);
  let record: RealRunRecord;
  try {
    record = realRunRecord(text, { source, measuredAt }, gap === undefined ? {} : { levelGap: gap });
  } catch (e) {
    if (e instanceof ProgramFailed) return failed(importRefusal(source, e.message));
    if (e instanceof ImportError) throw ctx.usage(importRefusal(source, e.message));
    throw e;
  }
  const store = open(db, ctx);
  let id: string;
  try {
    id = store.saveRealRun(record, v.title === undefined ? {} : { title: v.title }).id;
  } catch (err) {
    if (err instanceof LabError && err.code === 'invalid-args') throw ctx.usage(err.message);
    throw err;
  } finally {
    store.close();
  }
  if (format === 'json')
    return { code: 0, stdout: json({ runId: id, db, experiment: record.experiment, device: record.device, params: record.params, ...resultJson(record.result, DEFAULT_TRACE_LIMIT) }), stderr: '' };
  const head = [`Saved run ${id} in ${db}: ${record.experiment} on ${realDeviceLabel(record.device.name)}`, `Device: ${deviceLine(record.device)}`, ''];
  return { code: 0, stdout: head.join('\n') + '\n' + resultText(record.result), stderr: '' };
}

/** gpu import <file.jsonl|characterisation.json> --save [--db file] */
export async function gpuImportSave(file: string, v: GpuSaveOptions, format: string, ctx: StoreContext): Promise<GpuCliOutput> {
  let text: string;
  let mtime: number;
  try {
    text = readOutputFile(file);
    mtime = statSync(file).mtimeMs;
  } catch (e) {
    throw ctx.usage(`cannot read "${file}": ${(e as Error).message.replace(/^cannot read it: /, '')}`);
  }
  if (isCharacterisationFile(text)) return saveCharacterisationFile(text, basename(file), v, format, ctx);
  return saveGpuText(text, basename(file), mtime, v, format, ctx);
}

/**
 * Stores a characterisation (gpu characterise --save, gpu import characterisation.json --save): its
 * probes replayed through the analysers, a run per probe that ran, a saved comparison with the summary.
 */
export async function saveCharacterisationFile(input: CharacterisationFile | string, source: string, v: GpuSaveOptions, format: string, ctx: StoreContext): Promise<GpuCliOutput> {
  const db = dbPath(v.db, ctx);
  let replayed: Awaited<ReturnType<typeof replayCharacterisation>>;
  try {
    replayed = await replayCharacterisation(typeof input === 'string' ? input : JSON.stringify(input));
  } catch (e) {
    if (e instanceof ImportError) throw ctx.usage(importRefusal(source, e.message));
    throw e;
  }
  const { characterisation, file } = replayed;
  if (!characterisation.probes.some((p) => p.ok)) return failed(importRefusal(source, 'no probe ran: there is nothing to store'));
  const store = open(db, ctx);
  try {
    const gpu = new GpuService({ store, progress: () => {} });
    const saved = gpu.saveCharacterisation(characterisation, file.outputs, file.measuredAt, source);
    if (format === 'json') return { code: 0, stdout: json({ db, ...saved }), stderr: '' };
    const head = `Saved "${saved.name}" in ${db}: the comparison ${saved.comparisonId} of ${saved.runIds.length} run${saved.runIds.length === 1 ? '' : 's'} (one per probe that ran; gpulab runs list --tag characterisation)\n\n`;
    return { code: 0, stdout: head + characterisationText(characterisation), stderr: '' };
  } finally {
    store.close();
  }
}

/** gpu preset <runId> --name <name> [--base <preset>] [--db file] */
export function gpuPreset(runId: string, v: GpuSaveOptions, format: string, ctx: StoreContext): GpuCliOutput {
  if (v.name === undefined || v.name.trim() === '') throw ctx.usage('gpu preset needs --name <name>: the new preset\'s name');
  const db = dbPath(v.db, ctx);
  if (!existsSync(db)) throw ctx.usage(`no database at ${db} (real runs are saved there by gpulab gpu import ... --save)`);
  const store = open(db, ctx);
  try {
    const gpu = new GpuService({ store, progress: () => {} });
    const made = gpu.preset({ runId, name: v.name, ...(v.base === undefined ? {} : { base: v.base }) });
    if (format === 'json') return { code: 0, stdout: json(made), stderr: '' };
    const lines = [
      `Saved the custom preset "${made.preset.name}" (id ${made.preset.id}) from ${made.base}, with ${made.applied.length} measured number${made.applied.length === 1 ? '' : 's'}:`,
      ...made.applied.map((a) => `  ${a.path} = ${a.value}   (${a.finding})`),
      ...(made.skipped.length ? ['Not used:', ...made.skipped.map((s) => `  ${s.finding}: ${s.reason}`)] : []),
    ];
    return { code: 0, stdout: lines.join('\n') + '\n', stderr: '' };
  } catch (err) {
    if (err instanceof LabError && err.code !== 'internal') throw ctx.usage(err.message);
    throw err;
  } finally {
    store.close();
  }
}
