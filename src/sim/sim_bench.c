/* One benchmark run, from a deployment (sim_bench.h). */
#include "sim_bench.h"

#include <stdlib.h>
#include <string.h>

static enum kvt_err fault(struct sim_bench_why *why, enum sim_bench_fault f, enum kvt_err e)
{
    why->fault = f;
    why->err = e;
    return e;
}

enum kvt_err sim_bench_prepare(const struct kv_model *m, struct kv_deploy *d,
                               const struct sim_bench_setup *s, const struct sim_workload_spec *w,
                               struct sim_bench *b, struct sim_bench_why *why)
{
    struct kv_result *r = &b->r;
    uint64_t seqs, tokens, in_max, out_max;
    enum kvt_err e;

    memset(b, 0, sizeof *b);
    memset(why, 0, sizeof *why);
    why->bad = why->other = KV_FIELD_NONE;
    sim_batch_defaults(d->gpu_mem_gib, s->gpu ? s->gpu->name : NULL, s->usage, &seqs, &tokens);
    b->sc.max_num_seqs = s->max_num_seqs ? s->max_num_seqs : seqs;
    if (!s->batched_tokens_given)
        d->max_num_batched_tokens = tokens; /* calc sizes sliding windows by the same budget */
    b->sc.max_num_batched_tokens = d->max_num_batched_tokens;
    b->sc.no_chunked_prefill = s->no_chunked_prefill;
    /* on by default in V1 (CacheConfig.enable_prefix_caching); calc's
     * --no-prefix-caching turns it off for both */
    b->sc.prefix_caching = kv_prefix_caching_on(m, d);
    b->sc.max_concurrency = s->max_concurrency;

    if ((e = kv_calc(m, d, r, &why->bad, &why->other)) != KVT_E_OK)
        return fault(why, SIM_FAULT_CALC, e);
    if (!r->has_blocks || r->num_gpu_blocks == 0)
        return fault(
            why, r->reason == KV_REASON_WEIGHTS_DONT_FIT ? SIM_FAULT_WEIGHTS : SIM_FAULT_NO_CACHE,
            KVT_E_RANGE);
    in_max = sim_workload_max_input(w);
    out_max = sim_workload_max_output(w);
    if (w->input_len == 0 || w->output_len == 0 || in_max > SIM_MAX_LEN || out_max > SIM_MAX_LEN ||
        w->num_prompts == 0 || w->num_prompts > SIM_MAX_PROMPTS)
        return fault(why, SIM_FAULT_WORKLOAD, KVT_E_RANGE);
    if (w->num_prompts * (w->input_len + w->output_len) > SIM_MAX_WORK)
        return fault(why, SIM_FAULT_TOO_MUCH_WORK, KVT_E_RANGE);
    if (r->max_model_len > 0 && in_max + out_max > r->max_model_len)
        return fault(why, SIM_FAULT_PAST_MAX_LEN, KVT_E_RANGE);

    /* a given figure is what the GPU achieves (the probe's); a preset's is its peak */
    b->bandwidth_gbps =
        s->bandwidth_gbps > 0 ? s->bandwidth_gbps : r->deploy.bandwidth_gbps * SIM_MEM_EFFICIENCY;
    b->tflops = s->tflops > 0 ? s->tflops : r->deploy.tflops * SIM_COMPUTE_EFFICIENCY;
    if (!(b->bandwidth_gbps > 0))
        return fault(why, SIM_FAULT_NO_BANDWIDTH, KVT_E_MISSING);
    if (!(b->tflops > 0))
        return fault(why, SIM_FAULT_NO_TFLOPS, KVT_E_MISSING);
    b->link_gbps = sim_link_gbps(s->gpu);
    if (!(b->link_gbps > 0))
        b->link_gbps = SIM_UNKNOWN_LINK_GBPS;
    if (!r->has_weights || !(r->model.params_b > 0) ||
        sim_hw_from_calc(r, b->bandwidth_gbps, b->tflops, b->link_gbps, &b->sc.hw) != KVT_E_OK)
        return fault(why, SIM_FAULT_NO_PARAMS, KVT_E_MISSING);
    /* the release's scheduler admits on the whole sequence or the first chunk */
    b->sc.full_isl_admission = r->rules.full_isl_admission && !s->no_full_isl_admission;
    {
        struct kv_rules rules;
        kv_vllm_rules(&r->rules.version, &rules);
        for (size_t i = 0; i < rules.n_notes; i++)
            if (rules.notes[i].topic == KV_NOTE_ADMISSION)
                b->admission_note = rules.notes[i].text;
    }
    b->sc.num_blocks = r->num_gpu_blocks;
    b->sc.block_size = r->attention_block_size ? r->attention_block_size : r->deploy.block_size;
    b->sc.calc = r;
    return KVT_E_OK;
}

enum kvt_err sim_bench_run(struct sim_bench *b, const struct sim_workload_spec *w,
                           struct sim_metrics *m, struct sim_run *keep, struct sim_bench_why *why)
{
    struct sim_request *reqs;
    struct sim_run run;
    uint64_t bad = UINT64_MAX;
    enum kvt_err e;

    memset(why, 0, sizeof *why);
    why->bad = why->other = KV_FIELD_NONE;
    b->sc.calc = &b->r; /* b may have been copied since it was prepared */
    reqs = malloc(w->num_prompts * sizeof *reqs);
    if (!reqs)
        return fault(why, SIM_FAULT_NOMEM, KVT_E_NOMEM);
    if ((e = sim_workload_make(w, reqs)) != KVT_E_OK) {
        free(reqs);
        return fault(why, SIM_FAULT_WORKLOAD, e);
    }
    if ((e = sim_sched_run(&b->sc, reqs, w->num_prompts, &run, &bad)) != KVT_E_OK) {
        if (e == KVT_E_RANGE && bad < w->num_prompts) {
            why->bad_req = bad;
            why->bad_input = reqs[bad].input_len;
            why->bad_output = reqs[bad].output_len;
            why->blocks_needed =
                sim_sched_blocks(&b->sc, (uint64_t)reqs[bad].input_len + reqs[bad].output_len - 1);
        }
        free(reqs);
        return fault(why,
                     e == KVT_E_NOMEM       ? SIM_FAULT_NOMEM
                     : e == KVT_E_CONFLICT  ? SIM_FAULT_NO_PROGRESS
                     : bad < w->num_prompts ? SIM_FAULT_NEVER_FITS
                                            : SIM_FAULT_WORKLOAD,
                     e);
    }
    free(reqs);
    e = sim_report(&run, m);
    if (keep && e == KVT_E_OK)
        *keep = run;
    else
        sim_run_free(&run);
    return e == KVT_E_OK ? e : fault(why, SIM_FAULT_NOMEM, e);
}
