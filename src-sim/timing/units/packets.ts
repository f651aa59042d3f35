import type { AddressMap } from '../addrmap';
import { addrMapSlice } from '../addrmap';
import { grown, grownFreeStack } from '../pool';

/**
 * Packets: the requests and replies in flight between the SMs, the interconnect, the L2 slices and
 * DRAM, in a pool of typed arrays (index p). The L1 (fills), the LSU (bypassing reads, stores) and
 * the S-L1 lines make them; whoever consumes the last reply frees them. `outstanding` counts those
 * not yet freed: a kernel ends only when it is 0.
 */
export class Packets {
  declare pSm: Int32Array;
  /** PK_L1FILL, PK_READ or PK_STORE. */
  declare pKind: Uint8Array;
  declare pAddr: Float64Array;
  /** The L2 slice of the packet's address (once per packet: a miss-queue head is asked for it every cycle it waits). */
  declare pSlice: Int32Array;
  declare pBytes: Int32Array;
  /** An L1 fill: its MSHR entry (pA); a read: the warp and register (pA, pB); a store: its warp (pA). */
  declare pA: Int32Array;
  declare pB: Int32Array;
  declare pIssue: Float64Array;
  declare pFree: Int32Array;
  declare pFreeTop: number;
  declare outstanding: number;
  declare readonly l2Line: number;
  declare readonly P: number;
  /** l2.addressMap: GPGPU-Sim's placement of lines in slices and sets (null: line i to slice i mod P). */
  declare readonly am: AddressMap | null;

  constructor(l2Line: number, P: number, am: AddressMap | null) {
    this.l2Line = l2Line;
    this.P = P;
    this.am = am;
    const PK = 4096;
    this.pSm = new Int32Array(PK);
    this.pKind = new Uint8Array(PK);
    this.pAddr = new Float64Array(PK);
    this.pSlice = new Int32Array(PK);
    this.pBytes = new Int32Array(PK);
    this.pA = new Int32Array(PK);
    this.pB = new Int32Array(PK);
    this.pIssue = new Float64Array(PK);
    this.pFree = new Int32Array(PK);
    for (let i = 0; i < PK; i++) this.pFree[i] = PK - 1 - i;
    this.pFreeTop = PK;
    this.outstanding = 0;
  }

  /** The L2 slice that holds L2 line `line`. */
  sliceOf(line: number): number {
    const am = this.am;
    return am === null ? line % this.P : addrMapSlice(am, line);
  }

  private grow(): void {
    const n = this.pSm.length;
    const m = n * 2;
    this.pSm = grown(this.pSm, m);
    this.pKind = grown(this.pKind, m);
    this.pAddr = grown(this.pAddr, m);
    this.pSlice = grown(this.pSlice, m);
    this.pBytes = grown(this.pBytes, m);
    this.pA = grown(this.pA, m);
    this.pB = grown(this.pB, m);
    this.pIssue = grown(this.pIssue, m);
    this.pFree = grownFreeStack(this.pFree, this.pFreeTop, n, m);
    this.pFreeTop += m - n;
  }

  alloc(sm: number, kind: number, addr: number, bytes: number, a: number, b: number, now: number): number {
    if (this.pFreeTop === 0) this.grow();
    const p = this.pFree[--this.pFreeTop];
    this.pSm[p] = sm;
    this.pKind[p] = kind;
    this.pAddr[p] = addr;
    this.pSlice[p] = this.sliceOf(Math.floor(addr / this.l2Line));
    this.pBytes[p] = bytes;
    this.pA[p] = a;
    this.pB[p] = b;
    this.pIssue[p] = now;
    this.outstanding++;
    return p;
  }

  free(p: number): void {
    this.pFree[this.pFreeTop++] = p;
    this.outstanding--;
  }
}
