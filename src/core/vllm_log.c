/* Reading a vLLM start-up log: one pass over the lines, each line tried
 * against a table of the messages that matter, and a scanner for the Python
 * reprs vLLM prints its arguments with.
 *
 * Invariants: every pointer stays inside [text, text + len); no recursion;
 * numbers are read by hand (no strtod), so the locale never changes a figure. */
#include "vllm_log.h"

#include <string.h>

struct span {
    const char *p;
    size_t n;
};

/* A setting seen by one source; merged at the end by priority. */
struct staged {
    struct vllm_args a;
};

struct parser {
    const char *text;
    struct vllm_log *out;
    struct staged by[4]; /* indexed by enum vllm_src */
    size_t line_no;
};

static const char *find(const char *hay, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; p + n <= end; p++)
        if (*p == *needle && memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static const char *skip_spaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* "1,505,552" or "1505552"; at most 18 digits, so it cannot overflow. */
static bool read_uint(const char **pp, const char *end, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;
    int digits = 0;

    while (p < end &&
           (is_digit(*p) || (*p == ',' && digits > 0 && p + 1 < end && is_digit(p[1])))) {
        if (*p != ',') {
            if (++digits > 18)
                return false;
            v = v * 10 + (uint64_t)(*p - '0');
        }
        p++;
    }
    if (digits == 0)
        return false;
    *pp = p;
    *out = v;
    return true;
}

/* "58.11", "0.9", "3"; the fraction's digits past the 15th are ignored. */
static bool read_real(const char **pp, const char *end, double *out)
{
    const char *p = *pp;
    uint64_t whole;
    double v, scale = 1;

    if (!read_uint(&p, end, &whole))
        return false;
    v = (double)whole;
    if (p + 1 < end && *p == '.' && is_digit(p[1])) {
        double frac = 0;
        int k = 0;
        for (p++; p < end && is_digit(*p); p++)
            if (k++ < 15) {
                frac = frac * 10 + (*p - '0');
                scale *= 10;
            }
        v += frac / scale;
    }
    *pp = p;
    *out = v;
    return true;
}

static bool expect(const char **pp, const char *end, const char *word)
{
    size_t n = strlen(word);
    const char *p = skip_spaces(*pp, end);
    if ((size_t)(end - p) < n || memcmp(p, word, n) != 0)
        return false;
    *pp = p + n;
    return true;
}

/* ---- Python reprs: 'strings', {dicts}, key=value lists ---- */

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
            while (p < it->end && (is_digit(*p) || *p == '_' || *p == '.' ||
                                   (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
                p++;
            key->p = k0;
            key->n = (size_t)(p - k0);
        }
        p = skip_spaces(p, it->end);
        if (p >= it->end || *p != it->sep || key->n == 0) {
            /* not a key: skip whatever this is and try the next item */
            const char *q = skip_value(p, it->end);
            it->p = q > p ? q : p + 1;
            if (it->p > it->end)
                it->p = it->end;
            continue;
        }
        v0 = skip_spaces(p + 1, it->end);
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
    return is_digit(c)              ? c - '0'
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
    return read_uint(&p, v.p + v.n, out) && p == v.p + v.n;
}

static bool real_value(struct span v, double *out)
{
    const char *p = v.p;
    return read_real(&p, v.p + v.n, out) && p == v.p + v.n;
}

/* True or False; anything else (None) leaves *dst alone. */
static void bool_value(struct span v, int *dst)
{
    if (v.n == 4 && memcmp(v.p, "True", 4) == 0)
        *dst = 1;
    else if (v.n == 5 && memcmp(v.p, "False", 5) == 0)
        *dst = 0;
}

static void set_u32(struct span v, uint32_t *dst)
{
    uint64_t u;
    if (uint_value(v, &u) && u > 0 && u <= UINT32_MAX)
        *dst = (uint32_t)u;
}

static void set_u64(struct span v, uint64_t *dst)
{
    uint64_t u;
    if (uint_value(v, &u) && u > 0)
        *dst = u;
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
            set_u32(x, &a->spec_tokens);
    }
}

/* One argument, whichever list it came from (the names are vLLM's). */
static void arg_value(struct span k, struct span v, struct vllm_args *a)
{
    if (key_is(k, "model") || (key_is(k, "model_tag") && !a->model[0]))
        str_value(v, a->model, sizeof a->model);
    else if (key_is(k, "dtype")) {
        str_value(v, a->dtype, sizeof a->dtype);
        if (strncmp(a->dtype, "torch.", 6) == 0)
            memmove(a->dtype, a->dtype + 6, strlen(a->dtype + 6) + 1);
    } else if (key_is(k, "max_model_len") || key_is(k, "max_seq_len"))
        set_u64(v, &a->max_model_len);
    else if (key_is(k, "gpu_memory_utilization")) {
        double u;
        if (real_value(v, &u) && u > 0 && u <= 1)
            a->gpu_memory_utilization = u;
    } else if (key_is(k, "tensor_parallel_size"))
        set_u32(v, &a->tp);
    else if (key_is(k, "pipeline_parallel_size"))
        set_u32(v, &a->pp);
    else if (key_is(k, "decode_context_parallel_size"))
        set_u32(v, &a->dcp);
    else if (key_is(k, "kv_cache_dtype"))
        str_value(v, a->kv_cache_dtype, sizeof a->kv_cache_dtype);
    else if (key_is(k, "block_size"))
        set_u32(v, &a->block_size);
    else if (key_is(k, "enable_prefix_caching"))
        bool_value(v, &a->prefix_caching);
    else if (key_is(k, "async_scheduling"))
        bool_value(v, &a->async_scheduling);
    else if (key_is(k, "max_num_batched_tokens"))
        set_u64(v, &a->max_num_batched_tokens);
    else if (key_is(k, "num_gpu_blocks_override"))
        set_u64(v, &a->num_gpu_blocks_override);
    else if (key_is(k, "kv_cache_memory_bytes"))
        set_u64(v, &a->kv_cache_memory_bytes);
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
        set_u32(v, &a->spec_tokens);
}

static void arg_list(const char *p, const char *end, char sep, struct vllm_args *a)
{
    struct items it = {p, end, sep};
    struct span k, v;
    while (next_item(&it, &k, &v))
        arg_value(k, v, a);
}

/* ---- the messages ---- */

static void add_line(struct parser *ps, enum vllm_line_kind kind, const char *msg,
                     const char *line_end, double value, uint64_t count, uint64_t per_request)
{
    struct vllm_log *o = ps->out;
    struct vllm_line *l;

    if (o->n_lines >= VLLM_LOG_MAX_LINES) {
        o->lines_dropped++;
        return;
    }
    l = &o->lines[o->n_lines++];
    *l = (struct vllm_line){
        kind,        ps->line_no, (size_t)(msg - ps->text), (size_t)(line_end - msg), value, count,
        per_request, false};
}

/* A token of a version or a name: letters, digits and . + - _ / */
static void read_token(const char *p, const char *end, char *out, size_t cap)
{
    size_t o = 0;
    while (p < end && o + 1 < cap &&
           (is_digit(*p) || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '.' ||
            *p == '+' || *p == '-' || *p == '_' || *p == '/'))
        out[o++] = *p++;
    out[o] = '\0';
}

static void on_line(struct parser *ps, const char *line, const char *end)
{
    struct vllm_log *o = ps->out;
    struct vllm_args *from_line = &ps->by[VLLM_SRC_LINE].a;
    const char *m, *p;
    size_t first = o->n_lines;
    uint64_t u, per;
    double x;

    if ((m = find(line, end, "Available KV cache memory: ")) != NULL) {
        p = m + 27;
        if (read_real(&p, end, &x) && expect(&p, end, "GiB"))
            add_line(ps, VLLM_LINE_KV_MEMORY, m, end, x, 0, 0);
    }
    /* V0: "... the rest of the memory reserved for KV Cache is 3.81GiB." */
    if ((m = find(line, end, "reserved for KV Cache is ")) != NULL) {
        p = m + 25;
        if (read_real(&p, end, &x) && expect(&p, end, "GiB"))
            add_line(ps, VLLM_LINE_KV_MEMORY, m, end, x, 0, 0);
    }
    if ((m = find(line, end, "GPU KV cache size: ")) != NULL) {
        p = m + 19;
        if (read_uint(&p, end, &u) && expect(&p, end, "tokens"))
            add_line(ps, VLLM_LINE_KV_TOKENS, m, end, (double)u, u, 0);
    }
    if ((m = find(line, end, "Maximum concurrency for ")) != NULL) {
        p = m + 24;
        if (read_uint(&p, end, &per) && expect(&p, end, "tokens per request:")) {
            p = skip_spaces(p, end);
            if (read_real(&p, end, &x) && p < end && *p == 'x')
                add_line(ps, VLLM_LINE_CONCURRENCY, m, end, x, 0, per);
        }
    }
    if ((m = find(line, end, "# GPU blocks: ")) != NULL ||
        (m = find(line, end, "# cuda blocks: ")) != NULL ||
        (m = find(line, end, "# CUDA blocks: ")) != NULL) {
        p = m + (m[2] == 'G' ? 14 : 15);
        if (read_uint(&p, end, &u))
            add_line(ps, VLLM_LINE_GPU_BLOCKS, m, end, (double)u, u, 0);
    }
    if ((m = find(line, end, "Setting attention block size to ")) != NULL) {
        p = m + 32;
        if (read_uint(&p, end, &u) && expect(&p, end, "tokens"))
            add_line(ps, VLLM_LINE_ATTN_BLOCK, m, end, (double)u, u, 0);
    }
    if ((m = find(line, end, "Padding mamba page size by ")) != NULL) {
        p = m + 27;
        if (read_real(&p, end, &x) && p < end && *p == '%')
            add_line(ps, VLLM_LINE_MAMBA_PAD, m, end, x, 0, 0);
    }
    /* "Add N padding layers, may waste at most X% KV cache memory": found by its
     * tail, then N read back to the "Add " before it */
    if ((m = find(line, end, " padding layers, may waste at most ")) != NULL) {
        const char *n0 = m;
        while (n0 > line && is_digit(n0[-1]))
            n0--;
        p = n0;
        if (n0 - line >= 4 && memcmp(n0 - 4, "Add ", 4) == 0 && read_uint(&p, m, &u) && p == m) {
            p = m + 35;
            if (read_real(&p, end, &x) && p < end && *p == '%')
                add_line(ps, VLLM_LINE_PAD_LAYERS, n0 - 4, end, x, u, 0);
        }
    }
    /* the size and the concurrency on one line (update_kv_cache_capacity) */
    if (o->n_lines == first + 2 && o->lines[first].kind == VLLM_LINE_KV_TOKENS &&
        o->lines[first + 1].kind == VLLM_LINE_CONCURRENCY)
        o->lines[first].one_line = o->lines[first + 1].one_line = true;

    /* the version */
    if ((m = find(line, end, "vLLM API server version ")) != NULL)
        read_token(m + 24, end, o->version, sizeof o->version);
    if ((m = find(line, end, "\xe2\x96\x88  version ")) != NULL) /* the logo: "█  version X" */
        read_token(skip_spaces(m + 11, end), end, o->version, sizeof o->version);
    if ((m = find(line, end, "\xe2\x96\x88  model ")) != NULL && !from_line->model[0])
        read_token(skip_spaces(m + 9, end), end, from_line->model, sizeof from_line->model);
    if ((m = find(line, end, "LLM engine (v")) != NULL) {
        read_token(m + 13, end, o->version, sizeof o->version);
        if (find(line, m, "a V1 ") != NULL)
            o->engine_v1 = true;
        else
            o->engine_v0 = true; /* "a V0 LLM engine", or before V1 "an LLM engine" */
        if ((p = find(m, end, "with config: ")) != NULL)
            arg_list(p + 13, end, '=', &ps->by[VLLM_SRC_ENGINE].a);
    }

    /* the arguments */
    if ((m = find(line, end, "non-default args: {")) != NULL) {
        o->args_line = true;
        arg_list(m + 19, end, ':', &ps->by[VLLM_SRC_ARGS].a);
    } else if ((m = find(line, end, "args: Namespace(")) != NULL) {
        o->args_line = true;
        arg_list(m + 16, end, '=', &ps->by[VLLM_SRC_ARGS].a);
    }

    /* settings other lines state */
    if ((m = find(line, end, "Using max model len ")) != NULL) {
        p = m + 20;
        if (read_uint(&p, end, &u) && u > 0)
            from_line->max_model_len = u;
    }
    if ((m = find(line, end, "enabled with max_num_batched_tokens=")) != NULL) {
        p = m + 36;
        if (read_uint(&p, end, &u) && u > 0)
            from_line->max_num_batched_tokens = u;
    }
    /* "Using FLASHINFER attention backend out of potential backends: [...]" */
    if ((m = find(line, end, " attention backend out of potential backends")) != NULL) {
        const char *b0 = m;
        while (b0 > line && b0[-1] != ' ')
            b0--;
        if (b0 - line >= 6 && memcmp(b0 - 6, "Using ", 6) == 0)
            read_token(b0, m, from_line->attention_backend, sizeof from_line->attention_backend);
    }
    if (find(line, end, "Asynchronous scheduling is enabled") != NULL)
        from_line->async_scheduling = 1;
    else if (find(line, end, "Asynchronous scheduling is disabled") != NULL)
        from_line->async_scheduling = 0;
    if ((m = find(line, end, "Mamba cache mode is set to '")) != NULL)
        read_token(m + 28, end, from_line->mamba_cache_mode, sizeof from_line->mamba_cache_mode);
    if ((m = find(line, end, "num_gpu_blocks_override=")) != NULL) {
        p = m + 24;
        if (read_uint(&p, end, &u) && u > 0)
            from_line->num_gpu_blocks_override = u;
    }
    if ((m = find(line, end, "dcp_world_size ")) != NULL) {
        p = m + 15;
        if (read_uint(&p, end, &u) && u > 0 && u <= UINT32_MAX)
            from_line->dcp = (uint32_t)u;
    }
}

/* The engine's config over the arguments over other lines, field by field. */
static void merge(struct parser *ps)
{
    struct vllm_log *o = ps->out;
    struct vllm_args *m = &o->args;

    m->prefix_caching = m->async_scheduling = -1;
    for (int s = VLLM_SRC_LINE; s <= VLLM_SRC_ENGINE; s++) {
        const struct vllm_args *a = &ps->by[s].a;
#define TAKE_STR(f)                                                                                \
    if (a->f[0])                                                                                   \
    memcpy(m->f, a->f, sizeof m->f)
#define TAKE_NUM(f)                                                                                \
    if (a->f)                                                                                      \
    m->f = a->f
        if (a->model[0])
            o->model_src = (enum vllm_src)s;
        if (a->max_model_len)
            o->max_model_len_src = (enum vllm_src)s;
        TAKE_STR(model);
        TAKE_STR(dtype);
        TAKE_NUM(max_model_len);
        TAKE_NUM(gpu_memory_utilization);
        TAKE_NUM(tp);
        TAKE_NUM(pp);
        TAKE_NUM(dcp);
        TAKE_STR(kv_cache_dtype);
        TAKE_NUM(block_size);
        TAKE_NUM(max_num_batched_tokens);
        TAKE_NUM(num_gpu_blocks_override);
        TAKE_NUM(kv_cache_memory_bytes);
        TAKE_STR(mamba_cache_mode);
        TAKE_STR(mamba_cache_dtype);
        TAKE_STR(mamba_ssm_cache_dtype);
        TAKE_STR(attention_backend);
        if (a->prefix_caching >= 0)
            m->prefix_caching = a->prefix_caching;
        if (a->async_scheduling >= 0)
            m->async_scheduling = a->async_scheduling;
        if (a->spec) {
            m->spec = true;
            TAKE_STR(spec_method);
            TAKE_STR(spec_model);
            TAKE_NUM(spec_tokens);
        }
#undef TAKE_STR
#undef TAKE_NUM
    }
}

void vllm_log_parse(const char *text, size_t len, struct vllm_log *out)
{
    struct parser ps = {.text = text, .out = out};
    const char *p = text, *end = text + len;

    memset(out, 0, sizeof *out);
    for (int s = 0; s < 4; s++)
        ps.by[s].a.prefix_caching = ps.by[s].a.async_scheduling = -1;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
        ps.line_no++;
        if (e > p && e[-1] == '\r')
            e--;
        on_line(&ps, p, e);
        p = nl ? nl + 1 : end;
    }
    out->total_lines = ps.line_no;
    merge(&ps);
}

enum vllm_text_problem vllm_log_check_text(const char *text, size_t len, size_t *where)
{
    size_t odd = 0;
    const char *nul;

    if (len > VLLM_LOG_MAX_BYTES)
        return VLLM_TEXT_TOO_LARGE;
    if ((nul = memchr(text, '\0', len)) != NULL) {
        if (where)
            *where = (size_t)(nul - text);
        return VLLM_TEXT_BINARY;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        /* ESC is counted as text: coloured logs carry ANSI escapes */
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1b)
            odd++;
    }
    return odd > len / 8 ? VLLM_TEXT_BINARY : VLLM_TEXT_OK;
}

const char *vllm_line_kind_name(enum vllm_line_kind k)
{
    static const char *const names[VLLM_LINE__COUNT] = {
        [VLLM_LINE_KV_MEMORY] = "kv_memory",
        [VLLM_LINE_KV_TOKENS] = "kv_tokens",
        [VLLM_LINE_CONCURRENCY] = "concurrency",
        [VLLM_LINE_GPU_BLOCKS] = "gpu_blocks",
        [VLLM_LINE_ATTN_BLOCK] = "attention_block_size",
        [VLLM_LINE_MAMBA_PAD] = "mamba_padding",
        [VLLM_LINE_PAD_LAYERS] = "padding_layers",
    };
    return (unsigned)k < VLLM_LINE__COUNT && names[k] ? names[k] : "?";
}

bool vllm_version_parse(const char *s, unsigned *major, unsigned *minor, unsigned *patch)
{
    unsigned v[3] = {0, 0, 0};
    int i = 0;

    if (*s == 'v' || *s == 'V')
        s++;
    for (; i < 3; i++) {
        unsigned n = 0;
        int digits = 0;
        while (is_digit(*s) && digits < 6) {
            n = n * 10 + (unsigned)(*s++ - '0');
            digits++;
        }
        if (digits == 0)
            break;
        v[i] = n;
        if (*s != '.' || !is_digit(s[1])) {
            i++;
            break;
        }
        s++;
    }
    if (i < 2)
        return false;
    *major = v[0], *minor = v[1], *patch = v[2];
    return true;
}

int vllm_version_cmp(const char *a, unsigned major, unsigned minor, unsigned patch)
{
    unsigned x, y, z;
    if (!vllm_version_parse(a, &x, &y, &z))
        return -1;
    if (x != major)
        return x < major ? -1 : 1;
    if (y != minor)
        return y < minor ? -1 : 1;
    if (z != patch)
        return z < patch ? -1 : 1;
    return 0;
}
