#include "kvt_format.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* printf writes LC_NUMERIC's decimal point; the text here always has '.'.
 * printf never groups without the ' flag, so the point is the only
 * locale-dependent part of its output. */
static char *c_point(char *buf)
{
    const char *dp = localeconv()->decimal_point;
    size_t n = dp ? strlen(dp) : 0;
    char *at;

    if (n == 0 || (n == 1 && dp[0] == '.') || !(at = strstr(buf, dp)))
        return buf;
    *at = '.';
    memmove(at + 1, at + n, strlen(at + n) + 1);
    return buf;
}

const char *kvt_fmt_int(uint64_t v, char *buf, size_t cap)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;

    if (cap == 0)
        return buf;
    for (int i = 0; i < n && o + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *kvt_fmt_count(uint64_t n, const char *one, const char *many, char *buf, size_t cap)
{
    char num[32];
    snprintf(buf, cap, "%s %s", kvt_fmt_int(n, num, sizeof num), n == 1 ? one : many);
    return buf;
}

/* Drops trailing zeros after the point, and the point when nothing follows. */
static char *trim_zeros(char *buf)
{
    size_t n = strlen(buf);

    if (!strchr(buf, '.'))
        return buf;
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
    return buf;
}

const char *kvt_fmt_real(double v, int decimals, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.*f", decimals, v);
    trim_zeros(c_point(buf));
    if (strcmp(buf, "-0") == 0) /* -0.0001 at 2 decimals */
        snprintf(buf, cap, "0");
    return buf;
}

/* A whole value, grouped, with its sign. */
static const char *grouped(double v, char *buf, size_t cap)
{
    char digits[40];
    double r = fabs(round(v));

    if (r >= 9.2e18) /* past what the grouping's integer holds */
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%s%s", v < 0 && r > 0 ? "-" : "",
                 kvt_fmt_int((uint64_t)r, digits, sizeof digits));
    return buf;
}

const char *kvt_fmt_number(double v, int decimals, char *buf, size_t cap)
{
    if (v == floor(v) && fabs(v) < 1e15)
        return grouped(v, buf, cap);
    return kvt_fmt_real(v, decimals, buf, cap);
}

/* v has no digit past its `decimals`-th (to rounding error). */
static bool ends_at(double v, int decimals)
{
    double scaled = v * pow(10, decimals);
    return fabs(scaled - nearbyint(scaled)) <= 1e-12 * fmax(1000.0, fabs(scaled));
}

const char *kvt_fmt_near(double v, double tolerance, char *buf, size_t cap)
{
    int d = 6;
    char num[64], whole[64];

    if (isfinite(tolerance) && tolerance > 0)
        d = 1 - (int)floor(log10(tolerance));
    d = d < 0 ? 0 : d > 12 ? 12 : d;
    /* a value that ends one decimal further is written whole: 4.8125
     * beside a worked line's "= 4.8125 GiB" is one figure, "4.812" another
     * (a tie, rounded to even); 4.68559 stays 4.686 */
    if (d < 12 && isfinite(v) && ends_at(v, d + 1) && !ends_at(v, d))
        d++;
    kvt_fmt_real(v, d, num, sizeof num);
    /* the whole part grouped, as kvt_fmt_number groups a whole value */
    if (!strchr(num, '.'))
        return kvt_fmt_number(strtod(num, NULL), 0, buf, cap);
    kvt_fmt_fixed(v, (int)strlen(strchr(num, '.') + 1), whole, sizeof whole);
    snprintf(buf, cap, "%s", whole);
    return buf;
}

/* The decimals that give `v` about three significant digits. */
static int amount_decimals(double v)
{
    double a = fabs(v);
    int d;

    if (a >= 100 || a == 0)
        return 0;
    if (a >= 10)
        return 1;
    if (a >= 1)
        return 2;
    d = 2 - (int)floor(log10(a));
    return d > 12 ? 12 : d;
}

const char *kvt_fmt_amount(double v, char *buf, size_t cap)
{
    if (!isfinite(v)) {
        snprintf(buf, cap, "%g", v);
        return buf;
    }
    if (fabs(v) >= 100)
        return grouped(v, buf, cap);
    return kvt_fmt_real(v, amount_decimals(v), buf, cap); /* 99.96 -> "100", as above */
}

const char *kvt_fmt_ms(double ms, char *buf, size_t cap)
{
    char num[64];
    const char *unit = "ms";

    /* 999.6 ms rounds to "1,000 ms" by the amount rule: a second, then */
    if (isfinite(ms) && fabs(ms) >= 999.5 && fabs(ms) < 119500) {
        ms /= 1000;
        unit = "s";
    } else if (isfinite(ms) && fabs(ms) >= 119500) {
        ms /= 60000;
        unit = "min";
    }
    snprintf(buf, cap, "%s %s", kvt_fmt_amount(ms, num, sizeof num), unit);
    return buf;
}

const char *kvt_fmt_rate(double v, char *buf, size_t cap)
{
    if (isfinite(v) && fabs(v) >= 100)
        return grouped(v, buf, cap);
    return kvt_fmt_real(v, 1, buf, cap);
}

const char *kvt_fmt_bytes(double bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    const size_t last = sizeof units / sizeof units[0] - 1;
    size_t u = 0;
    char num[64];

    if (!isfinite(bytes) || bytes < 0) {
        snprintf(buf, cap, "%g B", bytes);
        return buf;
    }
    while (bytes >= 1024.0 && u < last) {
        bytes /= 1024.0;
        u++;
    }
    if (u == 0)
        grouped(bytes, num, sizeof num);
    else
        kvt_fmt_amount(bytes, num, sizeof num);
    /* 1023.6 MiB rounds to 1,024 MiB: that is 1 GiB */
    if (u < last && strcmp(num, "1,024") == 0) {
        u++;
        snprintf(num, sizeof num, "1");
    }
    snprintf(buf, cap, "%s %s", num, units[u]);
    return buf;
}

const char *kvt_fmt_gib_vllm(double bytes, char *buf, size_t cap)
{
    /* vllm/v1/worker/gpu_worker.py: "Available KV cache memory: %.2f GiB" */
    char num[64];
    snprintf(num, sizeof num, "%.2f", bytes / (1024.0 * 1024.0 * 1024.0));
    snprintf(buf, cap, "%s GiB", c_point(num));
    return buf;
}

const char *kvt_fmt_fixed(double v, int decimals, char *buf, size_t cap)
{
    char num[400], out[520];
    const char *digits;
    size_t whole, o = 0;

    if (!isfinite(v)) {
        snprintf(buf, cap, "%g", v);
        return buf;
    }
    snprintf(num, sizeof num, "%.*f", decimals < 0 ? 0 : decimals > 17 ? 17 : decimals, v);
    c_point(num);
    digits = num[0] == '-' ? num + 1 : num;
    /* -0.001 at two decimals is "0.00", not "-0.00" */
    if (num[0] == '-' && strspn(digits, "0.") != strlen(digits))
        out[o++] = '-';
    whole = strcspn(digits, ".");
    for (size_t i = 0; i < whole && o + 2 < sizeof out; i++) {
        if (i > 0 && (whole - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    snprintf(out + o, sizeof out - o, "%s", digits + whole);
    snprintf(buf, cap, "%s", out);
    return buf;
}

const char *kvt_fmt_concurrency_vllm(double v, char *buf, size_t cap)
{
    /* vllm/v1/core/kv_cache_utils.py: "Maximum concurrency for %s tokens per
     * request: %.2fx" */
    char num[400];
    snprintf(buf, cap, "%sx", kvt_fmt_fixed(v, 2, num, sizeof num));
    return buf;
}

const char *kvt_fmt_percent(double fraction, char *buf, size_t cap)
{
    double p = fraction * 100.0;
    char num[64];
    int d = fabs(p) >= 10 ? 0 : 1;

    if (!isfinite(p)) {
        snprintf(buf, cap, "%g%%", p);
        return buf;
    }
    /* an almost-all or an almost-nothing must not read as all or nothing */
    for (; d < 6; d++) {
        kvt_fmt_real(p, d, num, sizeof num);
        if ((strcmp(num, "100") != 0 || p == 100) && (strcmp(num, "0") != 0 || p == 0))
            break;
    }
    snprintf(buf, cap, "%s%%", num);
    return buf;
}

const char *kvt_fmt_shortest(double v, char *buf, size_t cap)
{
    char num[40];

    if (!isfinite(v)) {
        snprintf(buf, cap, "%g", v);
        return buf;
    }
    /* strtod and snprintf agree on the locale's point, so the test is fair
     * in any locale; the point becomes '.' only after it */
    int p = 1, e;
    for (; p < 17; p++) {
        snprintf(num, sizeof num, "%.*e", p - 1, v);
        if (strtod(num, NULL) == v)
            break;
    }
    snprintf(num, sizeof num, "%.*e", p - 1, v);
    e = atoi(strchr(num, 'e') + 1);
    /* p significant digits, written without an exponent where that stays
     * short (4800, not 4.8e+03; 0.00875): the same decimal value, so it
     * reads back the same */
    if (e >= -5 && e < 17)
        snprintf(num, sizeof num, "%.*f", p - 1 - e > 0 ? p - 1 - e : 0, v);
    snprintf(buf, cap, "%s", c_point(num));
    return buf;
}

/* Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
 * civil_from_days: eras of 400 years, years starting in March). */
static void civil(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;

    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

const char *kvt_fmt_date(int64_t day, char *buf, size_t cap)
{
    int64_t y;
    unsigned m, d;

    civil(day, &y, &m, &d);
    snprintf(buf, cap, "%04lld-%02u-%02u", (long long)y, m, d);
    return buf;
}

const char *kvt_fmt_utc(int64_t seconds, char *buf, size_t cap)
{
    int64_t day = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    int64_t s = seconds - day * 86400;
    char date[32];

    snprintf(buf, cap, "%sT%02d:%02d:%02dZ", kvt_fmt_date(day, date, sizeof date), (int)(s / 3600),
             (int)(s / 60 % 60), (int)(s % 60));
    return buf;
}

/* A proleptic Gregorian date to days since 1970-01-01 (Howard Hinnant's
 * days_from_civil, the inverse of civil above). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* n decimal digits at s; -1 when one is not a digit. */
static int digits_at(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* "YYYY-MM-DD" at the start of s. */
static bool date_at(const char *s, int64_t *day)
{
    int y, m, d;
    int64_t z, cy;
    unsigned cm, cd;

    if (strlen(s) < 10 || s[4] != '-' || s[7] != '-' || (y = digits_at(s, 4)) < 0 ||
        (m = digits_at(s + 5, 2)) < 1 || m > 12 || (d = digits_at(s + 8, 2)) < 1 || d > 31)
        return false;
    z = days_from_civil(y, (unsigned)m, (unsigned)d);
    civil(z, &cy, &cm, &cd); /* 2025-02-30 comes back as March: not a date */
    if (cy != y || cm != (unsigned)m || cd != (unsigned)d)
        return false;
    *day = z;
    return true;
}

bool kvt_parse_date(const char *s, int64_t *day)
{
    return strlen(s) == 10 && date_at(s, day);
}

bool kvt_parse_utc(const char *s, int64_t *seconds)
{
    int64_t day;
    int h, mi, sec;

    if (strlen(s) != 20 || !date_at(s, &day) || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
        s[19] != 'Z' || (h = digits_at(s + 11, 2)) < 0 || h > 23 ||
        (mi = digits_at(s + 14, 2)) < 0 || mi > 59 || (sec = digits_at(s + 17, 2)) < 0 || sec > 59)
        return false;
    *seconds = day * 86400 + h * 3600 + mi * 60 + sec;
    return true;
}
