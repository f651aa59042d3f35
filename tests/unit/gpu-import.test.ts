import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { thrown } from './thrown';
import { findNvcc } from '../../src-main/cli/gpu';
import { runCli } from '../../src-main/cli/main';
import { importGpuOutput, ImportError, parseGpuOutput, ProgramFailed, programFailure } from '../../src-sim/cuda/import';
import { LabError } from '../../src-main/contract';
import { GpuService } from '../../src-main/services/gpu';
import { REFUSALS } from './import-refusals';
import type { Finding } from '../../src-sim/experiments/types';
import { findPreset } from '../../src-sim/presets';
import { selectRows } from '../../src-sim/reference';

const ROOT = resolve(__dirname, '../..');
const FIXTURES = join(ROOT, 'tests/fixtures/real/h100');
const tmp = mkdtempSync(join(tmpdir(), 'gpulab-gpu-import-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const fixture = (name: string): string => readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8');
const lines = (name: string): Record<string, unknown>[] =>
  fixture(name)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function finding(fs: Finding[], key: string): Finding {
  const f = fs.find((x) => x.key === key);
  expect(f, `finding ${key} among ${fs.map((x) => x.key).join(', ')}`).toBeDefined();
  return f as Finding;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function lab(args: string[], env: NodeJS.ProcessEnv = process.env): Ran {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command line in this process (runCli: the entry's output, without a process start each). */
async function labIn(args: string[]): Promise<Ran> {
  return runCli(args, { version: '0.0.0', readFile: (path) => readFileSync(path, 'utf8'), status: null });
}

function expectUsageError(r: Ran, fragment: RegExp): void {
  expect(r.code, r.stderr || r.stdout.slice(0, 200)).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^gpulab: error: /);
  expect(r.stderr).toMatch(fragment);
}

describe('import of the H100 runs', () => {
  it('reads the device line', () => {
    const o = parseGpuOutput(fixture('avg-l1'));
    const d = lines('avg-l1')[0];
    expect(o.device.name).toBe(d.name);
    expect(o.device.computeCapability).toBe('9.0');
    expect(o.device.l2Bytes).toBe(d.l2Bytes);
    expect(o.params.strides).toEqual([32, 128, 256]);
  });

  it('pchase-average over L1: the analyser reads the plateau and the size where the measured curve leaves it', () => {
    const r = importGpuOutput(fixture('avg-l1'));
    expect(r.series.map((s) => s.name)).toEqual(['s = 32 B', 's = 128 B', 's = 256 B']);
    // The same numbers, computed here from the raw stretches: (cycles of 2n loads - cycles of n loads) / n.
    const pts = lines('avg-l1').filter((l) => l.type === 'point' && l.stride === 128) as { size: number; loads: number; cycles: number; cycles2: number }[];
    const y = pts.map((p) => (p.cycles2 - p.cycles) / p.loads);
    const first = y[0];
    const leave = y.findIndex((v) => v > first + 1);
    expect(leave).toBeGreaterThan(4);
    const plateau = finding(r.findings, 's = 128 B.plateau1.latency');
    const sorted = y.slice(0, leave).sort((a, b) => a - b);
    expect(plateau.value as number).toBeCloseTo(sorted[Math.floor(sorted.length / 2)], 1);
    expect(finding(r.findings, 's = 128 B.level1.sizeBytes').value).toBe(pts[leave - 1].size);
    // The rise is no LRU staircase (the latency falls between sizes): the analyser fits no geometry to it.
    expect(['no', 'cannot tell']).toContain(finding(r.findings, 's = 128 B.level1.regular').value);
    expect(finding(r.findings, 's = 128 B.level1.ways').value).toBe('cannot tell');
  });

  it('pchase-average beyond L2: the first plateau is the L2 latency, the rest is read as "cannot tell" with a reason', () => {
    const r = importGpuOutput(fixture('avg-l2'));
    const pts = lines('avg-l2').filter((l) => l.type === 'point' && l.stride === 64) as { loads: number; cycles: number; cycles2: number }[];
    const y0 = (pts[0].cycles2 - pts[0].cycles) / pts[0].loads;
    expect(finding(r.findings, 's = 64 B.plateau1.latency').value as number).toBeCloseTo(y0, 0);
    const size = finding(r.findings, 's = 64 B.level1.sizeBytes');
    expect(size.value).toBe('cannot tell');
    expect(size.evidence).toMatch(/to decide/);
  });

  it('shared-bank-stride: the analyser reads the cost per conflict and the gcd rule from the measured latencies', () => {
    const r = importGpuOutput(fixture('banks-64'));
    const sweep = lines('banks-64').filter((l) => l.type === 'point' && l.probe === 'sweep') as { stride: number; accesses: number; cycles: number[]; cycles2: number[] }[];
    const lat = sweep.map((p) => p.cycles.reduce((a, c, i) => a + (p.cycles2[i] - c) / p.accesses, 0) / p.cycles.length);
    // Conflict degree from the latencies alone: 1 + (latency - odd-stride latency) / cost, the cost from 32-way.
    const base = lat[1];
    const cost = (lat[32] - base) / 31;
    const perConflict = finding(r.findings, 'shared.perConflict').value as number;
    expect(perConflict).toBeCloseTo(cost, 2);
    const degrees = lat.map((v) => Math.round(1 + (v - base) / cost));
    expect(r.tables[0].rows.map((row) => row.device)).toEqual(degrees);
    const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
    // Stride 0 is a broadcast (every thread reads word 0): one access, no conflict.
    expect(sweep.every((p, i) => degrees[i] === (p.stride === 0 ? 1 : gcd(p.stride, 32)))).toBe(true);
    expect(finding(r.findings, 'shared.rule').value).toBe('gcd(stride, 32)');
    expect(finding(r.findings, 'shared.maxDegree').value).toBe(Math.max(...degrees));
  });

  it('pchase-fine from a cold start: the levels and the miss rate match the recorded cycles', () => {
    const r = importGpuOutput(fixture('fine-16k-cold'));
    const clock = lines('fine-16k-cold').find((l) => l.type === 'clock') as { overheadCycles: number };
    const cycles = lines('fine-16k-cold')
      .filter((l) => l.type === 'trace')
      .flatMap((l) => l.cycles as number[])
      .map((c) => c - clock.overheadCycles);
    const fastest = Math.min(...cycles);
    const hits = cycles.filter((c) => c === fastest).length;
    expect(finding(r.findings, 'trace.level1.latency').value).toBe(fastest);
    expect(finding(r.findings, 'trace.missRate').value).toBeCloseTo((cycles.length - hits) / cycles.length, 4);
    // The first traversal is all misses (a cold start), the later ones all hits: 16 KB fits in L1.
    expect(finding(r.findings, 'trace.periodic').value).toBe('yes');
    expect(r.series.find((s) => s.name === 'index')?.y[1]).toBe(32);
  });

  it('pchase-fine just over L1: a share of the accesses miss, the rest hit', () => {
    for (const name of ['fine-192k', 'fine-224k']) {
      const r = importGpuOutput(fixture(name));
      const cycles = lines(name)
        .filter((l) => l.type === 'trace')
        .flatMap((l) => l.cycles as number[]);
      const slow = cycles.filter((c) => c > 100).length / cycles.length;
      const rate = finding(r.findings, 'trace.missRate').value as number;
      expect(rate).toBeCloseTo(slow, 2);
      expect(rate).toBeGreaterThan(0.1);
      expect(rate).toBeLessThan(0.95);
    }
  });

  it('a wider level gap merges levels', () => {
    const narrow = importGpuOutput(fixture('fine-16k-cold'), { levelGap: 16 });
    const wide = importGpuOutput(fixture('fine-16k-cold'), { levelGap: 300 });
    // A narrow gap splits the device-memory accesses into more clusters; they come at no period and lie
    // within 2.5 x of each other, so both read hits and one device-memory level.
    const clusters = Number(/the (\d+) clusters/.exec(finding(narrow.findings, 'trace.deviceMemory').evidence)?.[1]);
    expect(clusters).toBeGreaterThan(2);
    expect(wide.findings.some((f) => f.key === 'trace.deviceMemory')).toBe(false);
    expect(finding(narrow.findings, 'trace.levels').value).toBe(2);
    expect(finding(wide.findings, 'trace.levels').value).toBe(2);
  });
});

describe('import of the H100 carveout, cold-fill, TLB and pattern runs', () => {
  const size = (name: string): Finding['value'] => finding(importGpuOutput(fixture(name)).findings, 's = 128 B.level1.sizeBytes').value;

  it('the L1 the chase sees shrinks as the carveout asked for grows, and stays at its smallest from 10 % on', () => {
    const small = [0, 1, 2, 4, 6, 8].map((c) => size(`avg-l1-c${c}`) as number);
    for (let i = 1; i < small.length; i++) expect(small[i]).toBeLessThan(small[i - 1]);
    expect(small[0]).toBe(240 * 1024);
    const rest = [10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100].map((c) => size(`avg-l1-c${c}`));
    expect(new Set(rest)).toEqual(new Set([20 * 1024]));
    // The program says what it asked for; the analyser reads the L1 hit latency the same at every carveout.
    const r = importGpuOutput(fixture('avg-l1-c50'));
    expect(r.params.carveout).toBe(50);
    expect(r.notes.some((n) => n.includes('carveout asked for: 50 %'))).toBe(true);
    expect(finding(r.findings, 's = 128 B.plateau1.latency').value).toBe(finding(importGpuOutput(fixture('avg-l1-c0')).findings, 's = 128 B.plateau1.latency').value);
  });

  it('a cold traversal below the sector size: one L1 miss every 32 B, one device-memory access every 64 B; L1 bypassed, every 64 B', () => {
    const ca = importGpuOutput(fixture('fine-cold-s4')).findings;
    expect(finding(ca, 'trace.level2.everyBytes').value).toBe(32);
    expect(finding(ca, 'trace.level3.everyBytes').value).toBe(64);
    const cg = importGpuOutput(fixture('fine-cold-s4-cg')).findings;
    expect(finding(cg, 'trace.level1.latency').value as number).toBeGreaterThan(250);
    expect(finding(cg, 'trace.level2.everyBytes').value).toBe(64);
    // At a 32 B stride each miss of the L2 still brings in two sectors: every other access.
    expect(finding(importGpuOutput(fixture('fine-cold-s32-cg')).findings, 'trace.level2.everyBytes').value).toBe(64);
    // A warm run has no cold traversal to read.
    expect(importGpuOutput(fixture('fine-16k-warm')).findings.some((f) => f.key.endsWith('.everyBytes'))).toBe(false);
  });

  it('tlb-probes reach with controls: no translation step to name, and the own-page control bounds the reach from below', () => {
    const ca = importGpuOutput(fixture('tlb-2m-ca'));
    expect(ca.series.map((s) => s.name)).toEqual(['main', 'block-pair', 'near-pair', 'own-page', 'double']);
    expect(finding(ca.findings, 'tlb.l1.entries').value).toBe('cannot tell');
    expect(finding(ca.findings, 'tlb.flatUpTo').value).toBe(1792 * 2 * 2 ** 20);
    const wide = importGpuOutput(fixture('tlb-wide-cg'));
    expect(finding(wide.findings, 'tlb.flatUpTo').value).toBe(16 * 2 ** 30);
    // A level gap below the main curve's climb: the rises are classified, and the controls call them the data cache's, not a TLB's.
    const fine = importGpuOutput(fixture('tlb-2m-ca'), { levelGap: 8 });
    const verdicts = fine.tables[0].rows.map((r) => r.verdict);
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts).not.toContain('tlb');
    expect(finding(fine.findings, 'tlb.l1.entries').value).toBe('cannot tell');
  });

  it('global-latency-patterns: the accesses read by the pattern their position means; the notes say where the latencies contradict the flushes', () => {
    const r = importGpuOutput(fixture('patterns-mei'));
    const p1 = finding(r.findings, 'pattern1.latency').value as number;
    const p4 = finding(r.findings, 'pattern4.latency').value as number;
    expect(p1).toBeLessThan(100);
    expect(p4).toBeGreaterThan(400);
    expect(r.tables[0].rows).toHaveLength(6);
    expect(r.notes.some((n) => n.startsWith('Patterns 1 and 2 differ by less than'))).toBe(true);
  });
});

describe('the Hopper presets against the H100 and the H200', () => {
  it.each([
    ['H100-REAL', 'hopper', 'h100'],
    ['H200-REAL', 'h200', 'h200'],
  ])('every reference of %s (on %s) is what the import reads from the fixture its citation names', (id, preset, dir) => {
    const row = selectRows(id)[0];
    const refs = row.references(findPreset(preset)!);
    expect(refs.length).toBeGreaterThanOrEqual(9);
    for (const ref of refs) {
      // No number of the preset was set from these runs: never calibrated; a value that one preset
      // number determines (the perturbation test) is a method check, the others predictions.
      expect(['predicted', 'recovered'], ref.name).toContain(ref.kind?.kind ?? row.kind.kind);
      const m = new RegExp(`tests/fixtures/real/${dir}/([\\w-]+)\\.jsonl \\(([^:;)]+)`).exec(ref.citation);
      expect(m, ref.citation).not.toBeNull();
      const [, file, key] = m as RegExpExecArray;
      const text = readFileSync(join(ROOT, 'tests/fixtures/real', dir, `${file}.jsonl`), 'utf8');
      const v = finding(importGpuOutput(text).findings, key.trim()).value;
      expect(typeof v === 'number' ? Math.round(v * 100) / 100 : v, `${ref.name}: ${file} ${key}`).toBe(ref.value);
    }
  });
});

describe('import rejects malformed output, naming the line', () => {
  const good = fixture('fine-16k-warm').split('\n').filter(Boolean);
  const join_ = (ls: string[]): string => ls.join('\n') + '\n';
  const cases: [string, string, RegExp][] = [
    ['not JSON', join_([good[0], '{"type":"clock",', ...good.slice(2)]), /^line 2: not JSON/],
    ['a field of the wrong type', join_([good[0].replace('"sms":132', '"sms":"many"'), ...good.slice(1)]), /^line 1: malformed device line: "sms"/],
    ['an unknown line type', join_([...good.slice(0, 3), '{"type":"bogus"}', ...good.slice(3)]), /^line 4: unknown line type "bogus"/],
    ['a point in a trace output', join_([...good.slice(0, 3), '{"type":"point","stride":4}', ...good.slice(3)]), /^line 4: a point line in the output of pchase-fine/],
    ['a trace chunk out of order', join_([...good.slice(0, 3), good[4], good[3], ...good.slice(5)]), /^line 4: the trace chunk starts at access 1024; 0 accesses came before it/],
    ['no end line', join_(good.slice(0, -1)), /without an end line: the program did not finish/],
    ['lines before the device line', join_([good[1], good[0], ...good.slice(2)]), /^line 1: a "clock" line before the device line/],
    ['parameters the experiment refuses', join_([good[0], good[1], good[2].replace('"stride":128', '"stride":130'), ...good.slice(3)]), /^line 3: the parameters are not valid for pchase-fine: parameter "stride" must be a multiple of 4 B/],
    ['another format', join_([good[0], good[1], good[2].replace('"format":1', '"format":99'), ...good.slice(3)]), /^line 3: format 99/],
    ['text after the end', join_([...good, '{"type":"note","text":"late"}']), /^line \d+: text after the end line/],
    ['an empty file', '', /no device line/],
  ];
  for (const [what, text, message] of cases)
    it(what, () => {
      const e = thrown(() => importGpuOutput(text));
      expect(e).toBeInstanceOf(ImportError);
      expect(e.message).toMatch(message);
    });

  it('the program\'s own error line', () => {
    const e = thrown(() => importGpuOutput(fixture('bad-size')));
    expect(e.message).toMatch(/^line 4: the program stopped with an error \(exit code 2\): iterations 100000 need 800000 B of shared memory/);
  });

  it('a CUDA error line is the program failing with CUDA\'s own name and message, first or later, whatever came before it', () => {
    const first = readFileSync(join(ROOT, 'tests/fixtures/real/errors/no-driver.jsonl'), 'utf8');
    const e = thrown(() => importGpuOutput(first));
    expect(e).toBeInstanceOf(ProgramFailed);
    expect(e.message).toBe('line 1: the program failed: cudaGetDevice: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version');
    expect((e as ProgramFailed).failure).toEqual({ type: 'error', call: 'cudaGetDevice', code: 35, name: 'cudaErrorInsufficientDriver', message: 'CUDA driver version is insufficient for CUDA runtime version' });
    const later = [...good.slice(0, 5), '{"type":"error","call":"kernel launch","code":719,"name":"cudaErrorLaunchFailure","message":"unspecified launch failure"}'].join('\n');
    expect(thrown(() => importGpuOutput(later)).message).toBe('line 6: the program failed: kernel launch: cudaErrorLaunchFailure: unspecified launch failure');
    // A malformed line before it does not hide it.
    const behind = ['{"type":"device",', '{"type":"error","call":"cudaMalloc","code":2,"name":"cudaErrorMemoryAllocation","message":"out of memory"}'].join('\n');
    expect(thrown(() => importGpuOutput(behind)).message).toBe('line 2: the program failed: cudaMalloc: cudaErrorMemoryAllocation: out of memory');
    expect(programFailure(join_(good))).toBeNull();
    // A malformed error line is named as one.
    expect(thrown(() => importGpuOutput('{"type":"error","call":"cudaMalloc","code":"two"}')).message).toMatch(/^line 1: .*error line/);
  });
});

describe('gpulab gpu', () => {
  it('import prints the findings of a fixture, in text and JSON', async () => {
    const r = await labIn(['gpu', 'import', join(FIXTURES, 'banks-64.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Shared memory: latency vs stride \(bank conflicts\) \(measured\)\nDevice: NVIDIA H100/);
    expect(r.stdout).toMatch(/shared\.perConflict .* 2 cycles/);
    const j = await labIn(['gpu', 'import', join(FIXTURES, 'fine-16k-warm.jsonl'), '--format', 'json']);
    expect(j.code, j.stderr).toBe(0);
    const out = JSON.parse(j.stdout) as { experiment: string; device: { sms: number }; findings: Finding[] };
    expect(out.experiment).toBe('pchase-fine');
    expect(out.device.sms).toBe(132);
    expect(out.findings.some((f) => f.key === 'trace.level1.latency')).toBe(true);
  });

  it('import of a malformed file is one line naming the file and line, exit code 2', async () => {
    const file = join(tmp, 'broken.jsonl');
    writeFileSync(file, fixture('avg-l1-cg').split('\n').slice(0, 5).join('\n') + '\n');
    expectUsageError(await labIn(['gpu', 'import', file]), /broken\.jsonl: the output ends at line 5 without an end line/);
    expectUsageError(await labIn(['gpu', 'import', join(tmp, 'missing.jsonl')]), /cannot read .*missing\.jsonl.*ENOENT/);
  });

  it('import of a program\'s error line: "the program failed" with CUDA\'s words, exit code 1, one line; with --save too, storing nothing', async () => {
    const file = join(ROOT, 'tests/fixtures/real/errors/oom.jsonl');
    const r = await labIn(['gpu', 'import', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('gpulab: error: oom.jsonl: line 4: the program failed: cudaMalloc: cudaErrorMemoryAllocation: out of memory\n');
    const db = join(tmp, 'failed.db');
    const s = await labIn(['gpu', 'import', file, '--save', '--db', db]);
    expect(s.code).toBe(1);
    expect(s.stderr).toBe(r.stderr);
  });

  it('the CLI refuses each file in the words gpu.import (the Real GPU page, the HTTP API) uses: one function words both', async () => {
    const dir = join(tmp, 'refusals');
    mkdirSync(dir, { recursive: true });
    const gpu = new GpuService({ store: null as never, progress: () => {} });
    for (const c of REFUSALS) {
      const file = join(dir, c.fileName);
      writeFileSync(file, c.text());
      const r = await labIn(['gpu', 'import', file]);
      expect(r.code, c.what).toBe(c.programFailed ? 1 : 2);
      expect(r.stderr.startsWith(`gpulab: error: ${c.message}`), `${c.what}: ${r.stderr}`).toBe(true);
      const api = thrown(() => gpu.import({ text: c.text(), fileName: `/home/me/${c.fileName}` }));
      expect(api).toBeInstanceOf(LabError);
      expect(`gpulab: error: ${api.message}\n`, c.what).toBe(r.stderr);
    }
  });

  it('a line past the length any program prints is refused before it is parsed, naming the line (the CLI takes files past the page\'s limit)', async () => {
    const lines = fixture('avg-l1').split('\n');
    const file = join(tmp, 'long.jsonl');
    writeFileSync(file, [lines[0], `{"type":"clock","note":"${'x'.repeat(1024 * 1024 + 10)}"}`, ...lines.slice(1)].join('\n'));
    expectUsageError(await labIn(['gpu', 'import', file]), /^gpulab: error: long\.jsonl: line 2: the line is 1025 KB long: no line a program prints is over 1024 KB/);
  });

  it('a device or a named pipe is refused by what it is, never read (with or without --save)', async () => {
    const fifo = join(tmp, 'out.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const file of ['/dev/zero', fifo]) {
      const what = file === fifo ? 'a named pipe' : 'a device';
      expectUsageError(await labIn(['gpu', 'import', file]), new RegExp(`cannot read ".*": ${what}, not a regular file`));
      expectUsageError(await labIn(['gpu', 'import', file, '--save', '--db', join(tmp, 'pipe.db')]), new RegExp(`cannot read ".*": ${what}, not a regular file`));
    }
  });

  it('emit writes the program and build.sh; bad parameters are refused', async () => {
    const out = join(tmp, 'emit');
    const r = await labIn(['gpu', 'emit', 'pchase-fine', '--param', 'size=32KB', '--out', out, '--arch', 'sm_90']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'pchase-fine.cu'), 'utf8')).toContain('SIZE = 32768ULL');
    expect(readFileSync(join(out, 'build.sh'), 'utf8')).toContain('nvcc -O2 -arch=sm_90 -o pchase-fine pchase-fine.cu');
    expectUsageError(await labIn(['gpu', 'emit', 'pchase-fine', '--param', 'jitter=1', '--out', out]), /parameter "jitter" does not apply to a real GPU/);
    expectUsageError(await labIn(['gpu', 'emit', 'tlb-stride', '--out', out]), /has no real-GPU program/);
    expectUsageError(await labIn(['gpu', 'emit', 'pchase-fine']), /needs --out/);
    // Paths in the lines to paste are one shell word each: a folder named with $(...) and a quote runs nothing.
    const odd = join(tmp, "it's $(touch pwned)");
    const q = await labIn(['gpu', 'emit', 'pchase-fine', '--out', odd, '--arch', 'sm_90']);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stdout).toContain(`Build:  sh '${join(tmp, "it'\\''s $(touch pwned)")}/build.sh'`);
    expect(q.stdout).toContain(`Run:    '${join(tmp, "it'\\''s $(touch pwned)")}/pchase-fine' > pchase-fine.jsonl`);
    // The shell reads the quoted word back as the path, and runs nothing in it.
    const word = /^Build: {2}sh (.+)$/m.exec(q.stdout)![1]!;
    const echoed = spawnSync('sh', ['-c', `printf %s ${word}`], { cwd: tmp, encoding: 'utf8' });
    expect(echoed.stdout).toBe(join(odd, 'build.sh'));
    expect(existsSync(join(tmp, 'pwned'))).toBe(false);
  });

  it('run without nvcc says so in one line, exit code 2', () => {
    const env = { ...process.env, PATH: join(tmp, 'empty-bin'), CUDA_HOME: join(tmp, 'no-cuda') };
    expectUsageError(lab(['gpu', 'run', 'pchase-fine'], env), /gpu run needs nvcc .* gpu emit and gpu import work without them/);
  });

  const nvcc = findNvcc();
  if (!nvcc) console.log('gpu-import: skipping gpu run with nvcc: no nvcc on PATH or in $CUDA_HOME/bin');
  it.skipIf(!nvcc)('run with nvcc: findings from this machine\'s GPU, or one line saying there is none', () => {
    const r = lab(['gpu', 'run', 'shared-bank-stride', '--param', 'strideTo=8', '--timeout', '60']);
    if (r.code === 0) expect(r.stdout).toMatch(/shared\.base/);
    else expectUsageError(r, /no (usable )?NVIDIA GPU|no GPU visible: .*pass --arch sm_XX to build for a GPU elsewhere/);
  });
});

describe('gpulab gpu run with stand-in nvidia-smi, nvcc and program', () => {
  /** PATH with an nvcc that records its arguments and writes a program printing `output` to stdout and `stderr` to stderr, then exiting `exit`; nvidia-smi answers `smi` (none: not on PATH). */
  function fake(name: string, o: { smi?: string; smiExit?: number; nvccSays?: string; output?: string; stderr?: string; exit?: number; sleep?: number; signal?: string }): { env: NodeJS.ProcessEnv; args: string } {
    const bin = join(tmp, `fake-${name}`);
    mkdirSync(bin, { recursive: true });
    const args = join(bin, 'nvcc-args');
    const script = (file: string, body: string) => {
      writeFileSync(join(bin, file), `#!/bin/sh\n${body}\n`);
      chmodSync(join(bin, file), 0o755);
    };
    writeFileSync(join(bin, 'out.txt'), o.output ?? '');
    writeFileSync(join(bin, 'err.txt'), o.stderr ?? '');
    script(
      'nvcc',
      `echo "$*" > "${args}"
${o.nvccSays ? `echo "${o.nvccSays}" >&2` : ''}
while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then shift; out="$1"; fi; shift; done
printf '#!/bin/sh\\nsleep ${o.sleep ?? 0}\\ncat "${bin}/out.txt"\\ncat "${bin}/err.txt" >&2\\n${o.signal ? `kill -${o.signal} $$` : `exit ${o.exit ?? 0}`}\\n' > "$out"; chmod +x "$out"`,
    );
    if (o.smi !== undefined) script('nvidia-smi', `echo "${o.smi}"\nexit ${o.smiExit ?? 0}`);
    return { env: { ...process.env, PATH: `${bin}:/usr/bin:/bin`, CUDA_HOME: join(tmp, 'no-cuda') }, args };
  }
  const nvccArgs = (f: { args: string }): string => readFileSync(f.args, 'utf8').trim();

  it('builds for the GPU nvidia-smi shows (9.0: sm_90) and imports what it printed', () => {
    const f = fake('h100', { smi: '9.0', output: fixture('fine-16k-warm') });
    const r = lab(['gpu', 'run', 'pchase-fine', '--timeout', '30'], f.env);
    expect(r.code, r.stderr).toBe(0);
    expect(nvccArgs(f)).toBe('-O2 -arch=sm_90 -o pchase-fine pchase-fine.cu');
    expect(r.stdout).toMatch(/trace\.level1\.latency/);
  });

  it('no GPU visible (no nvidia-smi, or it lists none): refused before nvcc builds sm_75 code, exit code 2', () => {
    const none = fake('none', {});
    expectUsageError(lab(['gpu', 'run', 'pchase-fine'], none.env), /^gpulab: error: gpu run: no GPU visible: nvidia-smi is not on PATH .*pass --arch sm_XX to build for a GPU elsewhere/);
    const empty = fake('empty', { smi: 'No devices were found', smiExit: 6 });
    expectUsageError(lab(['gpu', 'run', 'pchase-fine', '--arch', 'native'], empty.env), /no GPU visible: nvidia-smi says "No devices were found" \(nvcc -arch=native would only warn and build sm_75 code\); pass --arch sm_XX/);
  });

  it('a GPU older than Volta is refused, exit code 2; so is --arch below sm_70', () => {
    const old = fake('pascal', { smi: '6.1' });
    expectUsageError(lab(['gpu', 'run', 'pchase-fine'], old.env), /the GPU here has compute capability 6\.1 \(sm_61\), older than Volta \(sm_70\): the programs target Volta and newer/);
    expectUsageError(lab(['gpu', 'run', 'pchase-fine', '--arch', 'sm_61'], old.env), /--arch sm_61 is older than Volta \(sm_70\)/);
  });

  it('an nvidia-smi too old for compute_cap leaves it to -arch=native, and nvcc\'s warning that it found no GPU is refused', () => {
    const f = fake('oldsmi', { smi: 'Field "compute_cap" is not a valid field to query.', smiExit: 2, nvccSays: "nvcc warning : Cannot find valid GPU for '-arch=native', default arch is used" });
    expectUsageError(lab(['gpu', 'run', 'pchase-fine'], f.env), /no GPU visible: nvcc -arch=native found none/);
    expect(nvccArgs(f)).toContain('-arch=native');
  });

  it('a CUDA error: "the program failed" with the call, CUDA\'s name and message and the exit status, exit code 1', () => {
    const f = fake('oom', { smi: '9.0', output: readFileSync(join(ROOT, 'tests/fixtures/real/errors/oom.jsonl'), 'utf8'), stderr: 'pchase-fine: CUDA call cudaMalloc(&A, SIZE) failed', exit: 3 });
    const r = lab(['gpu', 'run', 'pchase-fine'], f.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('gpulab: error: gpu run pchase-fine: the program failed: cudaMalloc: cudaErrorMemoryAllocation: out of memory (exit status 3)\n');
    const nodev = fake('nodev', { smi: '9.0', output: '{"type":"error","call":"cudaGetDevice","code":100,"name":"cudaErrorNoDevice","message":"no CUDA-capable device is detected"}\n', exit: 3 });
    expectUsageError(lab(['gpu', 'run', 'pchase-fine'], nodev.env), /gpu run pchase-fine: no usable NVIDIA GPU: the program failed: cudaGetDevice: cudaErrorNoDevice: no CUDA-capable device is detected/);
  });

  it('a nonzero exit without output, a signal, and the time limit: each with its status or signal and the stderr tail', () => {
    const crash = fake('crash', { smi: '9.0', stderr: 'line one\nSegmentation fault (core dumped)', exit: 139 });
    const r = lab(['gpu', 'run', 'pchase-fine'], crash.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('gpulab: error: gpu run pchase-fine: the program exited with status 139 with no output; stderr: line one / Segmentation fault (core dumped)\n');
    const killed = fake('killed', { smi: '9.0', output: fixture('fine-16k-warm').split('\n').slice(0, 2).join('\n'), signal: 'SEGV' });
    expect(lab(['gpu', 'run', 'pchase-fine'], killed.env).stderr).toBe('gpulab: error: gpu run pchase-fine: the program was killed by signal SIGSEGV after 2 lines of output and no error line; stderr empty\n');
    const slow = fake('slow', { smi: '9.0', output: fixture('fine-16k-warm').split('\n').slice(0, 2).join('\n'), stderr: 'warming up', sleep: 5 });
    const t = lab(['gpu', 'run', 'pchase-fine', '--timeout', '1'], slow.env);
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/^gpulab: error: gpu run pchase-fine: the program ran past its time limit of 1 s and was stopped \(SIGKILL\) with no output; stderr empty \(raise --timeout, or shrink the sweep\)\n$/);
  });
});
