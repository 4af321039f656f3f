/* The preset tables against the published facts in tests/fixtures:
 * model-presets.tsv (config.json shapes, parameter counts, KV per token)
 * and gpus.tsv (datasheet memory, bandwidth, bus width). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hf_config.h"
#include "kv_presets.h"
#include "tsv.h"

static unsigned long long num(const char *s)
{
    return strtoull(s, NULL, 10);
}

/* "Qwen/Qwen2.5-7B(-Instruct)" -> "Qwen/Qwen2.5-7B" */
static void base_repo(const char *repo, char *out, size_t cap)
{
    size_t n = strcspn(repo, "(");
    if (n >= cap)
        n = cap - 1;
    memcpy(out, repo, n);
    out[n] = '\0';
}

/* The fixture's Qwen2.5-7B/14B/32B rows are the base models (131,072
 * positions); the presets are the -Instruct repositories, whose config.json
 * says 32,768. */
static unsigned long long instruct_max_position(const char *model, const char *fixture)
{
    static const char *const instruct_32k[] = {"Qwen2.5-7B", "Qwen2.5-14B", "Qwen2.5-32B"};
    for (size_t i = 0; i < sizeof instruct_32k / sizeof instruct_32k[0]; i++)
        if (strcmp(model, instruct_32k[i]) == 0)
            return 32768;
    return num(fixture);
}

/* The presets made from fixtures/configs hold what the config reader reads. */
static void test_config_presets(void **state)
{
    (void)state;
    static const struct {
        const char *preset, *config;
    } rows[] = {
        {"qwen3.5-27b", "qwen3.5-27b.config.json"},
        {"qwen3.6-35b-a3b", "qwen3.5-35b-a3b.config.json"},
        {"deepseek-v3.2", "deepseek-v3.2.config.json"},
    };
    const char *dir = getenv("KVT_FIXTURES");

    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct kv_model_preset *p = kv_model_preset_find(rows[i].preset);
        struct kv_model c;
        struct hf_config_info info;
        struct hf_config_error e;
        char path[512];

        assert_non_null(p);
        snprintf(path, sizeof path, "%s/configs/%s", dir ? dir : "fixtures", rows[i].config);
        assert_int_equal(hf_config_load(path, &c, &info, &e), KVT_E_OK);
        if (p->model.layers != c.layers || p->model.heads != c.heads ||
            p->model.kv_heads != c.kv_heads || p->model.head_dim != c.head_dim ||
            p->model.hidden != c.hidden || p->model.max_position != c.max_position ||
            p->model.state_layers != c.state_layers || p->model.state_kind != c.state_kind ||
            p->model.ssm_heads != c.ssm_heads || p->model.ssm_head_dim != c.ssm_head_dim ||
            p->model.ssm_groups != c.ssm_groups || p->model.ssm_state_dim != c.ssm_state_dim ||
            p->model.conv_kernel != c.conv_kernel || p->model.ssm_dtype != c.ssm_dtype ||
            p->model.mtp_layers != c.mtp_layers || p->model.mla_rank != c.mla_rank ||
            p->model.mla_rope_dim != c.mla_rope_dim ||
            p->model.index_head_dim != c.index_head_dim ||
            llround(p->model.params_b * 1e9) != llround(c.params_b * 1e9) ||
            llround(p->model.active_params_b * 1e9) != llround(c.active_params_b * 1e9))
            fail_msg("%s differs from %s", rows[i].preset, rows[i].config);
    }
    /* Qwen2.5-7B-Instruct defaults to its 32,768 positions */
    assert_int_equal(kv_model_preset_find("qwen2.5-7b")->model.max_position, 32768);
}

static void test_every_fixture_model_is_a_preset(void **state)
{
    (void)state;
    struct tsv t;
    size_t count;

    assert_int_equal(tsv_load("model-presets.tsv", &t), 0);
    kv_model_presets(&count);
    /* the fixture's models, and three from fixtures/configs (test_config_presets) */
    assert_int_equal(count, tsv_count(&t) + 3);
    for (size_t i = 0; i < tsv_count(&t); i++) {
        const char *name = tsv_get(&t, i, "model");
        char repo[128], alias[64];
        const struct kv_model_preset *p = kv_model_preset_find(name), *by_repo;
        const struct kv_model *m;
        bool mla = strcmp(tsv_get(&t, i, "kv_lora_rank"), "-") != 0;

        if (!p)
            fail_msg("%s: no preset", name);
        m = &p->model;
        /* found by the Hugging Face repository and by the lower-case alias too */
        base_repo(tsv_get(&t, i, "hf_repo"), repo, sizeof repo);
        by_repo = kv_model_preset_find(repo);
        if (by_repo != p)
            fail_msg("%s: not found by %s", name, repo);
        snprintf(alias, sizeof alias, "%s", name);
        for (char *c = alias; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
        if (kv_model_preset_find(alias) != p)
            fail_msg("%s: not found by alias %s", name, alias);

        if (m->layers != num(tsv_get(&t, i, "num_hidden_layers")) ||
            m->hidden != num(tsv_get(&t, i, "hidden_size")) ||
            m->heads != num(tsv_get(&t, i, "num_attention_heads")) ||
            m->max_position !=
                instruct_max_position(name, tsv_get(&t, i, "max_position_embeddings")))
            fail_msg("%s: shapes differ from the fixture", name);
        if (!mla && (m->kv_heads != num(tsv_get(&t, i, "num_key_value_heads")) ||
                     m->head_dim != num(tsv_get(&t, i, "head_dim"))))
            fail_msg("%s: KV heads or head_dim differ from the fixture", name);
        if (mla && (m->mla_rank != num(tsv_get(&t, i, "kv_lora_rank")) ||
                    m->mla_rope_dim != num(tsv_get(&t, i, "qk_rope_head_dim"))))
            fail_msg("%s: MLA dims differ from the fixture", name);

        /* parameter counts to the unit */
        if (llround(m->params_b * 1e9) != (long long)num(tsv_get(&t, i, "computed_total_params")))
            fail_msg("%s: params %.9f B", name, m->params_b);
        {
            double active = m->active_params_b > 0 ? m->active_params_b : m->params_b;
            if (llround(active * 1e9) != (long long)num(tsv_get(&t, i, "computed_active_params")))
                fail_msg("%s: active params %.9f B", name, active);
        }

        /* KV per token in 16 bits over every layer, as the fixture computed it */
        {
            struct kv_deploy d;
            struct kv_result r;
            kv_deploy_defaults(&d);
            d.kv_dtype = KV_DTYPE_BF16;
            assert_int_equal(kv_calc(m, &d, &r, NULL, NULL), KVT_E_OK);
            if (r.kv_bytes_per_token !=
                num(tsv_get(&t, i, "kv_bytes_per_token_16bit_all_layers_full")))
                fail_msg("%s: %llu B per token", name, (unsigned long long)r.kv_bytes_per_token);
            if (r.sliding_layers != num(tsv_get(&t, i, "n_swa_layers")) ||
                r.full_layers != num(tsv_get(&t, i, "n_full_attn_layers")))
                fail_msg("%s: sliding/full split differs", name);
        }
    }
    tsv_free(&t);
}

static void test_every_fixture_gpu_is_a_preset(void **state)
{
    (void)state;
    struct tsv t;
    size_t count;

    assert_int_equal(tsv_load("gpus.tsv", &t), 0);
    kv_gpu_presets(&count);
    assert_int_equal(count, tsv_count(&t));
    for (size_t i = 0; i < tsv_count(&t); i++) {
        const char *name = tsv_get(&t, i, "name");
        const struct kv_gpu_preset *g = kv_gpu_preset_find(name);
        char aliases[64];

        if (!g)
            fail_msg("%s: no preset", name);
        snprintf(aliases, sizeof aliases, "%s", tsv_get(&t, i, "aliases"));
        for (char *a = strtok(aliases, ","); a; a = strtok(NULL, ","))
            if (kv_gpu_preset_find(a) != g)
                fail_msg("%s: alias %s finds another GPU", name, a);
        if (g->memory_gib != atof(tsv_get(&t, i, "memory_gb")) ||
            g->peak_gbps != atof(tsv_get(&t, i, "peak_gbps")) ||
            g->bus_bits != num(tsv_get(&t, i, "bus_bits")))
            fail_msg("%s: memory, bandwidth or bus differ from the fixture", name);
        if (strcmp(g->compute_cap, tsv_get(&t, i, "compute_capability")) != 0)
            fail_msg("%s: compute capability %s", name, g->compute_cap);
        /* "~1593000" is the unconfirmed clock, kept with its flag */
        {
            const char *clk = tsv_get(&t, i, "mem_clock_khz");
            bool approx = clk[0] == '~';
            if (g->mem_clock_khz != num(clk + approx) ||
                approx != !!(g->approx & KV_GPU_APPROX_CLOCK))
                fail_msg("%s: memory clock differs", name);
        }
    }
    tsv_free(&t);
}

static void test_lookup_forms(void **state)
{
    (void)state;
    const struct kv_model_preset *q = kv_model_preset_find("qwen2.5-7b");

    assert_non_null(q);
    assert_ptr_equal(kv_model_preset_find("Qwen/Qwen2.5-7B-Instruct"), q);
    assert_ptr_equal(kv_model_preset_find("QWEN2.5-7B"), q);
    assert_ptr_equal(kv_model_preset_find("google/gemma-3-27b-it"),
                     kv_model_preset_find("gemma-3-27b"));
    assert_ptr_equal(kv_model_preset_find("mistralai/Mixtral-8x7B-Instruct-v0.1"),
                     kv_model_preset_find("mixtral-8x7b"));
    assert_null(kv_model_preset_find("qwen2.5-8b"));
    assert_null(kv_model_preset_find(""));
    assert_ptr_equal(kv_gpu_preset_find("H100 SXM"), kv_gpu_preset_find("h100"));
    assert_ptr_equal(kv_gpu_preset_find("rtx 4090"), kv_gpu_preset_find("4090"));
    assert_null(kv_gpu_preset_find("h1000"));
}

static void test_suggestions_are_the_closest(void **state)
{
    (void)state;
    const struct kv_model_preset *m[3];
    const struct kv_gpu_preset *g[3];

    /* one edit away from qwen2.5-7b */
    assert_int_equal(kv_model_preset_suggest("qwen2.5-8b", m, 3), 3);
    assert_string_equal(m[0]->alias, "qwen2.5-7b");
    assert_int_equal(kv_model_preset_suggest("lama-3.1-8b", m, 1), 1);
    assert_string_equal(m[0]->alias, "llama-3.1-8b");
    assert_int_equal(kv_gpu_preset_suggest("h1000", g, 3), 3);
    assert_string_equal(g[0]->name, "H100 SXM");
    assert_int_equal(kv_gpu_preset_suggest("rtx4900", g, 1), 1);
    assert_string_equal(g[0]->name, "RTX 4090");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_fixture_model_is_a_preset),
        cmocka_unit_test(test_config_presets),
        cmocka_unit_test(test_every_fixture_gpu_is_a_preset),
        cmocka_unit_test(test_lookup_forms),
        cmocka_unit_test(test_suggestions_are_the_closest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
