/* cuda_probe.cu: GPU memory read bandwidth, shaped like decode.
 *
 * Three kernels, all read-dominated:
 *   read    a streaming read of a weights-sized buffer: 16-byte loads,
 *           several in flight per thread, a persistent grid over every SM;
 *   decode  one decode step's bytes (the model's weights plus B sequences of
 *           KV at context T): once as one fused read, then as one launch per
 *           weight matrix and per layer's KV, with and without a CUDA graph;
 *   paged   a vLLM-style gather through block tables, block sizes 1..64,
 *           against the same bytes read contiguously by the same kernel.
 *
 * It speaks the probe protocol (docs/probes.md): one JSON object per line on
 * stdout; exit 0 ok, 1 failed, 2 usage, 3 no usable GPU. It needs nvcc and
 * libc only: a machine with a GPU may lack the app's other libraries. */
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paged_index.h"
#include "../common/probe_io.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_GPU = 3 };

/* Every runtime call goes through CHECK: on failure one protocol error line
 * naming the call and the line, then exit 1. */
static void check_failed(cudaError_t e, const char *call, int line)
{
    printf("{\"type\":\"error\",\"message\":\"%s failed at cuda_probe.cu:%d: %s\"}\n", call, line,
           cudaGetErrorString(e));
    fflush(stdout);
    exit(EXIT_FAILED);
}
#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t check_e_ = (call);                                                             \
        if (check_e_ != cudaSuccess)                                                               \
            check_failed(check_e_, #call, __LINE__);                                               \
    } while (0)

#define UNROLL         4 /* independent 16-byte loads in flight per thread */
#define THREADS        256
#define TOKEN_VEC      128 /* uint4 per token: 8 KV heads x 128 dims x 2 bytes */
#define MIN_ITERS      20
#define WARMUP_SECONDS 0.2
#define MAX_ITERS      1000

/* ---- kernels ---- */

/* Each thread XORs what it loads; the result is stored only when it equals
 * a value the compiler cannot rule out, so no load can be dropped and
 * (practically) nothing is ever written. */
__device__ __forceinline__ void fold(uint32_t acc, uint32_t *sink)
{
    if (acc == 0x6b767475u)
        *sink = acc;
}

__global__ void read_kernel(const uint4 *__restrict__ p, size_t n, uint32_t *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t acc = 0;
    for (; i + (UNROLL - 1) * stride < n; i += UNROLL * stride) {
        uint4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            v[u] = p[i + u * stride];
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < n; i += stride) {
        uint4 v = p[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    fold(acc, sink);
}

/* Items are (sequence, token) pairs, flattened; each thread block takes
 * UNROLL tokens at a time, one uint4 of each per thread, with the address
 * from the shared header the CPU tests check. */
__global__ void paged_kernel(const uint4 *__restrict__ pool, const uint32_t *__restrict__ tables,
                             uint32_t blocks_per_seq, uint32_t block_size, uint64_t seq_tokens,
                             uint64_t n_items, uint32_t *sink)
{
    uint32_t acc = 0;
    for (uint64_t item = (uint64_t)blockIdx.x * UNROLL; item < n_items;
         item += (uint64_t)gridDim.x * UNROLL) {
        uint4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            uint64_t it = item + u;
            v[u] = make_uint4(0, 0, 0, 0);
            if (it < n_items) {
                uint64_t seq = it / seq_tokens, t = it % seq_tokens;
                const uint32_t *table = tables + seq * blocks_per_seq;
                v[u] = pool[paged_offset(table, block_size, TOKEN_VEC, t, threadIdx.x)];
            }
        }
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    fold(acc, sink);
}

/* ---- timing ---- */

struct stats {
    double best, median; /* GB/s */
    double median_us;    /* one iteration */
    int iters;
};

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void progress(const char *kernel, double percent)
{
    printf("{\"type\":\"progress\",\"kernel\":\"%s\",\"percent\":%.1f}\n", kernel, percent);
    fflush(stdout);
}

/* Warm-up until WARMUP_SECONDS of GPU time have passed (clocks ramp, TLBs
 * fill), then `iters` iterations, each between its own pair of events. */
template <class Launch>
static stats measure(Launch launch, double bytes, int iters, const char *kernel, double pct_from,
                     double pct_to)
{
    cudaEvent_t a, b;
    float ms, times[MAX_ITERS];
    stats st;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (double warm = 0; warm < WARMUP_SECONDS * 1e3;) {
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        warm += ms > 0 ? ms : 1e-3;
    }
    for (int i = 0; i < iters; i++) {
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&times[i], a, b));
        if (i % 5 == 4 || i + 1 == iters)
            progress(kernel, pct_from + (pct_to - pct_from) * (i + 1) / iters);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    qsort(times, iters, sizeof times[0], cmp_float);
    double med = iters % 2 ? times[iters / 2] : (times[iters / 2 - 1] + times[iters / 2]) / 2;
    st.best = bytes / (times[0] * 1e-3) / 1e9;
    st.median = bytes / (med * 1e-3) / 1e9;
    st.median_us = med * 1e3;
    st.iters = iters;
    return st;
}

/* ---- options ---- */

struct options {
    unsigned long long size_mib;     /* read buffer; 0 = 8x L2, at least 1 GiB */
    unsigned long long iters;        /* per measurement */
    unsigned long long weights;      /* decode: weight bytes */
    unsigned long long kv_token;     /* decode: KV bytes per token, all layers */
    unsigned long long layers;       /* decode: layers (launches per step) */
    unsigned long long context;      /* decode: tokens cached per sequence */
    unsigned long long batch;        /* decode: sequences */
    unsigned long long device_index; /* which GPU */
};

/* A usage error: the protocol's error line on stdout, the synopsis on
 * stderr, exit 2. flag NULL: just the synopsis (for --help). */
static int usage(const char *flag, unsigned long long lo, unsigned long long hi)
{
    if (flag)
        probe_flag_error(flag, lo, hi);
    fprintf(flag ? stderr : stdout,
            "usage: kvtutor-probe-cuda [--device N] [--size-mib N] [--iters N]\n"
            "       [--weights-bytes N] [--kv-token-bytes N] [--layers N] [--context N] "
            "[--batch N]\n"
            "Measures GPU memory read bandwidth; prints JSON lines (docs/probes.md).\n");
    return EXIT_USAGE;
}

/* The runtime's first call tells apart no driver, the stub library only and
 * no device: each gets its own line and exit 3. */
static int no_gpu(cudaError_t e)
{
    const char *why;
    switch (e) {
    case cudaErrorInsufficientDriver:
        why = "no usable NVIDIA driver (missing, or older than this CUDA runtime)";
        break;
    case cudaErrorStubLibrary:
        why = "only the CUDA stub library is installed, not a real driver";
        break;
    case cudaErrorNoDevice:
        why = "the driver sees no CUDA device";
        break;
    default:
        return 0;
    }
    printf("{\"type\":\"error\",\"no_gpu\":true,\"message\":\"%s\"}\n", why);
    fflush(stdout);
    return 1;
}

int main(int argc, char **argv)
{
    options o = {0, MIN_ITERS, 0, 0, 0, 0, 0, 0};
    /* the decode step's stand-in when none is given: Qwen2.5-7B in bf16,
     * 28 layers of 56 KiB KV per token, 8 sequences of 8k */
    o.weights = 15231233024ull;
    o.kv_token = 57344;
    o.layers = 28;
    o.context = 8192;
    o.batch = 8;
    for (int i = 1; i < argc; i++) {
        unsigned long long *dst, lo = 1, hi;
        if (strcmp(argv[i], "--help") == 0) {
            usage(NULL, 0, 0);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--size-mib") == 0)
            dst = &o.size_mib, lo = 16, hi = 1ull << 24;
        else if (strcmp(argv[i], "--iters") == 0)
            dst = &o.iters, lo = MIN_ITERS, hi = MAX_ITERS;
        else if (strcmp(argv[i], "--weights-bytes") == 0)
            dst = &o.weights, hi = 1ull << 50;
        else if (strcmp(argv[i], "--kv-token-bytes") == 0)
            dst = &o.kv_token, hi = 1ull << 30;
        else if (strcmp(argv[i], "--layers") == 0)
            dst = &o.layers, hi = 4096;
        else if (strcmp(argv[i], "--context") == 0)
            dst = &o.context, hi = 1ull << 24;
        else if (strcmp(argv[i], "--batch") == 0)
            dst = &o.batch, hi = 1ull << 20;
        else if (strcmp(argv[i], "--device") == 0)
            dst = &o.device_index, lo = 0, hi = 1024;
        else
            return usage(argv[i], 0, 0);
        if (probe_parse_uint(i + 1 < argc ? argv[i + 1] : NULL, lo, hi, dst) != 0)
            return usage(argv[i], lo, hi);
        i++;
    }

    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (no_gpu(e))
        return EXIT_NO_GPU;
    CHECK(e);
    if (count == 0) {
        no_gpu(cudaErrorNoDevice);
        return EXIT_NO_GPU;
    }
    if ((int)o.device_index >= count) {
        printf("{\"type\":\"error\",\"message\":\"--device %llu: only %d GPU(s)\"}\n",
               o.device_index, count);
        return EXIT_USAGE;
    }
    int dev = (int)o.device_index;
    CHECK(cudaSetDevice(dev));

    /* ---- the device report ---- */
    cudaDeviceProp prop;
    int clock_khz = 0, bus_bits = 0, driver = 0, runtime = 0, max_threads_sm = 0;
    size_t free_b = 0, total_b = 0;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    /* CUDA 13 dropped memoryClockRate and friends from cudaDeviceProp */
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
    CHECK(cudaDeviceGetAttribute(&max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    /* double data rate: two transfers per clock over the whole bus */
    double peak = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    probe_json_safe(prop.name);
    printf(
        "{\"type\":\"device\",\"kind\":\"cuda\",\"name\":\"%s\",\"compute_capability\":\"%d.%d\","
        "\"sms\":%d,\"l2_bytes\":%d,\"total_bytes\":%zu,\"free_bytes\":%zu,"
        "\"memory_clock_khz\":%d,\"bus_bits\":%d,\"peak_gbps\":%.1f,"
        "\"driver_version\":%d,\"runtime_version\":%d}\n",
        prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize, total_b,
        free_b, clock_khz, bus_bits, peak, driver, runtime);
    fflush(stdout);

    /* a persistent grid: as many resident blocks as every SM holds */
    int grid = prop.multiProcessorCount * (max_threads_sm > 0 ? max_threads_sm / THREADS : 4);
    if (grid < 1)
        grid = 1;
    uint32_t *sink;
    CHECK(cudaMalloc(&sink, sizeof *sink));
    int iters = (int)o.iters;

    /* ---- read: at least 8x L2 and 1 GiB, at most half of free memory ---- */
    size_t half_free = free_b / 2;
    size_t want = o.size_mib ? (size_t)(o.size_mib << 20) : (size_t)prop.l2CacheSize * 8;
    if (!o.size_mib && want < ((size_t)1 << 30))
        want = (size_t)1 << 30;
    if (want > half_free)
        want = half_free;
    want &= ~(size_t)((1 << 20) - 1);
    if (want < (size_t)prop.l2CacheSize * 8) {
        printf("{\"type\":\"error\",\"message\":\"free memory (%zu bytes) cannot hold a buffer of "
               "8x L2\"}\n",
               free_b);
        return EXIT_FAILED;
    }
    uint4 *buf;
    CHECK(cudaMalloc(&buf, want));
    CHECK(cudaMemset(buf, 0x5a, want));
    size_t n_vec = want / sizeof(uint4);
    stats rd = measure([&] { read_kernel<<<grid, THREADS>>>(buf, n_vec, sink); }, (double)want,
                       iters, "read", 0, 30);
    printf("{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":%zu,\"iterations\":%d,"
           "\"gbps_best\":%.1f,\"gbps_median\":%.1f,\"peak_percent\":%.1f}\n",
           want, rd.iters, rd.best, rd.median, peak > 0 ? 100.0 * rd.median / peak : 0.0);
    fflush(stdout);
    CHECK(cudaFree(buf));

    /* ---- decode: weights + KV, scaled down when they do not fit ---- */
    double kv_bytes = (double)o.kv_token * (double)o.context * (double)o.batch;
    double step = (double)o.weights + kv_bytes;
    double scale = step > (double)half_free ? (double)half_free / step : 1.0;
    size_t w_bytes = (size_t)((double)o.weights * scale) & ~(size_t)4095;
    size_t k_bytes = (size_t)(kv_bytes * scale) & ~(size_t)4095;
    size_t total = w_bytes + k_bytes;
    uint4 *dbuf;
    CHECK(cudaMalloc(&dbuf, total));
    CHECK(cudaMemset(dbuf, 0x33, total));
    stats fused = measure([&] { read_kernel<<<grid, THREADS>>>(dbuf, total / 16, sink); },
                          (double)total, iters, "decode", 30, 40);

    /* per layer: seven weight matrices (q, k, v, o, gate, up, down) and the
     * layer's KV, each its own launch, as an unfused engine issues them */
    int layers = (int)o.layers;
    size_t w_layer = w_bytes / layers / 16, k_layer = k_bytes / layers / 16;
    size_t w_mat = w_layer / 7;
    int launches = layers * 8;
    auto per_matrix = [&](cudaStream_t s) {
        for (int l = 0; l < layers; l++) {
            const uint4 *w = dbuf + (size_t)l * w_layer;
            for (int m = 0; m < 7; m++) {
                size_t n = m == 6 ? w_layer - 6 * w_mat : w_mat;
                read_kernel<<<grid, THREADS, 0, s>>>(w + m * w_mat, n, sink);
            }
            read_kernel<<<grid, THREADS, 0, s>>>(dbuf + w_bytes / 16 + (size_t)l * k_layer, k_layer,
                                                 sink);
        }
    };
    stats eager = measure([&] { per_matrix(0); }, (double)total, iters, "decode", 40, 50);
    cudaStream_t cs;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
    per_matrix(cs);
    CHECK(cudaStreamEndCapture(cs, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    stats graphed =
        measure([&] { CHECK(cudaGraphLaunch(exec, 0)); }, (double)total, iters, "decode", 50, 60);
    printf("{\"type\":\"result\",\"kernel\":\"decode\",\"bytes\":%zu,\"weights_bytes\":%zu,"
           "\"kv_bytes\":%zu,\"scale\":%.4f,\"iterations\":%d,\"launches\":%d,"
           "\"gbps_best\":%.1f,\"gbps_median\":%.1f,\"step_us\":%.1f,"
           "\"eager_gbps_median\":%.1f,\"eager_step_us\":%.1f,"
           "\"graph_gbps_median\":%.1f,\"graph_step_us\":%.1f}\n",
           total, w_bytes, k_bytes, scale, iters, launches, fused.best, fused.median,
           fused.median_us, eager.median, eager.median_us, graphed.median, graphed.median_us);
    fflush(stdout);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(cs));
    CHECK(cudaFree(dbuf));

    /* ---- paged: sequences of 2048 tokens of 2 KiB in a pool ---- */
    const uint64_t seq_tokens = 2048, token_bytes = TOKEN_VEC * 16;
    size_t pool_want = (size_t)prop.l2CacheSize * 8 > ((size_t)1 << 30)
                           ? (size_t)prop.l2CacheSize * 8
                           : (size_t)1 << 30;
    if (pool_want > half_free)
        pool_want = half_free;
    uint32_t n_seqs = (uint32_t)(pool_want / (seq_tokens * token_bytes));
    size_t pool_bytes = (size_t)n_seqs * seq_tokens * token_bytes;
    uint4 *pool;
    uint32_t *d_tables, *h_tables = (uint32_t *)malloc(sizeof(uint32_t) * seq_tokens * n_seqs);
    if (!h_tables || n_seqs == 0) {
        printf("{\"type\":\"error\",\"message\":\"could not lay out the paged pool\"}\n");
        return EXIT_FAILED;
    }
    CHECK(cudaMalloc(&pool, pool_bytes));
    CHECK(cudaMemset(pool, 0x77, pool_bytes));
    CHECK(cudaMalloc(&d_tables, sizeof(uint32_t) * seq_tokens * n_seqs));
    uint64_t n_items = (uint64_t)n_seqs * seq_tokens;
    int pgrid = grid * 2; /* TOKEN_VEC threads per block: twice the blocks */

    /* the control: one block per sequence, sequences in order */
    for (uint32_t s = 0; s < n_seqs; s++)
        h_tables[s] = s;
    CHECK(cudaMemcpy(d_tables, h_tables, sizeof(uint32_t) * n_seqs, cudaMemcpyHostToDevice));
    stats contig = measure(
        [&] {
            paged_kernel<<<pgrid, TOKEN_VEC>>>(pool, d_tables, 1, (uint32_t)seq_tokens, seq_tokens,
                                               n_items, sink);
        },
        (double)pool_bytes, iters, "paged", 60, 65);
    static const uint32_t sizes[] = {1, 8, 16, 32, 64};
    for (int k = 0; k < 5; k++) {
        uint32_t bs = sizes[k];
        uint32_t per_seq = (uint32_t)paged_blocks(seq_tokens, bs);
        paged_shuffle(h_tables, per_seq * n_seqs, 42 + bs);
        CHECK(cudaMemcpy(d_tables, h_tables, sizeof(uint32_t) * per_seq * n_seqs,
                         cudaMemcpyHostToDevice));
        stats st = measure(
            [&] {
                paged_kernel<<<pgrid, TOKEN_VEC>>>(pool, d_tables, per_seq, bs, seq_tokens, n_items,
                                                   sink);
            },
            (double)pool_bytes, iters, "paged", 65 + 7 * k, 72 + 7 * k);
        printf("{\"type\":\"result\",\"kernel\":\"paged\",\"block_size\":%u,\"bytes\":%zu,"
               "\"iterations\":%d,\"gbps_best\":%.1f,\"gbps_median\":%.1f,"
               "\"contiguous_gbps_median\":%.1f,\"tax_percent\":%.1f}\n",
               bs, pool_bytes, iters, st.best, st.median, contig.median,
               100.0 * (1.0 - st.median / contig.median));
        fflush(stdout);
    }
    free(h_tables);
    CHECK(cudaFree(d_tables));
    CHECK(cudaFree(pool));
    CHECK(cudaFree(sink));
    return EXIT_OK;
}
