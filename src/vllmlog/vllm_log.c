/* Reading a vLLM start-up log: one pass over the lines, each line tried
 * against a table of the messages that matter; the arguments' Python reprs
 * are read by vllm_args.c.
 *
 * Invariants: every pointer stays inside [text, text + len); no recursion;
 * numbers are read by hand (no strtod), so the locale never changes a figure. */
#include "vllm_log.h"

#include <stdio.h>
#include <string.h>

#include "kvt_text.h"
#include "vllm_args.h"
#include "vllm_scan.h"

/* A setting seen by one source; merged at the end by priority. */
struct staged {
    struct vllm_args a;
};

struct parser {
    const char *text;
    struct vllm_log *out;
    struct staged by[4]; /* indexed by enum vllm_src */
    size_t line_no;
    int version_src;        /* 0 none, 1 the server's banner or logo, 2 the engine line */
    size_t version_line_no; /* where the version kept was read */
};

void vllm_log_problem(struct vllm_log *log, size_t line_no, bool error, const char *fmt,
                      const char *value, size_t value_len)
{
    char shown[64];
    struct vllm_problem *pr;

    if (error)
        log->n_errors++;
    if (log->n_problems >= VLLM_LOG_MAX_PROBLEMS) {
        log->problems_dropped++;
        return;
    }
    /* cut before making it inert, so an escape is never split */
    if (value_len > 40)
        value_len = 40;
    kvt_sanitize(value, value_len, shown, sizeof shown, 0);
    pr = &log->problems[log->n_problems++];
    pr->line_no = line_no;
    pr->error = error;
    snprintf(pr->what, sizeof pr->what, fmt, shown);
}

/* The figure a capacity line printed, as text: from p to the next space. */
static size_t figure_len(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && *q != ' ' && *q != '\t')
        q++;
    return (size_t)(q - p);
}

/* A capacity line whose figure cannot be read: the line is vLLM's, so a
 * figure that is not one vLLM prints (nan, -3, 0x3A, 1e308, full-width
 * digits, a decimal comma) means the log was changed or garbled, and an
 * explanation that skipped it would say the line is missing. */
static void unreadable(struct parser *ps, const char *label, const char *p, const char *end,
                       const char *shape)
{
    char fmt[200];
    const char *q;
    uint64_t u;
    size_t n;

    p = vllm_scan_spaces(p, end);
    n = figure_len(p, end);
    q = p + (p < end && *p == '-');
    /* "58,11": the digits stop at a comma that groups no thousands */
    bool comma = vllm_scan_uint(&q, end, &u) && q < end && *q == ',';
    snprintf(fmt, sizeof fmt, "%s '%%s': not a figure vLLM prints (%s%s)", label, shape,
             comma ? "; a comma only groups thousands, the decimal mark is '.'" : "");
    vllm_log_problem(ps->out, ps->line_no, true, fmt, p, n);
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
           (vllm_scan_digit(*p) || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            *p == '.' || *p == '+' || *p == '-' || *p == '_' || *p == '/'))
        out[o++] = *p++;
    out[o] = '\0';
}

/* A version stated at p (src 1: the server's banner or logo; 2: the engine
 * line). One start-up states one version; two that differ are a note, and
 * the engine's wins, as the engine is what sized the cache. */
static void take_version(struct parser *ps, const char *p, const char *end, int src)
{
    struct vllm_log *o = ps->out;
    char v[sizeof o->version], fmt[200];
    bool replace = src >= ps->version_src; /* the engine's, else the later banner */

    read_token(p, end, v, sizeof v);
    if (!v[0])
        return;
    if (o->version[0] && strcmp(v, o->version) != 0) {
        /* a version is letters, digits and . + - _ / only (read_token): no '%' */
        snprintf(fmt, sizeof fmt,
                 "vLLM %%s here, vLLM %s at line %zu%s: the rules of %s are used%s", o->version,
                 ps->version_line_no, ps->version_src == 2 ? " (the engine line)" : "",
                 replace ? v : o->version,
                 replace && src == 2 ? " (the engine line sized the cache)"
                 : !replace          ? " (the engine line sized the cache)"
                                     : " (the later line)");
        vllm_log_problem(o, ps->line_no, false, fmt, v, strlen(v));
    }
    if (replace) {
        memcpy(o->version, v, sizeof v);
        ps->version_src = src;
        ps->version_line_no = ps->line_no;
    }
}

#define LOGO_VERSION "\xe2\x96\x88  version "
#define LOGO_MODEL   "\xe2\x96\x88  model "

static void on_line(struct parser *ps, const char *line, const char *end)
{
    struct vllm_log *o = ps->out;
    struct vllm_args *from_line = &ps->by[VLLM_SRC_LINE].a;
    const char *m, *p;
    size_t first = o->n_lines;
    uint64_t u, per;
    double x;

    if ((m = vllm_scan_find(line, end, "Available KV cache memory: ")) != NULL) {
        p = m + 27;
        if (vllm_scan_real(&p, end, &x) && vllm_scan_expect(&p, end, "GiB"))
            add_line(ps, VLLM_LINE_KV_MEMORY, m, end, x, 0, 0);
        else
            unreadable(ps, "Available KV cache memory", m + 27, end,
                       "a number of GiB such as 58.11 GiB");
    }
    /* V0: "... the rest of the memory reserved for KV Cache is 3.81GiB." */
    if ((m = vllm_scan_find(line, end, "reserved for KV Cache is ")) != NULL) {
        p = m + 25;
        if (vllm_scan_real(&p, end, &x) && vllm_scan_expect(&p, end, "GiB"))
            add_line(ps, VLLM_LINE_KV_MEMORY, m, end, x, 0, 0);
        else
            unreadable(ps, "memory reserved for KV Cache", m + 25, end,
                       "a number of GiB such as 3.81GiB");
    }
    if ((m = vllm_scan_find(line, end, "GPU KV cache size: ")) != NULL) {
        p = m + 19;
        if (vllm_scan_uint(&p, end, &u) && vllm_scan_expect(&p, end, "tokens"))
            add_line(ps, VLLM_LINE_KV_TOKENS, m, end, (double)u, u, 0);
        else
            unreadable(ps, "GPU KV cache size", m + 19, end,
                       "a whole number of tokens such as 476,016 tokens");
    }
    if ((m = vllm_scan_find(line, end, "Maximum concurrency for ")) != NULL) {
        bool ok = false;
        p = m + 24;
        if (vllm_scan_uint(&p, end, &per) && vllm_scan_expect(&p, end, "tokens per request:")) {
            p = vllm_scan_spaces(p, end);
            if (vllm_scan_real(&p, end, &x) && p < end && *p == 'x') {
                add_line(ps, VLLM_LINE_CONCURRENCY, m, end, x, 0, per);
                ok = true;
            }
        }
        if (!ok) {
            const char *f = vllm_scan_find(m, end, "per request:");
            if (f)
                unreadable(ps, "Maximum concurrency", f + 12, end, "such as 58.11x");
            else
                unreadable(ps, "Maximum concurrency for", m + 24, end,
                           "a whole number of tokens per request");
        }
    }
    if ((m = vllm_scan_find(line, end, "# GPU blocks: ")) != NULL ||
        (m = vllm_scan_find(line, end, "# cuda blocks: ")) != NULL ||
        (m = vllm_scan_find(line, end, "# CUDA blocks: ")) != NULL) {
        p = m + (m[2] == 'G' ? 14 : 15);
        if (vllm_scan_uint(&p, end, &u))
            add_line(ps, VLLM_LINE_GPU_BLOCKS, m, end, (double)u, u, 0);
        else
            unreadable(ps, "# GPU blocks", m + (m[2] == 'G' ? 14 : 15), end,
                       "a whole number of blocks");
    }
    if ((m = vllm_scan_find(line, end, "Setting attention block size to ")) != NULL) {
        p = m + 32;
        if (vllm_scan_uint(&p, end, &u) && u > 0 && vllm_scan_expect(&p, end, "tokens"))
            add_line(ps, VLLM_LINE_ATTN_BLOCK, m, end, (double)u, u, 0);
        else
            unreadable(ps, "attention block size", m + 32, end,
                       "a whole number of tokens, at least 1");
    }
    if ((m = vllm_scan_find(line, end, "Padding mamba page size by ")) != NULL) {
        p = m + 27;
        if (vllm_scan_real(&p, end, &x) && p < end && *p == '%')
            add_line(ps, VLLM_LINE_MAMBA_PAD, m, end, x, 0, 0);
        else
            unreadable(ps, "mamba page padding", m + 27, end, "a percentage such as 0.13%");
    }
    /* "Add N padding layers, may waste at most X% KV cache memory": found by its
     * tail, then N read back to the "Add " before it */
    if ((m = vllm_scan_find(line, end, " padding layers, may waste at most ")) != NULL) {
        const char *n0 = m;
        while (n0 > line && vllm_scan_digit(n0[-1]))
            n0--;
        p = n0;
        if (n0 - line >= 4 && memcmp(n0 - 4, "Add ", 4) == 0 && vllm_scan_uint(&p, m, &u) &&
            p == m) {
            p = m + 35;
            if (vllm_scan_real(&p, end, &x) && p < end && *p == '%')
                add_line(ps, VLLM_LINE_PAD_LAYERS, n0 - 4, end, x, u, 0);
        }
    }
    /* the size and the concurrency on one line (update_kv_cache_capacity) */
    if (o->n_lines == first + 2 && o->lines[first].kind == VLLM_LINE_KV_TOKENS &&
        o->lines[first + 1].kind == VLLM_LINE_CONCURRENCY)
        o->lines[first].one_line = o->lines[first + 1].one_line = true;

    /* the version */
    if ((m = vllm_scan_find(line, end, "vLLM API server version ")) != NULL)
        take_version(ps, m + 24, end, 1);
    /* the logo: "█  version X" and "█  model   NAME"; "█" is three bytes */
    if ((m = vllm_scan_find(line, end, LOGO_VERSION)) != NULL)
        take_version(ps, vllm_scan_spaces(m + strlen(LOGO_VERSION), end), end, 1);
    if ((m = vllm_scan_find(line, end, LOGO_MODEL)) != NULL && !from_line->model[0])
        read_token(vllm_scan_spaces(m + strlen(LOGO_MODEL), end), end, from_line->model,
                   sizeof from_line->model);
    if ((m = vllm_scan_find(line, end, "LLM engine (v")) != NULL) {
        take_version(ps, m + 13, end, 2);
        if (vllm_scan_find(line, m, "a V1 ") != NULL)
            o->engine_v1 = true;
        else
            o->engine_v0 = true; /* "a V0 LLM engine", or before V1 "an LLM engine" */
        if ((p = vllm_scan_find(m, end, "with config: ")) != NULL)
            vllm_args_read(p + 13, end, '=', &ps->by[VLLM_SRC_ENGINE].a, o, ps->line_no);
    }

    /* the arguments */
    if ((m = vllm_scan_find(line, end, "non-default args: {")) != NULL) {
        o->args_line = true;
        vllm_args_read(m + 19, end, ':', &ps->by[VLLM_SRC_ARGS].a, o, ps->line_no);
    } else if ((m = vllm_scan_find(line, end, "args: Namespace(")) != NULL) {
        o->args_line = true;
        vllm_args_read(m + 16, end, '=', &ps->by[VLLM_SRC_ARGS].a, o, ps->line_no);
    }

    /* settings other lines state */
    if ((m = vllm_scan_find(line, end, "Using max model len ")) != NULL) {
        p = m + 20;
        if (vllm_scan_uint(&p, end, &u) && u > 0) {
            from_line->max_model_len = u;
            from_line->given |= VLLM_GIVEN_MAX_MODEL_LEN;
        }
    }
    if ((m = vllm_scan_find(line, end, "enabled with max_num_batched_tokens=")) != NULL) {
        p = m + 36;
        if (vllm_scan_uint(&p, end, &u) && u > 0) {
            from_line->max_num_batched_tokens = u;
            from_line->given |= VLLM_GIVEN_MAX_NUM_BATCHED_TOKENS;
        }
    }
    /* "Using FLASHINFER attention backend out of potential backends: [...]" */
    if ((m = vllm_scan_find(line, end, " attention backend out of potential backends")) != NULL) {
        const char *b0 = m;
        while (b0 > line && b0[-1] != ' ')
            b0--;
        if (b0 - line >= 6 && memcmp(b0 - 6, "Using ", 6) == 0)
            read_token(b0, m, from_line->attention_backend, sizeof from_line->attention_backend);
    }
    if (vllm_scan_find(line, end, "Asynchronous scheduling is enabled") != NULL)
        from_line->async_scheduling = 1;
    else if (vllm_scan_find(line, end, "Asynchronous scheduling is disabled") != NULL)
        from_line->async_scheduling = 0;
    if ((m = vllm_scan_find(line, end, "Mamba cache mode is set to '")) != NULL)
        read_token(m + 28, end, from_line->mamba_cache_mode, sizeof from_line->mamba_cache_mode);
    if ((m = vllm_scan_find(line, end, "num_gpu_blocks_override=")) != NULL) {
        p = m + 24;
        if (vllm_scan_uint(&p, end, &u) && u > 0) {
            from_line->num_gpu_blocks_override = u;
            from_line->given |= VLLM_GIVEN_NUM_GPU_BLOCKS_OVERRIDE;
        }
    }
    if ((m = vllm_scan_find(line, end, "dcp_world_size ")) != NULL) {
        p = m + 15;
        if (vllm_scan_uint(&p, end, &u) && u > 0 && u <= UINT32_MAX) {
            from_line->dcp = (uint32_t)u;
            from_line->given |= VLLM_GIVEN_DCP;
        }
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
/* a string the source gave; a number it gave (its bit in `given`: a 0 the
 * log printed is a figure, not an absence) */
#define TAKE_STR(f)                                                                                \
    do {                                                                                           \
        if (a->f[0])                                                                               \
            memcpy(m->f, a->f, sizeof m->f);                                                       \
    } while (0)
#define TAKE_NUM(f, bit)                                                                           \
    do {                                                                                           \
        if (a->given & (bit)) {                                                                    \
            m->f = a->f;                                                                           \
            m->given |= (bit);                                                                     \
        }                                                                                          \
    } while (0)
        if (a->model[0])
            o->model_src = (enum vllm_src)s;
        if (a->given & VLLM_GIVEN_MAX_MODEL_LEN)
            o->max_model_len_src = (enum vllm_src)s;
        TAKE_STR(model);
        TAKE_STR(dtype);
        TAKE_NUM(max_model_len, VLLM_GIVEN_MAX_MODEL_LEN);
        TAKE_NUM(gpu_memory_utilization, VLLM_GIVEN_GPU_MEMORY_UTILIZATION);
        TAKE_NUM(tp, VLLM_GIVEN_TP);
        TAKE_NUM(pp, VLLM_GIVEN_PP);
        TAKE_NUM(dcp, VLLM_GIVEN_DCP);
        TAKE_STR(kv_cache_dtype);
        TAKE_NUM(block_size, VLLM_GIVEN_BLOCK_SIZE);
        TAKE_NUM(max_num_batched_tokens, VLLM_GIVEN_MAX_NUM_BATCHED_TOKENS);
        TAKE_NUM(num_gpu_blocks_override, VLLM_GIVEN_NUM_GPU_BLOCKS_OVERRIDE);
        TAKE_NUM(kv_cache_memory_bytes, VLLM_GIVEN_KV_CACHE_MEMORY_BYTES);
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
            TAKE_NUM(spec_tokens, VLLM_GIVEN_SPEC_TOKENS);
        }
#undef TAKE_STR
#undef TAKE_NUM
    }
}

void vllm_log_parse_run(const char *text, const struct vllm_run *run, struct vllm_log *out)
{
    struct parser ps = {.text = text, .out = out, .line_no = run->first_line - 1};
    const char *p = text + run->begin, *end = text + run->end;

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
    out->total_lines = ps.line_no - (run->first_line - 1);
    merge(&ps);
}

void vllm_log_parse(const char *text, size_t len, struct vllm_log *out)
{
    struct vllm_run whole = {0, len, 1, 0};
    vllm_log_parse_run(text, &whole, out);
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
