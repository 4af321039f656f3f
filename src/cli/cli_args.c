#include "cli_args.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_json.h"
#include "kvt_text.h"

static const struct {
    const char *name, *metavar;
    unsigned bit;
} globals[] = {
    {"--db", "FILE", CLI_G_DB},
    {"--lessons", "PATH", CLI_G_LESSONS},
    {"--learner", "NAME", CLI_G_LEARNER},
};

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    char msg[1024], safe[320];

    /* the message quotes arguments: sanitised, and cut so that a 100 KB
     * argument is not echoed whole */
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "kvtutor%s%s: %s (see kvtutor%s%s --help)\n", cmd ? " " : "", cmd ? cmd : "",
            kvt_safe(msg, safe, sizeof safe), cmd ? " " : "", cmd ? cmd : "");
    cli_json_error(safe);
    return 2;
}

/* The length of the flag's name in `arg`: up to '=' when it has a value there. */
static size_t name_len(const char *arg)
{
    const char *eq = strchr(arg, '=');
    return eq ? (size_t)(eq - arg) : strlen(arg);
}

static bool is_named(const char *name, const char *arg, size_t len)
{
    return name && strlen(name) == len && strncmp(name, arg, len) == 0;
}

static int find_global(const char *arg, size_t len)
{
    for (size_t i = 0; i < sizeof globals / sizeof globals[0]; i++)
        if (is_named(globals[i].name, arg, len))
            return (int)i;
    return -1;
}

bool cli_is_global(int argc, char **argv, int i, int *takes)
{
    const char *arg = argv[i];

    if (find_global(arg, name_len(arg)) < 0)
        return false;
    *takes = strchr(arg, '=') || i + 1 >= argc ? 1 : 2;
    return true;
}

static int find_flag(const struct cli_spec *s, const char *arg, size_t len)
{
    for (int i = 0; i < s->nflags; i++)
        if (is_named(s->flags[i].name, arg, len) || is_named(s->flags[i].alias, arg, len))
            return i;
    return -1;
}

static bool dtype_allowed(const struct cli_flag *f, enum kv_dtype t)
{
    const char *want = kv_dtype_name(t), *p = f->dtypes;
    size_t n = strlen(want);

    while (*p) {
        size_t k = strcspn(p, "|");
        if (k == n && strncmp(p, want, n) == 0)
            return true;
        p += k + (p[k] == '|');
    }
    return false;
}

/* `typed` is the flag as the user wrote it ("--seq" for --max-model-len), so
 * that the message names what they typed. */
static int parse_value(const struct cli_spec *s, struct cli_args *a, int id, const char *typed,
                       int typed_len, const char *val)
{
    const struct cli_flag *f = &s->flags[id];
    const char *why = NULL;

    switch (f->kind) {
    case CLI_STR:
    case CLI_SWITCH:
        break;
    case CLI_LIST:
        if (a->nlist == CLI_MAX_LIST)
            return cli_usage_error(s->cmd, "%s: at most %d of them", f->name, CLI_MAX_LIST);
        a->list[a->nlist++] = val;
        break;
    case CLI_UINT:
        why = cli_parse_uint(val, f->umax, f->zero_ok, &a->u[id]);
        break;
    case CLI_TOKENS:
        why = cli_parse_human_int(val, f->umax, f->zero_ok, &a->u[id]);
        /* too large: name the limit, which a suffix makes easy to pass */
        if (why && strcmp(why, "is too large") == 0) {
            char lim[32];
            return cli_usage_error(s->cmd, "%.*s %s: is too large (at most %s)", typed_len, typed,
                                   val, kvt_fmt_int(f->umax, lim, sizeof lim));
        }
        break;
    case CLI_REAL:
        why = cli_parse_real(val, f->rmin, f->rmin_open, f->rmax, &a->r[id]);
        /* out of range: name the range ("--util 1.5: must be more than 0 and at most 1") */
        if (why && strcmp(why, "must be a number") != 0)
            return cli_usage_error(s->cmd, "%.*s %s: must be %s %.15g and at most %.15g", typed_len,
                                   typed, val, f->rmin_open ? "more than" : "at least", f->rmin,
                                   f->rmax);
        break;
    case CLI_DTYPE:
        if (!kv_dtype_parse(val, &a->t[id]) || !dtype_allowed(f, a->t[id]))
            return cli_usage_error(s->cmd, "%.*s %s: unknown type (one of %s)", typed_len, typed,
                                   val, f->dtypes);
        break;
    }
    if (why)
        return cli_usage_error(s->cmd, "%.*s %s: %s", typed_len, typed, val, why);
    a->text[id] = val;
    a->typed[id] = typed;
    a->typed_len[id] = typed_len;
    a->given[id] = true;
    return 0;
}

/* Why --lessons PATH cannot be read as lessons, or NULL: a folder of them,
 * or one lesson file, is what it takes. */
static const char *lessons_path_fault(const char *path)
{
    struct stat sb;
    size_t n = strlen(path);
    if (stat(path, &sb) != 0)
        return "no such folder or lesson file";
    if (S_ISDIR(sb.st_mode))
        return NULL;
    if (!S_ISREG(sb.st_mode))
        return "not a folder or a lesson file";
    if (n < 5 || strcmp(path + n - 4, ".lua") != 0)
        return "a lesson file's name ends in .lua";
    return NULL;
}

/* "-3" or "-.5" is a negative number, never a flag. */
static bool is_flag(const char *arg)
{
    return arg[0] == '-' && arg[1] && !(arg[1] >= '0' && arg[1] <= '9') && arg[1] != '.';
}

int cli_parse(const struct cli_spec *s, int argc, char **argv, struct cli_args *a)
{
    const char **global_dst[] = {&a->db, &a->lessons, &a->learner}; /* as globals[] */

    memset(a, 0, sizeof *a);
    a->pos = argv;
    /* a failure is JSON too where --json was asked for, even a failure to
     * parse what comes before it */
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--json") == 0 && find_flag(s, argv[i], 6) >= 0)
            cli_json_failures(true);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i], *eq = strchr(arg, '='), *val, *name, *metavar;
        size_t len = name_len(arg);
        int id = is_flag(arg) ? find_flag(s, arg, len) : -1;
        int g = id < 0 && is_flag(arg) ? find_global(arg, len) : -1;

        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
            return 0;
        }
        if (s->pass_rest && strcmp(arg, "--") == 0) {
            a->rest = argv + i + 1;
            a->nrest = argc - i - 1;
            return 0;
        }
        if (strcmp(arg, "--") == 0) {
            /* the end of the flags, as getopt has it: what follows is
             * positional, "--json" or "-5" an answer and not a flag */
            for (int j = i + 1; j < argc; j++) {
                if (a->npos == s->max_pos)
                    return cli_usage_error(s->cmd, "%s: unexpected argument", argv[j]);
                argv[a->npos++] = argv[j];
            }
            return 0;
        }
        if (id < 0 && g < 0) {
            if (is_flag(arg) && !s->dash_pos)
                return cli_usage_error(s->cmd, "%s: unknown flag", arg);
            if (a->npos == s->max_pos)
                return cli_usage_error(s->cmd, "%s: unexpected argument", arg);
            argv[a->npos++] = argv[i]; /* npos <= i: only slots already read */
            continue;
        }
        /* a global flag the command has no use for is refused, not ignored */
        if (g >= 0 && !(s->globals & globals[g].bit))
            return cli_usage_error(s->cmd, "%s: not used by %s", globals[g].name,
                                   s->cmd ? s->cmd : "the app");
        name = g >= 0 ? globals[g].name : s->flags[id].name;
        metavar = g >= 0 ? globals[g].metavar : s->flags[id].metavar;
        if (g < 0 && s->flags[id].kind == CLI_SWITCH) {
            if (eq)
                return cli_usage_error(s->cmd, "%s takes no value", name);
            a->given[id] = true;
            continue;
        }
        val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : "";
        if (!*val)
            return cli_usage_error(s->cmd, "%s needs a value (%s)", name,
                                   metavar ? metavar : "text");
        if (g >= 0 && globals[g].bit == CLI_G_LESSONS && lessons_path_fault(val)) {
            char f[KVT_SAFE_FIELD];
            return cli_usage_error(s->cmd, "--lessons %s: %s", kvt_safe(val, f, sizeof f),
                                   lessons_path_fault(val));
        }
        if (g >= 0)
            *global_dst[g] = val;
        else if (parse_value(s, a, id, arg, (int)len, val) != 0)
            return 2;
    }
    return 0;
}

const char *cli_parse_uint(const char *s, uint64_t max, bool allow_zero, uint64_t *out)
{
    uint64_t v = 0;

    if (!s || !*s)
        return "needs a value";
    if (*s == '-')
        return allow_zero ? "must not be negative" : "must be a positive integer";
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return allow_zero ? "must be a whole number" : "must be a positive integer";
        if (v > (UINT64_MAX - 9) / 10)
            return "is too large";
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (v == 0 && !allow_zero)
        return "must be a positive integer";
    if (v > max)
        return "is too large";
    *out = v;
    return NULL;
}

const char *cli_parse_human_int(const char *s, uint64_t max, bool allow_zero, uint64_t *out)
{
    static const char dec[] = "kmgt", bin[] = "KMGT";
    const char *bad = allow_zero ? "must be a whole number, or one with a suffix: 32k = 32,000, "
                                   "32K = 32,768"
                                 : "must be a positive integer, or one with a suffix: 32k = "
                                   "32,000, 32K = 32,768";
    char buf[64];
    size_t n, whole = 0, frac = 0;
    const char *p;
    uint64_t v;

    if (!s)
        return "needs a value";
    /* Python's str.strip: blanks either side are not part of the number */
    while (*s == ' ' || *s == '\t')
        s++;
    n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n == 0)
        return "needs a value";
    if (n >= sizeof buf)
        return "is too large";
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (!strchr(dec, buf[n - 1]) && !strchr(bin, buf[n - 1])) {
        const char *why = cli_parse_uint(buf, max, allow_zero, out);
        /* "32kb", "1.5": say what is accepted, not only what is wrong */
        if (why && (strcmp(why, "must be a whole number") == 0 ||
                    (strcmp(why, "must be a positive integer") == 0 && buf[0] != '-' &&
                     strspn(buf, "0123456789") != n)))
            return bad;
        return why;
    }
    /* the pattern (\d+(?:\.\d+)?)[kKmMgGtT]: digits first, and digits after a point */
    for (p = buf; *p >= '0' && *p <= '9'; p++)
        whole++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            frac++;
    if (whole == 0 || p != buf + n - 1 || (buf[whole] == '.' && frac == 0))
        return bad;
    p = strchr(dec, buf[n - 1]);
    if (p) {
        /* int(float(number) * mult): the same double product, truncated */
        double x = strtod(buf, NULL), mult = 1e3;
        for (const char *q = dec; q < p; q++)
            mult *= 1e3; /* exact: 1e6, 1e9 and 1e12 are doubles */
        x *= mult;
        if (!(x < 18446744073709551616.0))
            return "is too large";
        v = (uint64_t)x;
    } else {
        unsigned shift = 10 * (unsigned)(strchr(bin, buf[n - 1]) - bin + 1);
        uint64_t w;
        if (frac || buf[whole] == '.')
            return "no decimals with a binary suffix (K, M, G, T), as in vLLM; use k, m, g, t";
        buf[n - 1] = '\0';
        if (cli_parse_uint(buf, UINT64_MAX >> shift, true, &w) != NULL)
            return "is too large";
        v = w << shift;
    }
    if (v == 0 && !allow_zero)
        return "must be a positive integer";
    if (v > max)
        return "is too large";
    *out = v;
    return NULL;
}

bool cli_has_suffix(const struct cli_args *a, int id)
{
    const char *t = a->text[id];
    size_t n;

    if (!a->given[id] || !t)
        return false;
    n = strlen(t);
    while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
        n--;
    return n > 0 && strchr("kmgtKMGT", t[n - 1]) != NULL;
}

void cli_print_resolved(FILE *out, const struct cli_spec *s, const struct cli_args *a)
{
    char num[32];

    for (int i = 0; i < s->nflags; i++)
        if (s->flags[i].kind == CLI_TOKENS && cli_has_suffix(a, i))
            fprintf(out, "%.*s %s = %s tokens\n", a->typed_len[i], a->typed[i], a->text[i],
                    kvt_fmt_int(a->u[i], num, sizeof num));
}

/* strtod alone would take hex, "inf", "nan" and a locale's decimal comma;
 * flag values are plain decimals everywhere, so the syntax is checked here
 * first and strtod (correctly rounded, LC_NUMERIC is never changed from "C")
 * only converts. */
const char *cli_parse_real(const char *s, double min, bool min_open, double max, double *out)
{
    const char *p = s;
    char *end;
    int digits = 0;
    double v;

    if (!s || !*s)
        return "needs a value";
    if (*p == '+' || *p == '-')
        p++;
    for (; *p >= '0' && *p <= '9'; p++)
        digits++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits++;
    if (digits == 0)
        return "must be a number";
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (*p < '0' || *p > '9')
            return "must be a number";
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p)
        return "must be a number";
    v = strtod(s, &end);
    if (!isfinite(v))
        return "is too large";
    if (v < min || (min_open && v == min)) {
        if (min == 0)
            return min_open ? "must be greater than 0" : "must not be negative";
        return "is too small";
    }
    if (v > max)
        return "is too large";
    *out = v;
    return NULL;
}
