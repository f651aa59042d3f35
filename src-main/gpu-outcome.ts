/**
 * How a generated program's run ended, in the words `gpulab gpu run` and `gpu.run` both use: its own
 * error line (CUDA's call, error name and message, or a refused parameter), a kill by the time limit,
 * a signal, or a nonzero exit status without an error line, each with the tail of its stderr.
 */
import { programFailure, type ProgramFailed } from '../src-sim/cuda/import';

/** A finished child process. */
export interface ProgramExit {
  /** Exit status; null when a signal ended it. */
  code: number | null;
  signal: string | null;
  /** Killed by the time limit. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** CUDA's errors for a machine without a usable GPU. */
const NO_DEVICE = /^(cudaErrorNoDevice|cudaErrorInsufficientDriver|cudaErrorDevicesUnavailable|cudaErrorSystemDriverMismatch|cudaErrorCompatNotSupportedOnDevice)$/;

/** The last lines of a program's stderr, on one line: "(stderr empty)" where it wrote nothing. */
export function stderrTail(stderr: string, lines = 5): string {
  const tail = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-lines)
    .join(' / ');
  if (!tail) return 'stderr empty';
  return `stderr: ${tail.length > 600 ? `...${tail.slice(-600)}` : tail}`;
}

export type ProgramOutcome =
  | { kind: 'ok' }
  /** The program's CUDA error line says there is no usable GPU. */
  | { kind: 'no-gpu'; message: string; failure: ProgramFailed }
  /** The program refused its parameters (exit code 2 and its error line). */
  | { kind: 'params'; message: string; failure: ProgramFailed }
  | { kind: 'failed'; message: string };

const status = (x: ProgramExit): string => (x.signal ? `killed by signal ${x.signal}` : `exit status ${x.code ?? 'unknown'}`);

/**
 * What a program's exit means. `timeoutS` is the limit it ran under; `advice` is what to do about it
 * ("raise --timeout, or shrink the sweep"). A run that exits 0 is "ok": its output is imported next.
 */
export function programOutcome(x: ProgramExit, timeoutS: number, advice: string): ProgramOutcome {
  const printed = x.stdout.split('\n').filter((l) => l.trim()).length;
  const output = printed ? `after ${printed} line${printed === 1 ? '' : 's'} of output` : 'with no output';
  if (x.timedOut) return { kind: 'failed', message: `the program ran past its time limit of ${timeoutS} s and was stopped (${x.signal ?? 'SIGKILL'}) ${output}; ${stderrTail(x.stderr)} (${advice})` };
  if (x.code === 0 && !x.signal) return { kind: 'ok' };
  const failure = programFailure(x.stdout);
  if (failure) {
    const message = `${failure.reason} (${status(x)})`;
    const f = failure.failure;
    if ('call' in f ? NO_DEVICE.test(f.name) : /cudaErrorNoDevice|cudaErrorInsufficientDriver/.test(f.message)) return { kind: 'no-gpu', message, failure };
    if (!failure.cuda) return { kind: 'params', message, failure };
    return { kind: 'failed', message };
  }
  return { kind: 'failed', message: `the program ${x.signal ? `was killed by signal ${x.signal}` : `exited with status ${x.code ?? 'unknown'}`} ${output}${printed ? ' and no error line' : ''}; ${stderrTail(x.stderr)}` };
}
