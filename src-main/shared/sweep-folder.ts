/**
 * The files of a sweep's Slurm folder (`gpulab sweep plan.json --slurm <dir>`), as the CLI's
 * `sweep collect` and the workbench's *Collect from folder…* (`sweeps.collect`) both read them:
 *
 *   <dir>/plan.json                       the plan with the sweep's id
 *   <dir>/sweep.sbatch                    the job array (resubmit.sh submits it again)
 *   <dir>/presets/<id>.json               the plan's custom presets
 *   <dir>/bundles/point-<index>.gmlbundle a point's run, written by its array task
 *
 * Browser-safe (the renderer sorts a chosen folder's files with it): no Node built-ins.
 */

/**
 * Bounds of `sweeps.collect` (src-main/sweep-contract.ts), and of the batches the workbench sends. The
 * bundle bound is the contract's LIMITS.bundleBytes (what bundles.import takes in one file; not
 * imported here, as the contract imports this module through sweep-contract.ts: a test checks that
 * they agree).
 */
export const COLLECT_LIMITS = {
  /** One bundle, and all the bundles of one call together. */
  bundleBytes: 512 * 1024 * 1024,
  /** Bundles of one call: the workbench sends a folder's bundles in batches, with its progress between them. */
  bundlesPerCall: 1_000,
  /** sweep.sbatch as text. */
  scriptChars: 64 * 1024,
  /** A custom preset's file (presets/<id>.json) as text: LIMITS.presetJsonBytes. */
  presetChars: 256 * 1024,
  /** The most tasks of one job array (Slurm's own bound on MaxArraySize is 4000001). */
  arrayMax: 4_000_000,
  /** The most tasks of the sweep running at once (`%M`). */
  maxParallel: 100_000,
  /** A batch of the workbench: at most this many bundles or (unless one bundle alone is larger) bytes a call. */
  batchBundles: 200,
  batchBytes: 16 * 1024 * 1024,
} as const;

/** A point's bundle: `point-` and the index, at least six digits, then the bundle extension (store/bundle.ts BUNDLE_EXTENSION). */
export const POINT_BUNDLE_NAME = /^point-(\d{6,})\.gmlbundle$/;

/** The point a bundle's file name names, or null for any other name. */
export function bundlePoint(name: string): number | null {
  const m = POINT_BUNDLE_NAME.exec(name);
  return m ? Number(m[1]) : null;
}

/** The file name of a point's bundle. */
export function pointBundleName(index: number): string {
  return `point-${String(index).padStart(6, '0')}.gmlbundle`;
}

/** "0-3,7,9-10": sorted indices as Slurm's array list. */
export function compactList(indices: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indices.length; ) {
    let j = i;
    while (j + 1 < indices.length && indices[j + 1] === indices[j]! + 1) j++;
    parts.push(j > i ? `${indices[i]}-${indices[j]}` : String(indices[i]));
    i = j + 1;
  }
  return parts.join(',');
}
