import { simulate } from '../timing/engine';
import type { SchedulerChoice } from '../timing/types';
import { wcScanKernel } from '../timing/workloads/sl1-bench';
import { resolveParams } from './params';
import { checkSl1Work, gpuSlice, L1_ALLOCATE_CHOICES, timingOf, withL1Allocate, type L1AllocateChoice } from './sl1-common';
import type { Experiment, ParamSpec } from './types';
import { ExperimentError } from './types';

/**
 * SL1 Fig 1: the hardware L1 hit rate of wc on one SMX (192 cores) as the number of threads grows.
 * The text is split into one chunk per thread; each thread scans its chunk char by char. With few
 * threads each 128 B line serves 128 accesses (1 miss, 127 hits); with many, lines are evicted
 * before their reuse. Hit rate = L1 hits / L1 requests of the engine (a request merged into a pending
 * line's MSHR entry counts as a miss).
 */

const params: ParamSpec[] = [
  { name: 'threads', label: 'Threads', unit: 'threads', kind: 'integer-list', default: [32, 64, 96, 128, 192, 256, 384, 512, 1024, 2048], min: 1, max: 2048, maxItems: 32, description: 'Threads on the SMX (x axis of Fig 1), in blocks of up to 1024.' },
  { name: 'chars', label: 'Text size', unit: 'B', kind: 'bytes', default: 1_000_000, min: 4096, max: 1 << 26, description: 'Characters of the text (1 B each), split evenly over the threads.' },
  { name: 'maxChars', label: 'Chars simulated per thread', unit: 'chars', kind: 'integer', default: 512, min: 128, max: 1 << 20, description: 'Each thread scans at most this many chars of its chunk (a window of the scan).' },
  { name: 'scheduler', label: 'Warp scheduler', unit: '', kind: 'enum', default: 'preset', options: ['preset', 'lrr', 'gto'], description: "'preset': the GPU's own policy (the preset's warpScheduler); 'lrr' (loose round-robin) or 'gto' (greedy-then-oldest) as a what-if." },
  { name: 'l1Allocate', label: 'L1 allocation', unit: '', kind: 'enum', default: 'preset', options: [...L1_ALLOCATE_CHOICES], description: "When a miss takes its line. 'preset': the preset's (Titan: on fill, as GPGPU-Sim's Titan model's streaming L1); 'miss' (a miss reserves a way, GPGPU-Sim 3.x) or 'fill' as a what-if." },
];

/** Largest rise of the hit rate, in percentage points, from one thread count to the next (0 when it never rises). */
export function largestRise(hit: readonly number[]): number {
  let r = 0;
  for (let i = 1; i < hit.length; i++) r = Math.max(r, hit[i] - hit[i - 1]);
  return r;
}

export const sl1WcL1: Experiment = {
  id: 'sl1-wc-l1',
  title: 'wc: hardware L1 hit rate vs threads (SL1 Fig 1)',
  description: 'wc on one SMX with the hardware L1: each thread scans its own chunk of the text; the L1 hit rate as the number of threads grows.',
  reproduces: ['SL1-F1'],
  params,
  estimate(_preset, raw) {
    const p = resolveParams(params, raw);
    return (p.threads as number[]).reduce((s, t) => s + t * Math.min(p.maxChars as number, Math.ceil((p.chars as number) / t)), 0);
  },
  run(preset, raw, seed, progress) {
    const p = resolveParams(params, raw);
    const full = timingOf(preset);
    checkSl1Work(this.estimate(preset, p), 'use fewer thread counts or chars per thread');
    if (!full.l1) throw new ExperimentError(`${preset.name} has no L1 data cache; Fig 1 needs one`);
    const choice = (p.l1Allocate ?? 'preset') as L1AllocateChoice;
    const cfg = withL1Allocate(gpuSlice(full, 1), choice);
    const allocate = cfg.l1!.allocate ?? 'miss';
    const threads = [...new Set(p.threads as number[])].sort((a, b) => a - b);
    if (threads[threads.length - 1] > cfg.maxThreadsPerSM) throw new ExperimentError(`at most ${cfg.maxThreadsPerSM} threads on one SMX`, 'threads');
    const hit: number[] = [];
    const ideal: number[] = [];
    threads.forEach((t, i) => {
      const block = t <= 1024 ? t : Math.ceil(t / Math.ceil(t / 1024));
      const blocks = Math.ceil(t / block);
      const chunk = Math.ceil((p.chars as number) / (blocks * block));
      const k = wcScanKernel({ blocks, threadsPerBlock: block, chars: chunk * blocks * block });
      // A window of the scan: the first maxChars of each chunk (the chunk stride is kept).
      const loop = k.body[0] as Extract<(typeof k.body)[number], { op: 'loop' }>;
      loop.count = Math.min(loop.count, p.maxChars as number);
      const s = simulate(cfg, [k], { l1: 'hw', scheduler: p.scheduler as SchedulerChoice, seed, maxCycles: 1e9, epochCycles: 100_000 });
      hit.push(s.requests.l1 > 0 ? (100 * s.hits.l1) / s.requests.l1 : 0);
      ideal.push((100 * (full.l1!.lineBytes - 1)) / full.l1!.lineBytes);
      progress(i + 1, threads.length, `${t} threads`);
    });
    const fewest = hit[0];
    const most = hit[hit.length - 1];
    const below = threads.find((_, i) => hit[i] < 50);
    const rise = largestRise(hit);
    const l1 = cfg.l1!;
    const perSet = 32 / l1.sets;
    const allocWords = `${allocate === 'fill' ? 'allocates lines on fill' : 'reserves a way on each miss'} (${choice === 'preset' ? "the preset's policy" : 'a what-if'})`;
    const shape =
      allocate === 'fill'
        ? `A miss reserves no way, so no warp is refused a line for want of one; the largest rise between neighbouring thread counts is ${rise.toFixed(1)} points (SL1 Fig 1 falls smoothly). With 'miss' allocation (a what-if) it zig-zags: docs/SL1.md, "Why Fig 1's curve zig-zagged".`
        : `Between the two ends the curve zig-zags where warps are refused lines (largest rise here ${rise.toFixed(1)} points between neighbouring thread counts): a warp load puts its 32 lanes' lines ${perSet} to a set, so ${l1.ways / perSet} warps' misses reserve every way of a set; the next warps fail to allocate ("nocacheline") and retry, and whether a cohort's filled lines live through their 127 reuses depends on how many whole cohorts the warps form. SL1 Fig 1 falls smoothly. See docs/SL1.md, "Why Fig 1's curve zig-zagged".`;
    return {
      series: [
        { name: 'wc L1 hit rate', x: threads, y: hit, xLabel: 'threads', xUnit: 'threads', yLabel: 'L1 hit rate', yUnit: '%', style: 'line' },
        { name: 'one miss per line (127/128)', x: threads, y: ideal, xLabel: 'threads', xUnit: 'threads', yLabel: 'L1 hit rate', yUnit: '%', style: 'line' },
      ],
      tables: [
        {
          name: 'Fig 1',
          columns: [
            { key: 'threads', label: 'threads' },
            { key: 'hit', label: 'L1 hit rate', unit: '%' },
          ],
          rows: threads.map((t, i) => ({ threads: t, hit: +hit[i].toFixed(2) })),
        },
      ],
      findings: [
        { key: 'wc.hitRate.fewest', label: `L1 hit rate with ${threads[0]} threads`, value: +fewest.toFixed(2), unit: '%', evidence: 'first point of the curve' },
        { key: 'wc.hitRate.most', label: `L1 hit rate with ${threads[threads.length - 1]} threads`, value: +most.toFixed(2), unit: '%', evidence: 'last point of the curve' },
        { key: 'wc.threadsBelowHalf', label: 'Fewest threads with a hit rate below 50 %', value: below ?? 'none', unit: below === undefined ? '' : 'threads', evidence: 'first point under 50 %' },
        { key: 'wc.largestRise', label: 'Largest rise of the hit rate from one thread count to the next', value: +rise.toFixed(2), unit: 'points', evidence: 'consecutive points of the curve (SL1 Fig 1 falls smoothly: 0)' },
      ],
      notes: [
        `One SMX of ${preset.name} (its share of the L2 and DRAM); each thread scans up to ${p.maxChars} chars of its chunk.`,
        `The L1 has ${l1.sets} sets of ${l1.ways} ways and ${allocWords}. ${shape}`,
      ],
    };
  },
};
