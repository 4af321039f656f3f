/* The roofline step time (sim_step.h states the model). */
#include "sim_step.h"

#include <math.h>
#include <string.h>

/* Links per GPU, GB/s one way (the vendors' NVLink / fabric figures halved
 * from their bidirectional totals; PCIe x16 per generation). */
static const struct {
    const char *name;
    double gbps;
} links[] = {
    {"H200 SXM", 450},      /* NVLink 4: 900 GB/s bidirectional */
    {"H100 SXM", 450},      /* NVLink 4 */
    {"GH200", 450},         /* NVLink 4 */
    {"B200", 900},          /* NVLink 5: 1.8 TB/s bidirectional */
    {"A100 80GB SXM", 300}, /* NVLink 3: 600 GB/s bidirectional */
    {"A100 40GB SXM", 300},
    {"A100 80GB PCIe", 32}, /* PCIe 4.0 x16; NVLink bridges are optional */
    {"MI300X", 448},        /* Infinity Fabric: 7 links x 64 GB/s */
    {"H100 PCIe", 64},      /* PCIe 5.0 x16 */
    {"RTX 5090", 64},       /* PCIe 5.0 x16 */
    {"L40S", 32},           /* PCIe 4.0 x16 */
    {"L4", 32},             /* PCIe 4.0 x16 */
    {"A10G", 32},           /* PCIe 4.0 x16 */
    {"RTX 4090", 32},       /* PCIe 4.0 x16 */
    {"RTX 4080", 32},       /* PCIe 4.0 x16 */
    {"RTX 3090", 32},       /* PCIe 4.0 x16 */
    {"RTX 3060 12GB", 32},  /* PCIe 4.0 x16 */
    {"T4", 16},             /* PCIe 3.0 x16 */
};

double sim_link_gbps(const struct kv_gpu_preset *g)
{
    if (!g)
        return 0;
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
        if (strcmp(links[i].name, g->name) == 0)
            return links[i].gbps;
    return 0;
}

enum kvt_err sim_hw_from_calc(const struct kv_result *r, double bandwidth_gbps, double tflops,
                              double link_gbps, struct sim_hw *hw)
{
    const struct kv_model *m = &r->model;
    double tp = r->deploy.tp ? r->deploy.tp : 1, total, active, heads;
    uint32_t attn_layers = r->full_layers + r->sliding_layers;

    memset(hw, 0, sizeof *hw);
    if (!r->has_weights || !(m->params_b > 0) || !(bandwidth_gbps > 0) || !(tflops > 0) ||
        (tp > 1 && !(link_gbps > 0)))
        return KVT_E_MISSING;
    total = m->params_b * 1e9;
    active = m->active_params_b > 0 ? m->active_params_b * 1e9 : total;
    hw->tp = (uint32_t)tp;
    hw->layers = m->layers;
    /* pipeline stages in sequence: each TP rank holds, in all, 1/tp of the weights */
    kv_moe_split(r, &hw->weights);
    hw->weights.shared_bytes /= tp;
    hw->weights.experts_bytes /= tp;
    hw->active_params = active / tp;
    hw->kv_full_token_bytes = (double)r->layer_token_bytes * r->full_layers;
    hw->kv_slide_token_bytes = (double)r->layer_token_bytes * r->sliding_layers;
    hw->window = r->sliding_layers ? m->sliding_window : 0;
    hw->state_bytes = (double)r->state_bytes_per_request / tp;
    /* QK^T and PV: 2 FLOPs a multiply-add, each over head_dim (MLA absorbed:
     * the scores over rank + rope dims, the values over the rank) */
    heads = m->heads ? (double)m->heads / tp : 0;
    if (r->mla)
        hw->attn_flops_pair = heads * 2.0 * (2.0 * m->mla_rank + m->mla_rope_dim) * attn_layers;
    else
        hw->attn_flops_pair = heads * 4.0 * r->head_dim * attn_layers;
    hw->bandwidth = bandwidth_gbps * 1e9;
    hw->flops = tflops * 1e12;
    hw->act_token_bytes = 2.0 * m->hidden;
    hw->link_bandwidth = link_gbps * 1e9;
    hw->allreduce_latency_s = SIM_ALLREDUCE_LATENCY_S;
    hw->overhead_s = SIM_STEP_OVERHEAD_S;
    return KVT_E_OK;
}

void sim_step_time(const struct sim_hw *hw, const struct sim_step_load *l, struct sim_step_time *t)
{
    double weights = kv_moe_read_bytes(&hw->weights, (double)l->tokens), bytes, flops;

    /* read: the context cached before the step; written: the step's own tokens */
    bytes = weights + hw->kv_full_token_bytes * (l->kv_read_full + (double)l->tokens) +
            hw->kv_slide_token_bytes * (l->kv_read_slide + (double)l->tokens) +
            hw->state_bytes * 2.0 * (double)l->seqs;
    flops = 2.0 * hw->active_params * (double)l->tokens + hw->attn_flops_pair * l->attn_pairs;
    t->memory_s = bytes / hw->bandwidth;
    t->compute_s = flops / hw->flops;
    t->comm_s = 0;
    if (hw->tp > 1) {
        double ring = 2.0 * (hw->tp - 1) / hw->tp * hw->act_token_bytes * (double)l->tokens;
        t->comm_s = 2.0 * hw->layers * (ring / hw->link_bandwidth + hw->allreduce_latency_s);
    }
    t->overhead_s = hw->overhead_s;
    t->total_s = fmax(t->memory_s, t->compute_s) + t->comm_s + t->overhead_s;
}
