#include "kv_answer.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MAGNITUDE 1e300

static enum kvt_err say(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    if (cap) {
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return KVT_E_PARSE;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static bool is_space(const char *s, size_t *len)
{
    /* ASCII blanks, and the no-break and thin spaces people paste */
    if (*s == ' ' || *s == '\t') {
        *len = 1;
        return true;
    }
    if ((unsigned char)s[0] == 0xC2 && (unsigned char)s[1] == 0xA0) {
        *len = 2;
        return true;
    }
    if ((unsigned char)s[0] == 0xE2 && (unsigned char)s[1] == 0x80 &&
        ((unsigned char)s[2] == 0x89 || (unsigned char)s[2] == 0xAF)) {
        *len = 3;
        return true;
    }
    return false;
}

static const char *skip_space(const char *s)
{
    size_t n;
    while (is_space(s, &n))
        s += n;
    return s;
}

size_t kv_read_decimal(const char *s, double *out)
{
    static const double exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s;
    uint64_t mant = 0;
    int digits = 0, exp10 = 0, e = 0, esign = 1;
    bool any = false;
    double v;

    for (; is_digit(*p); p++, any = true) {
        if (digits < 19) {
            mant = mant * 10 + (uint64_t)(*p - '0');
            if (mant)
                digits++;
        } else {
            exp10++; /* digits past 19 only scale */
        }
    }
    if (*p == '.') {
        const char *q = p + 1;
        for (; is_digit(*q); q++, any = true) {
            if (digits < 19) {
                mant = mant * 10 + (uint64_t)(*q - '0');
                if (mant)
                    digits++;
                exp10--;
            }
        }
        if (any)
            p = q;
    }
    if (!any)
        return 0;
    if ((*p == 'e' || *p == 'E') &&
        (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2])))) {
        p++;
        if (*p == '+' || *p == '-')
            esign = *p++ == '-' ? -1 : 1;
        for (; is_digit(*p); p++)
            if (e < 100000)
                e = e * 10 + (*p - '0');
        exp10 += esign * e;
    }
    v = (double)mant;
    if (mant == 0)
        v = 0;
    else if (mant < (1ull << 53) && exp10 >= 0 && exp10 <= 22)
        v *= exact[exp10];
    else if (mant < (1ull << 53) && exp10 < 0 && exp10 >= -22)
        v /= exact[-exp10]; /* exact / exact: correctly rounded */
    else
        v *= pow(10.0, exp10);
    *out = v;
    return (size_t)(p - s);
}

/* Words meaning "about". */
static size_t approx_prefix(const char *s)
{
    static const char *const words[] = {"approximately", "approx.", "approx", "about",
                                        "roughly",       "around",  "circa",  NULL};
    if (*s == '~')
        return 1;
    if (strncmp(s, "≈", strlen("≈")) == 0)
        return strlen("≈");
    for (int i = 0; words[i]; i++) {
        size_t n = strlen(words[i]);
        bool match = true;
        for (size_t k = 0; k < n && match; k++)
            match = lower((unsigned char)s[k]) == words[i][k];
        if (match && (s[n] == ' ' || s[n] == '\t'))
            return n;
    }
    return 0;
}

/* The unit named by text[0..n): exact first, then without regard to case
 * when only one unit matches that way. */
static const struct kv_unit *find_unit(const char *text, size_t n)
{
    char name[24];
    size_t count;
    const struct kv_unit *units = kv_units(&count), *found = NULL;

    if (n == 0 || n >= sizeof name)
        return NULL;
    memcpy(name, text, n);
    name[n] = '\0';
    if (strcmp(name, "×") == 0)
        return kv_unit_find("x");
    if (strcmp(name, "byte") == 0)
        return kv_unit_find("bytes");
    if (strcmp(name, "token") == 0)
        return kv_unit_find("tokens");
    if (kv_unit_find(name))
        return kv_unit_find(name);
    for (size_t i = 0; i < count; i++) {
        size_t k = 0;
        if (strlen(units[i].name) != n)
            continue;
        while (k < n && lower((unsigned char)units[i].name[k]) == lower((unsigned char)name[k]))
            k++;
        if (k == n) {
            if (found && found->scale != units[i].scale)
                return NULL; /* ambiguous without its case */
            found = &units[i];
        }
    }
    return found;
}

/* A space (or no-break or thin space) that separates groups of three
 * digits: "57 344", followed by exactly three digits. */
static bool group_space(const char *q, size_t *len)
{
    if (!is_space(q, len))
        return false;
    q += *len;
    return is_digit(q[0]) && is_digit(q[1]) && is_digit(q[2]) && !is_digit(q[3]);
}

/* The place value of the last digit of a decimal ("0.4375" 1e-4, "57344"
 * 1, "5.7344e4" 1): how far a rounded answer may honestly be off. */
static double last_place(const char *d)
{
    const char *dot = strchr(d, '.'), *e = strpbrk(d, "eE");
    int frac = 0, exp10 = e ? atoi(e + 1) : 0;
    if (dot)
        for (const char *q = dot + 1; is_digit(*q); q++)
            frac++;
    return pow(10.0, exp10 - frac);
}

/* A lone "b", or a decimal prefix before a lower-case "b" ("kb", "Gb",
 * "mb/s"), may mean bits or bytes: kvtutor asks rather than guesses. */
static bool bits_or_bytes(const char *u, size_t n)
{
    /* "Gib", "Mib", "Kib", "Tib": the short forms of gibibits and the rest
     * (Gib/s on link data sheets), as ambiguous as "Gb" */
    static const char *const ambiguous[] = {"b",  "kb", "Kb",  "mb",  "Mb",  "gb",  "Gb",
                                            "tb", "Tb", "Kib", "Mib", "Gib", "Tib", NULL};
    for (int i = 0; ambiguous[i]; i++) {
        size_t k = strlen(ambiguous[i]);
        if (strncmp(u, ambiguous[i], k) == 0 &&
            (n == k || (n == k + 2 && u[k] == '/' && (u[k + 1] == 's'))))
            return true;
    }
    return false;
}

/* Units written as words or with a "per": "57 kilobytes", "22 whole
 * sequences", "7 times", "7-fold", "56 KiB per token", "1.73 req/s". The
 * text is matched without case; what remains goes to find_unit. */
static const struct kv_unit *unit_words(const char *text, size_t n, const char **per_what)
{
    static const struct {
        const char *said, *unit;
    } words[] = {
        {"times", "x"},
        {"-fold", "x"},
        {"fold", "x"},
        {"seq", "sequences"},
        {"sequence", "sequences"},
        {"req", "requests"},
        {"reqs", "requests"},
        {"request", "requests"},
        {"concurrent sequences", "sequences"},
        {"concurrent requests", "requests"},
        {"block", "blocks"},
        {"gpu", "GPUs"},
        {"gpus", "GPUs"},
        {"step", "steps"},
        {"decode steps", "steps"},
        /* a scheduler step is one iteration, one forward pass of the batch */
        {"iteration", "steps"},
        {"iterations", "steps"},
        {"forward pass", "steps"},
        {"forward passes", "steps"},
        {"pass", "steps"},
        {"passes", "steps"},
        /* the one exercise in steps cuts one prompt into one chunk a step */
        {"chunk", "steps"},
        {"chunks", "steps"},
        {"req/s", "requests/s"},
        {"reqs/s", "requests/s"},
        {"request/s", "requests/s"},
        {"rps", "requests/s"},
        {"seq/s", "requests/s"},
        {"seqs/s", "requests/s"},
        {"sequences/s", "requests/s"},
        {"requests per second", "requests/s"},
        {"sequences per second", "requests/s"},
        {"tokens per second", "tok/s"},
        {"tok per second", "tok/s"},
        {"flop/byte", "FLOP/B"},
        {"flops/byte", "FLOP/B"},
        {"flops/b", "FLOP/B"},
        {"flop per byte", "FLOP/B"},
        {"flops per byte", "FLOP/B"},
        {"kilobyte", "KB"},
        {"kilobytes", "KB"},
        {"megabyte", "MB"},
        {"megabytes", "MB"},
        {"gigabyte", "GB"},
        {"gigabytes", "GB"},
        {"terabyte", "TB"},
        {"terabytes", "TB"},
        {"kibibyte", "KiB"},
        {"kibibytes", "KiB"},
        {"mebibyte", "MiB"},
        {"mebibytes", "MiB"},
        {"gibibyte", "GiB"},
        {"gibibytes", "GiB"},
        {"tebibyte", "TiB"},
        {"tebibytes", "TiB"},
        {"kilobits", "kbit"},
        {"megabits", "Mbit"},
        {"gigabits", "Gbit"},
    };
    /* a size per token or per sequence is a size: the question says per what */
    static const char *const per[] = {"/token",       "/tokens",       "/tok",     " per token",
                                      "/seq",         "/sequence",     "/request", "/req",
                                      " per request", " per sequence", NULL};
    static const char *const per_is[] = {"token",    "token",    "token",    "token",
                                         "sequence", "sequence", "sequence", "sequence",
                                         "sequence", "sequence"};
    char low[48];
    const struct kv_unit *u;

    if (n >= sizeof low)
        return NULL;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)lower((unsigned char)text[i]);
    low[n] = '\0';
    if (n > 6 && memcmp(low, "whole ", 6) == 0)
        return unit_words(text + 6, n - 6, per_what);
    for (int i = 0; per[i]; i++) {
        size_t k = strlen(per[i]);
        if (n > k && strcmp(low + n - k, per[i]) == 0) {
            size_t m = n - k;
            while (m > 0 && text[m - 1] == ' ')
                m--;
            u = unit_words(text, m, per_what);
            if (u && u->dim == KV_DIM_BYTES)
                *per_what = per_is[i];
            return u && u->dim == KV_DIM_BYTES ? u : NULL;
        }
    }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(low, words[i].said) == 0)
            return kv_unit_find(words[i].unit);
    return find_unit(text, n);
}

/* "/s", "per second", "a second": a rate that does not say of what, read in
 * the exercise's unit when that is a rate ("1.73/s" for requests/s). */
static bool per_second(const char *u, size_t n)
{
    static const char *const said[] = {"/s", "per second", "per s", "a second", "/sec", NULL};
    for (int i = 0; said[i]; i++) {
        size_t k = 0;
        if (strlen(said[i]) != n)
            continue;
        while (k < n && lower((unsigned char)u[k]) == (unsigned char)said[i][k])
            k++;
        if (k == n)
            return true;
    }
    return false;
}

enum kvt_err kv_answer_parse(const char *text, struct kv_answer *out, char *why, size_t cap)
{
    const char *p, *num_start, *unit_start;
    bool negative = false;
    char digits[128];
    size_t nd = 0, used, unit_len;
    double v;

    *out = (struct kv_answer){0};
    if (!text)
        return say(why, cap, "no answer");
    p = skip_space(text);
    if (*p == '\0')
        return say(why, cap, "no answer");
    if ((used = approx_prefix(p)) > 0) {
        out->approx = true;
        p = skip_space(p + used);
    }
    if (*p == '+' || *p == '-') {
        negative = *p == '-';
        p++;
    } else if (strncmp(p, "−", strlen("−")) == 0) { /* U+2212 MINUS SIGN */
        negative = true;
        p += strlen("−");
    }
    num_start = p;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return say(why, cap, "hexadecimal numbers are not answers");
    if (lower((unsigned char)p[0]) == 'i' || lower((unsigned char)p[0]) == 'n') {
        /* p[1] and p[2] only while the text lasts: "i" alone ends at p[1] */
        char w[4] = {(char)lower((unsigned char)p[0]), 0, 0, 0};
        if (p[1]) {
            w[1] = (char)lower((unsigned char)p[1]);
            w[2] = (char)lower((unsigned char)p[2]);
        }
        if (strcmp(w, "inf") == 0 || strcmp(w, "nan") == 0)
            return say(why, cap, "\"%s\" is not a number an answer can be", w);
    }
    /* digits with thousands grouping: copy them without separators */
    {
        const char *q = p;
        size_t run = strspn(p, "0123456789,_.eE+-");
        if (run >= sizeof digits - 1)
            return say(why, cap, "the number is too large to be an answer");
        int group = -1; /* digits since the last separator; -1: none seen */
        int lead = 0;
        size_t sl;
        while (is_digit(*q) || ((*q == ',' || *q == '_') && is_digit(q[1])) ||
               (group_space(q, &sl) && lead >= 1 && lead <= 3 && (group == -1 || group == 3))) {
            if (group_space(q, &sl) && !is_digit(*q)) {
                group = 0; /* "57 344": a space between groups of three */
                q += sl;
                continue;
            }
            if (*q == ',' || *q == '_') {
                if ((group == -1 && (lead < 1 || lead > 3)) || (group != -1 && group != 3))
                    return say(why, cap,
                               "\"%c\" groups digits in threes; write the decimal point as \".\"",
                               *q);
                group = 0;
            } else {
                if (group == -1)
                    lead++;
                else
                    group++;
                if (nd + 1 < sizeof digits)
                    digits[nd++] = *q;
            }
            q++;
        }
        if (group != -1 && group != 3)
            return say(why, cap, "\",\" groups digits in threes; write the decimal point as \".\"");
        /* the rest of the number: fraction and exponent */
        while ((*q == '.' || is_digit(*q) || *q == 'e' || *q == 'E' ||
                ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))) &&
               nd + 1 < sizeof digits) {
            if ((*q == 'e' || *q == 'E') &&
                !(is_digit(q[1]) || ((q[1] == '+' || q[1] == '-') && is_digit(q[2]))))
                break; /* "5 EiB" is not an exponent */
            digits[nd++] = *q++;
        }
        digits[nd] = '\0';
        p = q;
    }
    used = kv_read_decimal(digits, &v);
    if (used == 0)
        return say(why, cap, "an answer starts with a number");
    if (used != nd)
        return say(why, cap, "\"%.*s\" is not a number", (int)(p - num_start), num_start);
    if (!isfinite(v) || fabs(v) > MAX_MAGNITUDE)
        return say(why, cap, "the number is too large to be an answer");
    if (*p == ',' && is_digit(p[1]))
        return say(why, cap, "write the decimal point as \".\", not \",\"");
    out->ulp = last_place(digits);
    /* "57k", "1.42k tokens/s", "2M": thousands and millions, glued to the number */
    if ((*p == 'k' || *p == 'K' || *p == 'M') && (p[1] == '\0' || p[1] == ' ' || p[1] == '/')) {
        double m = *p == 'M' ? 1e6 : 1e3;
        v *= m;
        out->ulp *= m;
        p++;
    }
    /* "7/16 GiB": a fraction, exact */
    if (*p == '/' && is_digit(p[1])) {
        double den;
        size_t dl = kv_read_decimal(p + 1, &den);
        if (den == 0)
            return say(why, cap, "\"%.*s\" divides by zero", (int)(p + 1 + dl - num_start),
                       num_start);
        v /= den;
        out->ulp = 0;
        p += 1 + dl;
    }
    /* the unit: the rest, without trailing blanks */
    unit_start = skip_space(p);
    unit_len = strlen(unit_start);
    while (unit_len > 0) {
        size_t n;
        const char *end = unit_start + unit_len;
        if (end[-1] == ' ' || end[-1] == '\t')
            unit_len--;
        else if (unit_len >= 2 && is_space(end - 2, &n) && n == 2)
            unit_len -= 2;
        else if (unit_len >= 3 && is_space(end - 3, &n) && n == 3)
            unit_len -= 3;
        else
            break;
    }
    /* "57,344 B.": a sentence's full stop is not part of the unit */
    if (unit_len > 0 && unit_start[unit_len - 1] == '.' &&
        !(unit_len >= 7 && strncmp(unit_start + unit_len - 7, "approx.", 7) == 0))
        unit_len--;
    while (unit_len > 0 && (unit_start[unit_len - 1] == ' ' || unit_start[unit_len - 1] == '\t'))
        unit_len--;
    if (unit_len > 0) {
        if (bits_or_bytes(unit_start, unit_len))
            return say(why, cap,
                       "bits or bytes? \"%.*s\" could be either: write B or bytes for bytes, bit "
                       "or bits for bits",
                       (int)unit_len, unit_start);
        if (per_second(unit_start, unit_len)) {
            out->per_second = true; /* "1.73/s": a rate in the exercise's own unit */
            out->value = negative ? -v : v;
            return KVT_E_OK;
        }
        out->unit = unit_words(unit_start, unit_len, &out->per);
        if (!out->unit)
            return say(why, cap, "unknown unit \"%.*s\"", (int)(unit_len > 20 ? 20 : unit_len),
                       unit_start);
    }
    out->value = negative ? -v : v;
    return KVT_E_OK;
}
