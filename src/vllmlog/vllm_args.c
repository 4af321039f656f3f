/* A scanner for the Python reprs vLLM prints its arguments with. No
 * recursion: brackets are counted, and quotes hide them. */
#include "vllm_args.h"

#include <stdio.h>
#include <string.h>

#include "vllm_scan.h"

struct span {
    const char *p;
    size_t n;
};

static const char *skip_string(const char *p, const char *end)
{
    char q = *p++;
    while (p < end && *p != q)
        p += (*p == '\\' && p + 1 < end) ? 2 : 1;
    return p < end ? p + 1 : end;
}

/* The end of the value starting at p: a ',' or a closing bracket at depth 0.
 * Brackets of every kind count alike ({[(< ... >)]}); quotes hide them. */
static const char *skip_value(const char *p, const char *end)
{
    size_t depth = 0;
    while (p < end) {
        char c = *p;
        if (c == '\'' || c == '"') {
            p = skip_string(p, end);
            continue;
        }
        if (c == '{' || c == '[' || c == '(' || c == '<')
            depth++;
        else if (c == '}' || c == ']' || c == ')' || c == '>') {
            if (depth == 0)
                return p;
            depth--;
        } else if (c == ',' && depth == 0)
            return p;
        p++;
    }
    return p;
}

struct items {
    const char *p, *end;
    char sep; /* ':' in a dict, '=' in a key=value list */
};

/* The next key and value; false at the end of the container. */
static bool next_item(struct items *it, struct span *key, struct span *val)
{
    for (;;) {
        const char *p = it->p, *k0, *v0, *v1;
        while (p < it->end && (*p == ' ' || *p == ',' || *p == '\t'))
            p++;
        if (p >= it->end || *p == '}' || *p == ')' || *p == ']')
            return false;
        if (*p == '\'' || *p == '"') {
            k0 = p + 1;
            p = skip_string(p, it->end);
            key->p = k0;
            key->n = p > k0 ? (size_t)(p - k0 - 1) : 0;
        } else {
            k0 = p;
            while (p < it->end && (vllm_scan_digit(*p) || *p == '_' || *p == '.' ||
                                   (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
                p++;
            key->p = k0;
            key->n = (size_t)(p - k0);
        }
        p = vllm_scan_spaces(p, it->end);
        if (p >= it->end || *p != it->sep || key->n == 0) {
            /* not a key: skip whatever this is and try the next item */
            const char *q = skip_value(p, it->end);
            it->p = q > p ? q : p + 1;
            if (it->p > it->end)
                it->p = it->end;
            continue;
        }
        v0 = vllm_scan_spaces(p + 1, it->end);
        v1 = skip_value(v0, it->end);
        it->p = v1;
        while (v1 > v0 && (v1[-1] == ' ' || v1[-1] == '\t'))
            v1--;
        val->p = v0;
        val->n = (size_t)(v1 - v0);
        return true;
    }
}

static bool key_is(struct span k, const char *name)
{
    return k.n == strlen(name) && memcmp(k.p, name, k.n) == 0;
}

static bool is_none(struct span v)
{
    return v.n == 4 && memcmp(v.p, "None", 4) == 0;
}

static void put_utf8(char *out, size_t cap, size_t *o, uint32_t cp)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80)
        b[0] = (unsigned char)cp, n = 1;
    else if (cp < 0x800)
        b[0] = (unsigned char)(0xC0 | cp >> 6), b[1] = (unsigned char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        b[0] = (unsigned char)(0xE0 | cp >> 12), b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)),
        b[2] = (unsigned char)(0x80 | (cp & 0x3F)), n = 3;
    else
        b[0] = (unsigned char)(0xF0 | cp >> 18), b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F)),
        b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)), b[3] = (unsigned char)(0x80 | (cp & 0x3F)),
        n = 4;
    if (*o + n < cap) {
        memcpy(out + *o, b, n);
        *o += n;
    }
}

static int hex(char c)
{
    return vllm_scan_digit(c)       ? c - '0'
           : (c >= 'a' && c <= 'f') ? c - 'a' + 10
           : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                    : -1;
}

/* A value as text: a quoted repr is unescaped (\\ \' \" \n \t \xNN \uNNNN
 * \UNNNNNNNN), a bare one copied ("fp8_e4m3", "torch.bfloat16"); None is "".
 * Cut to fit cap. */
static void str_value(struct span v, char *out, size_t cap)
{
    size_t o = 0;
    const char *p = v.p, *end = v.p + v.n;

    if (is_none(v) || cap == 0) {
        if (cap)
            out[0] = '\0';
        return;
    }
    if (v.n >= 2 && (*p == '\'' || *p == '"') && end[-1] == *p) {
        p++, end--;
        while (p < end && o + 1 < cap) {
            if (*p != '\\' || p + 1 >= end) {
                out[o++] = *p++;
                continue;
            }
            char c = p[1];
            int digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
            if (digits && end - (p + 2) >= digits) {
                uint32_t cp = 0;
                bool ok = true;
                for (int i = 0; i < digits; i++) {
                    int h = hex(p[2 + i]);
                    ok = ok && h >= 0;
                    cp = cp * 16 + (uint32_t)(h < 0 ? 0 : h);
                }
                if (ok && cp <= 0x10FFFF) {
                    put_utf8(out, cap, &o, cp);
                    p += 2 + digits;
                    continue;
                }
            }
            out[o++] = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
            p += 2;
        }
    } else {
        while (p < end && o + 1 < cap)
            out[o++] = *p++;
    }
    out[o] = '\0';
}

static bool uint_value(struct span v, uint64_t *out)
{
    const char *p = v.p;
    return vllm_scan_uint(&p, v.p + v.n, out) && p == v.p + v.n;
}

static bool real_value(struct span v, double *out)
{
    const char *p = v.p;
    return vllm_scan_real(&p, v.p + v.n, out) && p == v.p + v.n;
}

/* True or False; anything else (None) leaves *dst alone. */
static void bool_value(struct span v, int *dst)
{
    if (v.n == 4 && memcmp(v.p, "True", 4) == 0)
        *dst = 1;
    else if (v.n == 5 && memcmp(v.p, "False", 5) == 0)
        *dst = 0;
}

/* A number the log printed, zero included, marked as given. */
static void set_u32(struct span v, uint32_t *dst, struct vllm_args *a, uint32_t bit)
{
    uint64_t u;
    if (uint_value(v, &u) && u <= UINT32_MAX) {
        *dst = (uint32_t)u;
        a->given |= bit;
    }
}

static void set_u64(struct span v, uint64_t *dst, struct vllm_args *a, uint32_t bit)
{
    uint64_t u;
    if (uint_value(v, &u)) {
        *dst = u;
        a->given |= bit;
    }
}

/* Where the values come from, for the problems they raise. */
struct origin {
    struct vllm_log *log;
    size_t line_no;
};

/* A size no engine runs with is the log's problem, named with its value:
 * ParallelConfig declares tensor_, pipeline_ and decode_context_parallel_size
 * as int Field(default=1, ge=1) (vllm/config/parallel.py), and
 * CacheConfig.block_size is a BlockSize, a count of tokens
 * (vllm/config/cache.py); so 0, -1, 2.5 or 1e20 mean the log was edited or
 * garbled, not that the default was used. */
static void set_size(struct span v, uint32_t *dst, struct vllm_args *a, uint32_t bit,
                     const struct origin *o, const char *key, const char *what)
{
    uint64_t u;
    char fmt[200];

    if (is_none(v))
        return;
    if (uint_value(v, &u) && u >= 1 && u <= UINT32_MAX) {
        *dst = (uint32_t)u;
        a->given |= bit;
        return;
    }
    snprintf(fmt, sizeof fmt, "%s %%s: not %s (a whole number, at least 1)", key, what);
    vllm_log_problem(o->log, o->line_no, true, fmt, v.p, v.n);
}

/* speculative_config: a dict in the arguments, SpeculativeConfig(method=...,
 * model=..., num_spec_tokens=...) in the engine line; None when off. */
static void spec_value(struct span v, struct vllm_args *a)
{
    struct items it;
    struct span k, x;
    const char *open;

    if (v.n == 0 || is_none(v))
        return;
    open = v.p;
    while (open < v.p + v.n && *open != '{' && *open != '(')
        open++;
    if (open >= v.p + v.n)
        return;
    a->spec = true;
    it = (struct items){open + 1, v.p + v.n, *open == '{' ? ':' : '='};
    while (next_item(&it, &k, &x)) {
        if (key_is(k, "method"))
            str_value(x, a->spec_method, sizeof a->spec_method);
        else if (key_is(k, "model"))
            str_value(x, a->spec_model, sizeof a->spec_model);
        else if (key_is(k, "num_speculative_tokens") || key_is(k, "num_spec_tokens"))
            set_u32(x, &a->spec_tokens, a, VLLM_GIVEN_SPEC_TOKENS);
    }
}

/* One argument, whichever list it came from (the names are vLLM's). */
static void arg_value(struct span k, struct span v, struct vllm_args *a, const struct origin *o)
{
    if (key_is(k, "model") || (key_is(k, "model_tag") && !a->model[0]))
        str_value(v, a->model, sizeof a->model);
    else if (key_is(k, "dtype")) {
        str_value(v, a->dtype, sizeof a->dtype);
        if (strncmp(a->dtype, "torch.", 6) == 0)
            memmove(a->dtype, a->dtype + 6, strlen(a->dtype + 6) + 1);
    } else if (key_is(k, "max_model_len") || key_is(k, "max_seq_len"))
        set_u64(v, &a->max_model_len, a, VLLM_GIVEN_MAX_MODEL_LEN);
    else if (key_is(k, "gpu_memory_utilization")) {
        double u;
        if (real_value(v, &u) && u >= 0 && u <= 1) {
            a->gpu_memory_utilization = u;
            a->given |= VLLM_GIVEN_GPU_MEMORY_UTILIZATION;
        } else if (!is_none(v)) /* CacheConfig: a fraction, at most 1 */
            vllm_log_problem(o->log, o->line_no, true,
                             "gpu_memory_utilization %s: not a fraction vLLM takes (0 to 1)", v.p,
                             v.n);
    } else if (key_is(k, "tensor_parallel_size"))
        set_size(v, &a->tp, a, VLLM_GIVEN_TP, o, "tensor_parallel_size", "a number of GPUs");
    else if (key_is(k, "pipeline_parallel_size"))
        set_size(v, &a->pp, a, VLLM_GIVEN_PP, o, "pipeline_parallel_size", "a number of stages");
    else if (key_is(k, "decode_context_parallel_size"))
        set_size(v, &a->dcp, a, VLLM_GIVEN_DCP, o, "decode_context_parallel_size",
                 "a number of GPUs");
    else if (key_is(k, "kv_cache_dtype"))
        str_value(v, a->kv_cache_dtype, sizeof a->kv_cache_dtype);
    else if (key_is(k, "block_size"))
        set_size(v, &a->block_size, a, VLLM_GIVEN_BLOCK_SIZE, o, "block_size",
                 "a number of tokens");
    else if (key_is(k, "enable_prefix_caching"))
        bool_value(v, &a->prefix_caching);
    else if (key_is(k, "async_scheduling"))
        bool_value(v, &a->async_scheduling);
    else if (key_is(k, "max_num_batched_tokens"))
        set_u64(v, &a->max_num_batched_tokens, a, VLLM_GIVEN_MAX_NUM_BATCHED_TOKENS);
    else if (key_is(k, "num_gpu_blocks_override"))
        set_u64(v, &a->num_gpu_blocks_override, a, VLLM_GIVEN_NUM_GPU_BLOCKS_OVERRIDE);
    else if (key_is(k, "kv_cache_memory_bytes"))
        set_u64(v, &a->kv_cache_memory_bytes, a, VLLM_GIVEN_KV_CACHE_MEMORY_BYTES);
    else if (key_is(k, "mamba_cache_mode"))
        str_value(v, a->mamba_cache_mode, sizeof a->mamba_cache_mode);
    else if (key_is(k, "mamba_cache_dtype"))
        str_value(v, a->mamba_cache_dtype, sizeof a->mamba_cache_dtype);
    else if (key_is(k, "mamba_ssm_cache_dtype"))
        str_value(v, a->mamba_ssm_cache_dtype, sizeof a->mamba_ssm_cache_dtype);
    else if (key_is(k, "attention_backend"))
        str_value(v, a->attention_backend, sizeof a->attention_backend);
    else if (key_is(k, "speculative_config"))
        spec_value(v, a);
    else if (key_is(k, "speculative_model") && v.n > 0 && !is_none(v)) {
        a->spec = true; /* before 0.8 the draft was its own flag */
        str_value(v, a->spec_model, sizeof a->spec_model);
    } else if (key_is(k, "num_speculative_tokens"))
        set_u32(v, &a->spec_tokens, a, VLLM_GIVEN_SPEC_TOKENS);
}

void vllm_args_read(const char *p, const char *end, char sep, struct vllm_args *a,
                    struct vllm_log *log, size_t line_no)
{
    struct items it = {p, end, sep};
    struct origin o = {log, line_no};
    struct span k, v;
    while (next_item(&it, &k, &v))
        arg_value(k, v, a, &o);
}
