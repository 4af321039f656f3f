/* vLLM V1's scheduling loop over a benchmark's requests (sim_sched.h). */
#include "sim_sched.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const limit_names[] = {
#define SIM_LIMIT_NAME(name, str) str,
    SIM_LIMITS(SIM_LIMIT_NAME)
#undef SIM_LIMIT_NAME
};

const char *sim_limit_name(enum sim_limit l)
{
    return (unsigned)l < SIM_LIMIT__COUNT ? limit_names[l] : "?";
}

void sim_batch_defaults(double gpu_mem_gib, const char *gpu_name, enum sim_usage usage,
                        uint64_t *max_num_seqs, uint64_t *max_num_batched_tokens)
{
    bool a100 = false;

    /* "a100" not in device_name.lower(): PR #17885 found the larger budget
     * slower on A100 */
    for (const char *p = gpu_name; p && *p && !a100; p++)
        a100 = strncasecmp(p, "a100", 4) == 0;
    if (gpu_mem_gib >= 70 && !a100) {
        *max_num_seqs = 1024;
        *max_num_batched_tokens = usage == SIM_USAGE_LLM_CLASS ? 16384 : 8192;
    } else {
        *max_num_seqs = 256;
        *max_num_batched_tokens = usage == SIM_USAGE_LLM_CLASS ? 8192 : 2048;
    }
}

/* A request inside the engine. */
struct req {
    uint32_t input, output;
    uint32_t computed;  /* tokens whose KV is in the cache */
    uint32_t emitted;   /* output tokens the client has */
    uint64_t blocks;    /* blocks held */
    uint64_t last_step; /* step that gave the last token */
    /* preempted with prefix caching on: its first `cached` blocks are still
     * in the free queue with their hashes, in segment `seg` (SEG_NONE: none) */
    uint64_t cached, seg;
};

#define SEG_NONE UINT64_MAX
#define SEG_ANON UINT64_MAX

/* A run of free blocks in the free queue (block_pool.py, FreeKVCacheBlockQueue):
 * `count` blocks freed together, evicted from the front. owner SEG_ANON: no
 * request will hit them (random prompts share nothing); otherwise they are
 * request owner's blocks 0 .. count-1, its tail first, so evicting from the
 * front shortens its cached prefix. */
struct seg {
    uint64_t owner, count;
};

struct engine {
    const struct sim_sched_config *c;
    const struct sim_request *in;
    struct sim_run *out;
    struct req *r;
    uint64_t n;
    uint64_t *running, nrun;                    /* admission order */
    uint64_t *wait, wait_head, nwait, wait_cap; /* a ring: front at wait_head */
    uint64_t *sched_idx, *sched_new, nsched;
    uint64_t free_blocks;
    bool dense; /* one KV group: ceil(tokens / block) */
    bool nomem; /* a free-queue allocation failed inside schedule() */
    /* the free queue, with prefix caching on: segs[seg_head .. nsegs) hold
     * free_blocks blocks in eviction order; segment k of the run is
     * segs[k - seg_base] */
    struct seg *segs;
    uint64_t seg_head, nsegs, segs_cap, seg_base;
    /* the client */
    uint64_t next_send, in_flight;
    double slot_free_at;
    size_t gaps_cap, trace_cap;
};

uint64_t sim_sched_blocks(const struct sim_sched_config *c, uint64_t tokens)
{
    if (c->calc && c->calc->kv_cache_groups > 1)
        return kv_calc_blocks_per_request(c->calc, tokens);
    return (tokens + c->block_size - 1) / c->block_size;
}

static void wait_push_back(struct engine *e, uint64_t i)
{
    e->wait[(e->wait_head + e->nwait) % e->wait_cap] = i;
    e->nwait++;
}

static void wait_push_front(struct engine *e, uint64_t i)
{
    e->wait_head = (e->wait_head + e->wait_cap - 1) % e->wait_cap;
    e->wait[e->wait_head] = i;
    e->nwait++;
}

static uint64_t wait_pop_front(struct engine *e)
{
    uint64_t i = e->wait[e->wait_head];
    e->wait_head = (e->wait_head + 1) % e->wait_cap;
    e->nwait--;
    return i;
}

/* Sends what the client may send by time t. */
static void client_release(struct engine *e, double t)
{
    const struct sim_sched_config *c = e->c;

    while (e->next_send < e->n && e->in[e->next_send].arrival <= t &&
           (c->max_concurrency == 0 || e->in_flight < c->max_concurrency)) {
        uint64_t i = e->next_send++;
        double a = e->in[i].arrival;
        e->out->req[i].send = a > e->slot_free_at ? a : e->slot_free_at;
        e->in_flight++;
        wait_push_back(e, i);
    }
}

static bool caching(const struct engine *e)
{
    return e->c->prefix_caching && e->dense;
}

/* Appends count blocks to the back of the free queue; false when out of memory. */
static bool seg_push(struct engine *e, uint64_t owner, uint64_t count)
{
    if (count == 0)
        return true;
    if (owner == SEG_ANON && e->nsegs > e->seg_head && e->segs[e->nsegs - 1].owner == SEG_ANON) {
        e->segs[e->nsegs - 1].count += count; /* one run of blocks nobody hits */
        return true;
    }
    if (e->nsegs == e->segs_cap) {
        if (e->seg_head >= e->nsegs / 2 && e->seg_head > 0) {
            /* reuse the consumed front: segment numbers stay stable through seg_base */
            memmove(e->segs, e->segs + e->seg_head, (e->nsegs - e->seg_head) * sizeof *e->segs);
            e->seg_base += e->seg_head;
            e->nsegs -= e->seg_head;
            e->seg_head = 0;
        } else {
            uint64_t cap = e->segs_cap ? 2 * e->segs_cap : 64;
            struct seg *g = realloc(e->segs, cap * sizeof *g);
            if (!g)
                return false;
            e->segs = g;
            e->segs_cap = cap;
        }
    }
    if (owner != SEG_ANON) {
        e->r[owner].cached = count;
        e->r[owner].seg = e->seg_base + e->nsegs;
    }
    e->segs[e->nsegs++] = (struct seg){owner, count};
    return true;
}

/* Takes n blocks from the front of the free queue (BlockPool.get_new_blocks:
 * popleft_n, each cached block evicted as it is taken). */
static void seg_take(struct engine *e, uint64_t n)
{
    while (n > 0) {
        struct seg *g = &e->segs[e->seg_head];
        uint64_t t = n < g->count ? n : g->count;
        g->count -= t;
        n -= t;
        if (g->owner != SEG_ANON)
            e->r[g->owner].cached = g->count;
        if (g->count == 0) {
            if (g->owner != SEG_ANON)
                e->r[g->owner].seg = SEG_NONE;
            e->seg_head++;
        }
    }
}

static uint64_t blocks_for(const struct engine *e, uint64_t tokens)
{
    return e->dense ? (tokens + e->c->block_size - 1) / e->c->block_size
                    : sim_sched_blocks(e->c, tokens);
}

/* Grows request i's blocks to cover `tokens`; false (nothing taken) if the
 * free blocks do not suffice. */
static bool allocate(struct engine *e, uint64_t i, uint64_t tokens)
{
    struct req *q = &e->r[i];
    uint64_t need = blocks_for(e, tokens);

    if (need <= q->blocks)
        return true;
    if (need - q->blocks > e->free_blocks)
        return false;
    if (caching(e))
        seg_take(e, need - q->blocks);
    e->free_blocks -= need - q->blocks;
    q->blocks = need;
    return true;
}

/* Frees request i's blocks, its tail first (SingleTypeKVCacheManager.free:
 * reversed); with prefix caching a preempted request's full, computed blocks
 * keep their hashes (BlockPool.free_blocks leaves them cached until evicted).
 * False when out of memory. */
static bool release_blocks(struct engine *e, uint64_t i, bool preempted)
{
    struct req *q = &e->r[i];
    uint64_t full = q->computed / e->c->block_size, held = q->blocks;

    if (full > held)
        full = held;
    e->free_blocks += held;
    q->blocks = 0;
    if (!caching(e))
        return true;
    if (!preempted)
        return seg_push(e, SEG_ANON, held); /* a finished prompt nobody shares */
    return seg_push(e, SEG_ANON, held - full) && seg_push(e, i, full);
}

/* Blocks a waiting request i finds in the prefix cache: its own, if it was
 * preempted and they were not evicted since (KVCacheManager.get_computed_blocks,
 * at most num_tokens - 1 tokens, whole blocks). */
static uint64_t cache_hit(const struct engine *e, uint64_t i)
{
    const struct req *q = &e->r[i];
    uint64_t most = ((uint64_t)q->input + q->emitted - 1) / e->c->block_size;

    if (!caching(e) || q->seg == SEG_NONE || q->computed != 0)
        return 0;
    return q->cached < most ? q->cached : most;
}

/* Request i takes its `hit` cached blocks out of the free queue
 * (BlockPool.touch) and starts from them. */
static void take_hit(struct engine *e, uint64_t i, uint64_t hit)
{
    struct req *q = &e->r[i];

    if (q->seg != SEG_NONE) {
        struct seg *g = &e->segs[q->seg - e->seg_base];
        /* the blocks past the hit stay where they are, for nobody */
        g->count -= hit;
        g->owner = SEG_ANON;
        q->seg = SEG_NONE;
    }
    q->cached = 0;
    if (hit == 0)
        return;
    e->free_blocks -= hit;
    q->blocks = hit;
    q->computed = (uint32_t)(hit * e->c->block_size);
    e->out->resume_hit_tokens += (uint64_t)q->computed;
}

static bool add_gap(struct engine *e, double gap, uint64_t count)
{
    struct sim_run *o = e->out;

    if (o->ngaps == e->gaps_cap) {
        size_t cap = e->gaps_cap ? 2 * e->gaps_cap : 1024;
        struct sim_gap *g = realloc(o->gaps, cap * sizeof *g);
        if (!g)
            return false;
        o->gaps = g;
        e->gaps_cap = cap;
    }
    o->gaps[o->ngaps].gap = gap;
    o->gaps[o->ngaps].count = count;
    o->ngaps++;
    return true;
}

static bool add_sample(struct engine *e, double t, double dt)
{
    struct sim_run *o = e->out;

    if (o->ntrace == e->trace_cap) {
        size_t cap = e->trace_cap ? 2 * e->trace_cap : 1024;
        struct sim_sample *s = realloc(o->trace, cap * sizeof *s);
        if (!s)
            return false;
        o->trace = s;
        e->trace_cap = cap;
    }
    o->trace[o->ntrace++] = (struct sim_sample){t, dt, e->nrun, e->c->num_blocks - e->free_blocks};
    return true;
}

/* Schedule::schedule for one step: fills sched_idx/sched_new and returns
 * what capped the batch. */
static enum sim_limit schedule(struct engine *e)
{
    const struct sim_sched_config *c = e->c;
    uint64_t budget = c->max_num_batched_tokens;
    bool preempted = false, blocked_kv = false, blocked_budget = false;

    e->nsched = 0;
    for (uint64_t k = 0; k < e->nrun && budget > 0;) {
        uint64_t i = e->running[k];
        struct req *q = &e->r[i];
        uint64_t want = (uint64_t)q->input + q->emitted - q->computed;
        uint64_t take = want < budget ? want : budget;
        bool self = false;

        while (!allocate(e, i, (uint64_t)q->computed + take)) {
            /* FCFS: preempt the last admitted (scheduler.py: self.running.pop()) */
            uint64_t v = e->running[--e->nrun];
            if (!release_blocks(e, v, true))
                e->nomem = true;
            e->r[v].computed = 0;
            e->out->req[v].preemptions++;
            e->out->preemptions++;
            wait_push_front(e, v);
            preempted = true;
            if (v == i) {
                self = true;
                break;
            }
        }
        if (self)
            break;
        e->sched_idx[e->nsched] = i;
        e->sched_new[e->nsched++] = take;
        budget -= take;
        k++;
    }
    if (budget == 0 && e->nsched < e->nrun)
        blocked_budget = true;
    /* scheduler.py: waiting requests are tried only when nothing was preempted */
    while (!preempted && e->nwait > 0) {
        uint64_t i = e->wait[e->wait_head];
        struct req *q = &e->r[i];
        /* a resumed request starts from its own blocks still cached; they are
         * among the free blocks, so every check below counts them as free */
        uint64_t hit = cache_hit(e, i), from = q->computed + hit * c->block_size;
        uint64_t full = (uint64_t)q->input + q->emitted, want = full - from, take;

        if (e->nrun >= c->max_num_seqs)
            return SIM_LIMIT_MAX_NUM_SEQS;
        if (budget == 0 || (c->no_chunked_prefill && want > budget)) {
            /* out of budget: but if its whole prompt would not find blocks
             * either, more budget would not grow the batch; the cache caps it */
            if (blocks_for(e, full) > e->free_blocks)
                blocked_kv = true;
            else
                blocked_budget = true;
            break;
        }
        take = want < budget ? want : budget;
        /* the admission gate (full_isl_admission): the whole sequence so far
         * must fit the free blocks (a resumed request's output counts), so a
         * long prompt is not admitted on its first chunk only to be preempted
         * later; without it the first chunk's blocks must */
        if (blocks_for(e, c->full_isl_admission ? full : from + take) >
            q->blocks + e->free_blocks) {
            blocked_kv = true;
            break;
        }
        take_hit(e, i, hit);
        if (!allocate(e, i, from + take)) {
            blocked_kv = true; /* not reached: checked above */
            break;
        }
        wait_pop_front(e);
        e->running[e->nrun++] = i;
        e->sched_idx[e->nsched] = i;
        e->sched_new[e->nsched++] = take;
        budget -= take;
    }
    if (preempted || blocked_kv)
        return SIM_LIMIT_KV_BLOCKS;
    if (blocked_budget)
        return SIM_LIMIT_TOKEN_BUDGET;
    return SIM_LIMIT_ARRIVALS;
}

/* The step's load on the model: tokens, context read, attention pairs. */
static void step_load(const struct engine *e, struct sim_step_load *l)
{
    uint64_t w = e->c->hw.window;

    memset(l, 0, sizeof *l);
    for (uint64_t k = 0; k < e->nsched; k++) {
        const struct req *q = &e->r[e->sched_idx[k]];
        double ctx = q->computed, t = (double)e->sched_new[k];
        l->tokens += e->sched_new[k];
        l->seqs++;
        l->kv_read_full += ctx;
        l->kv_read_slide += w && ctx > (double)w ? (double)w : ctx;
        /* each new token attends to the context and to the chunk up to itself */
        l->attn_pairs += t * (ctx + (t + 1) / 2);
    }
}

/* Applies a step that ended at t_end: tokens computed and sampled, requests
 * finished. Returns false when out of memory. */
static bool finish_step(struct engine *e, uint64_t step, double dt, double t_end)
{
    struct sim_run *o = e->out;
    uint64_t regular = 0, kept = 0, finished = 0;

    for (uint64_t k = 0; k < e->nsched; k++) {
        uint64_t i = e->sched_idx[k];
        struct req *q = &e->r[i];
        q->computed += (uint32_t)e->sched_new[k];
        if (q->computed < q->input + q->emitted)
            continue; /* a prefill chunk short of the prompt's end samples nothing */
        q->emitted++;
        if (q->emitted == 1)
            o->req[i].first_token = t_end;
        else if (q->last_step + 1 == step)
            regular++; /* the usual case: a gap of exactly this step */
        else if (!add_gap(e, t_end - o->req[i].finish, 1))
            return false;
        o->req[i].finish = t_end; /* the last token so far; the end once done */
        q->last_step = step;
    }
    if (regular && !add_gap(e, dt, regular))
        return false;
    /* drop the finished from the running list, keeping its order */
    for (uint64_t k = 0; k < e->nrun; k++) {
        uint64_t i = e->running[k];
        if (e->r[i].emitted >= e->r[i].output) {
            if (!release_blocks(e, i, false))
                return false;
            finished++;
        } else {
            e->running[kept++] = i;
        }
    }
    e->nrun = kept;
    if (finished) {
        e->in_flight -= finished;
        e->slot_free_at = t_end;
    }
    return true;
}

static enum kvt_err check(const struct sim_sched_config *c, const struct sim_request *reqs,
                          uint64_t n, uint64_t *bad_req)
{
    if (n == 0 || c->max_num_seqs == 0 || c->max_num_batched_tokens == 0 || c->block_size == 0 ||
        c->num_blocks == 0 || !(c->hw.bandwidth > 0) || !(c->hw.flops > 0))
        return KVT_E_RANGE;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t hold = (uint64_t)reqs[i].input_len + reqs[i].output_len - 1;
        if (reqs[i].input_len == 0 || reqs[i].output_len == 0 ||
            sim_sched_blocks(c, hold) > c->num_blocks ||
            (c->no_chunked_prefill && reqs[i].input_len > c->max_num_batched_tokens) ||
            (i > 0 && reqs[i].arrival < reqs[i - 1].arrival)) {
            if (bad_req)
                *bad_req = i;
            return KVT_E_RANGE;
        }
    }
    return KVT_E_OK;
}

enum kvt_err sim_sched_run(const struct sim_sched_config *c, const struct sim_request *reqs,
                           uint64_t n, struct sim_run *out, uint64_t *bad_req)
{
    struct engine e = {.c = c, .in = reqs, .out = out, .n = n};
    uint64_t cap, done = 0, step = 0;
    double t = 0;
    enum kvt_err err;

    memset(out, 0, sizeof *out);
    if ((err = check(c, reqs, n, bad_req)) != KVT_E_OK)
        return err;
    cap = n < c->max_num_seqs ? n : c->max_num_seqs;
    e.r = calloc(n, sizeof *e.r);
    out->req = calloc(n, sizeof *out->req);
    e.wait = malloc(n * sizeof *e.wait);
    e.running = malloc(cap * sizeof *e.running);
    e.sched_idx = malloc(cap * sizeof *e.sched_idx);
    e.sched_new = malloc(cap * sizeof *e.sched_new);
    err = KVT_E_NOMEM;
    if (!e.r || !out->req || !e.wait || !e.running || !e.sched_idx || !e.sched_new)
        goto fail;
    e.wait_cap = n;
    e.free_blocks = c->num_blocks;
    e.dense = !(c->calc && c->calc->kv_cache_groups > 1);
    out->prefix_caching = caching(&e);
    for (uint64_t i = 0; i < n; i++)
        e.r[i].seg = SEG_NONE;
    if (!seg_push(&e, SEG_ANON, c->num_blocks))
        goto fail;
    out->n = n;
    out->num_blocks = c->num_blocks;
    for (uint64_t i = 0; i < n; i++) {
        e.r[i].input = reqs[i].input_len;
        e.r[i].output = reqs[i].output_len;
        out->req[i].input_len = reqs[i].input_len;
        out->req[i].output_len = reqs[i].output_len;
    }

    client_release(&e, t);
    while (done < n) {
        struct sim_step_load load;
        struct sim_step_time st;
        enum sim_limit lim;
        uint64_t before;

        if (e.nrun == 0 && e.nwait == 0) {
            /* idle: nothing in flight, so the next request goes out at its arrival */
            t = reqs[e.next_send].arrival > t ? reqs[e.next_send].arrival : t;
            client_release(&e, t);
            continue;
        }
        lim = schedule(&e);
        if (e.nomem) {
            err = KVT_E_NOMEM;
            goto fail;
        }
        if (e.nsched == 0) {
            err = KVT_E_CONFLICT;
            goto fail;
        }
        step_load(&e, &load);
        sim_step_time(&c->hw, &load, &st);
        out->steps++;
        out->busy_s += st.total_s;
        out->memory_s += st.memory_s;
        out->compute_s += st.compute_s;
        out->comm_s += st.comm_s;
        out->overhead_s += st.overhead_s;
        out->memory_bound_steps += st.memory_s >= st.compute_s;
        out->limit_s[lim] += st.total_s;
        out->running_s += (double)e.nrun * st.total_s;
        if (e.nrun > out->max_running)
            out->max_running = e.nrun;
        if (c->num_blocks - e.free_blocks > out->peak_blocks)
            out->peak_blocks = c->num_blocks - e.free_blocks;
        if (c->trace && !add_sample(&e, t, st.total_s))
            goto fail;
        before = e.in_flight;
        if (!finish_step(&e, step, st.total_s, t + st.total_s))
            goto fail;
        done += before - e.in_flight;
        t += st.total_s;
        step++;
        client_release(&e, t);
    }
    out->duration_s = t;
    free(e.segs);
    free(e.r);
    free(e.wait);
    free(e.running);
    free(e.sched_idx);
    free(e.sched_new);
    return KVT_E_OK;
fail:
    free(e.segs);
    free(e.r);
    free(e.wait);
    free(e.running);
    free(e.sched_idx);
    free(e.sched_new);
    sim_run_free(out);
    return err;
}

void sim_run_free(struct sim_run *r)
{
    free(r->req);
    free(r->gaps);
    free(r->trace);
    r->req = NULL;
    r->gaps = NULL;
    r->trace = NULL;
    r->n = 0;
    r->ngaps = 0;
    r->ntrace = 0;
}
