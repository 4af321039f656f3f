/* cuda_probe.cu: GPU memory read bandwidth, shaped like decode.
 *
 * Three measurements, all read-dominated (kernels in probe_kernels.cuh):
 *   read    a streaming read of a buffer of at least 8 x L2 and 1 GiB;
 *   decode  one decode step of a model with its real matrix shapes (q, k,
 *           v, o, gate, up, down per layer, the layer's KV for B sequences
 *           at context T, then the LM head): once as one fused read, then as
 *           one launch per matrix and per layer's KV, eagerly and as a graph;
 *   paged   a vLLM-style gather through block tables, block sizes 1..64,
 *           against the same kernel reading the pool in order.
 *
 * Timing: K back-to-back launches between each pair of events, K chosen so
 * that a sample lasts at least 2 ms (launch latency and ramp-up then cost
 * well under 1%); best and median of the samples. Every pass is checked:
 * the buffers hold an index pattern, the kernels add up what they read, and
 * a sum that differs from the expected one fails the run.
 *
 * It speaks the probe protocol (docs/probes.md): one JSON object per line on
 * stdout; exit statuses from probe_io.h, 3 for every "no usable GPU" case
 * (gpu_gate.h). Linked with the static CUDA runtime, libstdc++ and libgcc:
 * it needs libc, libm and the NVIDIA driver only. */
#include <cuda_runtime.h>

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gpu_gate.h"
#include "../common/paged_index.h"
#include "../common/probe_io.h"
#include "probe_kernels.cuh"

/* Every runtime call goes through CHECK: on failure one protocol error line
 * naming the call and the line, then exit 1; an error that means there is
 * no usable GPU after all (the context could not be made) exits 3. */
static int g_driver, g_runtime;
static void check_failed(cudaError_t e, const char *call, int line)
{
    char why[256];
    struct gpu_gate g = {(int)e, 1, GPU_MIN_CC_MAJOR, GPU_MIN_CC_MINOR, g_driver, g_runtime};
    if (gpu_gate_check(&g, why, sizeof why) == PROBE_EXIT_NO_GPU) {
        printf("{\"type\":\"error\",\"no_gpu\":true,\"message\":\"%s\"}\n", why);
        fflush(stdout);
        exit(PROBE_EXIT_NO_GPU);
    }
    printf("{\"type\":\"error\",\"message\":\"%s failed at cuda_probe.cu:%d: %s\"}\n", call, line,
           cudaGetErrorString(e));
    fflush(stdout);
    exit(PROBE_EXIT_FAILED);
}
#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t check_e_ = (call);                                                             \
        if (check_e_ != cudaSuccess)                                                               \
            check_failed(check_e_, #call, __LINE__);                                               \
    } while (0)

#define MIN_SAMPLES    20
#define MAX_SAMPLES    1000
#define WARMUP_MS      200.0
#define MAX_WARMUP     4000 /* warm-up launches at most, however short */
#define MIN_SAMPLE_MS  2.0
#define MAX_PER_SAMPLE 100000
#define SEQ_TOKENS     2048u /* tokens per sequence in the paged pool */
#define MAX_GROUP      8u    /* tokens a warp takes per table read */
/* The oldest glibc the built program runs on: what glibc 2.34 made of
 * libpthread and libdl (pthread_*, dlopen, __libc_start_main at
 * GLIBC_2.34) is the newest symbol version the CUDA runtime and libstdc++
 * need once libgcc is not linked statically (its unwinder's _dl_find_object
 * would need 2.35). A build against an older glibc runs on older ones
 * still; tests/probes/test_glibc_floor.sh holds the binary to this. */
#define PROBE_MIN_GLIBC "2.34"

static unsigned long long *d_sum; /* the kernels' running sum */

static void progress(const char *kernel, double percent)
{
    printf("{\"type\":\"progress\",\"kernel\":\"%s\",\"percent\":%.1f}\n", kernel, percent);
    fflush(stdout);
}

/* An error line with the message from fmt (never text from outside), exit 1. */
__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    va_list ap;
    printf("{\"type\":\"error\",\"message\":\"");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\"}\n");
    fflush(stdout);
    exit(PROBE_EXIT_FAILED);
}

/* ---- timing ---- */

struct stats {
    double best, median; /* GB/s */
    double median_us;    /* one call */
    int samples, per_sample;
};

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Warm-up calls, each timed alone, for WARMUP_MS of GPU time (clocks ramp,
 * TLBs fill); then `samples` samples of K calls each, K from the fastest
 * warm-up call so that a sample lasts MIN_SAMPLE_MS. One call reads `bytes`
 * and its words must add up to `expect`: the sum over every call made is
 * checked at the end, and a mismatch fails the run naming `what`. */
template <class Launch>
static stats measure(Launch launch, double bytes, unsigned long long expect, int samples,
                     const char *kernel, const char *what, double pct_from, double pct_to)
{
    cudaEvent_t a, b;
    float ms, one = 1e30f, times[MAX_SAMPLES];
    unsigned long long calls = 0, got = 0;
    stats st;
    CHECK(cudaMemset(d_sum, 0, sizeof *d_sum));
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    double warm = 0;
    for (int i = 0; i < MAX_WARMUP && warm < WARMUP_MS; i++) {
        CHECK(cudaEventRecord(a));
        launch();
        calls++;
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        warm += ms;
        if (ms > 0 && ms < one)
            one = ms;
    }
    double k = ceil(MIN_SAMPLE_MS / one);
    int per = k < 1 ? 1 : k > MAX_PER_SAMPLE ? MAX_PER_SAMPLE : (int)k;
    for (int i = 0; i < samples; i++) {
        CHECK(cudaEventRecord(a));
        for (int j = 0; j < per; j++)
            launch();
        calls += (unsigned long long)per;
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&times[i], a, b));
        times[i] /= (float)per;
        if (i % 5 == 4 || i + 1 == samples)
            progress(kernel, pct_from + (pct_to - pct_from) * (i + 1) / samples);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    CHECK(cudaMemcpy(&got, d_sum, sizeof got, cudaMemcpyDeviceToHost));
    if (got != calls * expect)
        fail("self-check failed: the %s pass read words summing to %llu, expected %llu", what, got,
             calls * expect);
    qsort(times, samples, sizeof times[0], cmp_float);
    double med =
        samples % 2 ? times[samples / 2] : (times[samples / 2 - 1] + times[samples / 2]) / 2;
    st.best = bytes / (times[0] * 1e-3) / 1e9;
    st.median = bytes / (med * 1e-3) / 1e9;
    st.median_us = med * 1e3;
    st.samples = samples;
    st.per_sample = per;
    return st;
}

/* ---- options ---- */

struct options {
    unsigned long long size_mib; /* read buffer; 0 = 8x L2, at least 1 GiB */
    unsigned long long iters;    /* samples per measurement */
    unsigned long long device_index;
    /* the decode step's model: matrix shapes in elements */
    unsigned long long hidden, q_dim, kv_dim, mlp_dim, vocab, layers, elem_bytes;
    unsigned long long kv_token;    /* KV bytes per token, all layers */
    unsigned long long context;     /* tokens cached per sequence */
    unsigned long long batch;       /* sequences */
    unsigned long long paged_block; /* --paged-block: that block size only; 0 = all */
    bool small; /* --small: 64 MiB buffers, for correctness tools, not for figures */
};

/* A usage error: the protocol's error line on stdout, the synopsis on
 * stderr, exit 2. flag NULL: just the synopsis (for --help). */
static int usage(const char *flag, unsigned long long lo, unsigned long long hi)
{
    if (flag)
        probe_flag_error(flag, lo, hi);
    fprintf(flag ? stderr : stdout,
            "usage: kvtutor-probe-cuda [--device N] [--size-mib N] [--iters N]\n"
            "       [--hidden N] [--q-dim N] [--kv-dim N] [--mlp-dim N] [--vocab N]\n"
            "       [--layers N] [--elem-bytes N] [--kv-token-bytes N] [--context N] "
            "[--batch N]\n"
            "       [--small]   64 MiB buffers, the size rules off: a correctness run for\n"
            "                   compute-sanitizer and ncu, not a measurement\n"
            "       [--paged-block N]  the paged gather at block N (1, 8, 16, 32, 64) only,\n"
            "                   without its contiguous control: for ncu\n"
            "       [--version] the CUDA runtime and the oldest glibc it runs on\n"
            "Measures GPU memory read bandwidth; prints JSON lines (docs/probes.md).\n");
    return PROBE_EXIT_USAGE;
}

static int parse(int argc, char **argv, options *o)
{
    static const struct {
        const char *flag;
        size_t at;
        unsigned long long lo, hi;
    } flags[] = {
        {"--size-mib", offsetof(options, size_mib), 1, 1ull << 24},
        {"--iters", offsetof(options, iters), MIN_SAMPLES, MAX_SAMPLES},
        {"--device", offsetof(options, device_index), 0, 1024},
        {"--hidden", offsetof(options, hidden), 1, 1u << 20},
        {"--q-dim", offsetof(options, q_dim), 1, 1u << 20},
        {"--kv-dim", offsetof(options, kv_dim), 1, 1u << 20},
        {"--mlp-dim", offsetof(options, mlp_dim), 1, 1u << 22},
        {"--vocab", offsetof(options, vocab), 1, 1u << 24},
        {"--layers", offsetof(options, layers), 1, 4096},
        {"--elem-bytes", offsetof(options, elem_bytes), 1, 4},
        {"--kv-token-bytes", offsetof(options, kv_token), 1, 1ull << 30},
        {"--context", offsetof(options, context), 1, 1ull << 24},
        {"--batch", offsetof(options, batch), 1, 1ull << 20},
        {"--paged-block", offsetof(options, paged_block), 1, 64},
    };
    for (int i = 1; i < argc; i++) {
        size_t f = 0, n = sizeof flags / sizeof flags[0];
        if (strcmp(argv[i], "--help") == 0)
            return usage(NULL, 0, 0), -1;
        if (strcmp(argv[i], "--version") == 0) {
            printf("kvtutor-probe-cuda: CUDA runtime %d.%d, linked statically; needs the NVIDIA "
                   "driver, libm, libgcc_s and glibc %s or newer\n",
                   CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10, PROBE_MIN_GLIBC);
            return -1;
        }
        if (strcmp(argv[i], "--small") == 0) {
            o->small = true;
            continue;
        }
        while (f < n && strcmp(argv[i], flags[f].flag) != 0)
            f++;
        if (f == n)
            return usage(argv[i], 0, 0);
        unsigned long long *dst = (unsigned long long *)((char *)o + flags[f].at);
        if (probe_parse_uint(i + 1 < argc ? argv[i + 1] : NULL, flags[f].lo, flags[f].hi, dst))
            return usage(flags[f].flag, flags[f].lo, flags[f].hi);
        i++;
    }
    return 0;
}

/* ---- the device ---- */

struct device {
    int index, sms, l2, cc_major, cc_minor, clock_khz, bus_bits, ecc;
    bool mig;
    char pci_bus_id[32]; /* "0000:19:00.0": what nvidia-smi's pci.bus_id names */
    size_t free_b, total_b;
    double peak; /* GB/s; 0 when unknown */
    char name[256];
};

/* Whether there is a GPU to measure: exit 3 with the reason when not. In a
 * build for the tests (KVT_PROBE_FAULTS), KVT_PROBE_FAKE_CC=M.N stands in
 * for one device of that compute capability, so that the refusal of an old
 * GPU is tested where there is none. */
static void gate(const options *o, device *d)
{
    struct gpu_gate g = {0, 0, 0, 0, 0, 0};
    char why[256];
    /* both work without a driver: the driver's version is then 0 */
    cudaDriverGetVersion(&g.driver_version);
    cudaRuntimeGetVersion(&g.runtime_version);
    g_driver = g.driver_version;
    g_runtime = g.runtime_version;
#ifdef KVT_PROBE_FAULTS
    const char *fake = getenv("KVT_PROBE_FAKE_CC");
    if (fake && sscanf(fake, "%d.%d", &g.major, &g.minor) == 2) {
        g.count = 1;
    } else
#endif
    {
        g.err = (int)cudaGetDeviceCount(&g.count);
        if (g.err == 0 && g.count > 0 && (int)o->device_index >= g.count) {
            printf("{\"type\":\"error\",\"message\":\"--device %llu: only %d GPU(s)\"}\n",
                   o->device_index, g.count);
            fflush(stdout);
            exit(PROBE_EXIT_USAGE);
        }
        if (g.err == 0 && g.count > 0) {
            g.err = (int)cudaDeviceGetAttribute(&g.major, cudaDevAttrComputeCapabilityMajor,
                                                (int)o->device_index);
            if (g.err == 0)
                g.err = (int)cudaDeviceGetAttribute(&g.minor, cudaDevAttrComputeCapabilityMinor,
                                                    (int)o->device_index);
        }
    }
    int rc = gpu_gate_check(&g, why, sizeof why);
    if (rc == PROBE_EXIT_NO_GPU) {
        printf("{\"type\":\"error\",\"no_gpu\":true,\"message\":\"%s\"}\n", why);
        fflush(stdout);
        exit(PROBE_EXIT_NO_GPU);
    }
    if (rc != PROBE_EXIT_OK)
        check_failed((cudaError_t)g.err, "cudaGetDeviceCount", __LINE__);
    d->index = (int)o->device_index;
    d->cc_major = g.major;
    d->cc_minor = g.minor;
    CHECK(cudaSetDevice(d->index));
    CHECK(cudaFree(0)); /* makes the context now: 802/803/804 show here if not before */
}

static void describe(device *d)
{
    cudaDeviceProp prop;
    int dev = d->index;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    probe_json_safe(d->name);
    d->sms = prop.multiProcessorCount;
    d->l2 = prop.l2CacheSize;
    /* CUDA 13 dropped memoryClockRate and friends from cudaDeviceProp */
    CHECK(cudaDeviceGetAttribute(&d->clock_khz, cudaDevAttrMemoryClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&d->bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
    CHECK(cudaDeviceGetAttribute(&d->ecc, cudaDevAttrEccEnabled, dev));
    CHECK(cudaMemGetInfo(&d->free_b, &d->total_b));
    CHECK(cudaDeviceGetPCIBusId(d->pci_bus_id, (int)sizeof d->pci_bus_id, dev));
    probe_json_safe(d->pci_bus_id);
    /* A MIG slice has no attribute of its own: the runtime names it "... MIG
     * 1g.10gb", and CUDA_VISIBLE_DEVICES may select it by a "MIG-" UUID. Its
     * clock and bus attributes are the whole GPU's, its bandwidth a share of
     * them, so the peak is unknown. */
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    d->mig = strstr(prop.name, "MIG ") != NULL || (vis && strstr(vis, "MIG-") != NULL);
    /* double data rate: two transfers per clock over the whole bus */
    d->peak = d->mig ? 0 : 2.0 * d->clock_khz * 1e3 * (d->bus_bits / 8.0) / 1e9;
}

/* One wave of resident blocks of `kernel` on every SM: the grid. */
static int grid_for(const void *kernel, const device *d, int *per_sm, int *regs)
{
    cudaFuncAttributes fa;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kernel, THREADS, 0));
    CHECK(cudaFuncGetAttributes(&fa, kernel));
    *regs = fa.numRegs;
    if (*per_sm < 1) {
        printf("{\"type\":\"error\",\"message\":\"no block of %d threads fits on an SM\"}\n",
               THREADS);
        fflush(stdout);
        exit(PROBE_EXIT_FAILED);
    }
    return *per_sm * d->sms;
}

/* The read kernel's grid in waves: blocks launched over the blocks the
 * occupancy query says the SMs hold at once. grid_for sizes the grid to
 * one wave, so anything else here is a bug it makes visible (and ncu's
 * launch__waves_per_multiprocessor checks the query itself). */
static double waves(int grid, int per_sm, int sms)
{
    return (double)grid / ((double)per_sm * sms);
}

static void *alloc_filled(size_t bytes, int grid)
{
    void *p;
    CHECK(cudaMalloc(&p, bytes));
    fill_kernel<<<grid, THREADS>>>((uint32_t *)p, bytes / 4);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    return p;
}

/* ---- decode ---- */

struct range {
    size_t at, n; /* uint4 */
};

static size_t up256(unsigned long long bytes)
{
    return (size_t)((bytes + 255) & ~255ull);
}

/* Lays out one decode step, layer by layer: q, k, v, o, gate, up, down and
 * the layer's KV, then the LM head; as many layers as fit in `room` bytes.
 * Returns the ranges (8 per layer + 1) and sets *layers_run and *bytes. */
static range *decode_layout(const options *o, size_t room, int *layers_run, size_t *bytes,
                            size_t *w_bytes)
{
    unsigned long long h = o->hidden, eb = o->elem_bytes;
    /* the flags' bounds keep every matrix under 2^46 bytes; the KV of the
     * whole batch can pass 2^64, so it is checked in floating point */
    if ((double)o->kv_token * (double)o->context * (double)o->batch > 0x1p60)
        return NULL;
    size_t m[8] = {
        up256(h * o->q_dim * eb),   up256(h * o->kv_dim * eb),
        up256(h * o->kv_dim * eb),  up256(o->q_dim * h * eb),
        up256(h * o->mlp_dim * eb), up256(h * o->mlp_dim * eb),
        up256(o->mlp_dim * h * eb), up256(o->kv_token * o->context * o->batch / o->layers)};
    size_t head = up256(o->vocab * h * eb), layer = 0;
    for (int i = 0; i < 8; i++)
        layer += m[i];
    if (room < head + layer)
        return NULL;
    size_t fit = (room - head) / layer;
    int layers = fit < o->layers ? (int)fit : (int)o->layers;
    range *r = (range *)malloc(sizeof *r * ((size_t)layers * 8 + 1));
    size_t at = 0;
    *w_bytes = 0;
    for (int l = 0; r && l < layers; l++)
        for (int i = 0; i < 8; i++) {
            r[l * 8 + i] = range{at / 16, m[i] / 16};
            at += m[i];
            if (i < 7)
                *w_bytes += m[i];
        }
    if (r)
        r[layers * 8] = range{at / 16, head / 16};
    *w_bytes += head;
    *layers_run = layers;
    *bytes = at + head;
    return r;
}

int main(int argc, char **argv)
{
    /* the decode step's model when none is given: Qwen2.5-7B in bf16
     * (config.json: hidden 3584, 28 heads and 4 KV heads of 128, MLP 18944,
     * vocabulary 152064, 28 layers), 56 KiB of KV per token, 8 sequences of
     * 8k */
    options o = {0,  MIN_SAMPLES, 0,     3584, 3584, 512, 18944, 152064,
                 28, 2,           57344, 8192, 8,    0,   false};
    int prc = parse(argc, argv, &o);
    if (prc)
        return prc < 0 ? PROBE_EXIT_OK : prc;
    if (o.paged_block &&
        (paged_log2((uint32_t)o.paged_block) < 0 || o.paged_block == 2 || o.paged_block == 4)) {
        printf("{\"type\":\"error\",\"message\":\"--paged-block needs one of the measured block "
               "sizes: 1, 8, 16, 32, 64\"}\n");
        return PROBE_EXIT_USAGE;
    }

    device d;
    memset(&d, 0, sizeof d);
    gate(&o, &d);
    describe(&d);

    int read_per_sm, read_regs, paged_per_sm, paged_regs;
    int grid = grid_for((const void *)read_kernel, &d, &read_per_sm, &read_regs);
    int pgrid = grid_for((const void *)paged_kernel, &d, &paged_per_sm, &paged_regs);
    printf(
        "{\"type\":\"device\",\"kind\":\"cuda\",\"name\":\"%s\",\"compute_capability\":\"%d.%d\","
        "\"sms\":%d,\"l2_bytes\":%d,\"total_bytes\":%zu,\"free_bytes\":%zu,"
        "\"memory_clock_khz\":%d,\"bus_bits\":%d,\"pci_bus_id\":\"%s\",",
        d.name, d.cc_major, d.cc_minor, d.sms, d.l2, d.total_b, d.free_b, d.clock_khz, d.bus_bits,
        d.pci_bus_id);
    if (d.peak > 0)
        printf("\"peak_gbps\":%.1f,", d.peak);
    printf("\"peak_known\":%s,\"ecc\":%s,\"mig\":%s,\"driver_version\":%d,\"runtime_version\":%d,"
           "\"read_blocks_per_sm\":%d,\"read_registers\":%d,\"paged_blocks_per_sm\":%d,"
           "\"paged_registers\":%d,\"threads_per_block\":%d,\"waves\":%.2f,\"small\":%s}\n",
           d.peak > 0 ? "true" : "false", d.ecc ? "true" : "false", d.mig ? "true" : "false",
           g_driver, g_runtime, read_per_sm, read_regs, paged_per_sm, paged_regs, THREADS,
           waves(grid, read_per_sm, d.sms), o.small ? "true" : "false");
    fflush(stdout);

    CHECK(cudaMalloc(&d_sum, sizeof *d_sum));
    int iters = (int)o.iters;
    size_t half_free = d.free_b / 2, l2x8 = (size_t)d.l2 * 8;
    /* --small: the cache then serves part of every read; fine for checking
     * what the kernels do, meaningless as a bandwidth */
    if (o.small) {
        l2x8 = (size_t)64 << 20;
        if (!o.size_mib)
            o.size_mib = 64;
    }

    /* ---- read: at least 8x L2 and 1 GiB, at most half of free memory ---- */
    size_t want = o.size_mib ? (size_t)(o.size_mib << 20) : l2x8;
    if (o.size_mib && want < l2x8) {
        printf("{\"type\":\"error\",\"message\":\"--size-mib %llu is below 8 x L2 (%zu MiB on "
               "this GPU): part of the read would come from the cache\"}\n",
               o.size_mib, (l2x8 + (1 << 20) - 1) >> 20);
        return PROBE_EXIT_USAGE;
    }
    if (o.size_mib && want > half_free) {
        printf("{\"type\":\"error\",\"message\":\"--size-mib %llu is more than half of the free "
               "memory (%zu MiB free)\"}\n",
               o.size_mib, d.free_b >> 20);
        return PROBE_EXIT_USAGE;
    }
    if (!o.size_mib && want < ((size_t)1 << 30))
        want = (size_t)1 << 30;
    if (want > half_free)
        want = half_free & ~(size_t)((1 << 20) - 1);
    if (want < l2x8) {
        printf("{\"type\":\"error\",\"message\":\"half of the free memory (%zu MiB free) cannot "
               "hold a buffer of 8 x L2 (%zu MiB)\"}\n",
               d.free_b >> 20, l2x8 >> 20);
        return PROBE_EXIT_FAILED;
    }
    uint4 *buf = (uint4 *)alloc_filled(want, grid);
    size_t n_vec = want / sizeof(uint4);
    stats rd = measure([&] { read_kernel<<<grid, THREADS>>>(buf, n_vec, d_sum); }, (double)want,
                       probe_index_sum(want / 4), iters, "read", "read", 0, 30);
    printf("{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":%zu,\"iterations\":%d,"
           "\"per_sample\":%d,\"gbps_best\":%.1f,\"gbps_median\":%.1f",
           want, rd.samples, rd.per_sample, rd.best, rd.median);
    if (d.peak > 0)
        printf(",\"peak_percent\":%.1f", 100.0 * rd.median / d.peak);
    printf("}\n");
    fflush(stdout);
    CHECK(cudaFree(buf));

    /* ---- decode: the model's matrices, as many layers as fit ---- */
    int layers = 0;
    size_t total = 0, w_bytes = 0;
    range *ranges = decode_layout(&o, half_free, &layers, &total, &w_bytes);
    if (!ranges)
        fail("one layer of the decode step (its KV: --kv-token-bytes x --context x --batch / "
             "--layers) and the LM head do not fit in half of the free memory (%zu MiB free)",
             d.free_b >> 20);
    int launches = layers * 8 + 1;
    uint4 *dbuf = (uint4 *)alloc_filled(total, grid);
    unsigned long long dsum = probe_index_sum(total / 4);
    stats fused = measure([&] { read_kernel<<<grid, THREADS>>>(dbuf, total / 16, d_sum); },
                          (double)total, dsum, iters, "decode", "fused decode", 30, 40);
    auto per_matrix = [&](cudaStream_t s) {
        for (int i = 0; i < launches; i++)
            read_kernel<<<grid, THREADS, 0, s>>>(dbuf + ranges[i].at, ranges[i].n, d_sum);
    };
    stats eager = measure([&] { per_matrix(0); }, (double)total, dsum, iters, "decode",
                          "eager decode", 40, 50);
    cudaStream_t cs;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
    per_matrix(cs);
    CHECK(cudaStreamEndCapture(cs, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    stats graphed = measure([&] { CHECK(cudaGraphLaunch(exec, 0)); }, (double)total, dsum, iters,
                            "decode", "graphed decode", 50, 60);
    printf("{\"type\":\"result\",\"kernel\":\"decode\",\"bytes\":%zu,\"weights_bytes\":%zu,"
           "\"kv_bytes\":%zu,\"layers\":%d,\"scale\":%.4f,\"iterations\":%d,\"launches\":%d,"
           "\"gbps_best\":%.1f,\"gbps_median\":%.1f,\"step_us\":%.1f,"
           "\"eager_gbps_median\":%.1f,\"eager_step_us\":%.1f,"
           "\"graph_gbps_median\":%.1f,\"graph_step_us\":%.1f}\n",
           total, w_bytes, total - w_bytes, layers, (double)layers / (double)o.layers, iters,
           launches, fused.best, fused.median, fused.median_us, eager.median, eager.median_us,
           graphed.median, graphed.median_us);
    fflush(stdout);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(cs));
    CHECK(cudaFree(dbuf));
    free(ranges);

    /* ---- paged: sequences of 2048 tokens of 2 KiB in a pool ---- */
    const size_t token_bytes = TOKEN_VEC * 16;
    size_t pool_want = o.small || l2x8 > ((size_t)1 << 30) ? l2x8 : (size_t)1 << 30;
    if (pool_want > half_free)
        pool_want = half_free;
    uint32_t n_seqs = (uint32_t)(pool_want / (SEQ_TOKENS * token_bytes));
    size_t pool_bytes = (size_t)n_seqs * SEQ_TOKENS * token_bytes;
    uint32_t n_tokens = n_seqs * SEQ_TOKENS;
    uint32_t *h_table = (uint32_t *)malloc(sizeof(uint32_t) * n_tokens);
    if (!h_table || n_seqs == 0)
        fail("could not lay out the paged pool (%zu MiB free)", d.free_b >> 20);
    uint4 *pool = (uint4 *)alloc_filled(pool_bytes, grid);
    uint32_t *d_table;
    CHECK(cudaMalloc(&d_table, sizeof(uint32_t) * n_tokens));
    const uint32_t lg_token_words = LG_TOKEN_VEC + 2; /* uint4 = 4 words */

    /* the control: the pool read in order, blocks of 64 in an identity table */
    static const uint32_t sizes[] = {1, 8, 16, 32, 64};
    const int n_sizes = sizeof sizes / sizeof sizes[0];
    uint32_t lg_ctl = (uint32_t)paged_log2(sizes[n_sizes - 1]),
             lg_grp = (uint32_t)paged_log2(MAX_GROUP);
    for (uint32_t b = 0; b < n_tokens >> lg_ctl; b++)
        h_table[b] = b;
    CHECK(cudaMemcpy(d_table, h_table, sizeof(uint32_t) * (n_tokens >> lg_ctl),
                     cudaMemcpyHostToDevice));
    /* --paged-block: that block size alone, without the control, so that a
     * profiler's first paged launches are the shuffled gather */
    stats contig = {0, 0, 0, 0, 0};
    if (!o.paged_block)
        contig = measure(
            [&] {
                paged_kernel<<<pgrid, THREADS>>>(pool, d_table, lg_ctl, lg_grp, n_tokens >> lg_grp,
                                                 d_sum);
            },
            (double)pool_bytes, paged_weighted_sum(h_table, lg_ctl, n_tokens, lg_token_words),
            iters, "paged", "contiguous paged", 60, 65);
    for (int k = 0; k < n_sizes; k++) {
        uint32_t bs = sizes[k];
        if (o.paged_block && bs != o.paged_block)
            continue;
        int lg_block = paged_log2(bs);
        if (lg_block < 0 || bs > SEQ_TOKENS)
            fail("block size %u is not a power of two up to %u", bs, SEQ_TOKENS);
        uint32_t lg_group = (uint32_t)(bs < MAX_GROUP ? lg_block : (int)lg_grp);
        uint32_t n_blocks = n_tokens >> lg_block;
        paged_shuffle(h_table, n_blocks, 42 + bs);
        CHECK(cudaMemcpy(d_table, h_table, sizeof(uint32_t) * n_blocks, cudaMemcpyHostToDevice));
        char what[48];
        snprintf(what, sizeof what, "paged (block %u)", bs);
        stats st = measure(
            [&] {
                paged_kernel<<<pgrid, THREADS>>>(pool, d_table, (uint32_t)lg_block, lg_group,
                                                 n_tokens >> lg_group, d_sum);
            },
            (double)pool_bytes,
            paged_weighted_sum(h_table, (uint32_t)lg_block, n_tokens, lg_token_words), iters,
            "paged", what, 65 + 7 * k, 72 + 7 * k);
        printf("{\"type\":\"result\",\"kernel\":\"paged\",\"block_size\":%u,\"bytes\":%zu,"
               "\"iterations\":%d,\"per_sample\":%d,\"gbps_best\":%.1f,\"gbps_median\":%.1f",
               bs, pool_bytes, iters, st.per_sample, st.best, st.median);
        if (contig.median > 0)
            printf(",\"contiguous_gbps_median\":%.1f,\"tax_percent\":%.1f", contig.median,
                   100.0 * (1.0 - st.median / contig.median));
        printf("}\n");
        fflush(stdout);
    }
    free(h_table);
    CHECK(cudaFree(d_table));
    CHECK(cudaFree(pool));
    CHECK(cudaFree(d_sum));
    return PROBE_EXIT_OK;
}
