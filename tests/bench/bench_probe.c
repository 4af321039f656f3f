/* bench_probe: the CPU probe's read GB/s beside the plainest multi-threaded
 * read loop one could write, measured in the same run over an array of the
 * same size with the same thread count. The probe should be within 10% of
 * it (or above it): its figure is the machine's, not the probe's overhead.
 *
 *     bench_probe PATH/kvtutor-probe-cpu [SIZE_MIB]
 *
 * Runs plain, probe, plain and compares the probe with the better plain
 * median, so a noisy neighbour hurts the ratio rather than flattering it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ITERS 20

struct slice {
    const uint64_t *p;
    size_t n;
    uint64_t sum;
};

static void *plain_read(void *arg)
{
    struct slice *s = arg;
    uint64_t sum = 0;
    for (size_t i = 0; i < s->n; i++)
        sum += s->p[i];
    s->sum = sum;
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median GB/s of ITERS passes, threads created per pass (as a plain loop
 * would be written). */
static double plain_gbps(const uint64_t *buf, size_t words, int threads)
{
    double t[ITERS];
    uint64_t sink = 0;
    for (int it = 0; it < ITERS + 2; it++) { /* two warm-up passes */
        pthread_t th[256];
        struct slice sl[256];
        double t0 = now_s();
        for (int k = 0; k < threads; k++) {
            sl[k].p = buf + words / threads * k;
            sl[k].n = k + 1 == threads ? words - words / threads * k : words / threads;
            pthread_create(&th[k], NULL, plain_read, &sl[k]);
        }
        for (int k = 0; k < threads; k++) {
            pthread_join(th[k], NULL);
            sink ^= sl[k].sum;
        }
        if (it >= 2)
            t[it - 2] = now_s() - t0;
    }
    if (sink == 42)
        fputs("improbable\n", stderr);
    qsort(t, ITERS, sizeof t[0], cmp);
    return (double)words * 8 / ((t[ITERS / 2 - 1] + t[ITERS / 2]) / 2) / 1e9;
}

static double probe_gbps(const char *probe, unsigned mib, int threads)
{
    char cmd[1200], line[4096];
    double gbps = -1;
    snprintf(cmd, sizeof cmd, "'%s' --size-mib %u --threads %d", probe, mib, threads);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    while (fgets(line, sizeof line, p)) {
        char *m = strstr(line, "\"gbps_median\":");
        if (strstr(line, "\"kernel\":\"read\"") && strstr(line, "\"type\":\"result\"") && m)
            gbps = strtod(m + 14, NULL);
    }
    return pclose(p) == 0 ? gbps : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_probe PATH/kvtutor-probe-cpu [SIZE_MIB]\n");
        return 2;
    }
    unsigned mib = argc > 2 ? (unsigned)atoi(argv[2]) : 1024;
    int threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1 || threads > 256)
        threads = threads < 1 ? 1 : 256;
    size_t bytes = (size_t)mib << 20, words = bytes / 8;
    uint64_t *buf = malloc(bytes);
    if (!buf || mib < 16) {
        fprintf(stderr, "bench_probe: cannot allocate %u MiB\n", mib);
        return 1;
    }
    for (size_t i = 0; i < words; i++)
        buf[i] = i * 0x9E3779B97F4A7C15ull;

    double plain1 = plain_gbps(buf, words, threads);
    free(buf); /* the probe needs the memory */
    double probe = probe_gbps(argv[1], mib, threads);
    buf = malloc(bytes);
    if (!buf)
        return 1;
    for (size_t i = 0; i < words; i++)
        buf[i] = i * 0x9E3779B97F4A7C15ull;
    double plain2 = plain_gbps(buf, words, threads);
    free(buf);
    if (probe <= 0) {
        fprintf(stderr, "bench_probe: the probe did not report a read figure\n");
        return 1;
    }
    double plain = plain1 > plain2 ? plain1 : plain2;
    double ratio = probe / plain;
    printf("array %u MiB, %d threads, %d passes each\n", mib, threads, ITERS);
    printf("plain loop  %6.2f GB/s median (runs: %.2f, %.2f)\n", plain, plain1, plain2);
    printf("probe read  %6.2f GB/s median\n", probe);
    printf("ratio       %6.3f  (target >= 0.90): %s\n", ratio, ratio >= 0.9 ? "ok" : "LOW");
    return ratio >= 0.9 ? 0 : 1;
}
