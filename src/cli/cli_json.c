#include "cli_json.h"

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
            fwrite(p, 1, (size_t)(q - p), out);
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
