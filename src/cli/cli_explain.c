/* `kvtutor explain-log`: a vLLM start-up log in, each capacity line
 * recomputed and explained.
 *
 * The log is read by the tutor layer (bounded, binary refused; the
 * playground reads it the same way); the parsing and the arithmetic live in
 * core (vllm_log.h, vllm_explain.h); this file resolves the model, and prints.
 * Every byte of the log that is shown goes through kvt_sanitize first. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cli_json.h"
#include "cli_args.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hf_config.h"
#include "kv_presets.h"
#include "kvt_format.h"
#include "kvt_text.h"
#include "tutor_config.h"
#include "tutor_vllm_log.h"
#include "vllm_explain.h"
#include "vllm_log.h"

enum flag_id { F_CONFIG, F_JSON, F__COUNT };

static const struct cli_flag flags[F__COUNT] = {
    [F_CONFIG] = {"--config", NULL, "FILE", .kind = CLI_STR,
                  .help = "the model's config.json, when the log's model is not a preset"},
    [F_JSON] = {"--json", NULL, NULL, .kind = CLI_SWITCH,
                .help = "one JSON object instead of the explanation"},
};

static const struct cli_spec spec = {
    .cmd = "explain-log", .flags = flags, .nflags = F__COUNT, .max_pos = 1};

#define usage_error(...) cli_usage_error("explain-log", __VA_ARGS__)

/* A problem with the input itself (not with how the command was called). */
static int input_error(const char *fmt, ...)
{
    va_list ap;
    char msg[2048];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cli_fail("explain-log", 2, "%s", msg);
}

/* The log's errors, one line each (NAME:LINE: what), and exit 2: a figure
 * or setting that cannot be taken at its word is never replaced by a
 * default and explained as if the log had said it. */
static int refuse_problems(const char *name, const struct vllm_log *log)
{
    for (size_t i = 0; i < log->n_problems; i++)
        if (log->problems[i].error)
            cli_fail("explain-log", 2, "%s:%zu: %s", name, log->problems[i].line_no,
                     log->problems[i].what);
    if (log->problems_dropped)
        fprintf(stderr, "kvtutor explain-log: %s: %zu more problems not listed\n", name,
                log->problems_dropped);
    return 2;
}

static void print_help(FILE *out)
{
    fputs("usage: kvtutor explain-log [FILE|-] [--config FILE] [--json]\n\n"
          "Reads a vLLM start-up log (vLLM 0.6 to 0.26), finds its version, arguments and\n"
          "every capacity line (Available KV cache memory, GPU KV cache size, Maximum\n"
          "concurrency, the hybrid block-size lines), recomputes each with the calculator\n"
          "under the log's settings and budget, and says how it arises and what would\n"
          "change it. FILE - or none reads standard input.\n\nOptions:\n",
          out);
    for (int i = 0; i < F__COUNT; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", flags[i].name, flags[i].metavar ? " " : "",
                 flags[i].metavar ? flags[i].metavar : "");
        fprintf(out, "  %-22s %s\n", left, flags[i].help);
    }
    fprintf(out, "  %-22s %s\n", "--help, -h", "this text");
    fputs("\nA figure or setting vLLM would not print (nan GiB, 58,11 GiB, TP 0, block size\n"
          "-16) is an error naming its line; two versions in one start-up are a note.\n"
          "A log of several start-ups (tee -a across restarts) is split at each, and each\n"
          "is explained under its own model, version and settings; --json then prints\n"
          "{\"startups\": N, \"runs\": [...]}, one object per start-up.\n"
          "\nExit status: 0 explained (see each line's match), 1 no capacity line in the\n"
          "log, 2 a usage error, an unreadable or binary file, a value in the log that\n"
          "cannot be taken at its word, or a model it cannot identify.\n"
          "\nExample: vllm serve ... 2>&1 | tee serve.log; kvtutor explain-log serve.log\n",
          out);
}

struct model_id {
    struct kv_model m;
    const struct kv_model_preset *preset;
    const char *config_path;
    struct hf_config_info info;
};

/* The model, in the order tutor_log_model keeps for the playground too:
 * --config wins, otherwise the preset the log names. */
static int resolve_model(const struct cli_args *a, const struct vllm_log *log, struct model_id *id,
                         const char *where)
{
    char shown[300];
    struct kv_model given;

    if (a->given[F_CONFIG]) {
        char why[400];
        id->config_path = a->text[F_CONFIG];
        if (tutor_config_load(id->config_path, &given, &id->info, why, sizeof why) != KVT_E_OK)
            return input_error("--config %s", why);
    }
    switch (tutor_log_model(log, a->given[F_CONFIG] ? &given : NULL, &id->m, &id->preset)) {
    case TUTOR_LOG_MODEL_GIVEN:
    case TUTOR_LOG_MODEL_PRESET:
        return 0;
    case TUTOR_LOG_MODEL_UNNAMED:
        return input_error("%sthe log does not name its model (no \"non-default args\" or engine "
                           "config line): give --config with the model's config.json",
                           where);
    case TUTOR_LOG_MODEL_UNKNOWN:
        break;
    }
    return input_error("%sthe log's model %s is not a preset (kvtutor models lists them): give "
                       "--config with its config.json",
                       where, kvt_safe(log->args.model, shown, sizeof shown));
}

static const char *model_label(const struct model_id *id, const struct vllm_log *log, char *buf,
                               size_t cap)
{
    char s1[300], s2[300];
    if (id->preset)
        snprintf(buf, cap, "%s (the preset %.*s)", id->preset->id,
                 (int)strcspn(id->preset->alias, ","), id->preset->alias);
    else
        snprintf(buf, cap, "%.280s (from --config %.280s)",
                 log->args.model[0] ? kvt_safe(log->args.model, s1, sizeof s1) : "the model",
                 kvt_safe(id->config_path, s2, sizeof s2));
    return buf;
}

/* The log's own text of a line, sanitised: from the message to the line's end. */
static const char *line_text(const char *text, const struct vllm_line *l, char *buf, size_t cap)
{
    kvt_sanitize(text + l->msg, l->msg_len, buf, cap, 0);
    return buf;
}

static bool integral(enum vllm_line_kind k)
{
    return k == VLLM_LINE_KV_TOKENS || k == VLLM_LINE_GPU_BLOCKS || k == VLLM_LINE_ATTN_BLOCK ||
           k == VLLM_LINE_PAD_LAYERS;
}

/* What the line printed: its count for the integer kinds (a padding line's
 * percentage is in its text and its explanation). */
static double logged(const struct vllm_line *l)
{
    return integral(l->kind) ? (double)l->count : l->value;
}

/* Prints text wrapped to 78 columns after `indent` spaces and a label; the
 * lines after the first hang under the text, past the label. */
static void wrapped(FILE *out, int indent, const char *label, const char *text)
{
    size_t len = strlen(text), pos = 0, next;
    int hang = indent + (int)strlen(label);
    bool first = true;

    while (pos < len) {
        size_t n = kvt_wrap_line(text + pos, len - pos, 78 - hang, &next);
        if (n == 0)
            break;
        fprintf(out, "%*s%s%.*s\n", first ? indent : hang, "", first ? label : "", (int)n,
                text + pos);
        first = false;
        pos += next;
    }
}

/* The changes, one a line: the core joins them with "; ". */
static void changes(FILE *out, const char *head, const char *text)
{
    char item[VLLM_WHY_MAX];
    const char *p = text;

    fprintf(out, "  %s:\n", head);
    while (*p) {
        const char *semi = strstr(p, "; ");
        size_t n = semi ? (size_t)(semi - p) : strlen(p);
        snprintf(item, sizeof item, "%.*s", (int)n, p);
        wrapped(out, 4, "- ", item);
        p += n + (semi ? 2 : 0);
    }
}

/* The log's settings, wrapped to 78 columns under their label. */
static void print_settings(FILE *to, const struct vllm_log *log)
{
    const struct vllm_args *a = &log->args;
    char b1[32], s[64], *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    if (!out)
        return;
    if (a->max_model_len)
        fprintf(out, " max_model_len %s,", kvt_fmt_int(a->max_model_len, b1, sizeof b1));
    if (a->gpu_memory_utilization > 0)
        fprintf(out, " gpu_memory_utilization %s,",
                kvt_fmt_real(a->gpu_memory_utilization, 4, b1, sizeof b1));
    fprintf(out, " TP %u, PP %u", a->tp ? a->tp : 1, a->pp ? a->pp : 1);
    if (a->dcp > 1)
        fprintf(out, ", DCP %u", a->dcp);
    fprintf(out, ", kv_cache_dtype %s",
            a->kv_cache_dtype[0] ? kvt_safe(a->kv_cache_dtype, s, sizeof s) : "auto");
    if (a->block_size)
        fprintf(out, ", block size %u", a->block_size);
    if (a->prefix_caching >= 0)
        fprintf(out, ", prefix caching %s", a->prefix_caching ? "on" : "off");
    if (a->mamba_cache_mode[0])
        fprintf(out, ", Mamba cache mode %s", kvt_safe(a->mamba_cache_mode, s, sizeof s));
    if (a->attention_backend[0])
        fprintf(out, ", attention backend %s", kvt_safe(a->attention_backend, s, sizeof s));
    if (a->num_gpu_blocks_override)
        fprintf(out, ", num_gpu_blocks_override %s",
                kvt_fmt_int(a->num_gpu_blocks_override, b1, sizeof b1));
    if (a->spec)
        fprintf(out, ", speculative decoding %s",
                a->spec_method[0] ? kvt_safe(a->spec_method, s, sizeof s) : "(draft model)");
    if (a->spec_tokens)
        fprintf(out, " (%u tokens)", a->spec_tokens);
    if (fclose(out) == 0 && text) {
        /* packed into rows of 78 columns, broken only after an item's comma */
        const char *label = "Read from the log: ", *p = text + (text[0] == ' ');
        size_t hang = strlen(label), used = hang;
        fputs(label, to);
        while (*p) {
            const char *comma = strstr(p, ", ");
            size_t n = comma ? (size_t)(comma - p) + 1 : strlen(p);
            if (used > hang && used + 1 + kvt_text_width(p, n) > 78) {
                fprintf(to, "\n%*s", (int)hang, "");
                used = hang;
            } else if (used > hang) {
                fputc(' ', to);
                used++;
            }
            fprintf(to, "%.*s", (int)n, p);
            used += kvt_text_width(p, n);
            p += comma ? n + 1 : n;
        }
        fputc('\n', to);
    }
    free(text);
}

static void print_human(FILE *out, const char *text, const struct vllm_log *log,
                        const struct model_id *id, const struct vllm_explain *ex)
{
    const struct cli_glyphs *g = cli_glyphs();
    char buf[2048], a1[32], a2[32], a3[32], name[700];

    fprintf(out, "vLLM %s log: %s\n",
            log->version[0] ? kvt_safe(log->version, a1, sizeof a1) : "(version not stated)",
            model_label(id, log, name, sizeof name));
    print_settings(out, log);
    fprintf(out, "Calculator rules: vLLM %s\n", ex->rules_version);
    for (size_t i = 0; i < log->n_problems; i++) {
        char label[48];
        snprintf(label, sizeof label, "Note: line %zu: ", log->problems[i].line_no);
        wrapped(out, 0, label, log->problems[i].what);
    }
    if (ex->assumed[0])
        wrapped(out, 0, "Assumed: ", ex->assumed);
    if (ex->blocked[0])
        wrapped(out, 0, "Not recomputed: ", ex->blocked);
    for (size_t i = 0; i < ex->n; i++) {
        const struct vllm_verdict *v = &ex->v[i];
        const struct vllm_line *l = v->line;

        fprintf(out, "\nline %zu  %s\n", l->line_no, line_text(text, l, buf, sizeof buf));
        if (v->has_computed) {
            fprintf(out, "  logged %s, computed %s",
                    vllm_explain_figure(l->kind, logged(l), a1, sizeof a1),
                    vllm_explain_figure(l->kind, v->computed, a2, sizeof a2));
            /* a range only where its ends print apart: not "4.46x to 4.46x" */
            vllm_explain_figure(l->kind, v->computed_lo, a3, sizeof a3);
            vllm_explain_figure(l->kind, v->computed_hi, a1, sizeof a1);
            if (strcmp(a1, a3) != 0)
                fprintf(out, " (%s to %s within the rounding)", a3, a1);
            fprintf(out, "  %s\n", v->match == VLLM_MATCH_YES ? g->check : g->cross);
        }
        wrapped(out, 2, "", v->how);
        if (v->would_match[0])
            changes(out, "What would make it match (one change each, recomputed)", v->would_match);
        if (v->change[0])
            changes(out, "What would change it", v->change);
    }
    fprintf(out, "\n%zu line%s: %zu match, %zu differ, %zu not recomputed\n", ex->n,
            ex->n == 1 ? "" : "s", ex->matched, ex->mismatched, ex->unchecked);
    if (log->lines_dropped)
        fprintf(out, "(%zu more capacity lines past the first %d were not read)\n",
                log->lines_dropped, VLLM_LOG_MAX_LINES);
}

static json_t *num(enum vllm_line_kind k, double v)
{
    return integral(k) ? json_integer((json_int_t)v) : json_real(v);
}

/* One start-up's explanation as a JSON object. */
static json_t *run_json(const char *text, const struct vllm_log *log, const struct model_id *id,
                        const struct vllm_explain *ex)
{
    json_t *o = json_object(), *lines = json_array();
    char buf[2048], why[2 * VLLM_WHY_MAX + 2];

    json_object_set_new(o, "vllm_version",
                        log->version[0] ? json_string(kvt_safe(log->version, buf, sizeof buf))
                                        : json_null());
    json_object_set_new(o, "rules", json_string(ex->rules_version));
    json_object_set_new(o, "model",
                        log->args.model[0] ? json_string(kvt_safe(log->args.model, buf, sizeof buf))
                                           : json_null());
    json_object_set_new(o, "model_source", json_string(id->preset ? id->preset->id : "config"));
    json_object_set_new(o, "blocked", ex->blocked[0] ? json_string(ex->blocked) : json_null());
    json_object_set_new(o, "assumed", ex->assumed[0] ? json_string(ex->assumed) : json_null());
    {
        json_t *notes = json_array();
        for (size_t i = 0; i < log->n_problems; i++)
            json_array_append_new(notes, json_pack("{s:I,s:s}", "line_no",
                                                   (json_int_t)log->problems[i].line_no, "note",
                                                   log->problems[i].what));
        json_object_set_new(o, "notes", notes);
    }
    for (size_t i = 0; i < ex->n; i++) {
        const struct vllm_verdict *v = &ex->v[i];
        const struct vllm_line *l = v->line;
        json_t *j = json_object();

        snprintf(why, sizeof why, "%s%s%s", v->how, v->change[0] ? ". What would change it: " : "",
                 v->change);
        json_object_set_new(j, "line", json_string(line_text(text, l, buf, sizeof buf)));
        json_object_set_new(j, "line_no", json_integer((json_int_t)l->line_no));
        json_object_set_new(j, "kind", json_string(vllm_line_kind_name(l->kind)));
        json_object_set_new(j, "logged", num(l->kind, logged(l)));
        json_object_set_new(j, "computed",
                            v->has_computed ? num(l->kind, v->computed) : json_null());
        json_object_set_new(j, "computed_range",
                            v->has_computed ? json_pack("[oo]", num(l->kind, v->computed_lo),
                                                        num(l->kind, v->computed_hi))
                                            : json_null());
        json_object_set_new(j, "would_match",
                            v->would_match[0] ? json_string(v->would_match) : json_null());
        json_object_set_new(j, "match",
                            v->match == VLLM_MATCH_UNCHECKED
                                ? json_null()
                                : json_boolean(v->match == VLLM_MATCH_YES));
        json_object_set_new(j, "why", json_string(why));
        json_array_append_new(lines, j);
    }
    json_object_set_new(o, "lines", lines);
    return o;
}

static int dump_json(FILE *out, json_t *o)
{
    int rc = cli_json_dumpf(o, out, JSON_INDENT(2)) == 0 ? 0 : 1;
    fputc('\n', out);
    json_decref(o);
    return rc;
}

/* "start-up 2 (lines 41 to 80): " where the log holds several; "" otherwise. */
static const char *run_where(size_t i, size_t n, const struct vllm_run *r, char *buf, size_t cap)
{
    if (n <= 1)
        buf[0] = '\0';
    else
        snprintf(buf, cap, "start-up %zu of %zu (lines %zu to %zu): ", i + 1, n, r->first_line,
                 r->last_line);
    return buf;
}

#define NO_CAPACITY_NOTE "no capacity line: this start-up stopped before the KV cache was set up"

/* Every start-up of the log, explained under its own settings. */
static int print_runs(const struct cli_args *a, const char *text, const struct vllm_run *runs,
                      size_t nr, size_t merged, struct vllm_log *logs, struct model_id *ids,
                      struct vllm_explain *exs)
{
    if (a->given[F_JSON]) {
        json_t *top, *arr;
        if (nr == 1) {
            top = run_json(text, &logs[0], &ids[0], &exs[0]);
            json_object_set_new(top, "startups", json_integer(1));
            return dump_json(stdout, top);
        }
        top = json_object();
        arr = json_array();
        json_object_set_new(top, "startups", json_integer((json_int_t)nr));
        json_object_set_new(
            top, "note",
            json_string("the log holds several start-ups (vLLM was started again, as with tee -a "
                        "across restarts): each run is explained under its own model, version "
                        "and settings"));
        if (merged)
            json_object_set_new(top, "startups_merged", json_integer((json_int_t)merged));
        for (size_t i = 0; i < nr; i++) {
            json_t *o = logs[i].n_lines
                            ? run_json(text, &logs[i], &ids[i], &exs[i])
                            : json_pack("{s:s,s:[]}", "note", NO_CAPACITY_NOTE, "lines");
            json_object_set_new(o, "first_line", json_integer((json_int_t)runs[i].first_line));
            json_object_set_new(o, "last_line", json_integer((json_int_t)runs[i].last_line));
            json_array_append_new(arr, o);
        }
        json_object_set_new(top, "runs", arr);
        return dump_json(stdout, top);
    }
    if (nr > 1)
        printf("This log holds %zu start-ups (vLLM was started again, as with tee -a across\n"
               "restarts): each is explained under its own model, version and settings.\n",
               nr);
    if (merged)
        printf("(%zu more start-ups past the first %d are read with the last)\n", merged,
               VLLM_LOG_MAX_RUNS);
    for (size_t i = 0; i < nr; i++) {
        if (nr > 1)
            printf("\n== Start-up %zu of %zu, lines %zu to %zu ==\n", i + 1, nr, runs[i].first_line,
                   runs[i].last_line);
        if (logs[i].n_lines)
            print_human(stdout, text, &logs[i], &ids[i], &exs[i]);
        else
            printf("Not explained: %s\n", NO_CAPACITY_NOTE);
    }
    return 0;
}

int cli_explain_log(int argc, char **argv)
{
    struct cli_args a;
    struct vllm_run *runs = NULL;
    struct vllm_log *logs = NULL;
    struct vllm_explain *exs = NULL;
    struct model_id *ids = NULL;
    const char *file;
    char *text = NULL, shown[256], why[400], where[96];
    size_t len = 0, nr = 0, merged = 0, errors = 0, explained = 0;
    enum kv_field bad = KV_FIELD_NONE;
    enum kvt_err e;
    int rc;

    if ((rc = cli_parse(&spec, argc, argv, &a)) != 0)
        return rc;
    if (a.help) {
        print_help(stdout);
        return 0;
    }
    file = a.npos > 0 && strcmp(a.pos[0], "-") != 0 ? a.pos[0] : NULL;
    if (a.npos == 0 && isatty(STDIN_FILENO))
        return usage_error("no log: give a FILE, or pipe one in");
    if (tutor_vllm_log_read(file, stdin, &text, &len, why, sizeof why) != 0)
        return input_error("%s", why);
    runs = calloc(VLLM_LOG_MAX_RUNS, sizeof *runs);
    if (runs)
        nr = vllm_log_runs(text, len, runs, VLLM_LOG_MAX_RUNS, &merged);
    logs = calloc(nr ? nr : 1, sizeof *logs);
    exs = calloc(nr ? nr : 1, sizeof *exs);
    ids = calloc(nr ? nr : 1, sizeof *ids);
    if (!runs || !logs || !exs || !ids) {
        rc = input_error("out of memory");
        goto done;
    }
    kvt_safe(file ? file : "standard input", shown, sizeof shown);
    for (size_t i = 0; i < nr; i++) {
        vllm_log_parse_run(text, &runs[i], &logs[i]);
        errors += logs[i].n_errors;
        explained += logs[i].n_lines > 0;
    }
    if (errors) {
        for (size_t i = 0; i < nr; i++)
            refuse_problems(shown, &logs[i]);
        rc = 2;
        goto done;
    }
    if (explained == 0) {
        size_t total = runs[nr - 1].last_line;
        rc = cli_fail("explain-log", 1,
                      "%s: no capacity line in %zu line%s (\"Available KV cache memory\", \"GPU "
                      "KV cache size\", \"Maximum concurrency for\"): is it a vLLM start-up "
                      "log, cut before the KV cache was set up?",
                      shown, total, total == 1 ? "" : "s");
        goto done;
    }
    for (size_t i = 0; i < nr; i++) {
        if (!logs[i].n_lines)
            continue;
        run_where(i, nr, &runs[i], where, sizeof where);
        if ((rc = resolve_model(&a, &logs[i], &ids[i], where)) != 0)
            goto done;
        e = vllm_explain(&logs[i], &ids[i].m, cli_glyphs()->times[0] != 'x', &exs[i], &bad);
        if (e != KVT_E_OK) {
            rc = input_error("%sthe model under the log's settings: %s (%s)", where,
                             kvt_strerror(e), kv_field_name(bad));
            goto done;
        }
    }
    rc = print_runs(&a, text, runs, nr, merged, logs, ids, exs);
done:
    free(text);
    free(runs);
    free(logs);
    free(exs);
    free(ids);
    return rc;
}
