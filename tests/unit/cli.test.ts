import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRACE_LIMIT, resultJson, seriesCsv } from '../../src-main/cli/format';
import { runCli } from '../../src-main/cli/main';
import { EXPERIMENTS } from '../../src-sim/experiments';
import type { ExperimentResult, Trace } from '../../src-sim/experiments/types';
import { findPreset, PRESETS } from '../../src-sim/presets';
import { REPRODUCTION_ROWS } from '../../src-sim/reference';
import { SIM_VERSION } from '../../src-sim/version';

const ROOT = resolve(__dirname, '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const tmp = mkdtempSync(join(tmpdir(), 'gpulab-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command line as a process: its entry, output and exit code (the version and help tests go through it). */
function labProcess(...args: string[]): Ran {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command line in this process (runCli, what the entry prints), without a process start each. */
async function lab(...args: string[]): Promise<Ran> {
  return runCli(args, { version: PKG.version, readFile: (path) => readFileSync(path, 'utf8'), status: null });
}

/** A bad-input failure: exit 2, nothing on stdout, exactly one line on stderr. */
function expectUsageError(r: Ran, fragment: string | RegExp): void {
  expect(r.code, r.stderr || r.stdout.slice(0, 200)).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^gpulab: error: /);
  expect(r.stderr).toMatch(fragment);
}

const small = ['--param', 'sizeFrom=1KB', '--param', 'sizeTo=20KB', '--param', 'strides=64,128'];

describe('gpulab --version and help', () => {
  it('prints the package version and the simulator version', async () => {
    const r = labProcess('--version');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`gpulab ${PKG.version} (simulator ${SIM_VERSION})\n`);
  });

  it('lists every command in help, --help and with no command at all', async () => {
    for (const args of [['help'], ['--help'], []]) {
      const r = await lab(...args);
      expect(r.code).toBe(0);
      for (const c of ['presets', 'experiments', 'run', 'reproduce']) expect(r.stdout).toContain(`  ${c}`);
    }
  });

  it('shows the options of one command', async () => {
    const r = labProcess('run', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: gpulab run <experiment>/);
    expect(r.stdout).toContain('--preset-file');
  });

  it('describes every option of every command', async () => {
    const top = await lab('--help');
    const commands = [...top.stdout.matchAll(/^ {2}([a-z]+(?: [a-z]+)?) {2,}\S/gm)].map((m) => m[1]);
    expect(commands).toContain('reproduce');
    expect(commands).toContain('sweep');
    for (const c of commands) {
      const r = await lab(...c.split(' '), '--help');
      expect(r.code, c).toBe(0);
      expect(r.stdout, c).not.toContain('undefined');
    }
  });

  it('runs the same CLI through bin/gpulab.mjs from another directory', async () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/gpulab.mjs'), '--version'], { cwd: tmp, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`gpulab ${PKG.version} (simulator ${SIM_VERSION})\n`);
    const bad = spawnSync(process.execPath, [join(ROOT, 'bin/gpulab.mjs'), 'frobnicate'], { cwd: tmp, encoding: 'utf8' });
    expect(bad.status).toBe(2);
  });
});

describe('gpulab presets / preset', () => {
  it('lists every preset with its device in text', async () => {
    const r = await lab('presets');
    expect(r.code).toBe(0);
    for (const p of PRESETS) expect(r.stdout).toMatch(new RegExp(`^${p.id}\\s+.*${p.device.replace(/[()]/g, '.')}`, 'm'));
  });

  it('gives the key sizes as JSON', async () => {
    const r = await lab('presets', '--format', 'json');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.map((x) => x.id)).toEqual(PRESETS.map((p) => p.id));
    const fermi = rows.find((x) => x.id === 'fermi') as Record<string, unknown>;
    expect(fermi).toMatchObject({ generation: 'Fermi', sharedBytes: 49152, pageBytes: 2 * 1024 * 1024, tlbEntries: [16, 65] });
    expect((fermi.globalLevels as { name: string; sizeBytes: number }[]).map((l) => [l.name, l.sizeBytes])).toEqual([
      ['L1', 16384],
      ['L2', 524288],
    ]);
  });

  it('prints one preset in full, equal to the built-in data', async () => {
    const r = await lab('preset', 'kepler');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(findPreset('kepler'))));
  });
});

describe('gpulab experiments', () => {
  it('describes every experiment and parameter as JSON', async () => {
    const r = await lab('experiments', '--format', 'json');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { id: string; params: Record<string, unknown>[] }[];
    expect(list.map((e) => e.id)).toEqual(EXPERIMENTS.map((e) => e.id));
    list.forEach((e, i) => {
      expect(e.params.map((p) => p.name)).toEqual(EXPERIMENTS[i].params.map((p) => p.name));
      for (const p of e.params) {
        for (const key of ['name', 'kind', 'unit', 'default', 'description']) expect(p).toHaveProperty(key);
        if (p.kind === 'enum') expect(Array.isArray(p.options)).toBe(true);
        else if (p.kind === 'text') expect(typeof p.maxLength).toBe('number');
        else if (p.kind !== 'boolean') expect(typeof p.min === 'number' && typeof p.max === 'number').toBe(true);
      }
    });
  });

  it('shows one experiment with its parameters, defaults and ranges in text', async () => {
    const r = await lab('experiments', 'pchase-average');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pchase-average: /);
    expect(r.stdout).toMatch(/^\s+strides\s+bytes-list\s+B\s+64 B\s+4 B \.\. 1 GB/m);
    expect(r.stdout).toMatch(/^\s+space\s+enum\s+-\s+global\s+global \| global-cg/m);
  });
});

describe('gpulab run', () => {
  it('prints findings, series and parameters in text, and no progress when stderr is not a terminal', async () => {
    const r = await lab('run', 'pchase-average', '--preset', 'fermi', ...small);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Preset: Fermi (GeForce GTX 560 Ti)');
    expect(r.stdout).toContain('strides=64 B,128 B');
    expect(r.stdout).toMatch(/^Findings$/m);
    expect(r.stdout).toMatch(/^s = 64 B\s+77\s+1 KB\s+20 KB\s+116 cycles/m);
  });

  it('gives the whole result as JSON, resolved parameters included, the same for the same seed', async () => {
    const a = await lab('run', 'pchase-average', '--preset', 'fermi', ...small, '--format', 'json', '--seed', '7');
    expect(a.code).toBe(0);
    const res = JSON.parse(a.stdout);
    expect(res).toMatchObject({ experiment: 'pchase-average', seed: 7, simVersion: SIM_VERSION, preset: { id: 'fermi', builtIn: true } });
    expect(res.params).toMatchObject({ strides: [64, 128], sizeFrom: 1024, sizeTo: 20480, sizeStep: 256, space: 'global' });
    expect(res.series).toHaveLength(2);
    for (const s of res.series) {
      expect(Array.isArray(s.x) && Array.isArray(s.y)).toBe(true);
      expect(s.x).toHaveLength(77);
      expect(s.y).toHaveLength(77);
    }
    for (const key of ['tables', 'findings', 'notes']) expect(Array.isArray(res[key])).toBe(true);
    const b = await lab('run', 'pchase-average', '--preset', 'fermi', ...small, '--format', 'json', '--seed', '7');
    expect(b.stdout).toBe(a.stdout);
  });

  it('writes the series as long-form CSV (series,x,y) with the values of the JSON', async () => {
    const csv = await lab('run', 'pchase-average', '--preset', 'kepler', ...small, '--format', 'csv');
    const js = JSON.parse((await lab('run', 'pchase-average', '--preset', 'kepler', ...small, '--format', 'json')).stdout);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('series,x,y');
    expect(lines).toHaveLength(1 + 2 * 77);
    expect(lines[1]).toBe(`s = 64 B,${js.series[0].x[0]},${js.series[0].y[0]}`);
    expect(lines[78]).toBe(`s = 128 B,${js.series[1].x[0]},${js.series[1].y[0]}`);
  });

  it('refuses bad input with exit code 2, one line on stderr and nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['run', 'no-such-experiment', '--preset', 'fermi'], /unknown experiment "no-such-experiment"; known: pchase-average/],
      [['run', 'pchase-average', '--preset', 'voodoo'], /unknown preset "voodoo": not built in \(tesla, fermi/],
      [['run', 'pchase-average'], /missing --preset/],
      [['run', 'pchase-average', '--preset', 'fermi', '--preset-file', 'x.json'], /not both/],
      [['run', 'pchase-average', '--preset', 'fermi', '--param', 'voltage=3'], /unknown parameter "voltage"; known: space/],
      [['run', 'pchase-average', '--preset', 'fermi', '--param', 'strides=3'], /parameter "strides" is 3 B; allowed: 4 B to 1 GB/],
      [['run', 'pchase-average', '--preset', 'fermi', '--param', 'sizeTo=lots'], /parameter "sizeTo" must be a/],
      [['run', 'pchase-average', '--preset', 'fermi', '--param', 'sizeTo'], /--param takes name=value/],
      [['run', 'pchase-average', '--preset', 'fermi', '--param', 'space=texture', '--param', 'space=global'], /given twice/],
      [['run', 'pchase-average', '--preset', 'fermi', '--param', 'space=constant'], /pchase-average on fermi: Fermi has no constant memory space/],
      [['run', 'pchase-average', '--preset', 'fermi', '--seed', 'abc'], /--seed must be a whole number/],
      [['run', 'pchase-average', '--preset', 'fermi', '--format', 'xml'], /--format must be one of: text, json, csv/],
      [['run', 'pchase-average', '--preset', 'fermi', '--trace-limit', '-3'], /trace-limit/],
      [['presets', '--seed', '3'], /option --seed does not apply to "presets"/],
      [['presets', 'extra'], /unexpected argument "extra"/],
      [['preset', 'voodoo'], /unknown preset "voodoo"/],
      [['--frobnicate'], /unknown option --frobnicate/],
      [['reproduce'], /missing argument/],
    ];
    for (const [args, fragment] of cases) expectUsageError(await lab(...args), fragment);
  });
});

describe('gpulab run with a custom preset file', () => {
  const fermi = JSON.parse(JSON.stringify(findPreset('fermi')));

  it('runs a valid copy of Fermi under its own id and simulates exactly what Fermi does', async () => {
    const file = join(tmp, 'my-fermi.json');
    writeFileSync(file, JSON.stringify({ ...fermi, id: 'my-fermi', name: 'My Fermi' }));
    const custom = await lab('run', 'pchase-average', '--preset-file', file, ...small, '--format', 'json');
    expect(custom.code).toBe(0);
    const c = JSON.parse(custom.stdout);
    expect(c.preset).toMatchObject({ id: 'my-fermi', name: 'My Fermi', builtIn: false });
    const builtIn = JSON.parse((await lab('run', 'pchase-average', '--preset', 'fermi', ...small, '--format', 'json')).stdout);
    expect(c.series).toEqual(builtIn.series);
  });

  it('refuses a preset whose L1 size disagrees with its geometry, with the validator message', async () => {
    const bad = JSON.parse(JSON.stringify(fermi));
    bad.id = 'bad-fermi';
    bad.spaces.global.levels[0].sizeBytes = 20480;
    const file = join(tmp, 'bad-fermi.json');
    writeFileSync(file, JSON.stringify(bad));
    expectUsageError(
      await lab('run', 'pchase-average', '--preset-file', file),
      /invalid preset file ".*bad-fermi\.json": spaces\.global\.levels\.0\.sizeBytes: L1: size 20480 B does not equal 32 sets x 4 ways x 128 B = 16384 B/,
    );
  });

  it('refuses malformed JSON, a missing file and a built-in id', async () => {
    const broken = join(tmp, 'broken.json');
    writeFileSync(broken, '{"id": "x",');
    expectUsageError(await lab('run', 'pchase-average', '--preset-file', broken), /is not valid JSON/);
    expectUsageError(await lab('run', 'pchase-average', '--preset-file', join(tmp, 'absent.json')), /cannot read preset file .*ENOENT/);
    const same = join(tmp, 'same.json');
    writeFileSync(same, JSON.stringify(fermi));
    expectUsageError(await lab('run', 'pchase-average', '--preset-file', same), /uses the id of the built-in preset "fermi"/);
  });

  it('refuses what the API refuses: prototype keys, and a file past the preset size limit before reading it', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const file = join(tmp, `proto-${key}.json`);
      writeFileSync(file, JSON.stringify({ ...fermi, id: 'proto' }).replace(/^\{/, `{"${key}": {"polluted": true},`));
      expectUsageError(await lab('run', 'pchase-average', '--preset-file', file), new RegExp(`preset file ".*proto-${key}\\.json": ${key}: the key "${key}" is not allowed`));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const big = join(tmp, 'big.json');
    writeFileSync(big, `{"id": "big", "x": [${'0,'.repeat(200_000)}0]}`);
    expectUsageError(await lab('run', 'pchase-average', '--preset-file', big), /preset file ".*big\.json" is 400\d+ bytes, more than the 262144 bytes a preset may hold/);
    // A device or a pipe is refused by what it is, never read (reading /dev/zero would never end).
    expectUsageError(await lab('run', 'pchase-average', '--preset-file', '/dev/zero'), /cannot read preset file "\/dev\/zero": a device, not a regular file/);
  });
});

describe('gpulab reproduce', () => {
  it('refuses an unknown row with the list of known ones', async () => {
    expectUsageError(await lab('reproduce', 'NO-SUCH-ROW'), /unknown row "NO-SUCH-ROW"; use all, MEI, WONG/);
  });

  const row = REPRODUCTION_ROWS[0];
  it.runIf(row !== undefined)('prints {rows, passed, failed, gate, totals} as JSON, one row per preset with its checks and their kinds, and exits 1 only when the gate closes', async () => {
    const r = await lab('reproduce', row.id, '--format', 'json');
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['failed', 'gate', 'passed', 'rows', 'totals']);
    expect(out.rows.map((x: { preset: string }) => x.preset)).toEqual(row.presets);
    const counted = { predicted: [0, 0], recovered: [0, 0], calibrated: [0, 0], specification: [0, 0] } as Record<string, number[]>;
    for (const x of out.rows) {
      expect(x).toMatchObject({ id: row.id, target: expect.any(String), simulated: expect.any(String), pass: expect.any(Boolean), gate: expect.any(String) });
      for (const key of Object.keys(x)) expect(['id', 'preset', 'target', 'simulated', 'pass', 'deviation', 'gate', 'checks', 'notes']).toContain(key);
      if ('deviation' in x) expect(typeof x.deviation).toBe('number');
      expect(x.checks.length).toBeGreaterThan(0);
      for (const c of x.checks) {
        expect(c).toMatchObject({ name: expect.any(String), target: expect.any(String), simulated: expect.any(String), pass: expect.any(Boolean), citation: expect.any(String) });
        expect(['predicted', 'recovered', 'calibrated', 'specification']).toContain(c.kind);
        counted[c.kind][1]++;
        if (c.pass) counted[c.kind][0]++;
      }
    }
    for (const [k, [passed, total]] of Object.entries(counted)) expect(out.totals[k]).toEqual({ passed, total });
    const passed = out.rows.filter((x: { pass: boolean }) => x.pass).length;
    expect(out.passed).toBe(passed);
    expect(out.failed).toBe(out.rows.length - passed);
    expect(r.code).toBe(out.gate.open ? 0 : 1);
  });

  it.runIf(row !== undefined)('runs a row on the preset given instead of its own, and reports it in text', async () => {
    const target = PRESETS.find((p) => p.id !== row.presets[0]) ?? PRESETS[0];
    const json = JSON.parse((await lab('reproduce', row.id, '--preset', target.id, '--format', 'json')).stdout);
    expect(json.rows.map((x: { preset: string }) => x.preset)).toEqual([target.id]);
    const text = await lab('reproduce', row.id);
    expect(text.stdout).toMatch(new RegExp(`^(PASS|KNOWN|FAIL|UNEXPECTED PASS)  ${row.id} on ${row.presets[0]}`, 'm'));
    expect(text.stdout).toMatch(/^ {6}\[(predicted|recovered|calibrated|specification)\] +\S/m);
    expect(text.stdout).toMatch(/^Predicted checks \(reproductions\): \d+ of \d+ passed\.$/m);
    expect(text.stdout).toMatch(/^Method checks \(recovered\): \d+ of \d+ passed /m);
    expect(text.stdout).toMatch(/^Rows: \d+ passed, \d+ failed .* in .*; gate (open|CLOSED)\.$/m);
  });
});

describe('output formatting', () => {
  const trace = (n: number, dropped: number): Trace => ({
    address: Float64Array.from({ length: n }, (_, i) => i * 128),
    latency: new Float64Array(n).fill(116),
    level: new Uint8Array(n),
    tlb: new Uint8Array(n).fill(1),
    set: new Int32Array(n),
    way: new Int32Array(n),
    evicted: new Float64Array(n).fill(-1),
    levelNames: ['L1', 'memory'],
    dropped,
  });

  it('cuts a long trace to the limit and counts what it cut as dropped', async () => {
    const r: ExperimentResult = { series: [], tables: [], findings: [], notes: [], trace: trace(50, 3) };
    const j = resultJson(r, 20) as { trace: Record<string, unknown> };
    expect(j.trace.address).toEqual(Array.from({ length: 20 }, (_, i) => i * 128));
    for (const k of ['latency', 'level', 'tlb', 'set', 'way', 'evicted']) expect(j.trace[k]).toHaveLength(20);
    expect(j.trace.dropped).toBe(3 + 30);
    expect(JSON.parse(JSON.stringify(resultJson(r, DEFAULT_TRACE_LIMIT))).trace.address).toHaveLength(50);
  });

  it("keeps a warm trace's start state as arrays (a cold trace has none)", () => {
    const start = { accesses: 64, lines: new Float64Array([0, -1, 3]), age: new Int32Array([1, 0, 2]) };
    const r: ExperimentResult = { series: [], tables: [], findings: [], notes: [], trace: { ...trace(5, 0), start } };
    const j = JSON.parse(JSON.stringify(resultJson(r, 2))) as { trace: Record<string, unknown> };
    expect(j.trace.start).toEqual({ accesses: 64, lines: [0, -1, 3], age: [1, 0, 2] });
    expect(resultJson({ ...r, trace: trace(5, 0) }, 2).trace).not.toHaveProperty('start');
  });

  it('quotes CSV series names that hold commas or quotes, and leaves missing values empty', async () => {
    const csv = seriesCsv([
      { name: 'N = 16, "hot"', x: [1, 2], y: [3.5, NaN], xLabel: '', xUnit: '', yLabel: '', yUnit: '' },
    ]);
    expect(csv).toBe('series,x,y\n"N = 16, ""hot""",1,3.5\n"N = 16, ""hot""",2,\n');
  });
});

describe('outputs the file system refuses', () => {
  it('are a failure in words (exit 1), not an internal error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpulab-cli-out-'));
    try {
      const file = join(dir, 'a-file');
      writeFileSync(file, 'x');
      const r = await lab('gpu', 'emit', 'pchase-fine', '--out', file);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`gpulab: error: cannot make the folder "${file}": something is already there (a file where a folder is needed, or the other way round) (EEXIST)\n`);
      const under = await lab('gpu', 'emit', 'pchase-fine', '--out', join(file, 'sub'));
      expect(under.code).toBe(1);
      expect(under.stderr).toMatch(/^gpulab: error: cannot make the folder ".*sub": a part of the path is not a folder \(ENOTDIR\)\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
