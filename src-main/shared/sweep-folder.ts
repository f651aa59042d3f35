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
