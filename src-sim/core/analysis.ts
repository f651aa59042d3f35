import { median } from '../analysis/average-curve';
import type { Finding } from '../results';

/**
 * Analysers of the core experiments (WONG IV-B, IV-E, IV-J3, IV-K4). Each reads measurements only:
 * times of chains, rates, launch outcomes, timelines. None sees a preset.
 */

const round = (v: number, d = 2): number => Math.round(v * 10 ** d) / 10 ** d;

/** Latency of one dependent operation from two chain lengths: (T(2L) - T(L)) / L removes the clock() reads and start-up. */
export function chainLatency(shortChain: number, shortCycles: number, longChain: number, longCycles: number): number {
  return (longCycles - shortCycles) / (longChain - shortChain);
}

/** Operations per cycle of a many-warp run (threads x chain operations over the timed cycles). */
export function manyWarpRate(threads: number, chain: number, cycles: number): number {
  return (threads * chain) / cycles;
}

/** One measured operation: latency from single-thread chains, throughput from the many-warp run. */
export interface OpMeasurement {
  id: string;
  latency: number;
  throughput: number;
}

/**
 * WONG IV-B, Table II: the units and what the operations reveal, from measured operations only.
 *  - a unit's latency and throughput are those of an operation known to run on it alone
 *    (`probes`: SP integer add, SFU log2f, DPU double add); its issue rate is 32 / throughput;
 *  - an operation faster than the SP's peak (float mul) is issued to the SFUs as well: their share is
 *    its throughput less that of an SP-only operation of the same type (float mad);
 *  - an operation whose latency is a whole multiple of the SP's is that many dependent instructions.
 */
export function arithFindings(ms: OpMeasurement[], probes: Record<'sp' | 'sfu' | 'dpu', string>, warpSize: number): Finding[] {
  const out: Finding[] = [];
  const by = new Map(ms.map((m) => [m.id, m]));
  for (const m of ms) {
    out.push({ key: `${m.id}.latency`, label: `${m.id} latency`, value: round(m.latency, 1), unit: 'cycles', evidence: 'one thread: (T(2L) - T(L)) / L over two dependent chains' });
    out.push({ key: `${m.id}.throughput`, label: `${m.id} throughput`, value: round(m.throughput, 3), unit: 'ops/clk', evidence: 'threads x chain / cycles of the many-warp run' });
  }
  for (const u of ['sp', 'sfu', 'dpu'] as const) {
    const m = by.get(probes[u]);
    if (!m) continue;
    const name = u.toUpperCase();
    out.push({ key: `${u}.latency`, label: `${name} latency`, value: round(m.latency, 1), unit: 'cycles', evidence: `${m.id}, which runs on the ${name} alone` });
    out.push({ key: `${u}.throughput`, label: `${name} throughput`, value: round(m.throughput, 2), unit: 'ops/clk', evidence: `${m.id} with many warps` });
    out.push({ key: `${u}.issueRate`, label: `${name} issue rate`, value: round(warpSize / m.throughput, 1), unit: 'clk/warp', evidence: `${warpSize} threads / ${round(m.throughput, 2)} ops/clk` });
  }
  const sp = by.get(probes.sp);
  const mul = by.get('float.mul');
  const mad = by.get('float.mad');
  if (sp && mul && mad) {
    const dual = mul.throughput > 1.1 * sp.throughput;
    out.push({ key: 'float.mul.dualIssue', label: 'float mul issued to SP and SFU', value: dual ? 'yes' : 'no', unit: '', evidence: `${round(mul.throughput)} ops/clk against the SP's ${round(sp.throughput)}` });
    if (dual)
      out.push({ key: 'sfu.mulThroughput', label: 'SFU mul throughput', value: round(mul.throughput - mad.throughput, 2), unit: 'ops/clk', evidence: `float mul ${round(mul.throughput)} less SP-only float mad ${round(mad.throughput)}` });
  }
  if (sp)
    for (const id of ['int.mul', 'int.mad']) {
      const m = by.get(id);
      if (!m) continue;
      const n = m.latency / sp.latency;
      if (Math.abs(n - Math.round(n)) < 0.05)
        out.push({ key: `${id}.instructions`, label: `${id} native instructions`, value: Math.round(n), unit: '', evidence: `latency ${round(m.latency, 1)} = ${Math.round(n)} x the SP's ${round(sp.latency, 1)}` });
    }
  return out;
}

/** WONG Fig 6: latency and throughput against warps per SM. */
export function warpsFindings(warps: number[], latency: number[], throughput: number[]): Finding[] {
  const out: Finding[] = [];
  const n = warps.length;
  if (n < 3) return out;
  const base = latency[0];
  let flat = 0;
  while (flat < n && Math.abs(latency[flat] - base) <= 0.02 * base) flat++;
  const tail = throughput.slice(Math.floor((2 * n) / 3));
  const sat = median(tail);
  const fullIdx = throughput.findIndex((t) => t >= 0.98 * sat);
  const perWarp = throughput.slice(0, flat).map((t, i) => t / warps[i]);
  const linear = perWarp.every((v) => Math.abs(v - perWarp[0]) <= 0.02 * perWarp[0]);
  const unfilled = warps.filter((w, i) => i >= flat && i < fullIdx);
  out.push({ key: 'warps.latency', label: 'latency with few warps', value: round(base, 1), unit: 'cycles', evidence: `${warps[0]} warp(s)` });
  out.push({ key: 'warps.flatUpTo', label: 'latency unchanged up to', value: flat > 0 ? warps[flat - 1] : 0, unit: 'warps', evidence: `within 2 % of ${round(base, 1)} cycles` });
  out.push({ key: 'warps.linear', label: 'throughput rises linearly', value: linear ? 'yes' : 'no', unit: '', evidence: `throughput per warp ${perWarp.map((v) => round(v)).join(', ')} while the latency holds` });
  out.push({ key: 'warps.saturation', label: 'saturated throughput', value: round(sat, 2), unit: 'ops/clk', evidence: `median of the last third (${tail.length} points)` });
  if (fullIdx >= 0) out.push({ key: 'warps.fullFrom', label: 'pipeline full from', value: warps[fullIdx], unit: 'warps', evidence: `first count within 2 % of ${round(sat)} ops/clk` });
  out.push({
    key: 'warps.unfilled',
    label: 'warp counts past the flat latency that do not fill the pipeline',
    value: unfilled.join(', ') || 'none',
    unit: '',
    evidence: unfilled.map((w) => `${w}: ${round(throughput[warps.indexOf(w)])} ops/clk`).join('; ') || 'the pipeline fills as soon as the latency rises',
  });
  out.push({
    key: 'warps.enoughInTheory',
    label: 'warps that would hide the latency (latency / issue interval)',
    value: round(base / (32 / sat), 1),
    unit: 'warps',
    evidence: `${round(base, 1)} cycles / ${round(32 / sat, 2)} cycles per warp instruction`,
  });
  return out;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** WONG Fig 9: the register file from the largest block that launched at each register count (0: none). */
export function regfileFindings(regs: number[], threads: number[]): Finding[] {
  const out: Finding[] = [];
  const maxThreads = Math.max(...threads);
  const launched = regs.filter((_, i) => threads[i] > 0);
  const used = regs.map((r, i) => r * threads[i]);
  const registers = Math.max(...used);
  out.push({ key: 'regfile.registers', label: 'registers per SM (largest use)', value: registers, unit: 'registers', evidence: `max of registers x threads over the sweep` });
  out.push({ key: 'regfile.maxThreadsPerBlock', label: 'threads per block', value: maxThreads, unit: 'threads', evidence: 'largest block that launched' });
  if (launched.length) {
    const maxRegs = Math.max(...launched);
    out.push({ key: 'regfile.maxRegsPerThread', label: 'registers per thread', value: maxRegs, unit: 'registers', evidence: `${maxRegs + 1} registers and more launch no block` });
  }
  const limited = threads.filter((t) => t > 0 && t < maxThreads);
  if (limited.length) {
    const q = limited.reduce(gcd);
    out.push({ key: 'regfile.threadQuantum', label: 'threads per block quantised to', value: q, unit: 'threads', evidence: `gcd of the register-limited block sizes (${[...new Set(limited)].join(', ')})` });
  }
  const changes: number[] = [];
  for (let i = 1; i < regs.length; i++) if (threads[i] !== threads[i - 1] && threads[i] > 0 && regs[i] === regs[i - 1] + 1) changes.push(regs[i] - 1);
  if (changes.length >= 2)
    out.push({ key: 'regfile.regGranularity', label: 'registers allocated in multiples of', value: changes.reduce(gcd), unit: 'registers', evidence: `the largest block changes only after ${changes.join(', ')} registers` });
  const full = regs.findIndex((r, i) => used[i] === registers);
  if (full >= 0) out.push({ key: 'regfile.fullFrom', label: 'file fully usable from', value: regs[full], unit: 'registers/thread', evidence: `below it ${maxThreads} threads cannot use ${registers} registers` });
  const i88 = regs.indexOf(88);
  if (i88 >= 0 && threads[i88] > 0) {
    out.push({ key: 'regfile.at88.threads', label: 'threads at 88 registers', value: threads[i88], unit: 'threads', evidence: 'largest block that launched' });
    out.push({ key: 'regfile.at88.utilisation', label: 'register file used at 88 registers', value: round((100 * used[i88]) / registers, 1), unit: '%', evidence: `${threads[i88]} x 88 = ${used[i88]} of ${registers}` });
  }
  return out;
}

/** WONG Fig 19: aggregate constant L3 bandwidth against concurrent blocks. */
export function constBwFindings(blocks: number[], bw: number[]): Finding[] {
  const out: Finding[] = [];
  const mid = bw.filter((_, i) => blocks[i] >= 10 && blocks[i] <= 20);
  if (mid.length) out.push({ key: 'constL3.aggregate', label: 'aggregate bandwidth, 10-20 blocks', value: round(median(mid)), unit: 'B/clk', evidence: `median of ${mid.length} points` });
  const i1 = blocks.indexOf(1);
  if (i1 >= 0) out.push({ key: 'constL3.perSM', label: 'bandwidth of one block (one SM)', value: round(bw[i1]), unit: 'B/clk', evidence: 'the 1-block point' });
  const peak = mid.length ? median(mid) : Math.max(...bw);
  const sat = blocks.find((_, i) => bw[i] >= 0.97 * peak);
  if (sat !== undefined) out.push({ key: 'constL3.saturatesAt', label: 'saturates from', value: sat, unit: 'blocks', evidence: `first point within 3 % of ${round(peak)} B/clk` });
  const after = bw.filter((_, i) => blocks[i] > 30 && blocks[i] <= 40);
  if (after.length)
    out.push({ key: 'constL3.dropAbove30', label: 'bandwidth drops above 30 blocks', value: Math.min(...after) < 0.9 * peak ? 'yes' : 'no', unit: '', evidence: `lowest ${round(Math.min(...after))} B/clk between 31 and 40 blocks` });
  return out;
}

/**
 * WONG Fig 24: from the average clock() timeline (offset of each read, cycles since the first), where
 * the fetch misses land: reads whose increment exceeds the usual one. Their spacing is the fetch size;
 * from the first to one fetch past the last is the evicted region.
 */
export function fetchFindings(offsets: number[], times: number[]): Finding[] {
  const out: Finding[] = [];
  const inc = offsets.slice(1).map((_, i) => times[i + 1] - times[i]);
  const base = median(inc);
  const hits = offsets.slice(1).filter((_, i) => inc[i] > base + Math.max(1, 0.05 * base));
  out.push({ key: 'fetch.missOffsets', label: 'reads delayed by a fetch miss', value: hits.join(', ') || 'none', unit: 'B', evidence: `increments above ${round(base, 1)} cycles` });
  if (hits.length >= 2) {
    let g = 0;
    for (let i = 1; i < hits.length; i++) g = gcd(hits[i] - hits[i - 1], g);
    out.push({ key: 'fetch.blockBytes', label: 'instruction fetch size', value: g, unit: 'B', evidence: `delays only ${g} B apart, never within` });
    out.push({ key: 'fetch.evictedFrom', label: 'evicted region starts at', value: hits[0], unit: 'B', evidence: 'first delayed read' });
    out.push({ key: 'fetch.evictedTo', label: 'evicted region ends at', value: hits[hits.length - 1] + g, unit: 'B', evidence: 'one fetch past the last delayed read' });
    out.push({ key: 'fetch.evictedBytes', label: 'evicted region size', value: hits[hits.length - 1] + g - hits[0], unit: 'B', evidence: 'a whole line is evicted at once' });
  }
  return out;
}
