/**
 * Collecting a Slurm sweep's folder from the workbench: the files a folder input (or a drop) gives,
 * sorted into plan.json, sweep.sbatch, the custom presets and the point bundles
 * (src-main/shared/sweep-folder.ts), then sent to `sweeps.collect` in batches (progress between
 * them), the answers added up. The renderer reads the files (File.arrayBuffer) and never names a
 * path on disk.
 */
import type { LabApi } from '../../../src-main/contract';
import type { SweepCollectResult } from '../../../src-main/sweep-contract';
import { COLLECT_LIMITS } from '../../../src-main/shared/sweep-folder';

/** What is read of a chosen file (a File; tests pass plain objects). */
export interface FileLike {
  readonly name: string;
  readonly size: number;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A chosen file and its path under the chosen folder ("sweep-1/bundles/point-000003.gmlbundle"), or its name alone. */
export interface PickedFile {
  path: string;
  file: FileLike;
}

/** A sweep's folder as chosen: its files by role. */
export interface SweepFolder {
  /** The folder that holds plan.json, as chosen ("sweep-1"), or "" for loose files. */
  root: string;
  plan: PickedFile;
  sbatch: PickedFile | null;
  presets: PickedFile[];
  /** Sorted by name (the point's order). */
  bundles: PickedFile[];
}

/** Why chosen files are not a sweep's folder, in words for the user. */
export class FolderProblem extends Error {
  override name = 'FolderProblem';
}

const BUNDLE_EXT = '.gmlbundle';
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const dirName = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const depth = (path: string): number => path.split('/').length;

/**
 * Sorts a folder's files (or loose files) by role. A folder: its plan.json (the shallowest one),
 * sweep.sbatch beside it, presets/*.json and bundles/*.gmlbundle under it. Loose files: plan.json,
 * sweep.sbatch, every other .json a preset, every .gmlbundle a bundle. Throws FolderProblem without
 * a plan.json, or with the plans of several sweeps.
 */
export function sortFolder(files: readonly PickedFile[]): SweepFolder {
  const plans = files.filter((f) => baseName(f.path) === 'plan.json');
  if (!plans.length) {
    const bundles = files.filter((f) => f.path.endsWith(BUNDLE_EXT)).length;
    throw new FolderProblem(
      files.length === 0
        ? 'The folder is empty.'
        : bundles
          ? `The files hold ${bundles} bundle${bundles === 1 ? '' : 's'} but no plan.json: choose the sweep's folder (the one that holds plan.json, sweep.sbatch and bundles/), not bundles/ itself.`
          : "The files hold no plan.json: choose the folder that gpulab sweep --slurm wrote (it holds plan.json, sweep.sbatch and bundles/).",
    );
  }
  const top = Math.min(...plans.map((p) => depth(p.path)));
  const shallowest = plans.filter((p) => depth(p.path) === top);
  if (shallowest.length > 1)
    throw new FolderProblem(`The folder holds ${shallowest.length} sweeps (${shallowest.slice(0, 3).map((p) => p.path).join(', ')}${shallowest.length > 3 ? ', …' : ''}): choose one sweep's folder.`);
  const plan = shallowest[0]!;
  const root = dirName(plan.path);
  const loose = files.every((f) => !f.path.includes('/'));
  const under = (f: PickedFile, folder: string) => dirName(f.path) === (root ? `${root}/${folder}` : folder);
  const beside = (f: PickedFile) => dirName(f.path) === root;
  const sbatch = files.find((f) => beside(f) && baseName(f.path) === 'sweep.sbatch') ?? null;
  const presets = files.filter((f) => f !== plan && f.path.endsWith('.json') && (loose ? true : under(f, 'presets')));
  const bundles = files
    .filter((f) => f.path.endsWith(BUNDLE_EXT) && !baseName(f.path).startsWith('.') && (loose ? true : under(f, 'bundles')))
    .sort((a, b) => (baseName(a.path) < baseName(b.path) ? -1 : baseName(a.path) > baseName(b.path) ? 1 : 0));
  return { root, plan, sbatch, presets, bundles };
}

/** The calls' batches: at most `count` bundles and `bytes` bytes each (a larger bundle goes alone). */
export function batches<T extends { file: { size: number } }>(items: readonly T[], count: number = COLLECT_LIMITS.batchBundles, bytes: number = COLLECT_LIMITS.batchBytes): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let size = 0;
  for (const item of items) {
    if (batch.length && (batch.length >= count || size + item.file.size > bytes)) {
      out.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(item);
    size += item.file.size;
  }
  if (batch.length) out.push(batch);
  return out;
}

/** The answers of a collect's calls as one: the counts added up, the sweep's points as the last call saw them. */
export function mergeResults(a: SweepCollectResult | null, b: SweepCollectResult): SweepCollectResult {
  if (!a) return b;
  return {
    ...b,
    created: a.created || b.created,
    bundles: a.bundles + b.bundles,
    imported: a.imported + b.imported,
    alreadyHere: a.alreadyHere + b.alreadyHere,
    unreadable: [...a.unreadable, ...b.unreadable],
  };
}

/** The sweep id a plan.json names, or null (not JSON, or none: the server says why). */
export function planId(text: string): string | null {
  try {
    const id = (JSON.parse(text) as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

export interface CollectOptions {
  /** After each call: bundles sent so far, of all. */
  onProgress?: (sent: number, total: number) => void;
  /** Whether to stop before the next call (the dialog was closed). */
  stopped?: () => boolean;
  /** The sweep the folder must be of (the sweep view's): another sweep's folder is refused before anything is sent. */
  sweepId?: string;
  /** Bundles and bytes a call at most (default COLLECT_LIMITS.batchBundles and batchBytes). */
  batch?: { count: number; bytes: number };
}

/** A collect that stopped part-way: what the calls before it collected, and why. */
export class CollectStopped extends Error {
  override name = 'CollectStopped';
  constructor(
    message: string,
    readonly partial: SweepCollectResult | null,
  ) {
    super(message);
  }
}

/**
 * Sends a sorted folder to `sweeps.collect`: plan.json and the presets with the first batch of
 * bundles, sweep.sbatch (for resubmit.sh) with the last. Each bundle is collected whole or refused
 * with its reason by the call that carries it.
 */
export async function collectFolder(lab: Pick<LabApi, 'sweeps'>, folder: SweepFolder, o: CollectOptions = {}): Promise<SweepCollectResult> {
  const plan = await folder.plan.file.text();
  if (o.sweepId !== undefined) {
    const id = planId(plan);
    if (id !== null && id !== o.sweepId)
      throw new FolderProblem(`This folder's plan.json is of another sweep (${id}), not of this one: collect it from the run library (Collect a Slurm sweep…).`);
  }
  const presets = await Promise.all(folder.presets.map(async (p) => ({ name: baseName(p.path), text: await p.file.text() })));
  const sbatch = folder.sbatch ? await folder.sbatch.file.text() : null;
  const parts = batches(folder.bundles, o.batch?.count, o.batch?.bytes);
  if (!parts.length) parts.push([]);
  const total = folder.bundles.length;
  let sent = 0;
  let result: SweepCollectResult | null = null;
  for (let i = 0; i < parts.length; i++) {
    if (o.stopped?.()) throw new CollectStopped(`Stopped after ${sent} of ${total} bundles.`, result);
    const last = i === parts.length - 1;
    try {
      const bundles = await Promise.all(parts[i]!.map(async (b) => ({ name: baseName(b.path), bytes: new Uint8Array(await b.file.arrayBuffer()) })));
      const r = await lab.sweeps.collect({
        plan,
        ...(i === 0 && presets.length ? { presets } : {}),
        bundles,
        ...(last && sbatch !== null ? { resubmit: { sbatch } } : {}),
      });
      result = mergeResults(result, r);
    } catch (e) {
      if (i === 0) throw e;
      const why = e instanceof Error ? e.message : String(e);
      throw new CollectStopped(`Stopped after ${sent} of ${total} bundles: ${why.replace(/\.?$/, '.')} The bundles before were collected; collecting the folder again takes up the rest.`, result);
    }
    sent += parts[i]!.length;
    o.onProgress?.(sent, total);
  }
  return result!;
}

/** The files of an input (a folder input gives each its path under the chosen folder). */
export function pickedFromInput(list: FileList | null): PickedFile[] {
  return Array.from(list ?? []).map((f) => ({ path: f.webkitRelativePath || f.name, file: f }));
}

/** The files of a drop: a dropped folder walked through (each file with its path under the drop), else the loose files. */
export async function pickedFromDrop(dt: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(dt.items ?? [])
    .map((item) => (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null))
    .filter((e): e is FileSystemEntry => e !== null);
  if (!entries.some((e) => e.isDirectory)) return pickedFromInput(dt.files);
  const out: PickedFile[] = [];
  const walk = async (entry: FileSystemEntry): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      out.push({ path: entry.fullPath.replace(/^\/+/, ''), file });
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries answers a part at a time (100 in Chromium) until it answers none.
    for (;;) {
      const part = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (!part.length) break;
      for (const e of part) await walk(e);
    }
  };
  for (const e of entries) await walk(e);
  return out;
}
