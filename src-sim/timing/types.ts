/**
 * The timing tier's contract: what a preset adds for it (TimingConfig), how a kernel is described
 * as data (Kernel), what a simulation returns (TimingStats). Pure data; the engine lives in
 * ./engine.ts and its hardware units in ./units/, the workloads in ./workloads/, S-L1 in ./sl1.ts.
 *
 * Units: cycles are core cycles unless a name says otherwise; bytes are bytes.
 */

// ---------------------------------------------------------------------------------------------
// Hardware configuration (Preset.timing). Every number has provenance in Preset.provenance under
// "timing.<path>".
// ---------------------------------------------------------------------------------------------

/** How a cache line picks its set (TimingCacheConfig.setIndex). */
export const SET_INDEX_FUNCTIONS = ['linear', 'fermi-hash'] as const;

export interface TimingCacheConfig {
  sets: number;
  ways: number;
  lineBytes: number;
  /** MSHR entries (outstanding distinct lines). */
  mshrEntries: number;
  /** Merger fields per MSHR entry: requests that one outstanding line can hold (LASH IV). */
  mshrMergers: number;
  /** Cycles from lookup to data on a hit. */
  hitLatency: number;
  policy: 'lru' | 'fifo';
  /**
   * How a line picks its set (the L1 only; default 'linear': line number mod sets).
   * 'fermi-hash': GPGPU-Sim 3.2's FERMI_HASH_SET_FUNCTION (gpu-cache.cc l1d_cache_config::set_index,
   * after Nugteren et al., HPCA 2014): address bits 7-11 XOR bits 13, 14, 15, 17 and 19, with bit 12
   * prepended for 64 sets; only for 32 or 64 sets.
   */
  setIndex?: (typeof SET_INDEX_FUNCTIONS)[number];
  /**
   * When a load miss takes its line (the L1 only; default 'miss'). 'miss': the miss reserves a way
   * at once (GPGPU-Sim 3.x's ON_MISS, `-gpgpu_cache:dl1 ...,L:L:m:...`); a set whose ways are all
   * reserved refuses further misses ("nocacheline") until a fill arrives. 'fill': the line takes a
   * way only when its data arrives (GPGPU-Sim's ON_FILL, and its streaming L1 `...,L:L:s:...`, which
   * turns into ON_FILL): a miss needs an MSHR entry only, a second miss to the pending line merges
   * into that entry, and the fill evicts the set's least recent line.
   */
  allocate?: L1Allocate;
}

/** When an L1 load miss takes its line (TimingCacheConfig.allocate). */
export const L1_ALLOCATE_POLICIES = ['miss', 'fill'] as const;
export type L1Allocate = (typeof L1_ALLOCATE_POLICIES)[number];

export interface TimingConfig {
  sms: number;
  /** Resident warps per SM (warp slots). */
  maxWarpsPerSM: number;
  maxThreadsPerSM: number;
  maxBlocksPerSM: number;
  /** Warp schedulers per SM (each issues at most one warp instruction per cycle). */
  schedulers: number;
  /**
   * The GPU's warp scheduling policy, used when a run asks for the preset's ('preset'): loose
   * round-robin or greedy-then-oldest. Absent: loose round-robin.
   */
  warpScheduler?: WarpScheduler;
  /** Cycles before a dependent instruction may use an ALU result. */
  aluLatency: number;
  /**
   * Cycles between two issues of one scheduler (default 1). 2 on Fermi counted in shader cycles: a
   * warp instruction occupies a 16-lane group for two cycles.
   */
  issueCycles?: number;
  /** Cycles the LSU spends on one coalesced group (default 1; 2 on Fermi: 16 load/store units). */
  lsuCycles?: number;
  /**
   * Coalescer granularity in bytes: a warp's addresses are grouped into aligned blocks of this size
   * and one group is served per cycle (128 on Fermi with L1; 32 B segments where the preset says so).
   */
  coalesceBytes: number;
  /**
   * Cached loads are split into segments by word size before they reach L1, as compute capability
   * 1.2/1.3 coalescing (and GPGPU-Sim 3.2's model of Fermi): 32 B for 1-byte words, 64 B for 2-byte,
   * 128 B (a line) for 4 bytes and more; each segment is one L1 access. Absent: one access per line.
   */
  segmentBySize?: boolean;
  /**
   * The order in which the LSU serves one instruction's accesses: 'ascending' address (default) or
   * 'descending', as GPGPU-Sim 3.x (abstract_hardware_model.cc memory_coalescing_arch_13 queues the
   * accesses in ascending segment order; shader.cc ldst_unit::memory_cycle and
   * process_memory_access_queue serve accessq_back(), the highest address, first).
   */
  accessOrder?: 'ascending' | 'descending';
  /**
   * Memory instructions that may wait, issued, for a busy LSU (first in, first out), their accesses
   * formed and destination registers reserved at issue. GPGPU-Sim 3.x: the ID_OC_MEM pipeline
   * register, the memory operand collector units and OC_EX_MEM sit between the schedulers and the
   * LSU's dispatch register. Absent or 0: a memory instruction issues only into an idle LSU.
   */
  memQueue?: number;
  /**
   * With memQueue: the memory pipeline as GPGPU-Sim 3.x's stages instead of one first-in first-out
   * queue, this many memory collector units between ID_OC_MEM and OC_EX_MEM (needs memQueue >=
   * memCollectors + 2; -gpgpu_operand_collector_num_units_mem, default 2). Per issue slot
   * (issueCycles, one 700 MHz cycle) and SM, in shader_core_ctx::cycle's order: the LSU takes OC_EX_MEM
   * when its dispatch register is free (execute); a collector unit whose operand was read dispatches
   * to a free OC_EX_MEM, the units searched round-robin from the one after the last that dispatched
   * (opndcoll_rfu_t::dispatch_ready_cu, dispatch_unit_t::find_ready); ID_OC_MEM's instruction goes
   * to the first free unit by index (allocate_cu), its source read granted the next cycle
   * (allocate_reads), so it can dispatch two cycles after; then the schedulers issue into a free
   * ID_OC_MEM. So one memory instruction per issue slot and SM, whichever scheduler issues it: the
   * schedulers share ID_OC_MEM (gpgpusim.config -gpgpu_pipeline_widths, width 1), and a scheduler whose
   * memory instruction finds it taken tries its next warp (scheduler_unit::cycle
   * `m_mem_out->has_free()`). Register bank conflicts are not modelled (one source operand read per
   * cycle and unit).
   */
  memCollectors?: number;
  /**
   * An SM takes at most one new block per this many cycles (absent: any number at once). GPGPU-Sim
   * 3.x: gpgpu_sim::cycle calls issue_block2core once per core cycle, which lets every cluster
   * (simt_core_cluster::issue_block2core) start at most one block, the clusters taken round-robin
   * from the one after the last that started one (gpgpusim.config -gpgpu_n_cores_per_cluster 1 for the
   * GTX 480: one block per SM per 700 MHz cycle).
   */
  launchCycles?: number;
  /**
   * Accesses returning from below L1 (an L1 fill's merged requests, uncached reads) write their
   * registers through one writeback port, one per lsuCycles (GPGPU-Sim 3.x ldst_unit::writeback and
   * mshr_table::next_access). Absent: all at once, the cycle after the data arrives.
   */
  writebackPort?: boolean;
  /**
   * Instruction buffer and fetch (GPGPU-Sim 3.x shd_warp_t: IBUFFER_SIZE = 2 decoded instructions
   * per warp; shader_core_ctx::fetch refills one warp's empty buffer per cycle, round-robin over the
   * warp slots, and decode fills it the next cycle). A warp issues only from its buffer; `latency`
   * cycles from the fetch to the first issue from the refilled buffer. Absent: no instruction buffer.
   */
  fetch?: { ibuffer: number; latency: number };
  /**
   * The L1's miss queue and the SM's injection port (GPGPU-Sim 3.2.2 gpu-cache.cc/h, shader.cc,
   * intersim2's interconnect_interface.cpp). Accesses L1 sends below (new read misses, stores) wait in
   * a FIFO of `entries` (`-gpgpu_cache:dl1 ...,8`: m_miss_queue); `rd_miss_base` fails any read miss,
   * merges included, while it holds entries - 1 (`miss_queue_full(1)`), a store while it is full
   * (`wr_miss_no_wa` / `wr_hit_wt`: `miss_queue_full(0)`), and the LSU retries (a `missqueue` stall).
   * `baseline_cache::cycle` moves the head into the interconnect, one per `drainCycles` (one core
   * cycle), when the SM's input buffer has room for its flits (`icnt_has_buffer`: at most
   * `injectFlits` flits of `flitBytes` queued, the buffer drained at the SM port's bandwidth; a read
   * request is its 8 B header, a store header and data). Absent: accesses enter the interconnect at
   * once.
   */
  missQueue?: { entries: number; drainCycles: number; injectFlits: number; flitBytes: number };
  /**
   * Every store is acknowledged: the L2 slice that takes it sends an 8 B reply back to the SM
   * (GPGPU-Sim 3.x l2cache.cc memory_sub_partition::cache_cycle: a write accepted by the L2 is
   * set_reply()'d into the L2 -> icnt queue; shader.cc store_ack -> shd_warp_t::dec_store_req), and a
   * warp is done only when its stores are acknowledged (hardware_done: stores_done()), so a block
   * frees its SM slot then. Absent: stores need no reply.
   */
  storeAcks?: boolean;
  /**
   * Stores look up the L1 tags as loads do (GPGPU-Sim 3.2.2 gpu-cache.cc data_cache::access, L1
   * `-gpgpu_cache:dl1 32:128:4,L:L:m:N:H`: global write-evict, no write-allocate): a store whose set
   * has every way reserved and no line of its own is refused (tag_array::probe RESERVATION_FAIL, which
   * process_tag_probe passes back; the LSU retries, counted as a `nocacheline` stall), a store that
   * hits a valid line evicts it (wr_hit_global_we_local_wb -> wr_hit_we), a store to a line being
   * fetched is sent without merging (wr_miss_no_wa), and the outcome is counted in the L1 statistics
   * (`TimingStats.l1Stores`). Absent: stores pass L1 without looking.
   */
  storeTags?: boolean;
  /** The SM's L1 data cache; absent: the GPU has none (Tesla), loads go to L2 / DRAM directly. */
  l1?: TimingCacheConfig;
  /** Granularity of a request sent below L1 when L1 is bypassed (no-L1 mode), bytes (32 on Fermi/Kepler). */
  bypassBytes: number;
  l2: TimingCacheConfig & {
    /** Sub-partitions (slices); lines are interleaved across them by line number. */
    partitions: number;
    /**
     * Bytes per core cycle all slices together serve (each slice 1/partitions of it); absent: each
     * slice serves one request per cycle whatever its size.
     */
    bytesPerCycle?: number;
    /**
     * No L2 caches global memory (GT200): every request goes to DRAM; the slices stand for the memory
     * controllers' queues and their MSHRs for the requests each controller keeps in flight (no merging).
     */
    uncached?: boolean;
    /**
     * Sectored lines: each line keeps a valid bit per sector of this many bytes and a miss fetches
     * from DRAM only the sectors the request needs (SL1 4.2: a 128 B line is filled by four 32 B
     * transactions). Absent: a miss fetches the whole line (GPGPU-Sim 3.2).
     */
    sectorBytes?: number;
    /**
     * A store that misses in L2 is sent on to DRAM and the line is fetched (clean), as GPGPU-Sim 3.2's
     * write-allocate L2 (`wr_miss_wa`: a write request plus a read request for the block, which takes
     * an MSHR entry or a merger field). Absent: the store allocates the line dirty without a fetch.
     */
    writeMissFetch?: boolean;
    /**
     * `hitLatency` is a delay every request takes once, between its arrival at the slice and the tag
     * lookup, as GPGPU-Sim's ROP delay queue (l2cache.cc: memory_sub_partition::push puts a request in
     * m_rop with ready_cycle = cycle + rop_latency; cache_cycle moves it to the L2 only then); a hit is
     * answered at the lookup and a miss when its DRAM fill arrives, with no second delay. Absent: the
     * lookup is at arrival and hitLatency comes after it, for hits and again after a fill.
     */
    ropBeforeLookup?: boolean;
    /**
     * Lines to slices and sets by `dram.timing`'s address decoder, as GPGPU-Sim 3.x (addrdec.cc
     * `addrdec_tlx`, `partition_address`; gpu-cache.cc `l2_cache_config::set_index`; addrmap.ts): the
     * slice is the line's DRAM channel x (partitions / channels) + the lowest log2(partitions /
     * channels) bank bits of its channel-local address (`sub_partition_id_mask`), and a slice indexes
     * its sets by that address without those bits. Needs dram.timing and partitions a power-of-two
     * multiple of dram.channels. Absent: line i goes to slice i mod partitions and set
     * floor(i / partitions) mod sets.
     */
    addressMap?: boolean;
    /**
     * A slice's data and fill ports and its clock (GPGPU-Sim 3.2.2 gpu-cache.cc
     * `baseline_cache::bandwidth_management`, `-gpgpu_cache:dl2 ...,4:0,32`: ports `bytes` wide;
     * l2cache.cc `memory_sub_partition::cache_cycle`). The slice looks up at most one request per
     * `cycles` (its clock, in core cycles) and only while its data port is free; a hit (load or store)
     * holds the data port ceil(size / bytes) slice cycles, a miss that writes back a dirty line
     * line / bytes; a DRAM fill waits for the fill port and holds it line / bytes slice cycles.
     * Absent: one request per cycle, fills at once.
     */
    port?: { bytes: number; cycles: number };
    /**
     * The queues between a slice and its DRAM channel (GPGPU-Sim 3.2.2: the L2's miss queue,
     * `-gpgpu_cache:dl2 ...,4:...`, and l2cache.cc's m_L2_dram_queue, `-gpgpu_dram_partition_queues`
     * 8:8:8:8). A request the slice sends to DRAM (a read miss, a store sent on, a write-back) waits in
     * them; memory_partition_unit::dram_cycle moves one per DRAM cycle per channel (round-robin over
     * its slices) into the DRAM's latency queue, and only while the channel's scheduler holds fewer
     * than its queue size (`dram_t::full`). A lookup that would need more room than is left fails
     * (the miss queue refuses at missQueue - 1 entries: `miss_queue_full(1)`) and blocks its slice.
     * Needs dram.timing. Absent: the slice hands requests to DRAM at once.
     */
    dramQueue?: { missQueue: number; queue: number };
    /**
     * With interconnect.responsePorts: the slice's L2 -> icnt queue (GPGPU-Sim 3.2.2 l2cache.cc
     * m_L2_icnt_queue, `-gpgpu_dram_partition_queues` 8:8:8:8): replies wait there for the slice's
     * network port, and memory_sub_partition::cache_cycle looks up no request while it is full. Here:
     * no lookup while the port is booked more than this many line replies ahead. Absent: no limit.
     */
    responseQueue?: number;
    /**
     * With dramQueue: the way back from DRAM (GPGPU-Sim 3.x l2cache.cc memory_partition_unit::dram_cycle,
     * dram.cc dram_t::cycle). A finished read, or a store DRAM wrote (a reply), enters its channel's
     * return queue (dram_t::returnq, `-gpgpu_dram_return_queue_size` `returnQueue`) in the order DRAM
     * finished them; each DRAM cycle the channel moves its head into its slice's DRAM -> L2 queue
     * (m_dram_L2_queue, `queue`) if that has room (the head waits otherwise, holding up the channel's
     * other slice). Each L2 cycle a slice takes the head of that queue: a fill when the fill port is
     * free (the line's merged requests then leave), a store's reply when the L2 -> icnt queue has room
     * (cache_cycle). A slice sends DRAM nothing while its DRAM -> L2 queue is full, nor without a credit
     * (can_issue_to_dram, arbitration_metadata: one private credit per slice and a shared pool of the
     * scheduler queue + returnQueue - (slices per channel - 1), borrowed when a request leaves for
     * DRAM, returned when it enters the DRAM -> L2 queue or, a write-back, when DRAM wrote it,
     * set_done). Absent: a fill waits only for the fill port and a reply leaves at once.
     */
    dramReturn?: { queue: number; returnQueue: number };
  };
  interconnect: {
    /** One-way latency SM <-> L2 slice, cycles. */
    latency: number;
    /** Bytes per core cycle one SM can receive. */
    bytesPerCyclePerSM: number;
    /** Bytes per core cycle over all SMs together. */
    bytesPerCycleTotal: number;
    /**
     * Where requests leave the network for an L2 slice (GPGPU-Sim 3.2.2 gpu-sim.cc gpgpu_sim::cycle and
     * l2cache.cc memory_sub_partition::push / cache_cycle; intersim2's ejection and boundary
     * buffers). A slice takes one request per `cycles` from the network into its ROP delay queue, and
     * only while its icnt -> L2 queue (after the ROP delay) holds fewer than `queue`. Requests it does
     * not take wait in the network's buffers at the slice, `bufferFlits` flits of `flitBytes`; while
     * they are full an SM whose next request (the head of its L1 miss queue, missQueue) is for that
     * slice cannot inject it. Absent: a request enters its slice's queue when it arrives.
     */
    l2Input?: { queue: number; bufferFlits: number; flitBytes: number; cycles: number };
    /**
     * Responses leave through their slice's own network port (GPGPU-Sim 3.2.2 gpgpu_sim::cycle: each
     * sub-partition pushes its L2 -> icnt queue's head into the network when its input buffer has room,
     * one 32 B flit per interconnect cycle per port): each slice sends bytesPerCycleTotal / partitions
     * bytes per cycle, and a response is its data plus an 8 B header (mem_fetch::size, data + control).
     * Absent: responses share only the total and the SM's port, data bytes only.
     */
    responsePorts?: boolean;
  };
  dram: {
    channels: number;
    /** Cycles a DRAM access adds beyond the L2 (core cycles). */
    latency: number;
    /** Peak bytes per core cycle over all channels. */
    bytesPerCycle: number;
    /** DRAM transfer unit: every DRAM access moves a whole number of these (a 32 B write to 64 B bursts costs 64 B). */
    burstBytes: number;
    /**
     * Command-level timing (units/dram-channel.ts, after GPGPU-Sim 3.x's dram.cc): banks, row buffers, FR-FCFS,
     * bus turnarounds. Absent: each channel is a first-come queue of bytesPerCycle / channels.
     */
    timing?: DramTimingConfig;
  };
  shared: {
    bytesPerSM: number;
    latency: number;
    /** Bytes per cycle one SM's shared memory delivers. */
    bytesPerCycle: number;
  };
  clocks: { coreMHz: number; memoryMHz: number };
}

// ---------------------------------------------------------------------------------------------
// Kernels as data.
// ---------------------------------------------------------------------------------------------

/** A variable an address may depend on. Loop variables are named by the loop. */
export type IndexVar = 'tid' | 'bid' | 'gtid' | 'bdim' | 'gdim' | string;

/** One term of an index expression: coef * op(var). */
export interface IndexTerm {
  coef: number;
  var: IndexVar;
  /** floor(var / div) before the coefficient. */
  div?: number;
  /** var mod mod (after div) before the coefficient. */
  mod?: number;
}

/** An element index: offset + sum of terms, clamped into [0, length - 1] of the array. */
export interface IndexExpr {
  terms: IndexTerm[];
  offset?: number;
}

export interface KernelArray {
  name: string;
  /** Bytes per element (4 int, 2 short, 1 char; 16 for a vector load). */
  elemBytes: number;
  length: number;
  /** 'global' arrays live in device memory; 'shared' arrays in the SM's shared memory (per block). */
  space: 'global' | 'shared';
  /** Written by the kernel (S-L1 treats read-write structures differently). */
  readWrite?: boolean;
}

export type Instr =
  /** Load one element per thread into register `dst` (a small integer). */
  | { op: 'ld'; array: string; index: IndexExpr; dst: number; via?: 'sl1' }
  /** Store one element per thread; waits for the registers in `src`. */
  | { op: 'st'; array: string; index: IndexExpr; src?: number[]; via?: 'sl1' }
  /** `count` dependent ALU instructions that wait for registers in `uses` and write `dst`. */
  | { op: 'alu'; count: number; uses?: number[]; dst?: number }
  /** Repeat `body` `count` times with loop variable `var` = start..start+count-1 (start defaults to 0). */
  | { op: 'loop'; var: string; count: number; body: Instr[]; start?: number }
  /** Block-wide barrier. */
  | { op: 'sync' };

export interface Kernel {
  name: string;
  grid: number;
  block: number;
  arrays: KernelArray[];
  body: Instr[];
  /** Shared memory the kernel itself allocates per block, bytes (limits residency; S-L1 gets the rest). */
  sharedBytesPerBlock?: number;
  /** Registers per thread (limits residency where the preset says how many registers an SM has). */
  registersPerThread?: number;
  /**
   * S-L1 configuration, set by ./sl1.ts: accesses marked `via: 'sl1'` to an array with a slot go
   * through a thread-private software line of `lineBytes` in shared memory.
   */
  sl1?: Sl1Config;
}

export interface Sl1Config {
  lineBytes: number;
  /** Array name -> line slot of each thread (0..CLN-1); arrays absent here are not cached. */
  slots: Record<string, number>;
  /** Extra instructions of every access through the caching layer (SL1 3.3: at least 4). */
  accessInstructions: number;
  /** Further instructions on a miss (load the new line). */
  missInstructions: number;
  /** Further instructions to write back a dirty line. */
  writebackInstructions: number;
}

// ---------------------------------------------------------------------------------------------
// Running and results.
// ---------------------------------------------------------------------------------------------

export const WARP_SCHEDULERS = ['lrr', 'gto'] as const;
export type WarpScheduler = (typeof WARP_SCHEDULERS)[number];
/** A run's scheduler: the preset's (TimingConfig.warpScheduler), or one named as a what-if. */
export type SchedulerChoice = 'preset' | WarpScheduler;

/** The policy a run uses: the one it names, else the preset's, else loose round-robin. */
export function schedulerOf(config: Pick<TimingConfig, 'warpScheduler'>, choice: SchedulerChoice | undefined): WarpScheduler {
  return choice === 'lrr' || choice === 'gto' ? choice : (config.warpScheduler ?? 'lrr');
}

export interface TimingOptions {
  /** 'hw': loads cached in L1 (where the config has one); 'bypass': L1 off (no-L1). */
  l1: 'hw' | 'bypass';
  /** 'preset': the config's warpScheduler (loose round-robin when it has none). */
  scheduler: SchedulerChoice;
  /** Cycles per epoch of the occupancy series. */
  epochCycles: number;
  /** Stop with an error past this many cycles. */
  maxCycles: number;
  seed: number;
  /** Addresses of arrays start at this byte offset and are aligned to 4 KB (default 0). */
  baseAddress?: number;
  progress?: (doneWarps: number, totalWarps: number) => void;
}

export type StallReason = 'nomerger' | 'nomshrline' | 'nocacheline' | 'coalescing';
export const STALL_REASONS: readonly StallReason[] = ['nomerger', 'nomshrline', 'nocacheline', 'coalescing'];

export interface TimingStats {
  cycles: number;
  /** Warp instructions issued (ALU, memory, barriers). */
  warpInstructions: number;
  /** Warp instructions per cycle over the whole GPU. */
  ipc: number;
  /** Memory requests after coalescing that reached each level. */
  requests: { l1: number; l2: number; dram: number };
  hits: { l1: number; l2: number };
  /** Miss rates (misses / requests; merged requests count as misses), 0 when a level saw nothing. */
  missRate: { l1: number; l2: number };
  /** Bytes moved L2 -> SMs over the interconnect, and DRAM -> L2. */
  bytes: { interconnect: number; dram: number };
  /** DRAM bytes / (peak bytes per cycle * cycles). */
  dramUtilisation: number;
  /** Mean cycles from a load's issue to its data, over all global loads. */
  avgMemLatency: number;
  /**
   * Mean cycles a request below L1 takes, from L1 accepting it (the mem_fetch's timestamp) to its reply
   * reaching the SM: GPGPU-Sim's averagemflatency (mem_latency_stat.cc memlatstat_done, called from
   * shader.cc simt_core_cluster::icnt_cycle for every data response: read replies and, with storeAcks,
   * write acknowledgements). Interconnect, L2 and DRAM queueing included, L1 hits and merges not.
   */
  avgFetchLatency?: number;
  /**
   * L1 misses that took an MSHR entry and fetched their line; requests merged into a line already
   * being fetched are not counted (GPGPU-Sim calls them hits on a reserved line).
   */
  l1Fetches?: number;
  /**
   * Stores' L1 lookups (storeTags only), as GPGPU-Sim's cache_stats counts them (GLOBAL_ACC_W):
   * accesses (HIT + MISS + HIT_RESERVED; refused attempts not counted), misses (MISS) and stores to a
   * line being fetched (HIT_RESERVED, a pending hit).
   */
  l1Stores?: { accesses: number; misses: number; pendingHits: number };
  /** LSU cycles lost to a full L1 miss queue (missQueue only; not one of LASH's three stall reasons). */
  missQueueStalls?: number;
  /** The most L1 MSHR entries and merger fields (requests waiting for data) one SM had in use at once. */
  peak?: { mshrEntries: number; mergerFields: number };
  /** LSU stall cycles by reason, summed over SMs. */
  stalls: Record<StallReason, number>;
  sharedAccesses: number;
  /** S-L1 line hits and misses (0 when not used). */
  sl1: { hits: number; misses: number; writebacks: number };
  /** Per-epoch series (one value per epoch, GPU-wide means where it says so). */
  epochs: {
    cycle: Float64Array;
    /** Mean MSHR entries in use per SM. */
    mshrOccupancy: Float64Array;
    /** Mean merger fields in use per SM. */
    mergerOccupancy: Float64Array;
    /** Warp instructions issued in the epoch. */
    instructions: Float64Array;
    /** LSU stall cycles in the epoch, all reasons. */
    stallCycles: Float64Array;
  };
}

/**
 * A DRAM channel's command timing, in DRAM command-clock cycles (GPGPU-Sim's -gpgpu_dram_timing_opt
 * names). Derived as GPGPU-Sim does: tRTW = CL + BL/ratio + 2 - WL, tWTR = WL + BL/ratio + tCDLR,
 * tWTP = WL + BL/ratio + tWR, tRCDWR = tRCD - (WL + 1).
 */
export interface DramTimingConfig {
  /** DRAM command clock, MHz. */
  clockMHz: number;
  banks: number;
  bankGroups: number;
  /** Requests the scheduler sees per channel (FR-FCFS window). */
  queue: number;
  /** Bytes one column command moves (burst length x bus width x chips). */
  atomBytes: number;
  burstLength: number;
  /** Data transfers per command-clock cycle (4: GDDR5 is quad data rate). */
  dataCommandRatio: number;
  tCCD: number;
  tCCDL: number;
  tRRD: number;
  tRCD: number;
  tRAS: number;
  tRP: number;
  tRC: number;
  CL: number;
  WL: number;
  tCDLR: number;
  tWR: number;
  tRTPL: number;
  /** Channels are interleaved every this many bytes of address. */
  interleaveBytes: number;
  /** Bit positions of the channel-local address that form the bank number, lowest first. */
  bankBits: number[];
  /** The row is the channel-local address shifted right by this. */
  rowShift: number;
}
