#include "cli_json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kvt_format.h"

/* A number token at s: its length, and whether it is a real. */
static size_t number_len(const char *s, int *real)
{
    size_t n = 0;

    *real = 0;
    while (s[n] && strchr("0123456789+-.eE", s[n])) {
        if (strchr(".eE", s[n]))
            *real = 1;
        n++;
    }
    return n;
}

/* A string as jansson wrote it, but with each C1 control (U+0080 to
 * U+009F, valid UTF-8 that jansson passes through raw) escaped: a terminal
 * takes U+009B as CSI, so text from a log or a config must not carry it. */
static void put_string(const char *s, size_t n, FILE *out)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i], d = i + 1 < n ? (unsigned char)s[i + 1] : 0;
        if (c == 0xc2 && d >= 0x80 && d <= 0x9f) {
            fprintf(out, "\\u%04x", (unsigned)d);
            i++;
        } else {
            fputc(c, out);
        }
    }
}

int cli_json_dumpf(const json_t *j, FILE *out, size_t flags)
{
    /* %.17g round-trips every double; the text is then shortened value by
     * value, which one precision for the whole document cannot do */
    char *text =
        json_dumps(j, (flags & ~(size_t)JSON_REAL_PRECISION(31)) | JSON_REAL_PRECISION(17));
    const char *p;

    if (!text)
        return -1;
    for (p = text; *p;) {
        if (*p == '"') { /* a string, copied whole: its digits are text */
            const char *q = p + 1;
            while (*q && *q != '"')
                q += q[0] == '\\' && q[1] ? 2 : 1;
            if (*q)
                q++;
            put_string(p, (size_t)(q - p), out);
            p = q;
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            int real;
            size_t n = number_len(p, &real);
            if (real) {
                char num[40];
                /* jansson writes '.' whatever the locale; so does strtod in
                 * this program, which never sets LC_NUMERIC */
                kvt_fmt_shortest(strtod(p, NULL), num, sizeof num);
                fputs(num, out);
                if (!strpbrk(num, ".eEn")) /* inf and nan never reach JSON */
                    fputs(".0", out);
            } else {
                fwrite(p, 1, n, out);
            }
            p += n;
        } else {
            fputc(*p++, out);
        }
    }
    free(text);
    return ferror(out) ? -1 : 0;
}

static bool json_failures, json_failed;

void cli_json_failures(bool on)
{
    json_failures = on;
}

void cli_json_error(const char *msg)
{
    json_t *o;
    if (!json_failures || json_failed)
        return;
    json_failed = true;
    o = json_pack("{s:s}", "error", msg);
    if (!o) /* not UTF-8: jansson refuses it; the line on stderr still says it */
        o = json_pack("{s:s}", "error", "(the message is not UTF-8; see standard error)");
    fflush(stdout);
    cli_json_dumpf(o, stdout, 0);
    fputc('\n', stdout);
    fflush(stdout);
    json_decref(o);
}

int cli_fail(const char *cmd, int status, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "kvtutor %s: %s\n", cmd, msg);
    cli_json_error(msg);
    return status;
}
