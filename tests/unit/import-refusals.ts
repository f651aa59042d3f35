/**
 * Files an import refuses, each with the one message every surface gives for it (`gpulab gpu import`,
 * `gpu.import`, the Real GPU page): the file's name, then why. `programFailed`: the program's own
 * error line, which `gpulab gpu import` answers with exit code 1 (the others: 2, bad input).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REAL = resolve(__dirname, '../fixtures/real');
const read = (path: string): string => readFileSync(join(REAL, path), 'utf8');

export interface Refusal {
  what: string;
  fileName: string;
  text: () => string;
  /** The whole message, or its start where the rest is the JSON parser's own words. */
  message: string;
  programFailed: boolean;
}

const fine = () => read('h100/fine-16k-warm.jsonl').split('\n');

/** avg-l1 with its first point printed twice: its line number (1-based) and the file. */
const repeated = (): { line: number; text: string } => {
  const lines = read('h100/avg-l1.jsonl').split('\n');
  const i = lines.findIndex((l) => l.startsWith('{"type":"point"'));
  return { line: i + 1, text: [...lines.slice(0, i + 1), lines[i]!, ...lines.slice(i + 1)].join('\n') };
};

export const REFUSALS: Refusal[] = [
  {
    what: 'a point printed twice (sizes that repeat)',
    fileName: 'twice.jsonl',
    text: () => repeated().text,
    message: `twice.jsonl: line ${repeated().line + 1}: the point of stride 32 B and size 8192 B repeats line ${repeated().line}: a program prints each point once`,
    programFailed: false,
  },
  {
    what: 'a CUDA error at the first call, before the device line (real output of a machine without a driver)',
    fileName: 'no-driver.jsonl',
    text: () => read('errors/no-driver.jsonl'),
    message: 'no-driver.jsonl: line 1: the program failed: cudaGetDevice: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version',
    programFailed: true,
  },
  {
    what: 'a CUDA error after the params line',
    fileName: 'oom.jsonl',
    text: () => read('errors/oom.jsonl'),
    message: 'oom.jsonl: line 4: the program failed: cudaMalloc: cudaErrorMemoryAllocation: out of memory',
    programFailed: true,
  },
  {
    what: 'a parameter the program refused',
    fileName: 'bad-size.jsonl',
    text: () => read('h100/bad-size.jsonl'),
    message: 'bad-size.jsonl: line 4: the program stopped with an error (exit code 2): iterations 100000 need 800000 B of shared memory',
    programFailed: true,
  },
  { what: 'not JSON', fileName: 'notes.txt', text: () => 'hello\n', message: 'notes.txt: line 1: not JSON (', programFailed: false },
  {
    what: 'one JSON document, not JSON lines',
    fileName: 'run.json',
    text: () => JSON.stringify({ id: 'x', experiment: 'pchase-fine' }, null, 2),
    message: 'run.json: the file is one JSON document, not the JSON lines a program from gpulab gpu emit prints (a run exported from gpulab?)',
    programFailed: false,
  },
  {
    what: 'an experiment without a program',
    fileName: 'wrong.jsonl',
    text: () => fine().map((l, i) => (i === 2 ? l.replace('"experiment":"pchase-fine"', '"experiment":"cache-lru"') : l)).join('\n'),
    message:
      'wrong.jsonl: line 3: the params line names the experiment "cache-lru", which has no real-GPU program (those with one: pchase-average, pchase-fine, shared-bank-stride, tlb-probes, global-latency-patterns)',
    programFailed: false,
  },
  {
    what: 'no device line',
    fileName: 'headless.jsonl',
    text: () => fine().slice(1).join('\n'),
    message: 'headless.jsonl: line 1: a "clock" line before the device line (the output must start with it)',
    programFailed: false,
  },
  {
    what: 'an output cut short',
    fileName: 'cut.jsonl',
    text: () => fine().slice(0, 5).join('\n'),
    message: 'cut.jsonl: the output ends at line 5 without an end line: the program did not finish (stopped by its time limit, or crashed?)',
    programFailed: false,
  },
];
