/**
 * The kernels and host code of the three real-GPU programs. Each takes the resolved parameters of
 * its simulated experiment as constants; the host code checks them again before anything touches
 * device memory, so a bad value is an error line and an exit code, never an out-of-bounds access.
 *
 * Chains are of 32-bit element indices, as MEI's kernels (j = A[j]): one dependent load per step,
 * the index scaled to an address by one multiply-add. Sizes and strides are bytes, multiples of
 * the 4-byte element, as in the simulated experiments.
 */
import type { ParamValues } from '../experiments/types';

const list = (xs: readonly number[]): string => xs.map((x) => `${x}ULL`).join(', ');
const loadFn = (space: unknown): string => (space === 'global-cg' ? 'ld_cg' : 'ld_ca');
const loadPtx = (space: unknown): string => (space === 'global-cg' ? 'ld.global.cg' : 'ld.global.ca');
/** The carveout constant (percent of the largest shared memory) of a program whose experiment takes one. */
const carveoutConst = (p: ParamValues): string => `static const int CARVEOUT = ${(p.carveout as number | undefined) ?? 0};  // percent; checked in main`;
const checkCarveout = `  if (CARVEOUT < 0 || CARVEOUT > 100) bad_param("carveout must be 0 to 100 (percent of the largest shared memory)");`;

/**
 * The average-latency chase kernels (pchase-average and the tlb-probes reach sweep): one untimed
 * traversal, then two timed stretches of n and 2n loads whose difference over n is one load's latency.
 */
const averageKernels = (space: unknown, wide = false): string => {
  const T = wide ? 'unsigned long long' : 'unsigned';
  const ld = `${loadFn(space)}${wide ? '64' : ''}`;
  return String.raw`// The chase itself: one dependent load per step. Not inlined, so that the warm-up and the timed
// chase run the same instructions (the timed one finds them in the instruction cache).
__device__ __noinline__ ${T} chase(const ${T}* __restrict__ A, ${T} j, unsigned long long steps) {
  for (unsigned long long i = 0; i < steps; i++) j = ${ld}(A + j);
  return j;
}

// One thread: an untimed warm-up traversal, then two timed stretches continuing the chase, of
// 'loads' and of 2 x 'loads' dependent loads. Their difference over 'loads' is the latency of a load
// with the clock reads and the fixed cost of a timed stretch taken out.
__global__ void chase_average(const ${T}* __restrict__ A, unsigned long long warm, unsigned long long loads, long long* out, ${T}* sink) {
  __shared__ ${T} s_sink[1];
  ${T} j = chase(A, 0, warm);
  s_sink[0] = j;  // the warm-up is finished before the clock starts
  long long t0 = clk();
  j = chase(A, j, loads);
  s_sink[0] = j;  // stores the chased value: the last load finishes before the clock is read
  long long t1 = clk();
  long long t2 = clk();
  j = chase(A, j, 2 * loads);
  s_sink[0] = j;
  long long t3 = clk();
  out[0] = t1 - t0;
  out[1] = t3 - t2;
  *sink = s_sink[0];
}

`;
};

/** MEI Listing 3's chain of element indices: A[i] = (i + s) mod n. */
const indexChain = String.raw`// A[i] = (i + s) mod n, in elements (MEI Listing 3).
__global__ void init_chain(unsigned* A, unsigned long long n, unsigned long long s) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += (unsigned long long)gridDim.x * blockDim.x)
    A[i] = (unsigned)((i + s) % n);
}
`;

/** The same chain of addresses: element i of 8 bytes holds the address of element (i + s) mod n. */
const pointerChain = String.raw`// P[i] = &P[(i + s) mod n], in 8-byte elements: the chain of MEI Listing 3 as addresses.
__global__ void init_chain(unsigned* A, unsigned long long n, unsigned long long s) {
  unsigned long long* P = (unsigned long long*)A;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += (unsigned long long)gridDim.x * blockDim.x)
    P[i] = (unsigned long long)(P + (i + s) % n);
}
`;

/**
 * The average kernels of a pure pointer chase: each step loads the next address itself (p = *p),
 * with no index arithmetic between the loads. Same timing as averageKernels.
 */
const pointerKernels = (space: unknown): string => String.raw`// The chase itself: one dependent load per step, the loaded value the next address.
__device__ __noinline__ unsigned long long chase(unsigned long long p, unsigned long long steps) {
  for (unsigned long long i = 0; i < steps; i++) p = ${loadFn(space)}64((const unsigned long long*)p);
  return p;
}

// One thread: an untimed warm-up traversal, then two timed stretches of 'loads' and 2 x 'loads'
// dependent loads; their difference over 'loads' is one load's latency (as the index chase).
__global__ void chase_average(const unsigned* __restrict__ A, unsigned long long warm, unsigned long long loads, long long* out, unsigned* sink) {
  __shared__ unsigned long long s_sink[1];
  unsigned long long p = chase((unsigned long long)A, warm);
  s_sink[0] = p;
  long long t0 = clk();
  p = chase(p, loads);
  s_sink[0] = p;
  long long t1 = clk();
  long long t2 = clk();
  p = chase(p, 2 * loads);
  s_sink[0] = p;
  long long t3 = clk();
  out[0] = t1 - t0;
  out[1] = t3 - t2;
  *sink = (unsigned)s_sink[0];
}

`;

/** WONG's average-latency P-chase: one curve per stride over array sizes sizeFrom..sizeTo. */
export function pchaseAverageBody(p: ParamValues): string {
  const strides = p.strides as number[];
  const pointer = p.chase === 'pointer';
  return String.raw`
// ---- pchase-average: average latency of dependent loads against array size, one curve per stride.
// The chase: ${pointer ? 'pointer (64-bit addresses, p = *p: one load a step and no address arithmetic)' : 'index (32-bit element indices, j = A[j], as MEI)'}.
static const unsigned long long STRIDES[] = { ${list(strides)} };
static const int NSTRIDES = ${strides.length};
static const unsigned long long SIZE_FROM = ${p.sizeFrom as number}ULL, SIZE_TO = ${p.sizeTo as number}ULL, SIZE_STEP = ${p.sizeStep as number}ULL;
static const unsigned long long TRAVERSALS = ${p.traversals as number}ULL;
static const char* LOAD = "${loadPtx(p.space)}";
static const bool CLOCK_REMOVED = ${p.clockOverhead === 'included' ? 'false' : 'true'};
${carveoutConst(p)}

${pointer ? pointerChain : indexChain}
${pointer ? pointerKernels(p.space) : averageKernels(p.space)}
int main() {
  print_device();
  measure_clock();
  print_params();
${checkCarveout}
  if (SIZE_STEP == 0 || SIZE_STEP % 4 != 0) bad_param("sizeStep must be a positive multiple of 4 B");
  if (SIZE_TO < SIZE_FROM) bad_param("sizeTo must not be smaller than sizeFrom");
  if ((SIZE_TO - SIZE_FROM) / SIZE_STEP + 1 > 4000) bad_param("the sweep has more than 4000 sizes; raise sizeStep");
  if (TRAVERSALS < 1 || TRAVERSALS > 64) bad_param("traversals must be 1 to 64");
  unsigned long long maxN = SIZE_FROM + (SIZE_TO - SIZE_FROM) / SIZE_STEP * SIZE_STEP;
  for (int si = 0; si < NSTRIDES; si++) {
    unsigned long long s = STRIDES[si];
    if (s == 0 || s % ${pointer ? 8 : 4} != 0) bad_param("every stride must be a positive multiple of ${pointer ? '8 B (a pointer chase steps over 8-byte addresses)' : '4 B'}");
    for (unsigned long long N = SIZE_FROM; N <= SIZE_TO; N += SIZE_STEP) {
      if (N % ${pointer ? 8 : 4} != 0) bad_param("every array size must be a multiple of ${pointer ? '8 B (a pointer chase steps over 8-byte addresses)' : '4 B'}");
      if (s > N) bad_param("a stride is larger than an array size");
    }
  }
${pointer ? '' : '  if (maxN / 4 > 0xffffffffULL) bad_param("the largest array has more than 2^32 elements: 32-bit indices cannot address it");'}
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (maxN > free_b / 2) bad_param("the largest array does not fit in half the free device memory");
  unsigned* A = nullptr;
  long long* d_out = nullptr;
  unsigned* d_sink = nullptr;
  CHECK(cudaMalloc(&A, maxN));
  CHECK(cudaMalloc(&d_out, 2 * sizeof(long long)));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
  // The shared-memory carveout the chase asks for (0: the smallest, so the largest L1 the device gives).
  CHECK(cudaFuncSetAttribute(chase_average, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT));
  int sms = attr(cudaDevAttrMultiProcessorCount, g_dev);
  int points = 0;
  for (int si = 0; si < NSTRIDES; si++) {
    unsigned long long s = STRIDES[si];
    for (unsigned long long N = SIZE_FROM; N <= SIZE_TO; N += SIZE_STEP) {
      unsigned long long n = N / ${pointer ? 8 : 4};
      unsigned long long per = (N + s - 1) / s;  // accesses per traversal
      unsigned long long loads = std::max(256ULL, per * TRAVERSALS);
      init_chain<<<sms * 4, 256>>>(A, n, s / ${pointer ? 8 : 4});
      CHECK_LAUNCH();
      chase_average<<<1, 1>>>(A, per, loads, d_out, d_sink);
      CHECK_LAUNCH();
      long long cycles[2] = {0, 0};
      CHECK(cudaMemcpy(cycles, d_out, sizeof cycles, cudaMemcpyDeviceToHost));
      printf("{\"type\":\"point\",\"stride\":%llu,\"size\":%llu,\"loads\":%llu,\"cycles\":%lld,\"cycles2\":%lld,\"latency\":%.3f,\"load\":\"%s\"}\n",
             s, N, loads, cycles[0], cycles[1], CLOCK_REMOVED ? (double)(cycles[1] - cycles[0]) / (double)loads : (double)cycles[1] / (2.0 * loads), LOAD);
      fflush(stdout);
      points++;
    }
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sink));
  print_end(points);
  return 0;
}
`;
}

/** MEI's fine-grained P-chase: every access's latency and index, recorded in shared memory. */
export function pchaseFineBody(p: ParamValues): string {
  return String.raw`
// ---- pchase-fine: per-access latency and index of k dependent loads (MEI Listing 4).
static const unsigned long long SIZE = ${p.size as number}ULL, STRIDE = ${p.stride as number}ULL;
static const unsigned long long ITERATIONS = ${p.iterations as number}ULL;
static const bool WARMUP = ${p.warmup ? 'true' : 'false'};
static const char* LOAD = "${loadPtx(p.space)}";
${carveoutConst(p)}
#define TRACE_CHUNK 1024

__global__ void init_chain(unsigned* A, unsigned long long n, unsigned long long s) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += (unsigned long long)gridDim.x * blockDim.x)
    A[i] = (unsigned)((i + s) % n);
}

// One thread. Each access is timed with the store of the index it returned (MEI: the store makes the
// load finish inside the timing); latencies and indices stay in shared memory until the chase ends.
extern __shared__ unsigned smem[];
__global__ void chase_fine(const unsigned* __restrict__ A, unsigned long long warm, unsigned k, unsigned* out_next, unsigned* out_cycles) {
  unsigned* s_index = smem;
  unsigned* s_time = smem + k;
  unsigned j = 0;
  for (unsigned long long i = 0; i < warm; i++) j = ${loadFn(p.space)}(A + j);
#pragma unroll 1
  for (unsigned i = 0; i < k; i++) {  // not unrolled: every access runs the same instructions
    long long t0 = clk();
    j = ${loadFn(p.space)}(A + j);
    s_index[i] = j;
    long long t1 = clk();
    s_time[i] = (unsigned)(t1 - t0);
  }
  for (unsigned i = 0; i < k; i++) {
    out_next[i] = s_index[i];
    out_cycles[i] = s_time[i];
  }
}

int main() {
  print_device();
  measure_clock();
  print_params();
${checkCarveout}
  if (STRIDE == 0 || STRIDE % 4 != 0) bad_param("stride must be a positive multiple of 4 B");
  if (SIZE == 0 || SIZE % 4 != 0) bad_param("size must be a positive multiple of 4 B");
  if (STRIDE > SIZE) bad_param("stride is larger than size");
  if (SIZE / 4 > 0xffffffffULL) bad_param("the array has more than 2^32 elements: 32-bit indices cannot address it");
  if (ITERATIONS < 1) bad_param("iterations must be at least 1");
  unsigned long long shared = 8 * ITERATIONS;
  int optin = attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, g_dev);
  if (shared > (unsigned long long)optin) {
    char buf[256];
    snprintf(buf, sizeof buf, "iterations %llu need %llu B of shared memory for the trace (8 B an access); this device gives a block at most %d B: at most %d iterations",
             ITERATIONS, shared, optin, optin / 8);
    bad_param(buf);
  }
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (SIZE > free_b / 2) bad_param("the array does not fit in half the free device memory");
  unsigned k = (unsigned)ITERATIONS;
  unsigned* A = nullptr;
  unsigned* d_next = nullptr;
  unsigned* d_cycles = nullptr;
  CHECK(cudaMalloc(&A, SIZE));
  CHECK(cudaMalloc(&d_next, k * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_cycles, k * sizeof(unsigned)));
  init_chain<<<attr(cudaDevAttrMultiProcessorCount, g_dev) * 4, 256>>>(A, SIZE / 4, STRIDE / 4);
  CHECK_LAUNCH();
  CHECK(cudaFuncSetAttribute(chase_fine, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
  // The carveout asked for (0: the smallest that holds the trace, so the largest L1 left beside it).
  CHECK(cudaFuncSetAttribute(chase_fine, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT));
  unsigned long long warm = WARMUP ? (SIZE + STRIDE - 1) / STRIDE : 0;
  if (!WARMUP) cold_l2();  // a cold start: the array is not left in L2 by its initialisation
  chase_fine<<<1, 1, (size_t)shared>>>(A, warm, k, d_next, d_cycles);
  CHECK_LAUNCH();
  std::vector<unsigned> next(k), cycles(k);
  CHECK(cudaMemcpy(next.data(), d_next, k * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(cycles.data(), d_cycles, k * sizeof(unsigned), cudaMemcpyDeviceToHost));
  // The chase starts where the warm-up left it: warm steps of s from element 0.
  unsigned long long n = SIZE / 4, s4 = STRIDE / 4;
  unsigned first = (unsigned)((unsigned __int128)warm * s4 % n);
  int records = 0;
  for (unsigned from = 0; from < k; from += TRACE_CHUNK) {
    unsigned to = std::min(k, from + TRACE_CHUNK);
    printf("{\"type\":\"trace\",\"from\":%u,\"load\":\"%s\",\"index\":[", from, LOAD);
    for (unsigned i = from; i < to; i++) printf(i > from ? ",%u" : "%u", i == 0 ? first : next[i - 1]);
    printf("],\"cycles\":[");
    for (unsigned i = from; i < to; i++) printf(i > from ? ",%u" : "%u", cycles[i]);
    printf("]}\n");
    records++;
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(d_next));
  CHECK(cudaFree(d_cycles));
  print_end(records);
  return 0;
}
`;
}

/** MEI Listing 1: one warp reads shared memory at word thread x stride; probes of the slowest stride. */
export function sharedBankBody(p: ParamValues): string {
  return String.raw`
// ---- shared-bank-stride: one warp, thread t chasing its own shared word (sdata[w] = w), per stride.
static const int STRIDE_FROM = ${p.strideFrom as number}, STRIDE_TO = ${p.strideTo as number}, STRIDE_STEP = ${p.strideStep as number};
static const unsigned ACCESSES = ${p.accesses as number};
#define PASSES 16
#define WARP 32

// Words: one row of 32 per point, -1 for an idle thread. Each point is timed PASSES times after one
// untimed pass (MEI: "omit cold miss"); a pass times ACCESSES and then 2 x ACCESSES dependent reads
// (thread 0 reads the clock): their difference over ACCESSES is one read's latency, the clock reads
// and the fixed cost of a timed stretch taken out.
extern __shared__ unsigned sdata[];
__global__ void bank_points(const int* words, int npoints, unsigned span, unsigned accesses, long long* out, unsigned* sink) {
  __shared__ unsigned s_sink[WARP];
  unsigned t = threadIdx.x;
  for (unsigned i = t; i < span; i += WARP) sdata[i] = i;
  __syncthreads();
  volatile unsigned* vs = sdata;
  for (int p = 0; p < npoints; p++) {
    int w = words[p * WARP + t];
    for (int r = 0; r <= PASSES; r++) {
      long long d[2];
      for (int h = 0; h < 2; h++) {
        unsigned data = w >= 0 ? (unsigned)w : 0u;
        unsigned n = accesses << h;
        __syncwarp();
        long long t0 = clk();
        if (w >= 0) {
#pragma unroll 16
          for (unsigned a = 0; a < n; a++) data = vs[data];
        }
        s_sink[t] = data;  // the last read finishes before the clock is read
        long long t1 = clk();
        d[h] = t1 - t0;
      }
      if (t == 0 && r > 0) { out[2 * (p * PASSES + r - 1)] = d[0]; out[2 * (p * PASSES + r - 1) + 1] = d[1]; }
    }
  }
  __syncwarp();
  if (t == 0) *sink = s_sink[0];
}

static unsigned g_span = 0;
static int* d_words = nullptr;
static long long* d_out = nullptr;
static unsigned* d_sink = nullptr;
static int g_records = 0;

struct Point { std::vector<int> words; double mean; double se; std::vector<long long> cycles, cycles2; };

static const bool CLOCK_REMOVED = ${p.clockOverhead === 'included' ? 'false' : 'true'};
static double pass_latency(long long c1, long long c2) { return CLOCK_REMOVED ? (double)(c2 - c1) / ACCESSES : (double)c2 / (2.0 * ACCESSES); }

// Times the points; each pass gives one latency (pass_latency), averaged over the passes.
static void time_points(std::vector<Point>& pts) {
  int n = (int)pts.size();
  std::vector<int> h(n * WARP);
  for (int i = 0; i < n; i++) for (int t = 0; t < WARP; t++) h[i * WARP + t] = pts[i].words[t];
  CHECK(cudaMalloc(&d_words, h.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_out, (size_t)n * PASSES * 2 * sizeof(long long)));
  CHECK(cudaMemcpy(d_words, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
  bank_points<<<1, WARP, g_span * sizeof(unsigned)>>>(d_words, n, g_span, ACCESSES, d_out, d_sink);
  CHECK_LAUNCH();
  std::vector<long long> c((size_t)n * PASSES * 2);
  CHECK(cudaMemcpy(c.data(), d_out, c.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_words));
  CHECK(cudaFree(d_out));
  for (int i = 0; i < n; i++) {
    double sum = 0, sq = 0;
    pts[i].cycles.resize(PASSES);
    pts[i].cycles2.resize(PASSES);
    for (int r = 0; r < PASSES; r++) { pts[i].cycles[r] = c[2 * ((size_t)i * PASSES + r)]; pts[i].cycles2[r] = c[2 * ((size_t)i * PASSES + r) + 1]; }
    for (int r = 0; r < PASSES; r++) sum += pass_latency(pts[i].cycles[r], pts[i].cycles2[r]);
    pts[i].mean = sum / PASSES;
    for (int r = 0; r < PASSES; r++) { double d = pass_latency(pts[i].cycles[r], pts[i].cycles2[r]) - pts[i].mean; sq += d * d; }
    pts[i].se = std::sqrt(sq / (PASSES - 1)) / std::sqrt((double)PASSES);
  }
}

static void print_point(const char* probe, const Point& pt, const char* extra) {
  printf("{\"type\":\"point\",\"probe\":\"%s\",%s,\"accesses\":%u,\"words\":[", probe, extra, ACCESSES);
  for (int t = 0; t < WARP; t++) printf(t ? ",%d" : "%d", pt.words[t]);
  printf("],\"cycles\":[");
  for (int r = 0; r < PASSES; r++) printf(r ? ",%lld" : "%lld", pt.cycles[r]);
  printf("],\"cycles2\":[");
  for (int r = 0; r < PASSES; r++) printf(r ? ",%lld" : "%lld", pt.cycles2[r]);
  printf("],\"latency\":%.4f}\n", pt.mean);
  g_records++;
}

static Point at(std::vector<int> words) { Point p; p.words = words; return p; }

int main() {
  print_device();
  measure_clock();
  print_params();
  if (STRIDE_STEP < 1) bad_param("strideStep must be at least 1");
  if (STRIDE_FROM < 0 || STRIDE_TO > 1024 || STRIDE_TO < STRIDE_FROM) bad_param("strides must satisfy 0 <= strideFrom <= strideTo <= 1024");
  if (ACCESSES < 1 || ACCESSES > 100000) bad_param("accesses must be 1 to 100000");
  g_span = 31u * (unsigned)STRIDE_TO + 1u;
  unsigned long long bytes = (unsigned long long)g_span * 4;
  int optin = attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, g_dev);
  if (bytes > (unsigned long long)optin) {
    char buf[256];
    snprintf(buf, sizeof buf, "stride %d needs %llu B of shared memory (31 x stride + 1 words); this device gives a block at most %d B", STRIDE_TO, bytes, optin);
    bad_param(buf);
  }
  CHECK(cudaFuncSetAttribute(bank_points, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
  char extra[128];
  // The sweep: thread t at word t x stride.
  std::vector<int> strides;
  for (int s = STRIDE_FROM; s <= STRIDE_TO; s += STRIDE_STEP) strides.push_back(s);
  std::vector<Point> sweep;
  for (int s : strides) { std::vector<int> w(WARP); for (int t = 0; t < WARP; t++) w[t] = t * s; sweep.push_back(at(w)); }
  time_points(sweep);
  int slowest = 0;
  for (int i = 1; i < (int)sweep.size(); i++) if (sweep[i].mean > sweep[slowest].mean) slowest = i;
  for (size_t i = 0; i < sweep.size(); i++) { snprintf(extra, sizeof extra, "\"stride\":%d", strides[i]); print_point("sweep", sweep[i], extra); }
  // Probe 1: threads 0..n-1 at the slowest stride, n = 1..32.
  int star = strides[slowest];
  std::vector<Point> probe;
  for (int n = 1; n <= WARP; n++) { std::vector<int> w(WARP, -1); for (int t = 0; t < n; t++) w[t] = t * star; probe.push_back(at(w)); }
  time_points(probe);
  for (int n = 1; n <= WARP; n++) { snprintf(extra, sizeof extra, "\"stride\":%d,\"threads\":%d", star, n); print_point("threads", probe[n - 1], extra); }
  // Probe 2: the first thread whose joining raised the latency, a partner below it that conflicts
  // with it alone, and that pair moved across threads (thread 0 and thread n). The import's analyser
  // reads the latencies; the choice of pair here only decides which pair is timed.
  double rise = probe[WARP - 1].mean - probe[0].mean;
  int k = -1;
  for (int n = 1; n < WARP && k < 0 && rise > 0.5; n++)
    if (probe[n].mean - probe[n - 1].mean > std::max(0.25 * rise / (WARP - 1), 4 * std::hypot(probe[n].se, probe[n - 1].se))) k = n;
  if (k < 0) {
    printf("{\"type\":\"note\",\"text\":\"no thread joining at stride %d raised the latency: the pair probe is not run\"}\n", star);
  } else {
    double step = probe[k].mean - probe[k - 1].mean;
    std::vector<Point> search;
    for (int j = 0; j < k; j++) { std::vector<int> w(WARP, -1); w[0] = j * star; w[1] = k * star; search.push_back(at(w)); }
    time_points(search);
    int partner = -1;
    for (int j = 0; j < k; j++) {
      snprintf(extra, sizeof extra, "\"stride\":%d,\"partner\":%d,\"thread\":%d", star, j, k);
      print_point("pair-search", search[j], extra);
      if (partner < 0 && search[j].mean - probe[0].mean > 0.5 * step) partner = j;
    }
    if (partner < 0) {
      printf("{\"type\":\"note\",\"text\":\"no word of threads 0..%d at stride %d conflicts with thread %d's alone: the pair probe is not run\"}\n", k - 1, star, k);
    } else {
      std::vector<Point> pair;
      for (int n = 1; n < WARP; n++) { std::vector<int> w(WARP, -1); w[0] = partner * star; w[n] = k * star; pair.push_back(at(w)); }
      time_points(pair);
      for (int n = 1; n < WARP; n++) { snprintf(extra, sizeof extra, "\"pair\":[%d,%d],\"second\":%d", partner * star, k * star, n); print_point("pair", pair[n - 1], extra); }
    }
  }
  CHECK(cudaFree(d_sink));
  print_end(g_records);
  return 0;
}
`;
}

/** The curves of a reach sweep: each a layout of elements, by name. */
export const REACH_CURVES = ['main', 'block-pair', 'near-pair', 'own-page', 'double'] as const;

/** The element layouts and sizes of a tlb-probes reach sweep on a real GPU (tlbReachPlan in emit.ts). */
export interface TlbReachPlan {
  stride: number;
  skew: number;
  sizes: number[];
  /** Elements of each size: one a stride. */
  counts: number[];
  /** Byte address of every element of each curve, up to the largest count. */
  curves: { name: (typeof REACH_CURVES)[number]; addresses: number[] }[];
}

/**
 * tlb-probes' reach probe: the average latency against the element count at a large stride, for the
 * main layout (element i at i x stride + (i x skew mod stride)) and the simulated probe's controls, whose
 * element addresses the emitter writes into the program.
 */
export function tlbReachBody(p: ParamValues, plan: TlbReachPlan): string {
  const all = plan.curves.flatMap((c) => c.addresses);
  const span = Math.max(...all) + 8;
  return String.raw`
// ---- tlb-probes (reach): average latency against the element count at a large stride, with controls.
static const unsigned long long STRIDE = ${plan.stride}ULL;
static const unsigned long long SIZES[] = { ${list(plan.sizes)} };
static const unsigned long long COUNTS[] = { ${list(plan.counts)} };
static const int NSIZES = ${plan.sizes.length};
static const char* CURVES[] = { ${plan.curves.map((c) => `"${c.name}"`).join(', ')} };
static const int NCURVES = ${plan.curves.length};
static const unsigned long long PER_CURVE = ${plan.counts[plan.counts.length - 1]}ULL;
// Byte address of element i of curve c: ADDRESSES[c * PER_CURVE + i].
static const unsigned long long ADDRESSES[] = { ${list(all)} };
static const unsigned long long SPAN = ${span}ULL;
static const unsigned long long TRAVERSALS = ${p.traversals as number}ULL;
static const char* LOAD = "${loadPtx(p.space)}";
static const bool CLOCK_REMOVED = ${p.clockOverhead === 'included' ? 'false' : 'true'};
${carveoutConst(p)}

// The chain over the first 'count' elements of a curve: each holds the 64-bit index (in 8-byte words)
// of the next, the last the first's.
__global__ void init_elements(unsigned long long* A, const unsigned long long* addr, unsigned long long count) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count; i += (unsigned long long)gridDim.x * blockDim.x)
    A[addr[i] / 8] = addr[(i + 1) % count] / 8;
}

${averageKernels(p.space, true)}
int main() {
  print_device();
  measure_clock();
  print_params();
${checkCarveout}
  if (TRAVERSALS < 1 || TRAVERSALS > 64) bad_param("traversals must be 1 to 64");
  for (int i = 0; i < NSIZES; i++) if (COUNTS[i] < 1 || COUNTS[i] > PER_CURVE) bad_param("an element count is outside the addresses written");
  for (unsigned long long i = 0; i < NCURVES * PER_CURVE; i++) if (ADDRESSES[i] % 8 != 0 || ADDRESSES[i] + 8 > SPAN) bad_param("an element address is not an 8-byte word inside the array");
  for (int c = 0; c < NCURVES; c++) if (ADDRESSES[c * PER_CURVE] != 0) bad_param("a curve does not start at address 0, where the chase starts");
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (SPAN > free_b / 2) bad_param("the widest curve spans more than half the free device memory (the double-stride control spans twice the array): a smaller sizeTo");
  unsigned long long* A = nullptr;
  unsigned long long* d_addr = nullptr;
  long long* d_out = nullptr;
  unsigned long long* d_sink = nullptr;
  CHECK(cudaMalloc(&A, SPAN));
  CHECK(cudaMalloc(&d_addr, sizeof ADDRESSES));
  CHECK(cudaMalloc(&d_out, 2 * sizeof(long long)));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_addr, ADDRESSES, sizeof ADDRESSES, cudaMemcpyHostToDevice));
  CHECK(cudaFuncSetAttribute(chase_average, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT));
  int sms = attr(cudaDevAttrMultiProcessorCount, g_dev);
  int points = 0;
  for (int c = 0; c < NCURVES; c++) {
    for (int si = 0; si < NSIZES; si++) {
      unsigned long long per = COUNTS[si];  // elements, one access each per traversal
      unsigned long long loads = std::max(256ULL, per * TRAVERSALS);
      init_elements<<<sms, 256>>>(A, d_addr + c * PER_CURVE, per);
      CHECK_LAUNCH();
      chase_average<<<1, 1>>>(A, per, loads, d_out, d_sink);  // from index 0: every curve's first element
      CHECK_LAUNCH();
      long long cycles[2] = {0, 0};
      CHECK(cudaMemcpy(cycles, d_out, sizeof cycles, cudaMemcpyDeviceToHost));
      printf("{\"type\":\"point\",\"curve\":\"%s\",\"elements\":%llu,\"stride\":%llu,\"size\":%llu,\"loads\":%llu,\"cycles\":%lld,\"cycles2\":%lld,\"latency\":%.3f,\"load\":\"%s\"}\n",
             CURVES[c], per, STRIDE, SIZES[si], loads, cycles[0], cycles[1], CLOCK_REMOVED ? (double)(cycles[1] - cycles[0]) / (double)loads : (double)cycles[1] / (2.0 * loads), LOAD);
      fflush(stdout);
      points++;
    }
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(d_addr));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sink));
  print_end(points);
  return 0;
}
`;
}

/**
 * MEI Table 3's non-uniform sequence: every access at an address of the sequence (global-latency-
 * patterns' patternStep), timed one by one. The array is all zeros, so each load returns 0 and the
 * next address is the next offset plus that 0: every load waits for the one before. The offsets wait
 * in shared memory, the next one read before the clock starts.
 */
export function patternsBody(p: ParamValues, offsets: readonly number[]): string {
  const span = Math.max(...offsets) + 4;
  return String.raw`
// ---- global-latency-patterns: per-access latency of MEI's non-uniform sequence (Table 3).
static const unsigned long long OFFSETS[] = { ${list(offsets)} };
static const unsigned K = ${offsets.length};
static const unsigned long long SPAN = ${span}ULL;
static const char* LOAD = "${loadPtx(p.space)}";
${carveoutConst(p)}
#define TRACE_CHUNK 1024

extern __shared__ unsigned long long s_offsets[];
__global__ void chase_patterns(const unsigned* __restrict__ A, const unsigned long long* offsets, unsigned k, unsigned* out_cycles, unsigned* sink) {
  unsigned* s_time = (unsigned*)(s_offsets + k);
  __shared__ unsigned s_sink[1];
  for (unsigned i = 0; i < k; i++) s_offsets[i] = offsets[i];
  unsigned v = 0;
  unsigned long long next = s_offsets[0];
#pragma unroll 1
  for (unsigned i = 0; i < k; i++) {
    unsigned long long off = next;
    next = s_offsets[i + 1 < k ? i + 1 : i];
    s_sink[0] = (unsigned)next;  // the next offset is in a register before the clock starts
    long long t0 = clk();
    v = ${loadFn(p.space)}(A + off / 4 + v);
    s_sink[0] = v;  // the load finishes before the clock is read
    long long t1 = clk();
    s_time[i] = (unsigned)(t1 - t0);
  }
  for (unsigned i = 0; i < k; i++) out_cycles[i] = s_time[i];
  *sink = s_sink[0];
}

int main() {
  print_device();
  measure_clock();
  print_params();
${checkCarveout}
  for (unsigned i = 0; i < K; i++) if (OFFSETS[i] % 4 != 0 || OFFSETS[i] + 4 > SPAN) bad_param("an offset of the sequence is not a 4-byte element inside the array");
  unsigned long long shared = 12ULL * K;
  int optin = attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, g_dev);
  if (shared > (unsigned long long)optin) {
    char buf[256];
    snprintf(buf, sizeof buf, "the sequence has %u accesses and needs %llu B of shared memory (12 B an access); this device gives a block at most %d B: at most %d accesses (fewer rounds or flush pages)",
             K, shared, optin, optin / 12);
    bad_param(buf);
  }
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (SPAN > free_b / 2) bad_param("the sequence's addresses span more than half the free device memory");
  unsigned* A = nullptr;
  unsigned long long* d_offsets = nullptr;
  unsigned* d_cycles = nullptr;
  unsigned* d_sink = nullptr;
  CHECK(cudaMalloc(&A, SPAN));
  CHECK(cudaMemset(A, 0, SPAN));
  CHECK(cudaMalloc(&d_offsets, K * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_cycles, K * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
  CHECK(cudaMemcpy(d_offsets, OFFSETS, K * sizeof(unsigned long long), cudaMemcpyHostToDevice));
  CHECK(cudaFuncSetAttribute(chase_patterns, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
  CHECK(cudaFuncSetAttribute(chase_patterns, cudaFuncAttributePreferredSharedMemoryCarveout, CARVEOUT));
  cold_l2();  // the sequence starts cold, as a fresh simulated model does
  chase_patterns<<<1, 1, (size_t)shared>>>(A, d_offsets, K, d_cycles, d_sink);
  CHECK_LAUNCH();
  std::vector<unsigned> cycles(K);
  CHECK(cudaMemcpy(cycles.data(), d_cycles, K * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int records = 0;
  for (unsigned from = 0; from < K; from += TRACE_CHUNK) {
    unsigned to = std::min(K, from + TRACE_CHUNK);
    printf("{\"type\":\"trace\",\"from\":%u,\"load\":\"%s\",\"index\":[", from, LOAD);
    for (unsigned i = from; i < to; i++) printf(i > from ? ",%llu" : "%llu", OFFSETS[i] / 4);
    printf("],\"cycles\":[");
    for (unsigned i = from; i < to; i++) printf(i > from ? ",%u" : "%u", cycles[i]);
    printf("]}\n");
    records++;
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(d_offsets));
  CHECK(cudaFree(d_cycles));
  CHECK(cudaFree(d_sink));
  print_end(records);
  return 0;
}
`;
}
