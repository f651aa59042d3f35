import * as K from './codes';
import type { Dispatch } from './dispatch';
import type { Machine } from './machine';
import type { OperandCollector } from './operand-collector';
import type { Sl1Lines } from './sl1-lines';
import type { Stats } from './stats';

const OP_ALU: number = K.OP_ALU;
const OP_LD: number = K.OP_LD;
const OP_ST: number = K.OP_ST;
const OP_SYNC: number = K.OP_SYNC;
const OP_LOOP: number = K.OP_LOOP;
const OP_ENDLOOP: number = K.OP_ENDLOOP;
const OP_EXIT: number = K.OP_EXIT;
const W_ACTIVE: number = K.W_ACTIVE;
const W_BARRIER: number = K.W_BARRIER;
const R: number = K.R;

/**
 * Issue: what an instruction the scheduler picked does. An `alu` chain of `count` takes `count x
 * aluLatency` and its result is ready `aluLatency` after its last issue; a load or store goes to the
 * memory pipeline (operand-collector.ts) or, through S-L1, first runs its extra instructions
 * (sl1-lines.ts); `sync` holds the warp at its block's barrier until all its warps arrived; `exit`
 * writes back dirty S-L1 lines, then retires the warp once nothing of it is in flight. Loop markers
 * are followed when the pc moves (`settle`).
 */
export class Issue {
  declare readonly m: Machine;
  declare readonly st: Stats;
  declare readonly oc: OperandCollector;
  declare readonly sl1: Sl1Lines;
  declare readonly dispatch: Dispatch;

  constructor(m: Machine, st: Stats, oc: OperandCollector, sl1: Sl1Lines, dispatch: Dispatch) {
    this.m = m;
    this.st = st;
    this.oc = oc;
    this.sl1 = sl1;
    this.dispatch = dispatch;
  }

  /** Follows loop markers until the pc rests on an instruction. */
  settle(w: number): void {
    const m = this.m;
    const prog = m.prog;
    const L = m.k.loopVars;
    for (;;) {
      const ins = prog[m.wPc[w]];
      if (ins.op === OP_LOOP) {
        if (ins.count === 0) m.wPc[w] = ins.jump;
        else {
          m.wLoop[w * L + ins.loopVar] = ins.start;
          m.wPc[w]++;
        }
      } else if (ins.op === OP_ENDLOOP) {
        const i = w * L + ins.loopVar;
        if (++m.wLoop[i] < ins.start + ins.count) m.wPc[w] = ins.jump + 1;
        else m.wPc[w]++;
      } else return;
    }
  }

  private advance(w: number): void {
    this.m.wPc[w]++;
    this.settle(w);
  }

  /** Issues warp w's next instruction (the scheduler's canIssue said yes). */
  execute(sm: number, w: number): void {
    const m = this.m;
    const st = this.st;
    const ins = m.prog[m.wPc[w]];
    m.wake(w);
    switch (ins.op) {
      case OP_ALU: {
        if (m.wAluRemain[w] === 0) m.wAluRemain[w] = ins.count;
        st.warpInstructions++;
        st.accInstr++;
        if (--m.wAluRemain[w] > 0) m.wWait[w] = m.now + m.c.aluLatency;
        else {
          if (ins.dst >= 0) m.rReady[w * R + ins.dst] = m.now + m.c.aluLatency;
          m.wWait[w] = m.now + 1;
          this.advance(w);
        }
        return;
      }
      case OP_LD:
      case OP_ST: {
        if (ins.sl1) {
          if (m.wPhase[w] === 0) {
            m.wExtra[w] = this.sl1.extra(w, ins);
            m.wPhase[w] = 1;
          }
          if (m.wPhase[w] === 1) {
            st.warpInstructions++;
            st.accInstr++;
            if (--m.wExtra[w] <= 0) {
              m.wPhase[w] = 2;
              m.wWait[w] = m.now + m.c.aluLatency;
            } else m.wWait[w] = m.now + 1;
            return;
          }
          m.wPhase[w] = 0;
          this.sl1.access(sm, w, ins);
        } else this.oc.startAccess(sm, w, ins);
        st.warpInstructions++;
        st.accInstr++;
        m.wWait[w] = m.now + 1;
        this.advance(w);
        return;
      }
      case OP_SYNC: {
        st.warpInstructions++;
        st.accInstr++;
        const b = m.wBlock[w];
        const d = this.dispatch;
        m.wState[w] = W_BARRIER;
        if (++d.bArrived[b] === d.bWarps[b]) {
          d.bArrived[b] = 0;
          const first = sm * m.maxW;
          for (let x = first; x < first + m.maxW; x++)
            if (m.wBlock[x] === b && m.wState[x] === W_BARRIER) {
              m.wState[x] = W_ACTIVE;
              m.wake(x);
              m.wWait[x] = m.now + 1;
              this.advance(x);
            }
        }
        return;
      }
      case OP_EXIT: {
        if (this.sl1.slots > 0 && m.wPhase[w] === 0) {
          const dirty = this.sl1.dirtySlots(w);
          if (dirty > 0) {
            m.wExtra[w] = dirty * m.k.kernel.sl1!.writebackInstructions;
            m.wPhase[w] = m.wExtra[w] > 0 ? 1 : 2;
            if (m.wPhase[w] === 2) return;
          } else m.wPhase[w] = 3;
        }
        if (m.wPhase[w] === 1) {
          st.warpInstructions++;
          st.accInstr++;
          if (--m.wExtra[w] <= 0) m.wPhase[w] = 2;
          m.wWait[w] = m.now + 1;
          return;
        }
        if (m.wPhase[w] === 2) {
          this.sl1.flush(sm, w);
          m.wPhase[w] = 3;
          m.wWait[w] = m.now + 1;
          return;
        }
        this.dispatch.retire(sm, w);
        return;
      }
    }
  }
}
