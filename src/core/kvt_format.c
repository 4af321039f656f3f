#include "kvt_format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *kvt_fmt_int(uint64_t v, char *buf, size_t cap)
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

const char *kvt_fmt_real(double v, int decimals, char *buf, size_t cap)
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

const char *kvt_fmt_bytes(double bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    size_t u = 0;
    char num[48];

    while (bytes >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024.0;
        u++;
    }
    /* three significant decimals for fractions, none for whole values */
    kvt_fmt_real(bytes, u == 0 ? 0 : (bytes < 10 ? 4 : 2), num, sizeof num);
    snprintf(buf, cap, "%s %s", num, units[u]);
    return buf;
}

const char *kvt_fmt_number(double v, int decimals, char *buf, size_t cap)
{
    char digits[40];
    if (v == floor(v) && fabs(v) < 1e15) {
        kvt_fmt_int((uint64_t)fabs(v), digits, sizeof digits);
        snprintf(buf, cap, "%s%s", v < 0 ? "-" : "", digits);
        return buf;
    }
    return kvt_fmt_real(v, decimals, buf, cap);
}

const char *kvt_fmt_rate(double v, char *buf, size_t cap)
{
    /* past 2^63 a whole number no longer fits the grouping's integer */
    if (v >= 100 && v < 9.2e18)
        return kvt_fmt_int((uint64_t)llround(v), buf, cap);
    return kvt_fmt_real(v, v >= 100 ? 0 : 1, buf, cap);
}
