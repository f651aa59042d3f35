import * as K from './codes';
import type { Machine } from './machine';

const W_FREE: number = K.W_FREE;
const W_DONE: number = K.W_DONE;

/**
 * Instruction fetch (`fetch`, GPGPU-Sim's instruction buffer): each warp has `ibuffer` instructions
 * buffered; an emptied buffer is refilled by the SM's fetch unit, one warp per issueCycles
 * (round-robin over the warp slots from the one fetched last), usable `latency` cycles later
 * (IBUFFER_SIZE, shader_core_ctx::fetch and decode). Off (ibufSize 0): a warp may issue whenever
 * ready.
 */
export class Fetch {
  declare readonly m: Machine;
  declare readonly ibufSize: number;
  declare readonly fetchLatency: number;
  /** Per warp: instructions left in its buffer (written by the scheduler on issue), the cycle they are usable. */
  declare readonly wIb: Int32Array;
  declare readonly wIbReady: Float64Array;
  /** Warps waiting for the fetch unit (1), the slot fetched last per SM (fqHead) and how many wait (fqLen). */
  declare readonly fq: Uint8Array;
  declare readonly fqHead: Int32Array;
  declare readonly fqLen: Int32Array;
  declare readonly fetchFree: Float64Array;

  constructor(m: Machine) {
    const c = m.c;
    const S = m.sms;
    this.m = m;
    this.ibufSize = c.fetch ? c.fetch.ibuffer : 0;
    this.fetchLatency = c.fetch ? c.fetch.latency : 0;
    this.wIb = new Int32Array(S * m.maxW);
    this.wIbReady = new Float64Array(S * m.maxW);
    this.fq = new Uint8Array(S * m.maxW);
    this.fqHead = new Int32Array(S);
    this.fqLen = new Int32Array(S);
    this.fetchFree = new Float64Array(S);
  }

  /** Warp w's instruction buffer is empty: it waits for the SM's fetch unit (GPGPU-Sim shader.cc fetch()). */
  request(sm: number, w: number): void {
    if (this.fq[w]) return;
    const m = this.m;
    this.fq[w] = 1;
    this.fqLen[sm]++;
    const t = this.fetchFree[sm] > m.now ? this.fetchFree[sm] : m.now;
    if (m.smWake[sm] > t) m.smWake[sm] = t;
  }

  /**
   * The fetch unit refills one warp's instruction buffer per issueCycles (GPGPU-Sim 3.x:
   * shader_core_ctx::fetch takes one warp with an empty buffer per cycle, round-robin over the warp
   * slots from the one fetched last, decode fills its
   * IBUFFER_SIZE = 2 entries the next cycle, and they issue the cycle after: fetch.latency).
   * Runs after the SM's schedulers each cycle it is free and a warp waits.
   */
  step(sm: number): void {
    const m = this.m;
    // The next warp slot after the last one fetched that waits (shader_core_ctx::fetch scans from
    // m_last_warp_fetched + 1).
    const base = sm * m.maxW;
    let w = -1;
    for (let i = 1; i <= m.maxW; i++) {
      const x = base + ((this.fqHead[sm] + i) % m.maxW);
      if (this.fq[x]) {
        w = x;
        break;
      }
    }
    this.fq[w] = 0;
    this.fqHead[sm] = w - base;
    this.fqLen[sm]--;
    this.fetchFree[sm] = m.now + m.issueCycles;
    if (m.wState[w] === W_FREE || m.wState[w] === W_DONE) return;
    this.wIb[w] = this.ibufSize;
    this.wIbReady[w] = m.now + this.fetchLatency;
    m.wake(w);
  }
}
