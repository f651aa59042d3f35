/**
 * The Slurm side of a sweep: the job-array script (sweep.sbatch), the job arrays that run a list of
 * points (at most --array-max tasks each, at their offsets), the script that submits them
 * (submit.sh, resubmit.sh) and what `collect --resubmit` writes for the points missing or failed.
 * Text only: the CLI writes these files (cli/sweep.ts), `sweeps.collect` answers them for a download.
 */
import { COLLECT_LIMITS } from '../../sweep-contract';
import { SweepRefusal } from './service';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface ScriptOptions {
  name: string;
  /** The array: "0-15" or "3,7,9". */
  array: string;
  maxParallel?: number;
  partition?: string;
  account?: string;
  timeMinutes: number;
  memoryMb: number;
  note: string;
  /** The most tasks of one job array (--array-max); default DEFAULT_ARRAY_MAX. */
  arrayMax?: number;
}

/**
 * The most tasks of one job array by default. Slurm refuses array indices of MaxArraySize or more
 * (1001 unless the site sets it): a sweep of more points is submitted as several arrays of task ids
 * 0 to 999, each with its offset (the point of a task is GPULAB_OFFSET + SLURM_ARRAY_TASK_ID).
 */
export const DEFAULT_ARRAY_MAX = 1000;
/** The longest `--array=` list of one submission; a longer one (scattered points to resubmit) is split. */
export const ARRAY_LIST_CHARS = 1000;
/** The largest --array-max taken (Slurm's own bound on MaxArraySize is 4000001). */
export const ARRAY_MAX_LIMIT = COLLECT_LIMITS.arrayMax;

/** Slurm's time format, D-HH:MM:SS. */
function slurmTime(minutes: number): string {
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const hm = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`;
  return d ? `${d}-${hm}` : hm;
}

/** The job-array script: run from the sweep's folder (sbatch uses it as the tasks' working folder). */
export function slurmScript(o: ScriptOptions): string {
  const arrayMax = o.arrayMax ?? DEFAULT_ARRAY_MAX;
  return [
    '#!/bin/bash',
    `#SBATCH --job-name=${o.name}`,
    `#SBATCH --array=${o.array}${o.maxParallel ? `%${o.maxParallel}` : ''}`,
    `#SBATCH --time=${slurmTime(o.timeMinutes)}`,
    `#SBATCH --mem=${o.memoryMb}M`,
    '#SBATCH --cpus-per-task=2',
    '#SBATCH --ntasks=1',
    '#SBATCH --output=logs/%A_%a.out',
    ...(o.partition ? [`#SBATCH --partition=${o.partition}`] : []),
    ...(o.account ? [`#SBATCH --account=${o.account}`] : []),
    '#',
    '# A GPU Memory Lab sweep: one task per point of plan.json, each writing bundles/point-<index>.gmlbundle.',
    `# ${o.note}`,
    '# A task runs the point GPULAB_OFFSET + SLURM_ARRAY_TASK_ID (GPULAB_OFFSET: default 0). Slurm takes array',
    `# indices below its MaxArraySize only: submit.sh submits the sweep as job arrays of at most ${arrayMax} tasks`,
    `# each (--array-max ${arrayMax}), each with its GPULAB_OFFSET; this script alone runs the points of the --array above.`,
    '# Submit from this folder: bash submit.sh (or sbatch sweep.sbatch when the sweep fits one array). Then, anywhere',
    '# with the folder: gpulab sweep collect <this folder>.',
    '# GPULAB names the command (default gpulab; e.g. GPULAB="node /opt/gpu-memory-lab/bin/gpulab.mjs" bash submit.sh).',
    'set -euo pipefail',
    'cd "${SLURM_SUBMIT_DIR:-.}"',
    'offset=${GPULAB_OFFSET:-0}',
    'case "$offset" in',
    `  '' | *[!0-9]*) echo "GPULAB_OFFSET must be a whole number (got \\"$offset\\")" >&2; exit 2 ;;`,
    'esac',
    'index=$((10#$offset + 10#${SLURM_ARRAY_TASK_ID}))',
    'mkdir -p bundles logs',
    'read -r -a GPULAB_CMD <<< "${GPULAB:-gpulab}"',
    'exec "${GPULAB_CMD[@]}" sweep task plan.json --index "$index" --out bundles/',
    '',
  ].join('\n');
}

/** One submission of a job array: points offset + each task id of `array` ("0-999", "0,4-6"). */
export interface ArrayPart {
  offset: number;
  array: string;
  tasks: number;
}

/**
 * Sorted point indices as the job arrays that run them: the points of each block of arrayMax
 * (0 to 999, 1000 to 1999, ...) as one array at the block's offset (a point is the offset + a task
 * id), split where its --array list would pass listChars characters. A whole sweep is 0-999 at
 * offsets 0, 1000, 2000, ...; points below arrayMax keep their own numbers as task ids.
 */
export function arrayParts(points: readonly number[], arrayMax = DEFAULT_ARRAY_MAX, listChars = ARRAY_LIST_CHARS): ArrayPart[] {
  const parts: ArrayPart[] = [];
  let part: { offset: number; tokens: string[]; chars: number; tasks: number } | null = null;
  const flush = () => {
    if (part) parts.push({ offset: part.offset, array: part.tokens.join(','), tasks: part.tasks });
    part = null;
  };
  for (let i = 0; i < points.length; ) {
    let j = i;
    while (j + 1 < points.length && points[j + 1] === points[j]! + 1) j++;
    let a = points[i]!;
    const b = points[j]!;
    while (a <= b) {
      const offset = Math.floor(a / arrayMax) * arrayMax;
      if (part && part.offset !== offset) flush();
      part ??= { offset, tokens: [], chars: 0, tasks: 0 };
      const end = Math.min(b, offset + arrayMax - 1);
      const token = end > a ? `${a - offset}-${end - offset}` : String(a - offset);
      const chars = part.chars + (part.tokens.length ? 1 : 0) + token.length;
      if (part.tokens.length && chars > listChars) {
        flush();
        continue;
      }
      part.tokens.push(token);
      part.chars = chars;
      part.tasks += end - a + 1;
      a = end + 1;
    }
    i = j + 1;
  }
  flush();
  return parts;
}

/**
 * The shell script that submits job arrays of `script` (sweep.sbatch): one sbatch per part with its
 * --array and GPULAB_OFFSET; with maxParallel, each part after the one before has ended (a
 * dependency), so that no more than maxParallel tasks run at once. Its arguments go to every sbatch.
 */
export function submitScript(parts: readonly ArrayPart[], o: { script: string; arrayMax: number; maxParallel?: number; what: string }): string {
  const chained = o.maxParallel !== undefined && parts.length > 1;
  const tasks = parts.reduce((n, p) => n + p.tasks, 0);
  return [
    '#!/bin/bash',
    `# Submits ${o.what} (${plural(tasks, 'point')}) to Slurm: ${parts.length === 1 ? 'one job array' : `${parts.length} job arrays`} of ${o.script}, at most ${o.arrayMax} tasks each`,
    '# (Slurm takes array indices below its MaxArraySize: gpulab sweep --array-max); a task runs the point',
    '# GPULAB_OFFSET + SLURM_ARRAY_TASK_ID.',
    ...(chained ? [`# Each array starts when the one before has ended, so that at most ${o.maxParallel} tasks run at once.`] : []),
    '# Run it from anywhere (it submits from its own folder); its arguments go to every sbatch (bash submit.sh --qos=long).',
    'set -euo pipefail',
    'cd "$(dirname "${BASH_SOURCE[0]}")"',
    'last=',
    'part() {',
    '  local offset=$1 array=$2 out',
    '  shift 2',
    `  out=$(sbatch --parsable --array="$array" --export="ALL,GPULAB_OFFSET=$offset" "$@" ${o.script})`,
    '  last=${out%%;*}',
    '  echo "Submitted batch job $last (--array=$array, GPULAB_OFFSET=$offset)"',
    '}',
    ...parts.map((p, i) => `part ${p.offset} '${p.array}${o.maxParallel ? `%${o.maxParallel}` : ''}'${chained && i > 0 ? ' --dependency="afterany:$last"' : ''} "$@"`),
    '',
  ].join('\n');
}

/** The --array-max that sweep.sbatch was written with (its note says it), or null. */
export function scriptArrayMax(sbatch: string): number | null {
  const m = /\(--array-max (\d+)\)/.exec(sbatch);
  return m ? Number(m[1]) : null;
}

/** What `collect --resubmit` writes for the points missing or failed. */
export interface Resubmit {
  /** resubmit.sh: the sbatch calls of sweep.sbatch for just those points, as submit.sh makes them. */
  script: string;
  /** resubmit.sbatch: sweep.sbatch with `--array=` just those points, when one array from offset 0 runs them all; else null. */
  sbatch: string | null;
  /** The job arrays: a point is offset + a task id of the array. */
  arrays: { offset: number; array: string }[];
  /** The most tasks of one array they were cut with. */
  arrayMax: number;
  /** The limit of running tasks (`%M`): the given one, else sweep.sbatch's; null for none. */
  maxParallel: number | null;
}

/**
 * resubmit.sh (and resubmit.sbatch where one array from offset 0 runs them) for sorted points, from
 * the text of the folder's sweep.sbatch. `arrayMax` defaults to the one sweep.sbatch was written
 * with (else DEFAULT_ARRAY_MAX), `maxParallel` to its `%M`. Refuses (SweepRefusal) a script that
 * predates GPULAB_OFFSET when a point lies past the first array.
 */
export function resubmitScripts(points: readonly number[], sbatch: string, o: { arrayMax?: number; maxParallel?: number } = {}): Resubmit {
  const arrayMax = o.arrayMax ?? scriptArrayMax(sbatch) ?? DEFAULT_ARRAY_MAX;
  const before = /^#SBATCH --array=[^%\n]*%(\d+)$/m.exec(sbatch)?.[1];
  const throttle = o.maxParallel ?? (before === undefined ? undefined : Number(before));
  const parts = arrayParts(points, arrayMax);
  if (!sbatch.includes('GPULAB_OFFSET') && parts.some((p) => p.offset > 0))
    throw new SweepRefusal(null, null, 'resubmit', 'runs points by their array task id alone (it predates GPULAB_OFFSET): write the folder again with gpulab sweep <plan> --slurm <dir>');
  const script = submitScript(parts, { script: 'sweep.sbatch', arrayMax, ...(throttle ? { maxParallel: throttle } : {}), what: 'the points missing or failed' });
  // One array from offset 0: also the script itself, as ever (sbatch resubmit.sbatch).
  const single = parts.length === 1 && parts[0]!.offset === 0 ? sbatch.replace(/^#SBATCH --array=.*$/m, `#SBATCH --array=${parts[0]!.array}${throttle ? `%${throttle}` : ''}`) : null;
  return { script, sbatch: single, arrays: parts.map(({ offset, array }) => ({ offset, array })), arrayMax, maxParallel: throttle ?? null };
}
