/* The simulator's core in-process: the workload's draws, the step time, the
 * scheduler's rules and the metrics, each against arithmetic done by hand
 * in the comments. A toy deployment keeps the arithmetic round:
 *   weights 1 GB at 1 TB/s          -> 1 ms a step to read them
 *   KV 100 kB a token               -> 0.1 ms per 1,000 tokens read or written
 *   1e9 active parameters, 100 TFLOP/s -> 0.02 ms of compute a token
 *   overhead 0.5 ms a step, no attention FLOPs, one GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim_report.h"
#include "sim_sched.h"
#include "sim_step.h"
#include "sim_workload.h"

#define assert_near(a, b, tol)                                                                     \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                                             \
            fail_msg("%s = %.9g, expected %.9g (+- %g)", #a, a_, b_, (double)(tol));               \
    } while (0)

static struct sim_sched_config toy(uint64_t blocks, uint64_t seqs, uint64_t budget)
{
    struct sim_sched_config c = {.num_blocks = blocks,
                                 .block_size = 16,
                                 .max_num_seqs = seqs,
                                 .max_num_batched_tokens = budget};
    c.hw.weights.shared_bytes = 1e9; /* dense: every weight read each step */
    c.hw.active_params = 1e9;
    c.hw.kv_full_token_bytes = 1e5;
    c.hw.bandwidth = 1e12;
    c.hw.flops = 1e14;
    c.hw.tp = 1;
    c.hw.layers = 10;
    c.hw.overhead_s = 0.0005;
    return c;
}

static void burst(struct sim_request *r, uint64_t n, uint32_t in, uint32_t out)
{
    for (uint64_t i = 0; i < n; i++)
        r[i] = (struct sim_request){.arrival = 0, .input_len = in, .output_len = out};
}

static void run_ok(const struct sim_sched_config *c, const struct sim_request *r, uint64_t n,
                   struct sim_run *run, struct sim_metrics *m)
{
    assert_int_equal(sim_sched_run(c, r, n, run, NULL), KVT_E_OK);
    assert_int_equal(sim_report(run, m), KVT_E_OK);
}

/* One request of 1,000 in / 11 out, alone.
 * Prefill: 1,000 tokens: memory (1e9 + 1e5 x 1,000) / 1e12 = 1.1 ms, compute
 *   2 x 1e9 x 1,000 / 1e14 = 20 ms -> 20 + 0.5 = 20.5 ms = TTFT.
 * Decode k = 1..10: context 999 + k, one token written: memory
 *   (1e9 + 1e5 (1,000 + k)) / 1e12 = 1.1 + 0.0001k ms, compute 0.02 ms
 *   -> 1.6 + 0.0001k ms; the ten sum to 16 + 0.0055 = 16.0055 ms;
 *   TPOT = 1.60055 ms, E2EL = 36.5055 ms, 11 steps. */
static void one_request_alone(void **state)
{
    struct sim_sched_config c = toy(1000, 256, 2048);
    struct sim_request r;
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    burst(&r, 1, 1000, 11);
    run_ok(&c, &r, 1, &run, &m);
    assert_int_equal(m.steps, 11);
    assert_near(m.ttft_ms.mean, 20.5, 1e-9);
    assert_near(m.tpot_ms.mean, 1.60055, 1e-9);
    assert_near(m.e2el_ms.mean, 36.5055, 1e-9);
    assert_near(m.duration_s, 0.0365055, 1e-12);
    /* ITL: the ten gaps are the ten decode steps: 1.6001 .. 1.6010 ms;
     * median between the 5th and 6th, 1.60055; p99 at rank 8.91: 1.600991 */
    assert_near(m.itl_ms.median, 1.60055, 1e-9);
    assert_near(m.itl_ms.p99, 1.600991, 1e-9);
    assert_int_equal(m.preemptions, 0);
    assert_int_equal(m.max_running, 1);
    assert_int_equal(m.limit, SIM_LIMIT_ARRIVALS);
    /* 1,010 tokens held at the end: ceil(1,010 / 16) = 64 blocks of 1,000 */
    assert_near(m.peak_kv_usage, 0.064, 1e-12);
    sim_run_free(&run);
}

/* Four requests of 32 in / 33 out at once over 10 blocks of 16 tokens.
 * Each holds at most 32 + 33 - 1 = 64 tokens = 4 blocks: 16 would be needed.
 * Step 1: all four prefill, 2 blocks each: 8 used, 2 free.
 * Step 2: each needs a 3rd block (33 tokens): r0 and r1 take the 2 free;
 *   r2 finds none: r3, the last admitted, is preempted (2 blocks back), r2
 *   takes one: preemption 1, 9 blocks used (the peak), r3 waits at the front.
 * Steps on: r3 would need 3 blocks for its 33-token recompute; 1 is free.
 * At 49 tokens r0 takes the last free block; r1 finds none and r2 is
 *   preempted (3 back): preemption 2. r0 and r1 run out at 4 blocks each;
 *   then r2 (4 blocks) and r3 (3, then 4) fit together: no third. */
static void burst_over_the_blocks(void **state)
{
    struct sim_sched_config c = toy(10, 256, 1000);
    struct sim_request r[4];
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    burst(r, 4, 32, 33);
    run_ok(&c, r, 4, &run, &m);
    assert_int_equal(m.completed, 4);
    assert_int_equal(m.max_running, 4);
    assert_int_equal(m.preemptions, 2);
    assert_int_equal(run.req[3].preemptions, 1);
    assert_int_equal(run.req[2].preemptions, 1);
    assert_int_equal(run.req[0].preemptions, 0);
    assert_near(m.peak_kv_usage, 0.9, 1e-12);
    /* from step 2 until r0 and r1 finish someone waits for blocks; then r2
     * and r3 run with nothing waiting: the batch is what was offered */
    assert_near(run.limit_s[SIM_LIMIT_KV_BLOCKS], run.req[1].finish - run.req[0].first_token,
                1e-12);
    assert_near(run.limit_s[SIM_LIMIT_ARRIVALS],
                run.req[0].first_token + run.req[3].finish - run.req[1].finish, 1e-12);
    /* the first two finish first: r0 and r1 end together, before r2 and r3 */
    assert_true(run.req[0].finish == run.req[1].finish);
    assert_true(run.req[2].finish > run.req[1].finish);
    sim_run_free(&run);
}

/* More requests than the blocks hold, all at t = 0, with room for whole
 * requests: 10 of 32 in / 32 out need ceil(63 / 16) = 4 blocks each; 12
 * blocks hold 3 at their longest, but at admission each takes only 2 blocks
 * (32 tokens), so 6 are admitted (12 blocks) and then preempted back as they
 * grow: the batch caps at the blocks and the rest queue. */
static void batch_caps_at_the_blocks(void **state)
{
    struct sim_sched_config c = toy(12, 256, 4096);
    struct sim_request r[10];
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    burst(r, 10, 32, 32);
    run_ok(&c, r, 10, &run, &m);
    assert_int_equal(m.completed, 10);
    assert_int_equal(m.max_running, 6); /* 12 blocks / 2 at admission */
    assert_true(m.preemptions > 0);
    assert_true(m.peak_kv_usage <= 1.0);
    assert_near(m.peak_kv_usage, 1.0, 1e-12);
    assert_int_equal(m.limit, SIM_LIMIT_KV_BLOCKS);
    sim_run_free(&run);
}

/* vLLM's admission gate (SchedulerConfig.scheduler_reserve_full_isl, its
 * default from 0.24): two requests of 64 in / 17 out at once over 6 blocks
 * of 16 tokens, a budget of 48. Each holds at most 64 + 17 - 1 = 80 tokens =
 * 5 blocks, so they can only run one after the other.
 *   First-chunk admission: step 1, r0 takes 48 tokens (3 blocks); step 2, r0
 *   its last 16 (4 blocks), and r1 the 32 left of the budget (2 blocks): all
 *   6 used. Step 3: r0's first decode needs a 5th block; none is free, so
 *   r1, the last admitted, is preempted: 1 preemption, 2 running at most.
 *   The gate: at step 2 r1's whole 64-token prompt needs 4 blocks and 2 are
 *   free: it waits until r0 finishes. No preemption, 1 running at most. */
static void whole_sequence_admission(void **state)
{
    struct sim_sched_config c = toy(6, 256, 48);
    struct sim_request r[2];
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    burst(r, 2, 64, 17);
    run_ok(&c, r, 2, &run, &m);
    assert_int_equal(m.completed, 2);
    assert_int_equal(m.preemptions, 1);
    assert_int_equal(m.max_running, 2);
    assert_int_equal(run.req[1].preemptions, 1);
    sim_run_free(&run);

    c.full_isl_admission = true;
    run_ok(&c, r, 2, &run, &m);
    assert_int_equal(m.completed, 2);
    assert_int_equal(m.preemptions, 0);
    assert_int_equal(m.max_running, 1);
    /* r1 starts only once r0 has left */
    assert_true(run.req[1].first_token > run.req[0].finish);
    sim_run_free(&run);
}

/* Prefix caching (on by default in V1): a preempted request finds its own
 * blocks still cached when it comes back, unless they were taken since.
 * The first-chunk run above: two of 64 in / 17 out over 6 blocks, budget 48.
 *   Step 3: r1 is preempted holding 32 computed tokens = 2 full blocks,
 *   freed tail first to the back of the free queue (the queue is otherwise
 *   empty). r0 takes one block for its decode: the front one, r1's tail
 *   (block 1), evicted; r1's block 0 stays cached.
 *   Step 4: r1 would hit block 0 (16 tokens) and need ceil((16 + 47) / 16) = 4
 *   blocks with 1 free: it waits. r0 runs to its 80 tokens (5 blocks) and
 *   frees them behind r1's block. r1 then takes its 1 cached block back and
 *   recomputes tokens 16 .. 63 only: 16 tokens hit. With prefix caching off,
 *   nothing hits; the preemption is the same. */
static void resumed_request_hits_its_own_blocks(void **state)
{
    struct sim_sched_config c = toy(6, 256, 48);
    struct sim_request r[2];
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    burst(r, 2, 64, 17);
    c.prefix_caching = true;
    run_ok(&c, r, 2, &run, &m);
    assert_int_equal(m.completed, 2);
    assert_int_equal(m.preemptions, 1);
    assert_int_equal(run.req[1].preemptions, 1);
    assert_true(m.prefix_caching);
    assert_int_equal(m.resume_hit_tokens, 16);
    sim_run_free(&run);

    c.prefix_caching = false;
    run_ok(&c, r, 2, &run, &m);
    assert_int_equal(m.preemptions, 1);
    assert_false(m.prefix_caching);
    assert_int_equal(m.resume_hit_tokens, 0);
    sim_run_free(&run);
}

/* The oldest free block is evicted first: the burst above (four of 32 in /
 * 33 out over 10 blocks, first-chunk admission).
 *   Step 2: r3 is preempted with 32 computed tokens = 2 full blocks, freed
 *   tail first; r2 takes one of them for its 33rd token, r3's tail.
 *   At 48 tokens r0 takes the last free block, the oldest: r3's block 0, so
 *   nothing of r3 is left cached. r1 finds none and r2, the last running,
 *   is preempted with 48 computed tokens = 3 full blocks; r1 takes r2's
 *   tail. r2 comes back first (it went to the front of the queue) to its
 *   blocks 0 and 1, 32 tokens; r3 recomputes everything. */
static void eviction_takes_the_oldest_free_blocks(void **state)
{
    struct sim_sched_config c = toy(10, 256, 1000);
    struct sim_request r[4];
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    burst(r, 4, 32, 33);
    c.prefix_caching = true;
    run_ok(&c, r, 4, &run, &m);
    assert_int_equal(m.completed, 4);
    assert_int_equal(m.preemptions, 2);
    assert_int_equal(m.resume_hit_tokens, 32);
    sim_run_free(&run);
}

/* A 10,000-token prompt with a budget of 2,048: chunks of 2,048 x 4 and
 * 1,808: 5 steps, one token at the end of the fifth (output 1).
 * Every chunk is compute-bound (2,048 tokens: 40.96 ms of compute against at
 * most 1 + 0.1 x 10 = 2 ms of memory), so the prefill costs 2 x 1e9 x 10,000
 * / 1e14 = 200 ms + 5 x 0.5 ms of overhead = 202.5 ms = TTFT. */
static void budget_splits_a_long_prompt(void **state)
{
    struct sim_sched_config c = toy(1000, 256, 2048);
    struct sim_request r;
    struct sim_run run;
    struct sim_metrics m;
    uint64_t bad = 99;

    (void)state;
    burst(&r, 1, 10000, 1);
    run_ok(&c, &r, 1, &run, &m);
    assert_int_equal(m.steps, 5);
    assert_near(m.ttft_ms.mean, 202.5, 1e-9);
    assert_int_equal(m.tpot_ms.mean, 0); /* one output token: no TPOT, as serve.py */
    sim_run_free(&run);
    /* without chunked prefill the prompt never fits the budget: refused */
    c.no_chunked_prefill = true;
    assert_int_equal(sim_sched_run(&c, &r, 1, &run, &bad), KVT_E_RANGE);
    assert_int_equal(bad, 0);
    /* a budget of 10,000 takes it whole: one step, 200 + 0.5 ms */
    c.max_num_batched_tokens = 10000;
    run_ok(&c, &r, 1, &run, &m);
    assert_int_equal(m.steps, 1);
    assert_near(m.ttft_ms.mean, 200.5, 1e-9);
    sim_run_free(&run);
}

/* Ten requests at once and max_num_seqs 3: never more than 3 run, and the
 * cap is max_num_seqs. */
static void max_num_seqs_caps(void **state)
{
    struct sim_sched_config c = toy(1000, 3, 8192);
    struct sim_request r[10];
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    burst(r, 10, 64, 16);
    run_ok(&c, r, 10, &run, &m);
    assert_int_equal(m.max_running, 3);
    assert_int_equal(m.limit, SIM_LIMIT_MAX_NUM_SEQS);
    assert_int_equal(m.preemptions, 0);
    sim_run_free(&run);
}

/* Ten prompts of 1,000 at once, a budget of 2,048 and blocks to spare: each
 * step fits two prompts and a chunk of a third, the rest wait for budget,
 * not blocks: the token budget caps the batch. With 200 blocks instead
 * (3,200 tokens: three prompts), the waiting prompts would not find blocks
 * for their whole prompt either, and the cap is the cache. */
static void token_budget_caps(void **state)
{
    struct sim_sched_config c = toy(100000, 256, 2048);
    struct sim_request r[10];
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    burst(r, 10, 1000, 8);
    run_ok(&c, r, 10, &run, &m);
    assert_int_equal(m.limit, SIM_LIMIT_TOKEN_BUDGET);
    assert_int_equal(m.preemptions, 0);
    sim_run_free(&run);
    c.num_blocks = 200;
    run_ok(&c, r, 10, &run, &m);
    assert_int_equal(m.limit, SIM_LIMIT_KV_BLOCKS);
    sim_run_free(&run);
}

/* The client's concurrency: with 2 in flight at most, only 2 ever run. */
static void client_concurrency(void **state)
{
    struct sim_sched_config c = toy(1000, 256, 8192);
    struct sim_request r[6];
    struct sim_run run;
    struct sim_metrics m;

    (void)state;
    c.max_concurrency = 2;
    burst(r, 6, 64, 16);
    run_ok(&c, r, 6, &run, &m);
    assert_int_equal(m.max_running, 2);
    /* the third is sent when the first finishes */
    assert_true(run.req[2].send == run.req[0].finish);
    sim_run_free(&run);
}

/* Little's law: time-weighted running = throughput x mean latency. At 20
 * requests/s of 100 in / 100 out no request queues (a step is ~1.6 ms), so
 * the two sides differ only by the wait for the next step; within 2%. */
static void littles_law(void **state)
{
    struct sim_sched_config c = toy(100000, 1024, 8192);
    struct sim_workload_spec w = {.input_len = 100,
                                  .output_len = 100,
                                  .num_prompts = 2000,
                                  .request_rate = 20,
                                  .burstiness = 1,
                                  .seed = 7};
    struct sim_request *r = malloc(2000 * sizeof *r);
    struct sim_run run;
    struct sim_metrics m;
    double little;

    (void)state;
    assert_non_null(r);
    assert_int_equal(sim_workload_make(&w, r), KVT_E_OK);
    run_ok(&c, r, 2000, &run, &m);
    little = m.request_throughput * m.e2el_ms.mean / 1000;
    if (fabs(m.mean_running - little) > 0.02 * little)
        fail_msg("mean running %.4f, throughput x latency %.4f", m.mean_running, little);
    sim_run_free(&run);
    free(r);
}

/* The same seed gives the same workload and the same run; another differs. */
static void same_seed_same_output(void **state)
{
    struct sim_workload_spec w = {.input_len = 512,
                                  .output_len = 64,
                                  .range_ratio = 0.5,
                                  .num_prompts = 300,
                                  .request_rate = 50,
                                  .burstiness = 0.5,
                                  .seed = 42};
    struct sim_request a[300], b[300];
    struct sim_sched_config c = toy(2000, 256, 2048);
    struct sim_run ra, rb;
    struct sim_metrics ma, mb;

    (void)state;
    assert_int_equal(sim_workload_make(&w, a), KVT_E_OK);
    assert_int_equal(sim_workload_make(&w, b), KVT_E_OK);
    assert_memory_equal(a, b, sizeof a);
    run_ok(&c, a, 300, &ra, &ma);
    run_ok(&c, b, 300, &rb, &mb);
    assert_memory_equal(&ma, &mb, sizeof ma);
    sim_run_free(&ra);
    sim_run_free(&rb);
    w.seed = 43;
    assert_int_equal(sim_workload_make(&w, b), KVT_E_OK);
    assert_true(memcmp(a, b, sizeof a) != 0);
}

/* The random dataset's bounds and vLLM's rescaled arrivals. */
static void workload_shape(void **state)
{
    enum { N = 20000 };
    struct sim_workload_spec w = {.input_len = 1000,
                                  .output_len = 3,
                                  .range_ratio = 0.25,
                                  .num_prompts = N,
                                  .request_rate = 5,
                                  .seed = 1};
    struct sim_request *r = malloc(N * sizeof *r);
    double sum = 0;
    uint32_t lo = UINT32_MAX, hi = 0, olo = UINT32_MAX, ohi = 0;

    (void)state;
    assert_non_null(r);
    assert_int_equal(sim_workload_make(&w, r), KVT_E_OK);
    for (int i = 0; i < N; i++) {
        lo = r[i].input_len < lo ? r[i].input_len : lo;
        hi = r[i].input_len > hi ? r[i].input_len : hi;
        olo = r[i].output_len < olo ? r[i].output_len : olo;
        ohi = r[i].output_len > ohi ? r[i].output_len : ohi;
        sum += r[i].input_len;
        if (i > 0)
            assert_true(r[i].arrival >= r[i - 1].arrival);
    }
    /* [floor(750), ceil(1250)]; outputs [floor(2.25), ceil(3.75)] = [2, 4] */
    assert_int_equal(lo, 750);
    assert_int_equal(hi, 1250);
    assert_int_equal(olo, 2);
    assert_int_equal(ohi, 4);
    assert_near(sum / N, 1000, 5); /* the mean of a uniform draw: sd 144 / sqrt(20,000) = 1 */
    /* serve.py scales the gaps so the last request goes at N / rate = 4,000 s */
    assert_near(r[N - 1].arrival, 4000, 1e-6);
    assert_true(r[0].arrival > 0); /* the first gap is drawn too */
    /* rate inf: all at 0 */
    w.request_rate = INFINITY;
    assert_int_equal(sim_workload_make(&w, r), KVT_E_OK);
    assert_true(r[N - 1].arrival == 0);
    /* out of range */
    w.range_ratio = 1;
    assert_int_equal(sim_workload_make(&w, r), KVT_E_RANGE);
    w.range_ratio = 0;
    w.num_prompts = 0;
    assert_int_equal(sim_workload_make(&w, r), KVT_E_RANGE);
    free(r);
}

/* Gamma(k, theta) has mean k theta and variance k theta^2: over 200,000
 * draws the sample mean is within 1% (sd of the mean: sqrt(k) theta / 447). */
static void gamma_moments(void **state)
{
    static const double shapes[] = {0.5, 1, 4};
    struct sim_rng g;

    (void)state;
    sim_rng_seed(&g, 3);
    for (size_t s = 0; s < 3; s++) {
        double k = shapes[s], sum = 0, sq = 0;
        for (int i = 0; i < 200000; i++) {
            double x = sim_rng_gamma(&g, k, 2);
            sum += x;
            sq += x * x;
        }
        sum /= 200000;
        assert_near(sum, 2 * k, 0.01 * 2 * k);
        assert_near(sq / 200000 - sum * sum, 4 * k, 0.05 * 4 * k);
    }
}

/* numpy.percentile's linear rule: [1, 2, 3, 4] -> p50 = 2.5, p99 = 3 + 0.97. */
static void percentiles_as_numpy(void **state)
{
    static const double v[] = {1, 2, 3, 4};

    (void)state;
    assert_near(sim_percentile(v, 4, 50), 2.5, 1e-12);
    assert_near(sim_percentile(v, 4, 99), 3.97, 1e-12);
    assert_near(sim_percentile(v, 4, 100), 4, 1e-12);
    assert_near(sim_percentile(v, 1, 99), 1, 1e-12);
    assert_near(sim_percentile(v, 0, 50), 0, 1e-12);
}

/* ITL over gaps kept with their counts, as numpy.percentile reads the
 * expanded list. Gaps (s, count): (0.004, 1) (0.001, 2) (0.003, 1)
 * (0.002, 1) expand to [1, 1, 2, 3, 4] ms: median at position 2 = 2 ms;
 * p99 at 4 x 0.99 = 3.96, between 3 and 4 ms = 3.96 ms; mean 11 / 5 =
 * 2.2 ms. Ten thousand gaps of 10,000 down to 1 us, one each, in falling
 * order: median at 4,999.5 = 5,000.5 us; p99 at 9,999 x 0.99 = 9,899.01,
 * between 9,900 and 9,901 us = 9,900.01 us. A thousand equal gaps of 5 ms
 * give 5 ms for both; one gap gives itself. */
static int cmp_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void itl_percentiles_over_counted_gaps(void **state)
{
    struct sim_gap few[] = {{0.004, 1}, {0.001, 2}, {0.003, 1}, {0.002, 1}};
    struct sim_gap one[] = {{0.007, 1}};
    struct sim_gap *many = malloc(10000 * sizeof *many), *same = malloc(1000 * sizeof *same);
    struct sim_run r = {0};
    struct sim_metrics m;

    (void)state;
    assert_non_null(many);
    assert_non_null(same);
    r.gaps = few;
    r.ngaps = 4;
    assert_int_equal(sim_report(&r, &m), KVT_E_OK);
    assert_near(m.itl_ms.median, 2, 1e-9);
    assert_near(m.itl_ms.p99, 3.96, 1e-9);
    assert_near(m.itl_ms.mean, 2.2, 1e-9);
    for (size_t i = 0; i < 10000; i++)
        many[i] = (struct sim_gap){(double)(10000 - i) * 1e-6, 1};
    r.gaps = many;
    r.ngaps = 10000;
    assert_int_equal(sim_report(&r, &m), KVT_E_OK);
    assert_near(m.itl_ms.median, 5.0005, 1e-9);
    assert_near(m.itl_ms.p99, 9.90001, 1e-9);
    for (size_t i = 0; i < 1000; i++)
        same[i] = (struct sim_gap){0.005, 1};
    r.gaps = same;
    r.ngaps = 1000;
    assert_int_equal(sim_report(&r, &m), KVT_E_OK);
    assert_near(m.itl_ms.median, 5, 1e-9);
    assert_near(m.itl_ms.p99, 5, 1e-9);
    r.gaps = one;
    r.ngaps = 1;
    assert_int_equal(sim_report(&r, &m), KVT_E_OK);
    assert_near(m.itl_ms.median, 7, 1e-9);
    assert_near(m.itl_ms.p99, 7, 1e-9);
    /* against the expanded list sorted, over random gaps with ties */
    srand(7);
    for (int trial = 0; trial < 300; trial++) {
        size_t n = 1 + (size_t)rand() % 300, total = 0;
        double flat[900];
        for (size_t i = 0; i < n; i++) {
            many[i] = (struct sim_gap){(double)(rand() % 40) * 1e-3, 1 + (uint64_t)(rand() % 3)};
            for (uint64_t c = 0; c < many[i].count; c++)
                flat[total++] = many[i].gap * 1000;
        }
        qsort(flat, total, sizeof *flat, cmp_ms);
        r.gaps = many;
        r.ngaps = n;
        assert_int_equal(sim_report(&r, &m), KVT_E_OK);
        assert_near(m.itl_ms.median, sim_percentile(flat, total, 50), 1e-9);
        assert_near(m.itl_ms.p99, sim_percentile(flat, total, 99), 1e-9);
    }
    free(many);
    free(same);
}

/* EngineArgs.get_batch_defaults, row by row. */
static void batch_defaults(void **state)
{
    static const struct {
        double gib;
        const char *name;
        enum sim_usage usage;
        uint64_t seqs, tokens;
    } rows[] = {
        {80, "H100 SXM", SIM_USAGE_API_SERVER, 1024, 8192},
        {80, "H100 SXM", SIM_USAGE_LLM_CLASS, 1024, 16384},
        {141, "H200 SXM", SIM_USAGE_LLM_CLASS, 1024, 16384},
        {80, "A100 80GB SXM", SIM_USAGE_API_SERVER, 256, 2048},
        {80, "A100 80GB SXM", SIM_USAGE_LLM_CLASS, 256, 8192},
        {24, "RTX 4090", SIM_USAGE_API_SERVER, 256, 2048},
        {48, "L40S", SIM_USAGE_LLM_CLASS, 256, 8192},
        {0, NULL, SIM_USAGE_API_SERVER, 256, 2048},
    };

    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint64_t seqs, tokens;
        sim_batch_defaults(rows[i].gib, rows[i].name, rows[i].usage, &seqs, &tokens);
        assert_int_equal(seqs, rows[i].seqs);
        assert_int_equal(tokens, rows[i].tokens);
    }
}

/* TP 2, 10 layers, hidden 4,096 (8,192 bytes a token), a 100 GB/s link and
 * 10 us an all-reduce, one token: the ring moves 2 (2 - 1) / 2 x 8,192 =
 * 8,192 bytes = 0.08192 us; 2 x 10 all-reduces x 10.08192 us = 201.6384 us.
 * A MoE with a quarter active: one token reads 1/4 of the weights, two
 * 1 - 0.75^2 = 0.4375. */
static void step_time_by_hand(void **state)
{
    struct sim_sched_config c = toy(1, 1, 1);
    struct sim_step_load l = {.tokens = 1, .seqs = 1};
    struct sim_step_time t;

    (void)state;
    c.hw.tp = 2;
    c.hw.act_token_bytes = 8192;
    c.hw.link_bandwidth = 1e11;
    c.hw.allreduce_latency_s = 1e-5;
    sim_step_time(&c.hw, &l, &t);
    assert_near(t.comm_s, 201.6384e-6, 1e-12);
    /* memory: 1 GB + one token written (100 kB) = 1.0001 ms */
    assert_near(t.memory_s, 1.0001e-3, 1e-12);
    assert_near(t.total_s, 1.0001e-3 + 201.6384e-6 + 0.5e-3, 1e-12);
    c.hw.tp = 1;
    c.hw.kv_full_token_bytes = 0;
    /* a MoE of 1 GB of routed experts, 1 of 4 a token, nothing shared:
     * one token reads 1/4 of them; two touch 1 - (3/4)^2 = 7/16 */
    c.hw.weights = (struct kv_moe_split){
        .moe = true, .experts_known = true, .experts_bytes = 1e9, .experts = 4, .per_token = 1};
    sim_step_time(&c.hw, &l, &t);
    assert_near(t.memory_s, 0.25e-3, 1e-12);
    l.tokens = 2;
    sim_step_time(&c.hw, &l, &t);
    assert_near(t.memory_s, 0.4375e-3, 1e-12);
}

/* Inputs that cannot run are refused with the request at fault. */
static void bad_input(void **state)
{
    struct sim_sched_config c = toy(3, 256, 2048);
    struct sim_request r[2];
    struct sim_run run;
    uint64_t bad = 99;

    (void)state;
    burst(r, 2, 16, 16);
    r[1].input_len = 64; /* 64 + 16 - 1 = 79 tokens: 5 blocks of the 3 */
    assert_int_equal(sim_sched_run(&c, r, 2, &run, &bad), KVT_E_RANGE);
    assert_int_equal(bad, 1);
    assert_null(run.req);
    c = toy(3, 0, 2048); /* max_num_seqs 0 */
    assert_int_equal(sim_sched_run(&c, r, 1, &run, NULL), KVT_E_RANGE);
    c = toy(3, 1, 2048);
    r[0].output_len = 0;
    assert_int_equal(sim_sched_run(&c, r, 1, &run, &bad), KVT_E_RANGE);
    assert_int_equal(sim_sched_run(&c, r, 0, &run, &bad), KVT_E_RANGE);
    assert_string_equal(sim_limit_name(SIM_LIMIT_TOKEN_BUDGET), "token_budget");
    assert_string_equal(sim_limit_name(SIM_LIMIT__COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_request_alone),
        cmocka_unit_test(burst_over_the_blocks),
        cmocka_unit_test(batch_caps_at_the_blocks),
        cmocka_unit_test(budget_splits_a_long_prompt),
        cmocka_unit_test(whole_sequence_admission),
        cmocka_unit_test(resumed_request_hits_its_own_blocks),
        cmocka_unit_test(eviction_takes_the_oldest_free_blocks),
        cmocka_unit_test(max_num_seqs_caps),
        cmocka_unit_test(token_budget_caps),
        cmocka_unit_test(client_concurrency),
        cmocka_unit_test(littles_law),
        cmocka_unit_test(same_seed_same_output),
        cmocka_unit_test(workload_shape),
        cmocka_unit_test(gamma_moments),
        cmocka_unit_test(percentiles_as_numpy),
        cmocka_unit_test(itl_percentiles_over_counted_gaps),
        cmocka_unit_test(batch_defaults),
        cmocka_unit_test(step_time_by_hand),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
