/**
 * Entry of a simulation process: run requests in, progress and a result (or an error) out.
 *
 * Started either as an Electron utility process (messages through `process.parentPort`) or by
 * `child_process.fork` under plain Node (`process.send` / `process.on('message')`, with
 * `serialization: 'advanced'` so that typed arrays arrive intact). It imports src-sim only; the
 * protocol is src-sim/worker-protocol.ts. One run at a time; cancelling is the owner killing
 * the process.
 */
import { setHeartbeat } from './heartbeat';
import { EXPERIMENTS } from './experiments';
import type { Experiment, ExperimentResult } from './experiments/types';
import { stateMemoryProblem } from './presets/validate';
import type { Preset } from './presets/types';
import { reproduce } from './reference';
import { withRunProgress } from './reference/row-runs';
import type { ErrorMessage, ProgressMessage, RowsRequest, RunRequest, WorkerMessage } from './worker-protocol';
import { TEST_EXPERIMENTS_ENV } from './worker-protocol';
import { testExperiments } from './worker-test-experiments';

/** Progress messages at most this often (the last one of a run always goes out). */
const PROGRESS_INTERVAL_MS = 100;

/**
 * The owner (the process that started this one) is checked this often: between slices of a run (the
 * progress callback, which every experiment calls as it goes) and, between runs, on a timer. A
 * worker whose owner died (killed, crashed) exits instead of finishing a run nobody will read.
 */
const OWNER_CHECK_MS = 100;

/** Electron's `process.parentPort` (typed here so the worker needs no Electron types). */
interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

const catalogue = new Map<string, Experiment>(EXPERIMENTS.map((e) => [e.id, e]));
if (process.env[TEST_EXPERIMENTS_ENV] === '1') {
  const host = {
    exit: (code: number) => process.exit(code),
    kill: (signal: NodeJS.Signals) => void process.kill(process.pid, signal),
  };
  for (const e of testExperiments(host)) catalogue.set(e.id, e);
}

function connect(): { post: (m: WorkerMessage) => void; listen: (on: (m: unknown) => void) => void } {
  const parentPort = (process as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return {
      post: (m) => parentPort.postMessage(m),
      listen: (on) => parentPort.on('message', (event) => on(event.data)),
    };
  }
  const send = process.send?.bind(process);
  if (send) {
    // The owner is gone: nobody will read a result.
    process.on('disconnect', () => process.exit(0));
    return { post: (m) => void send(m), listen: (on) => process.on('message', on) };
  }
  process.stderr.write('src-sim/worker.ts is a simulation process: start it with utilityProcess.fork or child_process.fork\n');
  process.exit(2);
}

const ownerPid = process.ppid;
let lastOwnerCheck = Date.now();

/** Whether the process that started this one is still there (its pid is still our parent's and alive). */
function ownerAlive(): boolean {
  if (process.ppid !== ownerPid) return false; // re-parented: the owner is gone
  try {
    process.kill(ownerPid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

/** Exits when the owner is gone; cheap enough to call on every progress report (a clock read). */
function checkOwner(): void {
  const now = Date.now();
  if (now - lastOwnerCheck < OWNER_CHECK_MS) return;
  lastOwnerCheck = now;
  if (!ownerAlive()) {
    process.stderr.write('simulation process: its owner is gone; exiting\n');
    process.exit(3);
  }
}

/** Refuses, before anything is allocated, a preset whose caches would exceed the memory bound. */
function checkMemory(preset: Preset | undefined): void {
  if (!preset) return;
  const problem = stateMemoryProblem(preset);
  if (problem) {
    const err = new Error(`${problem.path}: ${problem.message}`);
    err.name = 'ExperimentError';
    throw err;
  }
}

function isRunRequest(m: unknown): m is RunRequest {
  if (typeof m !== 'object' || m === null) return false;
  const o = m as Record<string, unknown>;
  return (
    o.type === 'run' &&
    typeof o.runId === 'string' &&
    typeof o.experiment === 'string' &&
    typeof o.preset === 'object' &&
    o.preset !== null &&
    typeof o.params === 'object' &&
    o.params !== null &&
    typeof o.seed === 'number'
  );
}

function isRowsRequest(m: unknown): m is RowsRequest {
  if (typeof m !== 'object' || m === null) return false;
  const o = m as Record<string, unknown>;
  return (
    o.type === 'rows' &&
    typeof o.runId === 'string' &&
    typeof o.selector === 'string' &&
    (o.preset === undefined || (typeof o.preset === 'object' && o.preset !== null)) &&
    typeof o.seed === 'number'
  );
}

function errorMessage(runId: string, err: unknown): ErrorMessage {
  if (err instanceof Error) {
    const param = (err as { param?: unknown }).param;
    return {
      type: 'error',
      runId,
      message: err.message,
      name: err.name,
      ...(typeof param === 'string' ? { param } : {}),
      ...(err.name === 'ExperimentError' || err.stack === undefined ? {} : { stack: err.stack }),
    };
  }
  return { type: 'error', runId, message: String(err), name: 'Error' };
}

function run(req: RunRequest, post: (m: WorkerMessage) => void): void {
  const experiment = catalogue.get(req.experiment);
  if (!experiment) {
    post({ type: 'error', runId: req.runId, message: `unknown experiment "${req.experiment}"`, name: 'ExperimentError' });
    return;
  }
  // Throttled: the first call, then at most one per PROGRESS_INTERVAL_MS; the latest held back is sent at the end.
  const throttle: { last: number; held: Omit<ProgressMessage, 'type' | 'runId'> | null } = { last: -Infinity, held: null };
  const progress = (done: number, total: number, phase: string): void => {
    checkOwner();
    const now = Date.now();
    if (now - throttle.last >= PROGRESS_INTERVAL_MS || done >= total) {
      throttle.last = now;
      throttle.held = null;
      post({ type: 'progress', runId: req.runId, done, total, phase });
    } else {
      throttle.held = { done, total, phase };
    }
  };
  const started = performance.now();
  let result: ExperimentResult;
  try {
    checkMemory(req.preset);
    result = experiment.run(req.preset, req.params, req.seed, progress);
  } catch (err) {
    post(errorMessage(req.runId, err));
    return;
  }
  const elapsedMs = performance.now() - started;
  if (throttle.held) post({ type: 'progress', runId: req.runId, ...throttle.held });
  try {
    post({ type: 'result', runId: req.runId, result, elapsedMs });
  } catch (err) {
    // A result that cannot be cloned (a function, a symbol) is a fault of the experiment.
    post(errorMessage(req.runId, new Error(`the result could not be sent: ${err instanceof Error ? err.message : String(err)}`)));
  }
}

/** The scorecard: every selected (row, preset), progress before each (a row takes up to a minute). */
function rows(req: RowsRequest, post: (m: WorkerMessage) => void): void {
  const started = performance.now();
  try {
    checkMemory(req.preset);
    // (checked between rows and within each row's runs: one run may take most of a minute)
    const out = withRunProgress(checkOwner, () =>
      reproduce(req.selector, req.preset, req.seed, (p) => {
        checkOwner();
        post({ type: 'progress', runId: req.runId, ...p });
      }),
    );
    post({ type: 'rows-result', runId: req.runId, rows: out, elapsedMs: performance.now() - started });
  } catch (err) {
    post(errorMessage(req.runId, err));
  }
}

// A terminal's Ctrl+C (or hang-up) reaches the whole process group, this process included. The owner
// decides when a simulation process ends (it kills it, or the worker exits on disconnect) and records
// the run as interrupted; dying here first would record it as crashed.
for (const signal of ['SIGINT', 'SIGHUP'] as const) process.on(signal, () => {});

const channel = connect();
channel.listen((m) => {
  if (isRunRequest(m)) run(m, channel.post);
  else if (isRowsRequest(m)) rows(m, channel.post);
});
channel.post({ type: 'ready', experiments: [...catalogue.keys()] });
// Between runs the event loop is free: the same check on a timer (it does not keep the process alive).
setInterval(checkOwner, OWNER_CHECK_MS * 2).unref();
setHeartbeat(checkOwner);
