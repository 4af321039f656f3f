#include "cli_args.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *cli_fmt_int(uint64_t v, char *buf, size_t cap)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;

    for (int i = 0; i < n && o + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *cli_fmt_real(double v, int decimals, char *buf, size_t cap)
{
    char *dot;
    size_t n;

    snprintf(buf, cap, "%.*f", decimals, v);
    dot = strchr(buf, '.');
    if (!dot)
        return buf;
    n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
    return buf;
}

const char *cli_fmt_bytes(double bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    size_t u = 0;
    char num[48];

    while (bytes >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024.0;
        u++;
    }
    /* three significant decimals for fractions, none for whole values */
    cli_fmt_real(bytes, u == 0 ? 0 : (bytes < 10 ? 4 : 2), num, sizeof num);
    snprintf(buf, cap, "%s %s", num, units[u]);
    return buf;
}
