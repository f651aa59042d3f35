import { makeAddressMap } from './addrmap';
import { FERMI_HASH_SETS, fermiHashFits } from './tcache';
import type { TimingConfig } from './types';
import { L1_ALLOCATE_POLICIES } from './types';

/** Checks a TimingConfig for values the engine cannot run with; returns messages (empty: fine). */
export function checkTimingConfig(c: TimingConfig): string[] {
  const out: string[] = [];
  const pos = (v: number, name: string): void => {
    if (!(v > 0) || !Number.isFinite(v)) out.push(`${name} must be positive (got ${v})`);
  };
  const int = (v: number, name: string): void => {
    if (!Number.isInteger(v) || v < 1) out.push(`${name} must be a positive whole number (got ${v})`);
  };
  const pow2 = (v: number, name: string): void => {
    if (!(v > 0 && Number.isInteger(Math.log2(v)))) out.push(`${name} must be a power of two (got ${v})`);
  };
  int(c.sms, 'sms');
  int(c.maxWarpsPerSM, 'maxWarpsPerSM');
  int(c.maxThreadsPerSM, 'maxThreadsPerSM');
  int(c.maxBlocksPerSM, 'maxBlocksPerSM');
  int(c.schedulers, 'schedulers');
  pos(c.aluLatency, 'aluLatency');
  if (c.issueCycles !== undefined) int(c.issueCycles, 'issueCycles');
  if (c.memCollectors !== undefined) {
    int(c.memCollectors, 'memCollectors');
    if (c.memQueue !== undefined && c.memQueue > 0 && c.memQueue < c.memCollectors + 2) out.push(`memCollectors needs memQueue >= memCollectors + 2 (ID_OC_MEM, the units, OC_EX_MEM; got ${c.memQueue})`);
  }
  if (c.lsuCycles !== undefined) int(c.lsuCycles, 'lsuCycles');
  pow2(c.coalesceBytes, 'coalesceBytes');
  pow2(c.bypassBytes, 'bypassBytes');
  if (c.bypassBytes > c.coalesceBytes) out.push('bypassBytes must not exceed coalesceBytes');
  if (c.coalesceBytes / c.bypassBytes > 30) out.push('coalesceBytes / bypassBytes must be at most 30');
  for (const [name, cc] of [['l1', c.l1], ['l2', c.l2]] as const) {
    if (!cc) continue;
    int(cc.sets, `${name}.sets`);
    int(cc.ways, `${name}.ways`);
    pow2(cc.lineBytes, `${name}.lineBytes`);
    int(cc.mshrEntries, `${name}.mshrEntries`);
    int(cc.mshrMergers, `${name}.mshrMergers`);
    if (!(cc.hitLatency >= 0)) out.push(`${name}.hitLatency must be >= 0`);
    if (cc.setIndex === 'fermi-hash' && name === 'l2') out.push('l2.setIndex: the Fermi hash is an L1 set function (the L2 places lines with l2.addressMap)');
    if (cc.allocate !== undefined && name === 'l2') out.push("l2.allocate: the allocation policy is an L1 setting (the L2 reserves on miss)");
    if (cc.allocate !== undefined && !L1_ALLOCATE_POLICIES.includes(cc.allocate)) out.push(`${name}.allocate must be one of ${L1_ALLOCATE_POLICIES.join(', ')} (got ${String(cc.allocate)})`);
    if (cc.setIndex === 'fermi-hash' && !fermiHashFits(cc.sets)) out.push(`${name}.setIndex 'fermi-hash' needs ${FERMI_HASH_SETS.join(' or ')} sets (got ${cc.sets}), as GPGPU-Sim's FERMI_HASH_SET_FUNCTION`);
  }
  if (c.l1 && c.l1.lineBytes / c.bypassBytes > 30) out.push('l1.lineBytes / bypassBytes must be at most 30');
  int(c.l2.partitions, 'l2.partitions');
  if (c.l2.sectorBytes !== undefined) {
    pow2(c.l2.sectorBytes, 'l2.sectorBytes');
    if (c.l2.sectorBytes > c.l2.lineBytes || c.l2.lineBytes / c.l2.sectorBytes > 30) out.push('l2.sectorBytes must divide l2.lineBytes into at most 30 sectors');
  }
  if (c.l2.bytesPerCycle !== undefined) pos(c.l2.bytesPerCycle, 'l2.bytesPerCycle');
  if (c.l2.addressMap) {
    if (!c.dram.timing) out.push('l2.addressMap needs dram.timing (its address decoder)');
    else {
      const m = makeAddressMap(c.dram.timing, c.l2, c.dram.channels);
      if (typeof m === 'string') out.push(m);
    }
  }
  if (!(c.interconnect.latency >= 0)) out.push('interconnect.latency must be >= 0');
  pos(c.interconnect.bytesPerCyclePerSM, 'interconnect.bytesPerCyclePerSM');
  pos(c.interconnect.bytesPerCycleTotal, 'interconnect.bytesPerCycleTotal');
  int(c.dram.channels, 'dram.channels');
  if (!(c.dram.latency >= 0)) out.push('dram.latency must be >= 0');
  pos(c.dram.bytesPerCycle, 'dram.bytesPerCycle');
  pos(c.dram.burstBytes, 'dram.burstBytes');
  pos(c.shared.bytesPerSM, 'shared.bytesPerSM');
  if (!(c.shared.latency >= 0)) out.push('shared.latency must be >= 0');
  pos(c.shared.bytesPerCycle, 'shared.bytesPerCycle');
  return out;
}
