import { describe, expect, it } from 'vitest';
import { arithFindings, constBwFindings, fetchFindings, regfileFindings, warpsFindings } from '../../src-sim/core/analysis';
import { constantL3Run } from '../../src-sim/core/const-bw';
import { launchBlock, maxThreads } from '../../src-sim/core/regfile';
import type { Finding } from '../../src-sim/experiments/types';

const val = (fs: Finding[], key: string) => fs.find((f) => f.key === key)?.value;

describe('core analysers read measurements only', () => {
  it('register file: registers, quantum and granularity follow the launches, whatever the file', () => {
    // A different file than GT200's: 8,192 registers in 32 banks, allocated in pairs, 256 threads at most.
    const rf = { registers: 8192, banks: 32, regGranularity: 2, maxRegsPerThread: 64, maxThreadsPerBlock: 256, maxBytesPerBlock: 32768 };
    const regs = Array.from({ length: 70 }, (_, i) => i + 1);
    const threads = regs.map((r) => maxThreads(rf, r, 1024).threads);
    const f = regfileFindings(regs, threads);
    expect(val(f, 'regfile.registers')).toBe(8192);
    expect(val(f, 'regfile.threadQuantum')).toBe(32);
    expect(val(f, 'regfile.regGranularity')).toBe(2);
    expect(val(f, 'regfile.maxRegsPerThread')).toBe(64);
    expect(val(f, 'regfile.maxThreadsPerBlock')).toBe(256);
    expect(val(f, 'regfile.fullFrom')).toBe(32);
  });

  it('launches fail for each limit with its reason', () => {
    const rf = { registers: 16384, banks: 64, regGranularity: 4, maxRegsPerThread: 128, maxThreadsPerBlock: 512, maxBytesPerBlock: 65536 };
    expect(launchBlock(rf, 129, 1)).toMatchObject({ ok: false, failure: 'registers per thread' });
    expect(launchBlock(rf, 8, 513)).toMatchObject({ ok: false, failure: 'threads per block' });
    expect(launchBlock(rf, 88, 192)).toMatchObject({ ok: false, failure: 'register bytes per block' });
    expect(launchBlock(rf, 88, 129)).toMatchObject({ ok: false, failure: 'register file' });
    expect(launchBlock(rf, 88, 128)).toMatchObject({ ok: true, registersUsed: 88 * 128 });
    expect(maxThreads(rf, 130, 1024)).toEqual({ threads: 0, failure: 'registers per thread' });
  });

  it('warps: flat latency, the unfilled counts and saturation from a synthetic Fig 6', () => {
    const warps = Array.from({ length: 16 }, (_, i) => i + 1);
    const tput = warps.map((w) => (w <= 4 ? (w * 32) / 20 : w === 5 ? 6.5 : 8));
    const lat = warps.map((w, i) => (w <= 4 ? 20 : (w * 32) / tput[i]));
    const f = warpsFindings(warps, lat, tput);
    expect(val(f, 'warps.latency')).toBe(20);
    expect(val(f, 'warps.flatUpTo')).toBe(4);
    expect(val(f, 'warps.unfilled')).toBe('5');
    expect(val(f, 'warps.fullFrom')).toBe(6);
    expect(val(f, 'warps.linear')).toBe('yes');
  });

  it('fetch: the spacing of the delayed reads is the fetch size, their span the evicted line', () => {
    const offsets = Array.from({ length: 40 }, (_, k) => 16 * k);
    let t = 0;
    const times = offsets.map((o) => (t += 28 + (o >= 256 && o < 384 && o % 32 === 0 ? 40 : 0)) - 28);
    const f = fetchFindings(offsets, times);
    expect(val(f, 'fetch.blockBytes')).toBe(32);
    expect(val(f, 'fetch.evictedFrom')).toBe(256);
    expect(val(f, 'fetch.evictedTo')).toBe(384);
    expect(val(f, 'fetch.missOffsets')).toBe('256, 288, 320, 352');
  });

  it('constant L3: the per-SM and aggregate limits show, and an uneven last round drops the rate', () => {
    const bw = { bytesPerCyclePerSM: 2, bytesPerCycleTotal: 12 };
    const blocks = Array.from({ length: 40 }, (_, i) => i + 1);
    const rates = blocks.map((b) => constantL3Run(bw, 30, b, 4096).bytesPerCycle);
    const f = constBwFindings(blocks, rates);
    expect(val(f, 'constL3.perSM')).toBe(2);
    expect(val(f, 'constL3.aggregate')).toBe(12);
    expect(val(f, 'constL3.saturatesAt')).toBe(6);
    expect(val(f, 'constL3.dropAbove30')).toBe('yes');
  });

  it('arith: unit figures from their probes, the SFU share of mul, instruction counts from latency multiples', () => {
    const ms = [
      { id: 'int.add', latency: 20, throughput: 8 },
      { id: 'x.sfu', latency: 30, throughput: 2 },
      { id: 'x.dpu', latency: 50, throughput: 1 },
      { id: 'float.mad', latency: 20, throughput: 8 },
      { id: 'float.mul', latency: 20, throughput: 11 },
      { id: 'int.mul', latency: 60, throughput: 2 },
      { id: 'int.mad', latency: 70, throughput: 1 },
    ];
    const f = arithFindings(ms, { sp: 'int.add', sfu: 'x.sfu', dpu: 'x.dpu' }, 32);
    expect(val(f, 'sp.issueRate')).toBe(4);
    expect(val(f, 'sfu.latency')).toBe(30);
    expect(val(f, 'dpu.issueRate')).toBe(32);
    expect(val(f, 'float.mul.dualIssue')).toBe('yes');
    expect(val(f, 'sfu.mulThroughput')).toBe(3);
    expect(val(f, 'int.mul.instructions')).toBe(3);
    expect(val(f, 'int.mad.instructions')).toBeUndefined(); // 70 is no multiple of 20
  });
});
