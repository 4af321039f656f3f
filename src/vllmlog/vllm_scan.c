#include "vllm_scan.h"

#include <string.h>

const char *vllm_scan_find(const char *hay, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; p + n <= end; p++)
        if (*p == *needle && memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

bool vllm_scan_digit(char c)
{
    return c >= '0' && c <= '9';
}

const char *vllm_scan_spaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

bool vllm_scan_uint(const char **pp, const char *end, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;
    int digits = 0, group = 0; /* digits in all, and since the last comma */
    bool grouped = false;

    for (; p < end; p++) {
        if (vllm_scan_digit(*p)) {
            if (++digits > 18)
                return false;
            group++;
            v = v * 10 + (uint64_t)(*p - '0');
            continue;
        }
        /* a comma groups thousands only: 1 to 3 digits before the first, then
         * exactly 3 between commas and after the last ("58,11" stops at the
         * comma: a decimal comma is no thousands separator) */
        if (*p == ',' && group >= 1 && group <= 3 && (!grouped || group == 3) && end - p > 3 &&
            vllm_scan_digit(p[1]) && vllm_scan_digit(p[2]) && vllm_scan_digit(p[3]) &&
            (end - p == 4 || !vllm_scan_digit(p[4]))) {
            grouped = true;
            group = 0;
            continue;
        }
        break;
    }
    if (digits == 0)
        return false;
    *pp = p;
    *out = v;
    return true;
}

bool vllm_scan_real(const char **pp, const char *end, double *out)
{
    const char *p = *pp;
    uint64_t whole;
    double v, scale = 1;

    if (!vllm_scan_uint(&p, end, &whole))
        return false;
    v = (double)whole;
    if (p + 1 < end && *p == '.' && vllm_scan_digit(p[1])) {
        double frac = 0;
        int k = 0;
        for (p++; p < end && vllm_scan_digit(*p); p++)
            if (k++ < 15) {
                frac = frac * 10 + (*p - '0');
                scale *= 10;
            }
        v += frac / scale;
    }
    *pp = p;
    *out = v;
    return true;
}

bool vllm_scan_expect(const char **pp, const char *end, const char *word)
{
    size_t n = strlen(word);
    const char *p = vllm_scan_spaces(*pp, end);
    if ((size_t)(end - p) < n || memcmp(p, word, n) != 0)
        return false;
    *pp = p + n;
    return true;
}
