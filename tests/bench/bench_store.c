/* bench_store: how fast kvtutor records answers. Prints attempts recorded
 * per second and the median and 99th-percentile latency of one recorded
 * attempt (insert + FSRS update + commit with fsync), on a fresh database in
 * the folder given (default /tmp). Figures depend on the disk: compare runs
 * on one machine, not against a fixed number.
 *
 *   bench_store [FOLDER] [COUNT]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *folder = argc > 1 ? argv[1] : "/tmp";
    int n = argc > 2 ? atoi(argv[2]) : 2000;
    char path[4096];
    struct store *st;
    struct store_error err;
    struct fsrs_params p;
    double *lat, t0, total;
    int64_t learner;

    if (n < 10 || n > 1000000) {
        fprintf(stderr, "bench_store: COUNT must be 10..1000000\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/kvt_bench_%d.db", folder, (int)getpid());
    if (store_open(path, false, &st, &err) != KVT_E_OK ||
        store_learner(st, "bench", 0, &learner, &err) != KVT_E_OK) {
        fprintf(stderr, "bench_store: %s: %s (%s)\n", path, kvt_strerror(err.code), err.detail);
        return 1;
    }
    fsrs_default_params(&p);
    lat = malloc((size_t)n * sizeof *lat);
    if (!lat)
        return 1;
    total = now_s();
    for (int i = 0; i < n; i++) {
        char ex[16];
        struct store_attempt a = {
            .learner_id = learner,
            .module = "part0",
            .lesson_id = "kv-cache",
            .exercise_id = ex,
            .concept = "kv-cache",
            .answer = "56 KiB",
            .verdict = "correct",
            .score = 1,
            .rating = 1 + i % 4,
            .seconds = 10,
            .created_at = 1795910400 + i * 3600,
        };
        snprintf(ex, sizeof ex, "e%d", i % 50);
        store_new_uid(a.uid);
        t0 = now_s();
        if (store_record_attempt(st, &a, &p, NULL, &err) != KVT_E_OK) {
            fprintf(stderr, "bench_store: %s (%s)\n", kvt_strerror(err.code), err.detail);
            return 1;
        }
        lat[i] = now_s() - t0;
    }
    total = now_s() - total;
    qsort(lat, (size_t)n, sizeof *lat, cmp);
    printf("attempts recorded: %d in %.3f s = %.0f attempts/s\n", n, total, n / total);
    printf("latency of one recorded attempt: median %.3f ms, p99 %.3f ms\n", lat[n / 2] * 1e3,
           lat[n * 99 / 100] * 1e3);
    store_close(st);
    free(lat);
    unlink(path);
    snprintf(path + strlen(path), sizeof path - strlen(path), "-wal");
    unlink(path);
    path[strlen(path) - 4] = '\0';
    strcat(path, "-shm");
    unlink(path);
    return 0;
}
