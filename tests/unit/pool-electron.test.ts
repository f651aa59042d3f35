/**
 * The Electron side of the pool without Electron: ElectronLauncher over a fake `utilityProcess`
 * that behaves like src-sim/worker.ts (ready, progress, result) or dies on request.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findPreset } from '../../src-sim/presets';
import type { RunRequest } from '../../src-sim/worker-protocol';
import { ElectronLauncher, SimPool } from '../../src-main/services/pool';
import type { ProcessExit, UtilityProcessLike, UtilityProcessModule } from '../../src-main/services/pool';

type Behaviour = 'work' | 'crash-3' | 'hang';

class FakeUtilityProcess extends EventEmitter implements UtilityProcessLike {
  static nextPid = 5000;
  pid: number | undefined = undefined;
  readonly stderr = new PassThrough();
  readonly posted: unknown[] = [];
  kills = 0;

  constructor(
    readonly behaviour: Behaviour,
    readonly exitsOnKill: boolean,
  ) {
    super();
    // Like Electron: the pid appears at 'spawn'; the worker then says it is ready.
    setTimeout(() => {
      this.pid = FakeUtilityProcess.nextPid++;
      this.emit('spawn');
      this.emit('message', { type: 'ready', experiments: ['shared-bank-stride'] });
    }, 5);
  }

  postMessage(message: unknown): void {
    this.posted.push(message);
    const run = message as RunRequest;
    if (this.behaviour === 'work') {
      setTimeout(() => {
        this.emit('message', { type: 'progress', runId: run.runId, done: 1, total: 1, phase: 'fake' });
        this.emit('message', {
          type: 'result',
          runId: run.runId,
          elapsedMs: 1,
          result: { series: [{ name: 's', x: Float64Array.of(1), y: Float64Array.of(run.seed), xLabel: '', xUnit: '', yLabel: '', yUnit: '' }], tables: [], findings: [], notes: [] },
        });
      }, 5);
    } else if (this.behaviour === 'crash-3') {
      setTimeout(() => {
        this.stderr.write('Error: the fake simulation crashed\n');
        this.die(3);
      }, 5);
    }
  }

  kill(): boolean {
    this.kills++;
    if (this.exitsOnKill) setTimeout(() => this.die(15), 1);
    return true;
  }

  die(code: number): void {
    this.pid = undefined;
    this.stderr.end();
    this.emit('exit', code);
  }
}

class FakeModule implements UtilityProcessModule {
  readonly forks: { modulePath: string; args?: string[]; options?: Parameters<UtilityProcessModule['fork']>[2]; child: FakeUtilityProcess }[] = [];
  behaviours: Behaviour[] = [];

  constructor(private readonly exitsOnKill = true) {}

  fork(modulePath: string, args?: string[], options?: Parameters<UtilityProcessModule['fork']>[2]): FakeUtilityProcess {
    const child = new FakeUtilityProcess(this.behaviours.shift() ?? 'work', this.exitsOnKill);
    this.forks.push({ modulePath, args, options, child });
    return child;
  }
}

const mocked = vi.hoisted(() => ({ utilityProcess: null as unknown }));
vi.mock('electron', () => mocked);

const fermi = findPreset('fermi')!;
const pools: SimPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close(100)));
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ElectronLauncher (fake utilityProcess)', () => {
  it('forks the worker module with the environment, piped stderr and a service name, and carries messages both ways', async () => {
    const fake = new FakeModule();
    const launcher = new ElectronLauncher({ utilityProcess: fake, modulePath: '/app/out/main/worker.js', env: { GPULAB_TEST_EXPERIMENTS: '1' }, log: () => {} });
    const handle = launcher.launch();
    const messages: unknown[] = [];
    handle.onMessage((m) => messages.push(m));
    expect(fake.forks).toHaveLength(1);
    const { modulePath, options, child } = fake.forks[0];
    expect(modulePath).toBe('/app/out/main/worker.js');
    expect(options?.env?.GPULAB_TEST_EXPERIMENTS).toBe('1');
    expect(options?.env?.PATH).toBe(process.env.PATH);
    expect(options?.stdio).toEqual(['ignore', 'inherit', 'pipe']);
    expect(options?.serviceName).toMatch(/simulation/);
    await wait(20);
    expect(messages).toEqual([{ type: 'ready', experiments: ['shared-bank-stride'] }]);
    expect(handle.pid).toBe(child.pid);
    const request: RunRequest = { type: 'run', runId: 'r', experiment: 'shared-bank-stride', preset: fermi, params: {}, seed: 7 };
    handle.send(request);
    expect(child.posted).toEqual([request]);
  });

  it('reports the exit code (no signal) once, with the stderr lines forwarded and kept', async () => {
    const fake = new FakeModule();
    fake.behaviours = ['crash-3'];
    const log: string[] = [];
    const handle = new ElectronLauncher({ utilityProcess: fake, modulePath: 'w.js', log: (l) => log.push(l) }).launch();
    const exits: ProcessExit[] = [];
    handle.onExit((e) => exits.push(e));
    await wait(20);
    handle.send({ type: 'run', runId: 'r', experiment: 'x', preset: fermi, params: {}, seed: 1 });
    await wait(30);
    expect(exits).toEqual([{ code: 3, signal: null }]);
    expect(handle.pid).toBeUndefined();
    expect(handle.stderrTail()).toEqual(['Error: the fake simulation crashed']);
    expect(log.some((l) => /^\[sim \d+\] Error: the fake simulation crashed$/.test(l))).toBe(true);
    expect(() => handle.send({ type: 'run', runId: 'r2', experiment: 'x', preset: fermi, params: {}, seed: 1 })).toThrow(/exited/);
  });

  it('kills politely first, then with SIGKILL after the grace period when the process does not exit', async () => {
    const stubborn = new FakeModule(false);
    const killPid = vi.fn();
    const handle = new ElectronLauncher({ utilityProcess: stubborn, modulePath: 'w.js', log: () => {}, killGraceMs: 20, killPid }).launch();
    await wait(20);
    const pid = handle.pid;
    handle.kill();
    handle.kill();
    expect(stubborn.forks[0].child.kills).toBe(1);
    await wait(50);
    expect(killPid).toHaveBeenCalledTimes(1);
    expect(killPid).toHaveBeenCalledWith(pid, 'SIGKILL');

    const polite = new FakeModule(true);
    const killPid2 = vi.fn();
    const h2 = new ElectronLauncher({ utilityProcess: polite, modulePath: 'w.js', log: () => {}, killGraceMs: 20, killPid: killPid2 }).launch();
    await wait(20);
    h2.kill();
    await wait(50);
    expect(killPid2).not.toHaveBeenCalled();
  });

  it('runs a SimPool on utility processes: results, the crash reason, cancel, and a replacement process', async () => {
    const fake = new FakeModule();
    fake.behaviours = ['work', 'crash-3', 'hang', 'work'];
    const pool = new SimPool({ launcher: new ElectronLauncher({ utilityProcess: fake, modulePath: 'w.js', log: () => {} }), size: 3, log: () => {} });
    pools.push(pool);
    const progress: string[] = [];
    pool.on('progress', (p) => progress.push(p.runId));
    const submit = (runId: string) => pool.submit({ runId, experiment: 'shared-bank-stride', preset: fermi, seed: 42 });
    const ok = submit('ok');
    const crash = submit('crash');
    const hang = submit('hang');
    const okOutcome = await ok;
    if (okOutcome.status !== 'done') throw new Error(okOutcome.error);
    expect(okOutcome.result.series[0].y).toEqual(Float64Array.of(42));
    expect(progress).toContain('ok');
    expect(await crash).toMatchObject({ status: 'failed', reason: 'crashed', error: 'simulation process exited with code 3: Error: the fake simulation crashed' });

    await wait(20);
    expect(pool.cancel('hang')).toBe(true);
    expect(await hang).toMatchObject({ status: 'cancelled' });
    expect(fake.forks[2].child.kills).toBe(1);

    // The first process is reused; no new fork is needed for one more run.
    expect((await submit('again')).status).toBe('done');
    expect(fake.forks).toHaveLength(3);
  });

  it('load() imports Electron lazily and uses its utilityProcess', async () => {
    const fake = new FakeModule();
    mocked.utilityProcess = fake;
    const launcher = await ElectronLauncher.load({ modulePath: 'lazy.js', log: () => {} });
    launcher.launch();
    expect(fake.forks.map((f) => f.modulePath)).toEqual(['lazy.js']);
  });
});
