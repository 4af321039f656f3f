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
