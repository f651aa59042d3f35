import type { IndexExpr, Instr, Kernel, KernelArray } from './types';

/**
 * Kernels as the engine runs them: the instruction tree flattened into a list with loop markers,
 * index expressions as typed arrays, registers and loop variables numbered. Built once per launch.
 */

export const OP_ALU = 0;
export const OP_LD = 1;
export const OP_ST = 2;
export const OP_SYNC = 3;
export const OP_LOOP = 4;
export const OP_ENDLOOP = 5;
export const OP_EXIT = 6;

/** Variable codes of index terms; loop variable k has code VAR_LOOP + k. */
export const VAR_TID = 0;
export const VAR_BID = 1;
export const VAR_GTID = 2;
export const VAR_BDIM = 3;
export const VAR_GDIM = 4;
export const VAR_LOOP = 5;

export const MAX_REGISTERS = 62;
export const MAX_LOOP_DEPTH = 8;

export interface CompiledIndex {
  n: number;
  coef: Float64Array;
  vars: Int32Array;
  div: Int32Array;
  mod: Int32Array;
  offset: number;
  /** Terms that depend on the lane (tid or gtid). */
  laneDependent: boolean;
  /**
   * Set when the index is linear in the lane with whole numbers (tid / gtid terms without div or mod,
   * whole coefficients and offset): the index grows by this much per lane of a warp.
   */
  laneStride?: number;
}

export interface CompiledArray {
  name: string;
  elemBytes: number;
  length: number;
  shared: boolean;
  /** Byte address of element 0 (global arrays). */
  base: number;
  /** S-L1 slot (-1: not cached). */
  slot: number;
}

export interface CInstr {
  op: number;
  /** ALU: count; LOOP: iterations. */
  count: number;
  uses: Int32Array;
  dst: number;
  array: number;
  index: CompiledIndex | null;
  sl1: boolean;
  /** LOOP: loop variable number and the pc after its ENDLOOP; ENDLOOP: the pc of its LOOP. */
  loopVar: number;
  /** LOOP and ENDLOOP: the loop variable's first value. */
  start: number;
  jump: number;
}

export interface CompiledKernel {
  kernel: Kernel;
  program: CInstr[];
  arrays: CompiledArray[];
  loopVars: number;
  registers: number;
  /** Register the engine uses for S-L1 store fills (the warp waits on it). */
  hiddenReg: number;
  warpsPerBlock: number;
  /** Shared memory a block needs: the kernel's own, its shared arrays, its S-L1 lines. */
  sharedBytesPerBlock: number;
  sl1Slots: number;
}

function instr(op: number, partial: Partial<CInstr>): CInstr {
  return { op, count: 0, uses: new Int32Array(0), dst: -1, array: -1, index: null, sl1: false, loopVar: -1, jump: -1, start: 0, ...partial };
}

export { layoutArrays } from './layout';

export function compileKernel(kernel: Kernel, bases: Map<string, number>): CompiledKernel {
  if (!Number.isInteger(kernel.grid) || kernel.grid < 1) throw new Error(`kernel ${kernel.name}: grid must be a positive integer`);
  if (!Number.isInteger(kernel.block) || kernel.block < 1 || kernel.block > 1024)
    throw new Error(`kernel ${kernel.name}: block must be 1..1024 threads`);
  const arrays: CompiledArray[] = kernel.arrays.map((a: KernelArray) => {
    if (!(a.elemBytes > 0) || !(a.length > 0)) throw new Error(`kernel ${kernel.name}: array ${a.name} needs a positive size`);
    return {
      name: a.name,
      elemBytes: a.elemBytes,
      length: a.length,
      shared: a.space === 'shared',
      base: a.space === 'global' ? (bases.get(a.name) ?? 0) : 0,
      slot: kernel.sl1?.slots[a.name] ?? -1,
    };
  });
  const arrayIndex = new Map(arrays.map((a, i) => [a.name, i]));
  const loopNames: string[] = [];
  const scope: string[] = [];
  let maxReg = -1;
  const program: CInstr[] = [];
  const reg = (r: number): number => {
    if (!Number.isInteger(r) || r < 0 || r >= MAX_REGISTERS) throw new Error(`kernel ${kernel.name}: register ${r} out of 0..${MAX_REGISTERS - 1}`);
    maxReg = Math.max(maxReg, r);
    return r;
  };
  const compileIndex = (e: IndexExpr): CompiledIndex => {
    const n = e.terms.length;
    const c: CompiledIndex = {
      n,
      coef: new Float64Array(n),
      vars: new Int32Array(n),
      div: new Int32Array(n),
      mod: new Int32Array(n),
      offset: e.offset ?? 0,
      laneDependent: false,
    };
    let linear = Number.isInteger(c.offset);
    let stride = 0;
    e.terms.forEach((t, i) => {
      if (!Number.isInteger(t.coef)) linear = false;
      if ((t.var === 'tid' || t.var === 'gtid') && ((t.div ?? 1) > 1 || (t.mod ?? 0) > 0)) linear = false;
      if (t.var === 'tid' || t.var === 'gtid') stride += t.coef;
      c.coef[i] = t.coef;
      c.div[i] = t.div ?? 1;
      c.mod[i] = t.mod ?? 0;
      if (c.div[i] < 1) throw new Error(`kernel ${kernel.name}: index divisor must be >= 1`);
      switch (t.var) {
        case 'tid':
          c.vars[i] = VAR_TID;
          c.laneDependent = true;
          break;
        case 'bid':
          c.vars[i] = VAR_BID;
          break;
        case 'gtid':
          c.vars[i] = VAR_GTID;
          c.laneDependent = true;
          break;
        case 'bdim':
          c.vars[i] = VAR_BDIM;
          break;
        case 'gdim':
          c.vars[i] = VAR_GDIM;
          break;
        default: {
          if (!scope.includes(t.var)) throw new Error(`kernel ${kernel.name}: index uses "${t.var}", which is not an enclosing loop variable`);
          c.vars[i] = VAR_LOOP + loopNames.indexOf(t.var);
        }
      }
    });
    if (linear && c.laneDependent) c.laneStride = stride;
    return c;
  };
  const emit = (body: Instr[]): void => {
    for (const ins of body) {
      switch (ins.op) {
        case 'alu':
          if (!(ins.count >= 1)) throw new Error(`kernel ${kernel.name}: alu count must be >= 1`);
          program.push(instr(OP_ALU, { count: Math.round(ins.count), uses: Int32Array.from((ins.uses ?? []).map(reg)), dst: ins.dst === undefined ? -1 : reg(ins.dst) }));
          break;
        case 'ld':
        case 'st': {
          const ai = arrayIndex.get(ins.array);
          if (ai === undefined) throw new Error(`kernel ${kernel.name}: ${ins.op} names unknown array "${ins.array}"`);
          const via = ins.via === 'sl1' && kernel.sl1 !== undefined && !arrays[ai].shared;
          if (ins.op === 'ld')
            program.push(instr(OP_LD, { array: ai, index: compileIndex(ins.index), dst: reg(ins.dst), sl1: via }));
          else program.push(instr(OP_ST, { array: ai, index: compileIndex(ins.index), uses: Int32Array.from((ins.src ?? []).map(reg)), sl1: via }));
          break;
        }
        case 'sync':
          program.push(instr(OP_SYNC, {}));
          break;
        case 'loop': {
          if (scope.length >= MAX_LOOP_DEPTH) throw new Error(`kernel ${kernel.name}: loops nested deeper than ${MAX_LOOP_DEPTH}`);
          if (!Number.isInteger(ins.count) || ins.count < 0) throw new Error(`kernel ${kernel.name}: loop count must be a whole number`);
          const first = ins.start ?? 0;
          if (!Number.isInteger(first)) throw new Error(`kernel ${kernel.name}: loop start must be a whole number`);
          if (scope.includes(ins.var)) throw new Error(`kernel ${kernel.name}: loop variable "${ins.var}" shadows an enclosing loop`);
          let v = loopNames.indexOf(ins.var);
          if (v < 0) {
            v = loopNames.length;
            loopNames.push(ins.var);
          }
          const start = program.length;
          const head = instr(OP_LOOP, { count: ins.count, loopVar: v, start: first });
          program.push(head);
          scope.push(ins.var);
          emit(ins.body);
          scope.pop();
          program.push(instr(OP_ENDLOOP, { loopVar: v, jump: start, count: ins.count, start: first }));
          head.jump = program.length;
          break;
        }
      }
    }
  };
  emit(kernel.body);
  program.push(instr(OP_EXIT, {}));
  const sl1Slots = kernel.sl1 ? Math.max(0, ...Object.values(kernel.sl1.slots).map((s) => s + 1)) : 0;
  const sharedArrays = arrays.filter((a) => a.shared).reduce((s, a) => s + a.length * a.elemBytes, 0);
  const sl1Bytes = kernel.sl1 ? sl1Slots * kernel.sl1.lineBytes * kernel.block : 0;
  return {
    kernel,
    program,
    arrays,
    loopVars: loopNames.length,
    registers: maxReg + 2,
    hiddenReg: maxReg + 1,
    warpsPerBlock: Math.ceil(kernel.block / 32),
    sharedBytesPerBlock: (kernel.sharedBytesPerBlock ?? 0) + sharedArrays + sl1Bytes,
    sl1Slots,
  };
}
