/* kv_ceiling.c: see kv_ceiling.h. */
#include "kv_ceiling.h"

#include <stddef.h>

struct kv_ceiling kv_ceiling_at(const struct kv_model *m, uint64_t seq, double gbps,
                                double free_bytes)
{
    struct kv_ceiling c = {0};
    struct kv_deploy d;
    struct kv_result res;
    enum kvt_err e;

    if (!(gbps > 0) || !(free_bytes > 0) || seq == 0) {
        c.why = "no bandwidth or free-memory figure";
        return c;
    }
    kv_deploy_defaults(&d);
    d.gpu_mem_gib = free_bytes / KV_GIB;
    d.util = 1.0;
    d.overhead_gib = 0;
    d.max_model_len = seq;
    d.context = seq;
    d.bandwidth_gbps = gbps;
    e = kv_calc(m, &d, &res, NULL, NULL);
    if (e == KVT_E_OVERFLOW) {
        c.why = "the figures overflow 64-bit arithmetic at this length (see kvtutor calc)";
        return c;
    }
    if (e != KVT_E_OK) {
        c.why = kvt_strerror(e); /* the rule the model breaks; kvtutor calc names the field */
        return c;
    }
    if (!kv_calc_decode_at(&res, 1, seq, &c.batch1_tps)) {
        c.why = "the model's weights are unknown";
        return c;
    }
    c.ok = true;
    if (res.has_concurrency && res.reason == KV_REASON_NONE && res.max_concurrent_seqs > 0) {
        c.fill_batch = res.max_concurrent_seqs;
        kv_calc_decode_at(&res, c.fill_batch, seq, &c.fill_tps);
    }
    return c;
}
