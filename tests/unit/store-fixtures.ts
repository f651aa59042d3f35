/** Shared fixtures of the store tests: temporary database files, a clock, results with every kind of data. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExperimentResult, Trace } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import type { Preset } from '../../src-sim/presets/types';
import type { NewRun, StoreOptions } from '../../src-main/services/store';
import { RunStore } from '../../src-main/services/store';

export const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

/** A clock the test moves by hand. */
export class Clock {
  t = T0;
  now = (): number => this.t;
  advance(ms: number): number {
    this.t += ms;
    return this.t;
  }
}

/** A temporary folder with database files; `cleanup` closes stores and removes it. */
export class TempDb {
  readonly dir = mkdtempSync(join(tmpdir(), 'gpulab-store-'));
  private readonly stores: RunStore[] = [];
  file(name = 'lab.db'): string {
    return join(this.dir, name);
  }
  open(options: StoreOptions = {}, name = 'lab.db'): RunStore {
    const s = RunStore.open(this.file(name), { appVersion: '0.1.0-test', ...options });
    this.stores.push(s);
    return s;
  }
  cleanup(): void {
    for (const s of this.stores) s.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function preset(id = 'fermi'): Preset {
  const p = findPreset(id);
  if (!p) throw new Error(`no preset ${id}`);
  return p;
}

export function newRun(over: Partial<NewRun> = {}): NewRun {
  return { experiment: 'pchase-average', preset: preset(), params: { strides: [64], sizeFrom: 1024, sizeTo: 4096 }, seed: 7, ...over };
}

/** A NaN whose payload is not the canonical one: survives only a byte-exact store. */
export function oddNaN(): number {
  const b = new Float64Array(1);
  new DataView(b.buffer).setBigUint64(0, 0x7ff8_dead_beef_0001n, true);
  return b[0];
}

export function trace(n: number): Trace {
  const t: Trace = {
    address: new Float64Array(n),
    latency: new Float64Array(n),
    level: new Uint8Array(n),
    tlb: new Uint8Array(n),
    set: new Int32Array(n),
    way: new Int32Array(n),
    evicted: new Float64Array(n),
    levelNames: ['L1', 'L2'],
    dropped: 3,
  };
  for (let i = 0; i < n; i++) {
    t.address[i] = i * 128 + 2 ** 40;
    t.latency[i] = 96 + (i % 7) * 0.5;
    t.level[i] = i % 3;
    t.tlb[i] = i % 5;
    t.set[i] = (i * 37) % 64;
    t.way[i] = -1 + (i % 5);
    t.evicted[i] = i % 4 === 0 ? -1 : i * 3;
  }
  return t;
}

/** A result with awkward numbers everywhere: NaN payloads, -0, infinities, huge and tiny values. */
export function sampleResult(points = 200, withTrace = true): ExperimentResult {
  const x = new Float64Array(points);
  const y = new Float64Array(points);
  for (let i = 0; i < points; i++) {
    x[i] = 1024 + i * 256;
    y[i] = 100 + Math.sin(i) * 1e-9;
  }
  y[1] = oddNaN();
  y[2] = -0;
  y[3] = Infinity;
  y[4] = -Infinity;
  y[5] = Number.MIN_VALUE;
  y[6] = Number.MAX_VALUE;
  const result: ExperimentResult = {
    series: [
      { name: 'stride 64 B', x, y, xLabel: 'Array size', xUnit: 'B', yLabel: 'Latency', yUnit: 'cycles', style: 'line', logX: true },
      { name: 'empty', x: new Float64Array(0), y: new Float64Array(0), xLabel: 'i', xUnit: '', yLabel: 'v', yUnit: '' },
    ],
    tables: [
      {
        name: 'levels',
        columns: [{ key: 'level', label: 'Level' }, { key: 'latency', label: 'Latency', unit: 'cycles' }],
        rows: [
          { level: 'L1', latency: 96 },
          { level: 'L2', latency: NaN },
          { level: 'memory', latency: -0 },
        ],
      },
    ],
    findings: [{ key: 'l1.sizeBytes', label: 'L1 size', value: 16384, unit: 'B', evidence: 'first rise of "stride 64 B" at 16 KB' }],
    notes: ['Ünïcödé note: 64 B ≈ 0.0625 KB', 'second note'],
  };
  if (withTrace) result.trace = trace(50);
  return result;
}

/** The bytes of a typed array, for byte-exact comparison. */
export function bytesOf(a: ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}
