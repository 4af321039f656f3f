/* cpu_probe.c: host-memory read bandwidth, shaped like decode.
 *
 * Two kernels, both pure reads:
 *   read   every thread streams its slice of one large array with eight
 *          independent accumulators (decode reads the weights this way);
 *   paged  sequences read their KV through block tables, as vLLM's paged
 *          attention does, for block sizes 1, 8, 16, 32 and 64 tokens,
 *          against the same bytes laid out contiguously.
 *
 * Self-check: word i of the array holds i x GOLDEN; every pass adds up
 * what it read, and the total over a measurement's passes must match.
 *
 * It speaks the probe protocol (docs/probes.md): one JSON object per line on
 * stdout, exit statuses from probe_io.h. Libc and pthreads only, so that it
 * builds wherever a C compiler does. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers, clock_gettime */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/paged_index.h"
#include "../common/probe_io.h"
#include "../common/probe_platform.h" /* what the machine is */

#define MIB               (1024.0 * 1024.0)
#define TOKEN_BYTES       2048u /* one layer's K for 8 KV heads x 128 dims in bf16 */
#define MAX_THREADS       256
#define WARMUP_SECONDS    0.2
#define DEFAULT_ITERS     20
#define MIN_DEFAULT_BYTES (256ull << 20)
#define MAX_DEFAULT_BYTES (1024ull << 20)

static const uint32_t block_sizes[] = {1, 8, 16, 32, 64};
#define N_BLOCK_SIZES (sizeof block_sizes / sizeof block_sizes[0])

/* ---- the work one thread does in one iteration ---- */

enum job_kind { JOB_READ, JOB_PAGED, JOB_QUIT };

struct job {
    enum job_kind kind;
    const uint64_t *buf; /* the array (read) or the pool (paged) */
    uint64_t words;      /* read: the whole array, in 8-byte words */
    /* paged */
    const uint32_t *tables; /* n_seqs x blocks_per_seq pool blocks */
    uint32_t n_seqs, blocks_per_seq, block_size;
};

struct worker {
    pthread_t thread;
    unsigned index, count;
    const struct job *job;
    pthread_barrier_t *start, *done;
    uint64_t sum; /* what it read, added up: the self-check, and no load can be dropped */
};

/* Eight independent sums: one chain of dependent adds would cap a core at
 * one load per add latency, far below what memory can deliver. */
static uint64_t read_words(const uint64_t *p, uint64_t n)
{
    uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        a0 += p[i];
        a1 += p[i + 1];
        a2 += p[i + 2];
        a3 += p[i + 3];
        a4 += p[i + 4];
        a5 += p[i + 5];
        a6 += p[i + 6];
        a7 += p[i + 7];
    }
    for (; i < n; i++)
        a0 += p[i];
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

static uint64_t run_read(const struct job *j, unsigned index, unsigned count)
{
    uint64_t per = j->words / count;
    uint64_t begin = per * index;
    uint64_t end = index + 1 == count ? j->words : begin + per;
    return read_words(j->buf + begin, end - begin);
}

/* Sequences are dealt out to threads; within a block the tokens are
 * contiguous, so each block is one run of block_size tokens. The offset of
 * its first token comes from the same arithmetic the CUDA kernel uses. */
static uint64_t run_paged(const struct job *j, unsigned index, unsigned count)
{
    const uint64_t token_words = TOKEN_BYTES / sizeof(uint64_t);
    const uint64_t run = (uint64_t)j->block_size * token_words;
    uint64_t acc = 0;
    for (uint32_t s = index; s < j->n_seqs; s += count) {
        const uint32_t *table = j->tables + (uint64_t)s * j->blocks_per_seq;
        for (uint32_t b = 0; b < j->blocks_per_seq; b++) {
            uint64_t first =
                paged_offset(table, j->block_size, token_words, (uint64_t)b * j->block_size, 0);
            acc += read_words(j->buf + first, run);
        }
    }
    return acc;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    for (;;) {
        pthread_barrier_wait(w->start);
        const struct job *j = w->job;
        if (j->kind == JOB_QUIT)
            return NULL;
        w->sum += j->kind == JOB_READ ? run_read(j, w->index, w->count)
                                      : run_paged(j, w->index, w->count);
        pthread_barrier_wait(w->done);
    }
}

/* ---- the pool of threads and the timing ---- */

struct pool {
    unsigned count;
    struct worker workers[MAX_THREADS];
    pthread_barrier_t start, done;
    struct job job;
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One timed pass of the current job over every thread. */
static double pool_pass(struct pool *p)
{
    double t0 = now_seconds();
    pthread_barrier_wait(&p->start);
    pthread_barrier_wait(&p->done);
    return now_seconds() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct stats {
    double best, median; /* GB/s */
};

static void progress(const char *kernel, double percent)
{
    printf("{\"type\":\"progress\",\"kernel\":\"%s\",\"percent\":%.1f}\n", kernel, percent);
    fflush(stdout);
}

/* The array's pattern (word i holds i x GOLDEN, mod 2^64) added up over
 * its first `words` words: GOLDEN x words (words - 1) / 2, the even factor
 * halved first so that nothing but the wrap-around mod 2^64 is lost. */
#define GOLDEN 0x9E3779B97F4A7C15ull
static uint64_t pattern_sum(uint64_t words)
{
    uint64_t tri =
        words % 2 == 0 ? (words / 2) * (words ? words - 1 : 0) : words * ((words - 1) / 2);
    return GOLDEN * tri;
}

/* Warm-up passes for WARMUP_SECONDS (caches, page faults, clocks), then
 * `iters` timed passes; GB/s from each pass's seconds. Every pass must read
 * words adding up to `expect`: the threads' sums over all passes are
 * checked at the end, and a mismatch fails the run naming `what`. */
static struct stats measure(struct pool *p, double bytes, unsigned iters, const char *kernel,
                            const char *what, uint64_t expect, double pct_from, double pct_to)
{
    double times[1024];
    struct stats st;
    uint64_t passes = 0, got = 0;
    double t0 = now_seconds();
    for (unsigned i = 0; i < p->count; i++)
        p->workers[i].sum = 0;
    do {
        pool_pass(p);
        passes++;
    } while (now_seconds() - t0 < WARMUP_SECONDS);
    for (unsigned i = 0; i < iters; i++) {
        times[i] = pool_pass(p);
        passes++;
        if (i % 5 == 4 || i + 1 == iters)
            progress(kernel, pct_from + (pct_to - pct_from) * (i + 1) / iters);
    }
    for (unsigned i = 0; i < p->count; i++)
        got += p->workers[i].sum;
    if (got != passes * expect) {
        printf("{\"type\":\"error\",\"message\":\"self-check failed: the %s pass read words "
               "summing to %llu, expected %llu\"}\n",
               what, (unsigned long long)got, (unsigned long long)(passes * expect));
        fflush(stdout);
        _exit(PROBE_EXIT_FAILED); /* the workers wait at a barrier: no clean way back */
    }
    qsort(times, iters, sizeof times[0], cmp_double);
    st.best = bytes / times[0] / 1e9;
    st.median = bytes /
                (iters % 2 ? times[iters / 2] : (times[iters / 2 - 1] + times[iters / 2]) / 2) /
                1e9;
    return st;
}

static int fail(const char *what)
{
    printf("{\"type\":\"error\",\"message\":\"%s\"}\n", what);
    fflush(stdout);
    return PROBE_EXIT_FAILED;
}

/* A usage error: the protocol's error line on stdout, the synopsis on
 * stderr, exit 2. flag NULL: just the synopsis (for --help). */
static int usage(const char *flag, unsigned long long lo, unsigned long long hi)
{
    if (flag)
        probe_flag_error(flag, lo, hi);
    fprintf(flag ? stderr : stdout,
            "usage: kvtutor-probe-cpu [--size-mib N] [--threads N] [--iters N]\n"
            "Measures host-memory read bandwidth; prints JSON lines (docs/probes.md).\n");
    return PROBE_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    unsigned long long size_mib = 0, threads = 0, iters = DEFAULT_ITERS;
    for (int i = 1; i < argc; i++) {
        unsigned long long *dst = NULL, lo = 1, hi = 0;
        if (strcmp(argv[i], "--size-mib") == 0)
            dst = &size_mib, lo = 16, hi = 1ull << 20;
        else if (strcmp(argv[i], "--threads") == 0)
            dst = &threads, hi = MAX_THREADS;
        else if (strcmp(argv[i], "--iters") == 0)
            dst = &iters, lo = DEFAULT_ITERS, hi = 1024;
        else if (strcmp(argv[i], "--help") == 0)
            return usage(NULL, 0, 0), PROBE_EXIT_OK;
        else
            return usage(argv[i], 0, 0);
        if (probe_parse_uint(i + 1 < argc ? argv[i + 1] : NULL, lo, hi, dst) != 0)
            return usage(argv[i], lo, hi);
        i++;
    }

    long ncpu = probe_core_count();
    long llc = probe_llc_bytes();
    if (!threads)
        threads = ncpu > 0 ? (unsigned long long)(ncpu < MAX_THREADS ? ncpu : MAX_THREADS) : 1;
    uint64_t avail = probe_mem_available();
    /* 8x the last-level cache, kept within [256 MiB, 1 GiB] so a run takes
     * seconds, not minutes; never under 2x the cache (checked below) */
    uint64_t bytes = size_mib ? size_mib << 20 : (uint64_t)llc * 8;
    if (!size_mib && bytes < MIN_DEFAULT_BYTES)
        bytes = MIN_DEFAULT_BYTES;
    if (!size_mib && bytes > MAX_DEFAULT_BYTES)
        bytes = MAX_DEFAULT_BYTES > (uint64_t)llc * 2 ? MAX_DEFAULT_BYTES : (uint64_t)llc * 2;
    /* whole 64-token blocks of TOKEN_BYTES per thread, so every block size tiles it */
    uint64_t tile = 64ull * TOKEN_BYTES * threads;
    if (avail && bytes > avail / 2) {
        if (size_mib) {
            printf("{\"type\":\"error\",\"message\":\"--size-mib %llu is more than half of the "
                   "available memory (%llu MiB available)\"}\n",
                   size_mib, (unsigned long long)(avail >> 20));
            fflush(stdout);
            return PROBE_EXIT_USAGE;
        }
        bytes = avail / 2;
    }
    if (bytes < tile && !size_mib)
        return fail("not enough free memory for an array well beyond the last-level cache");
    if (bytes < tile) {
        printf("{\"type\":\"error\",\"message\":\"--size-mib %llu is below %llu MiB, one "
               "64-token block of 2 KiB tokens for each of %llu threads\"}\n",
               size_mib, (unsigned long long)((tile + (1u << 20) - 1) >> 20), threads);
        fflush(stdout);
        return PROBE_EXIT_USAGE;
    }
    bytes -= bytes % tile;
    if (!size_mib && bytes < (uint64_t)llc * 2)
        return fail("not enough free memory for an array well beyond the last-level cache");

    char name[256];
    probe_cpu_name(name, sizeof name);
    probe_json_safe(name);
    printf("{\"type\":\"device\",\"kind\":\"cpu\",\"name\":\"%s\",\"threads\":%llu,"
           "\"llc_bytes\":%ld,\"free_bytes\":%llu,\"buffer_bytes\":%llu}\n",
           name, threads, llc, (unsigned long long)avail, (unsigned long long)bytes);
    fflush(stdout);

    uint64_t *buf = NULL;
    if (posix_memalign((void **)&buf, 4096, bytes) != 0)
        return fail("could not allocate the array");
    /* Touch every page with distinct values: untouched pages all map the
     * shared zero page, which would make the read a cache benchmark. */
    for (uint64_t i = 0; i < bytes / 8; i++)
        buf[i] = i * GOLDEN;

    static struct pool p;
    p.count = (unsigned)threads;
    pthread_barrier_init(&p.start, NULL, p.count + 1);
    pthread_barrier_init(&p.done, NULL, p.count + 1);
    for (unsigned i = 0; i < p.count; i++) {
        struct worker *w = &p.workers[i];
        w->index = i;
        w->count = p.count;
        w->job = &p.job;
        w->start = &p.start;
        w->done = &p.done;
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            /* the barriers count on every thread; no clean way back */
            fail("could not start the worker threads");
            _exit(PROBE_EXIT_FAILED);
        }
    }

    /* read: the whole array */
    p.job = (struct job){.kind = JOB_READ, .buf = buf, .words = bytes / 8};
    struct stats rd =
        measure(&p, (double)bytes, (unsigned)iters, "read", "read", pattern_sum(bytes / 8), 0, 40);
    printf("{\"type\":\"result\",\"kernel\":\"read\",\"bytes\":%llu,\"iterations\":%llu,"
           "\"threads\":%llu,\"gbps_best\":%.2f,\"gbps_median\":%.2f}\n",
           (unsigned long long)bytes, iters, threads, rd.best, rd.median);
    fflush(stdout);

    /* paged: the array as a pool of blocks, sequences of 2048 tokens */
    const uint64_t seq_tokens = 2048;
    uint32_t n_seqs = (uint32_t)(bytes / TOKEN_BYTES / seq_tokens);
    uint64_t paged_bytes = (uint64_t)n_seqs * seq_tokens * TOKEN_BYTES;
    uint32_t *tables = malloc(sizeof(uint32_t) * (seq_tokens * n_seqs));
    if (!tables || n_seqs < p.count)
        return fail("could not lay out the paged pool");

    /* the control: each sequence's tokens in one contiguous run */
    for (uint32_t s = 0; s < n_seqs; s++)
        tables[s] = s;
    p.job = (struct job){.kind = JOB_PAGED,
                         .buf = buf,
                         .tables = tables,
                         .n_seqs = n_seqs,
                         .blocks_per_seq = 1,
                         .block_size = (uint32_t)seq_tokens};
    struct stats contig = measure(&p, (double)paged_bytes, (unsigned)iters, "paged",
                                  "contiguous paged", pattern_sum(paged_bytes / 8), 40, 50);

    for (size_t k = 0; k < N_BLOCK_SIZES; k++) {
        uint32_t bs = block_sizes[k];
        uint32_t per_seq = (uint32_t)paged_blocks(seq_tokens, bs);
        paged_shuffle(tables, per_seq * n_seqs, 42 + bs);
        p.job.blocks_per_seq = per_seq;
        p.job.block_size = bs;
        char what[48];
        snprintf(what, sizeof what, "paged (block %u)", bs);
        struct stats st = measure(&p, (double)paged_bytes, (unsigned)iters, "paged", what,
                                  pattern_sum(paged_bytes / 8), 50 + 10.0 * k, 60 + 10.0 * k);
        printf("{\"type\":\"result\",\"kernel\":\"paged\",\"block_size\":%u,\"bytes\":%llu,"
               "\"iterations\":%llu,\"gbps_best\":%.2f,\"gbps_median\":%.2f,"
               "\"contiguous_gbps_median\":%.2f,\"tax_percent\":%.1f}\n",
               bs, (unsigned long long)paged_bytes, iters, st.best, st.median, contig.median,
               100.0 * (1.0 - st.median / contig.median));
        fflush(stdout);
    }

    p.job.kind = JOB_QUIT;
    pthread_barrier_wait(&p.start);
    for (unsigned i = 0; i < p.count; i++)
        pthread_join(p.workers[i].thread, NULL);
    free(tables);
    free(buf);
    return PROBE_EXIT_OK;
}
