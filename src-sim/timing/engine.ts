import { makeAddressMap } from './addrmap';
import { heartbeat } from '../heartbeat';
import type { CompiledKernel } from './compile';
import { compileKernel, layoutArrays } from './compile';
import { checkTimingConfig } from './config-check';
import type { Kernel, TimingConfig, TimingOptions, TimingStats } from './types';
import { Coalescer } from './units/coalescer';
import * as K from './units/codes';
import { Dispatch } from './units/dispatch';
import { DramQueue } from './units/dram-queue';
import { Fetch } from './units/fetch';
import { Interconnect } from './units/interconnect';
import { Issue } from './units/issue';
import { L1 } from './units/l1';
import { L1MissQueue } from './units/l1-miss-queue';
import { L1Mshr } from './units/l1-mshr';
import { L2Slices } from './units/l2-slice';
import { Lsu } from './units/lsu';
import { Machine } from './units/machine';
import { OperandCollector } from './units/operand-collector';
import { Packets } from './units/packets';
import { Scheduler } from './units/scheduler';
import { Sl1Lines } from './units/sl1-lines';
import { Stats } from './units/stats';

export { checkTimingConfig } from './config-check';

const EV_L2_ARRIVE: number = K.EV_L2_ARRIVE;
const EV_NET_ARRIVE: number = K.EV_NET_ARRIVE;
const EV_DRAM_FILL: number = K.EV_DRAM_FILL;
const EV_SM_ARRIVE: number = K.EV_SM_ARRIVE;

/**
 * The timing tier's cycle-level engine: the hardware units of units/ put together, and the clock.
 * One call runs kernels one after another on a GPU described by a TimingConfig; caches stay warm
 * from one launch to the next.
 *
 * Per SM (front end to LSU): block dispatch (dispatch.ts), instruction fetch (fetch.ts), warp
 * schedulers with the scoreboard (scheduler.ts), issue (issue.ts), the memory pipeline
 * (operand-collector.ts), the coalescer (coalescer.ts), the LSU (lsu.ts), the L1 (l1.ts) with its
 * MSHR table (l1-mshr.ts) and miss queue (l1-miss-queue.ts), S-L1's software lines (sl1-lines.ts).
 * Below: the interconnect (interconnect.ts), the L2 slices (l2-slice.ts), the way to DRAM and back
 * (dram-queue.ts) and the command-level DRAM channels (dram-channel.ts). State the units share is in
 * machine.ts, packets in packets.ts, counters and epochs in stats.ts. Cycles where nothing can happen
 * are skipped to the next event. See docs/TIMING.md.
 *
 * Each cycle, in order: events due (arrivals at a slice or in the network, DRAM fills, replies at an
 * SM), the L1 miss queues, the LSUs, the network's input to the slices, the slices, the way to DRAM
 * and back, the schedulers of each SM with blocks, block dispatch.
 */
export const DEFAULT_TIMING_OPTIONS: TimingOptions = { l1: 'hw', scheduler: 'gto', epochCycles: 1000, maxCycles: 2e8, seed: 1 };

class Engine {
  declare readonly m: Machine;
  declare readonly st: Stats;
  declare readonly pk: Packets;
  declare readonly net: Interconnect;
  declare readonly l2: L2Slices;
  declare readonly dq: DramQueue;
  declare readonly miq: L1MissQueue;
  declare readonly mshr: L1Mshr;
  declare readonly l1: L1;
  declare readonly co: Coalescer;
  declare readonly lsu: Lsu;
  declare readonly oc: OperandCollector;
  declare readonly sl1: Sl1Lines;
  declare readonly fetch: Fetch;
  declare readonly dispatch: Dispatch;
  declare readonly issue: Issue;
  declare readonly sched: Scheduler;

  constructor(c: TimingConfig, o: TimingOptions) {
    const m = new Machine(c, o);
    const st = new Stats(o.epochCycles, m.sms);
    const am = c.l2.addressMap && c.dram.timing ? makeAddressMap(c.dram.timing, c.l2, c.dram.channels) : null;
    if (typeof am === 'string') throw new Error(am); // (checkTimingConfig refused it already)
    const pk = new Packets(m.l2Line, m.P, am);
    const net = new Interconnect(m, pk, st);
    const l2 = new L2Slices(m, pk, st, net);
    const dq = new DramQueue(m, pk, st, net, l2);
    net.l2 = l2;
    l2.dq = dq;
    const miq = new L1MissQueue(m, pk, net);
    const l1c = c.l1 ?? { mshrEntries: 1, mshrMergers: 1 };
    const mshr = new L1Mshr(m.sms, l1c.mshrEntries, l1c.mshrMergers, st);
    const l1 = new L1(m, pk, st, mshr, miq);
    const memQ = Math.max(0, Math.round(c.memQueue ?? 0));
    const co = new Coalescer(m, OperandCollector.regions(m.sms, memQ));
    const lsu = new Lsu(m, pk, st, co, net, l1);
    const oc = new OperandCollector(m, co, memQ);
    const sl1 = new Sl1Lines(m, st, co);
    const fetch = new Fetch(m);
    const dispatch = new Dispatch(m, fetch, sl1);
    const issue = new Issue(m, st, oc, sl1, dispatch);
    const sched = new Scheduler(m, fetch, oc, issue);
    l1.lsu = lsu;
    lsu.oc = oc;
    lsu.sched = sched;
    sched.lsuBusy = lsu.lsuBusy;
    oc.lsu = lsu;
    oc.sched = sched;
    sl1.lsu = lsu;
    sl1.oc = oc;
    dispatch.issue = issue;
    dispatch.sched = sched;
    this.m = m;
    this.st = st;
    this.pk = pk;
    this.net = net;
    this.l2 = l2;
    this.dq = dq;
    this.miq = miq;
    this.mshr = mshr;
    this.l1 = l1;
    this.co = co;
    this.lsu = lsu;
    this.oc = oc;
    this.sl1 = sl1;
    this.fetch = fetch;
    this.dispatch = dispatch;
    this.issue = issue;
    this.sched = sched;
  }

  private processEvents(): void {
    const m = this.m;
    const q = m.events;
    while (q.size > 0 && q.time[0] <= m.now) {
      const kind = q.topKind();
      const a = q.topArg();
      q.pop();
      switch (kind) {
        case EV_L2_ARRIVE:
          this.l2.enqueue(this.pk.pSlice[a], a);
          break;
        case EV_DRAM_FILL:
          this.l2.fill(a);
          break;
        case EV_SM_ARRIVE:
          this.lsu.arrive(a);
          break;
        case EV_NET_ARRIVE:
          this.net.arrive(a);
          break;
      }
    }
  }

  /** Runs one kernel to its end: the clock, one cycle at a time or skipping to the next event. */
  runKernel(k: CompiledKernel): void {
    const m = this.m;
    const st = this.st;
    const { miq, lsu, net, l2, dq, sched, dispatch, oc, pk } = this;
    m.k = k;
    m.prog = k.program;
    const W = m.sms * m.maxW;
    if (m.wLoop.length < W * Math.max(1, k.loopVars)) m.wLoop = new Int32Array(W * Math.max(1, k.loopVars));
    this.sl1.start(k);
    sched.start();
    for (let sm = 0; sm < m.sms; sm++) if (m.smBlocks[sm] !== 0) throw new Error('internal: SMs not empty at kernel start');
    dispatch.start(k);
    dispatch.step();
    const grid = k.kernel.grid;
    const sms = m.sms;
    const smBlocks = m.smBlocks;
    const smWake = m.smWake;
    const useMiq = miq.miqE > 0;
    const useNet = net.ejQ > 0;
    const useDram = dq.dqCap > 0 || dq.dramT !== null;
    let steps = 0;
    for (;;) {
      // Every 4,096 steps, whatever the progress (a kernel of few long blocks reports it seconds apart).
      if ((++steps & 4095) === 0) heartbeat();
      this.processEvents();
      let act = false;
      if (useMiq) for (let sm = 0; sm < sms; sm++) if (miq.step(sm)) act = true;
      for (let sm = 0; sm < sms; sm++) if (lsu.step(sm)) act = true;
      if (useNet && net.step()) act = true;
      if (l2.qSlices > 0 && l2.step()) act = true;
      if (useDram && dq.step()) act = true;
      for (let sm = 0; sm < sms; sm++) if (smBlocks[sm] > 0 && sched.step(sm)) act = true;
      if (dispatch.pending) {
        dispatch.step();
        act = true;
      }
      if (dispatch.blocksDone === grid && pk.outstanding === 0 && (oc.ocN === 0 || oc.empty())) {
        st.accrue(m.now, 1);
        m.now++;
        return;
      }
      let next = m.now + 1;
      if (!act) {
        next = m.events.peekTime();
        for (let sm = 0; sm < sms; sm++) if (smBlocks[sm] > 0 && smWake[sm] < next) next = smWake[sm];
        next = l2.wakeAt(next);
        if (useMiq) next = miq.wakeAt(next);
        next = dq.wakeAt(next);
        if (useNet) next = net.wakeAt(next);
        if (next === Infinity) throw new Error(`kernel ${k.kernel.name}: deadlock at cycle ${m.now} (no warp can proceed and nothing is in flight)`);
        next = Math.max(m.now + 1, Math.ceil(next));
        const skipped = next - m.now - 1;
        if (skipped > 0) lsu.skip(skipped);
      }
      st.accrue(m.now, next - m.now);
      m.now = next;
      if (m.now > m.o.maxCycles) throw new Error(`simulation passed ${m.o.maxCycles} cycles (maxCycles)`);
    }
  }

  stats(): TimingStats {
    const c = this.m.c;
    return this.st.record(this.m.now, this.dq.dramT, c.dram.channels, c.dram.bytesPerCycle, this.miq.miqE > 0, this.l1.stTags);
  }
}

/**
 * Runs `kernels` one after another on the GPU `config` describes and returns what happened. Pure and
 * deterministic: the same inputs give the same statistics (no randomness is drawn; `options.seed` is
 * kept for the contract). Throws on a malformed config or kernel, a deadlock, or past maxCycles.
 */
export function simulate(config: TimingConfig, kernels: Kernel[], options: Partial<TimingOptions> = {}): TimingStats {
  const o: TimingOptions = { ...DEFAULT_TIMING_OPTIONS, ...options };
  const problems = checkTimingConfig(config);
  if (problems.length) throw new Error(`timing config: ${problems.join('; ')}`);
  const bases = layoutArrays(kernels, o.baseAddress ?? 0);
  const compiled = kernels.map((k) => compileKernel(k, bases));
  const e = new Engine(config, o);
  e.dispatch.totalWarps = compiled.reduce((s, k) => s + k.kernel.grid * k.warpsPerBlock, 0);
  for (const k of compiled) e.runKernel(k);
  e.dq.drain();
  o.progress?.(e.dispatch.totalWarps, e.dispatch.totalWarps);
  return e.stats();
}
