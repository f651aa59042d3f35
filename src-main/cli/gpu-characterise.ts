/**
 * `gpulab gpu characterise`: the probes of src-sim/cuda/characterise.ts on the GPU here, each a
 * program of `gpu emit` built and run under its own time limit (cli/gpu.ts, buildAndRun), its output
 * read by the analysers of `gpu import`. Prints the summary (every quantity, its value or "cannot
 * tell", the evidence and the probe); --out keeps each probe's JSON lines, summary.json and
 * characterisation.json (the file `gpu import` and the Real GPU page import as one characterisation);
 * --save stores it (a run per probe, grouped in a saved comparison whose notes are the summary).
 */
import { closeSync, constants, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ImportError } from '../../src-sim/cuda/import';
import { readOutputFile } from './read-output';
import { importRefusal } from '../gpu-contract';
import {
  characterise,
  characterisationText,
  CHARACTERISATION_FILE_TYPE,
  NoProbeCanRun,
  type Characterisation,
  type CharacterisationFile,
  type ProbeRunner,
  isCharacterisationFile,
  replayCharacterisation,
} from '../../src-sim/cuda/characterise';
import { buildAndRun, timeoutSeconds, type GpuCliOutput, type GpuContext, type GpuOptions } from './gpu';

export { characterise, type Probe, type ProbeRunner } from '../../src-sim/cuda/characterise';

export interface CharacteriseOptions extends GpuOptions {
  'probe-timeout'?: string;
  /** --save: store the characterisation (a run per probe, a saved comparison with the summary). */
  save?: boolean;
}

/** Stores a characterisation (cli/gpu-save.ts): what to print instead of the summary alone. */
export type SaveCharacterisation = (file: CharacterisationFile) => GpuCliOutput | Promise<GpuCliOutput>;

/** gpu characterise [--arch sm_XX] [--probe-timeout s] [--out <dir>] [--format text|json] */
export async function gpuCharacterise(v: CharacteriseOptions, format: string, ctx: GpuContext, runner?: ProbeRunner, save?: SaveCharacterisation): Promise<GpuCliOutput> {
  const measuredAt = Date.now();
  const timeoutS = timeoutSeconds(v['probe-timeout'], ctx, 300, '--probe-timeout');
  const texts = new Map<string, string>();
  const run: ProbeRunner =
    runner ??
    (async (p) => {
      let r: Awaited<ReturnType<typeof buildAndRun>>;
      try {
        r = await buildAndRun(p.experiment, p.params, v.arch, timeoutS, ctx, 'gpu characterise');
      } catch (e) {
        throw new NoProbeCanRun(e); // bad input, no nvcc or no usable GPU: the same for every probe
      }
      if (!r.ok) throw new Error(r.out.stderr.replace(/^gpulab: error: /, '').trim());
      return { text: r.text, seconds: r.seconds };
    });
  const recording: ProbeRunner = async (p) => {
    const out = await run(p);
    texts.set(p.name, out.text);
    return out;
  };
  let c: Characterisation;
  try {
    c = await characterise(recording, ctx.status);
  } catch (e) {
    if (e instanceof NoProbeCanRun) throw e.cause;
    throw e;
  }
  const file: CharacterisationFile = { type: CHARACTERISATION_FILE_TYPE, format: 1, measuredAt, summary: c, outputs: Object.fromEntries(texts) };
  if (v.out !== undefined && v.out.trim() !== '') {
    const dir = resolve(v.out);
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of texts) writeFileSync(join(dir, `${name}.jsonl`), text);
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(c, null, 2) + '\n');
    writeFileSync(join(dir, 'characterisation.json'), JSON.stringify(file) + '\n');
  }
  const failedAll = c.probes.length > 0 && c.probes.every((p) => !p.ok);
  if (save && !failedAll) return save(file);
  const out = format === 'json' ? JSON.stringify(c, null, 2) + '\n' : characterisationText(c);
  return { code: failedAll ? 1 : 0, stdout: out, stderr: failedAll ? `gpulab: error: every probe failed; the first: ${c.probes[0].error}\n` : '' };
}

/** gpu import <characterisation.json>: its probes replayed through the analysers; the summary, as gpu characterise prints it. */
export async function gpuImportCharacterisation(file: string, format: string, ctx: GpuContext): Promise<GpuCliOutput> {
  let text: string;
  try {
    text = readOutputFile(file);
  } catch (e) {
    throw ctx.usage(`cannot read "${file}": ${(e as Error).message.replace(/^cannot read it: /, '')}`);
  }
  try {
    const { characterisation: c } = await replayCharacterisation(text);
    return { code: 0, stdout: format === 'json' ? JSON.stringify(c, null, 2) + '\n' : characterisationText(c), stderr: '' };
  } catch (e) {
    if (e instanceof ImportError) throw ctx.usage(importRefusal(basename(file), e.message));
    throw e;
  }
}

/** Whether a file begins as a characterisation's file does (a file that cannot be read: no; gpu import says why). */
export function looksLikeCharacterisation(file: string): boolean {
  try {
    // A regular file only: opening a named pipe would wait for a writer (the import says what it is).
    if (!statSync(file).isFile()) return false;
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const head = Buffer.alloc(200);
      const n = readSync(fd, head, 0, 200, 0);
      return isCharacterisationFile(head.subarray(0, n).toString('utf8'));
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
