import type { CoreConfig, CoreOp } from './types';

/**
 * The issue model of one SM (WONG IV-B, Tables II-IV, Fig 6): warps, each running a chain of dependent
 * operations, issued by one warp scheduler onto the SM's pipelines.
 *
 *  - Pipelines (ports): SP, SFU, DPU. A warp instruction occupies its port for 32 / throughput cycles
 *    (4 on the 8 SPs, 16 on the 2 SFUs, 32 on the DPU: WONG Table II's issue rates).
 *  - The scheduler issues at most one warp instruction every `scheduler.issueCycles`, picking warps
 *    round-robin among those whose operands are ready (fair: every warp sees the same latency, Fig 6).
 *  - A dependent instruction is ready `latency` cycles after its predecessor issued. An operation of
 *    `instructions` native instructions is that many dependent steps sharing its latency and occupancy.
 *    Routines ("-" in the tables) are one step of their measured latency and throughput on the SP.
 *  - Operations that run on the SP and the SFUs (float mul) go to whichever is free first: the SP at its
 *    own rate, the SFUs at the rest of the operation's throughput.
 *  - Assumed (WONG Fig 6 gives no cause): an SP result is written back `busyWritebackDelay` cycles late
 *    when the SP accepted an instruction at every opportunity since the instruction issued. Up to five
 *    warps the SP idles in every 24-cycle window, so all see 24 cycles; six and seven warps keep it busy
 *    and pay the delay without enough warps to cover it; eight and more cover it and saturate.
 * Time is continuous (cycles as numbers); events are issues, so the cost is one scan of the warps per
 * issued instruction. No allocation per issue.
 */

export const PORT_SP = 0;
export const PORT_SFU = 1;
export const PORT_DPU = 2;
const PORTS = 3;
const EPS = 1e-9;

/** How one operation runs on the pipelines (derived from its row and the units). */
export interface OpPlan {
  /** Dependent steps per operation. */
  steps: number;
  /** Latency of one step, cycles. */
  stepLatency: number;
  /** Ports it may issue to, and the cycles a warp occupies each. */
  ports: number[];
  occupancy: number[];
  /** 1 when the SP write-back delay applies to its SP steps. */
  spDelay: boolean;
}

export function planOp(core: CoreConfig, op: CoreOp): OpPlan {
  const w = core.scheduler.warpSize;
  const steps = op.unit === 'routine' ? 1 : Math.max(1, op.instructions);
  const stepLatency = op.latency / steps;
  const perStep = w / op.throughput / steps;
  switch (op.unit) {
    case 'sfu':
      return { steps, stepLatency, ports: [PORT_SFU], occupancy: [perStep], spDelay: false };
    case 'dpu':
      return { steps, stepLatency, ports: [PORT_DPU], occupancy: [perStep], spDelay: false };
    case 'routine':
      return { steps, stepLatency, ports: [PORT_SP], occupancy: [perStep], spDelay: false };
    case 'sp+sfu': {
      const sp = core.units.sp.throughput;
      const rest = op.throughput - sp;
      if (rest <= 0) return { steps, stepLatency, ports: [PORT_SP], occupancy: [perStep], spDelay: true };
      return { steps, stepLatency, ports: [PORT_SP, PORT_SFU], occupancy: [w / sp / steps, w / rest / steps], spDelay: true };
    }
    default:
      return { steps, stepLatency, ports: [PORT_SP], occupancy: [perStep], spDelay: true };
  }
}

export interface ChainRun {
  /** Warps on the SM, each running the chain (all start at cycle 0). */
  warps: number;
  /** Dependent operations per thread. */
  chain: number;
}

export interface ChainResult {
  /** First issue and last completion of each warp, cycles. */
  start: Float64Array;
  end: Float64Array;
  /** Issue time of each warp's last step. */
  lastIssue: Float64Array;
  /** Warp instructions issued to each port. */
  portIssues: number[];
  /** First issue to last completion over all warps. */
  cycles: number;
}

/** Runs `warps` warps of dependent chains of `op` on one SM. */
export function runChains(core: CoreConfig, op: CoreOp, run: ChainRun): ChainResult {
  const plan = planOp(core, op);
  const w = run.warps;
  const total = run.chain * plan.steps;
  const sched = core.scheduler.issueCycles;
  const delay = core.scheduler.busyWritebackDelay;
  const left = new Int32Array(w).fill(total);
  const issued = new Float64Array(w).fill(-Infinity);
  /** 1 while the warp's last step is an SP step that has not yet seen the SP idle. */
  const pending = new Uint8Array(w);
  const start = new Float64Array(w).fill(NaN);
  const end = new Float64Array(w);
  const lastIssue = new Float64Array(w);
  const portFree = new Float64Array(PORTS);
  const portIssues = [0, 0, 0];
  const nPorts = plan.ports.length;
  let lastAny = -Infinity;
  let rr = 0;
  let remaining = w * total;
  const lat = plan.stepLatency;
  while (remaining > 0) {
    let best = Infinity;
    let bestK = -1;
    let bestP = 0;
    for (;;) {
      best = Infinity;
      bestK = -1;
      for (let i = 0; i < w; i++) {
        const k = (rr + i) % w;
        if (left[k] === 0) continue;
        const ready = issued[k] === -Infinity ? 0 : issued[k] + lat + (pending[k] === 1 ? delay : 0);
        for (let j = 0; j < nPorts; j++) {
          const p = plan.ports[j];
          let t = ready;
          if (portFree[p] > t) t = portFree[p];
          if (lastAny + sched > t) t = lastAny + sched;
          if (t < best - EPS) {
            best = t;
            bestK = k;
            bestP = j;
          }
        }
      }
      // The SP idles over [portFree, best): every SP result in flight then has seen it idle.
      let changed = false;
      if (best > portFree[PORT_SP] + EPS) {
        const a = portFree[PORT_SP];
        for (let k = 0; k < w; k++)
          if (pending[k] === 1 && a < issued[k] + lat && best > issued[k]) {
            pending[k] = 0;
            changed = true;
          }
      }
      if (!changed) break;
    }
    const p = plan.ports[bestP];
    if (Number.isNaN(start[bestK])) start[bestK] = best;
    issued[bestK] = best;
    lastIssue[bestK] = best;
    pending[bestK] = plan.spDelay && p === PORT_SP && delay > 0 ? 1 : 0;
    portFree[p] = best + plan.occupancy[bestP];
    portIssues[p]++;
    lastAny = best;
    left[bestK]--;
    remaining--;
    if (left[bestK] === 0) end[bestK] = best + lat;
    rr = (bestK + 1) % w;
  }
  let first = Infinity;
  let last = 0;
  for (let k = 0; k < w; k++) {
    if (start[k] < first) first = start[k];
    if (end[k] > last) last = end[k];
  }
  return { start, end, lastIssue, portIssues, cycles: last - first };
}
