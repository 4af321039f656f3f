/* probe_io.h: what both probe programs and the supervisor that runs them
 * share about the probe protocol (docs/probes.md): the exit statuses, and
 * the reading of flags and writing of error lines; plain C that nvcc also
 * compiles. */
#ifndef PROBE_IO_H
#define PROBE_IO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* A probe's exit status; the only place these numbers are written down. */
enum probe_exit {
    PROBE_EXIT_OK = 0,     /* measured */
    PROBE_EXIT_FAILED = 1, /* something went wrong while measuring */
    PROBE_EXIT_USAGE = 2,  /* a bad flag or flag value */
    PROBE_EXIT_NO_GPU = 3, /* no usable GPU here: the caller may measure host memory instead */
};

/* A flag's value: decimal digits only, within [lo, hi]. 0, or -1. */
static inline int probe_parse_uint(const char *s, unsigned long long lo, unsigned long long hi,
                                   unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9')
        return -1;
    *out = strtoull(s, &end, 10);
    return errno || *end || *out < lo || *out > hi ? -1 : 0;
}

/* A device name goes into a JSON string: keep printable ASCII, quotes and
 * backslashes become spaces. */
static inline void probe_json_safe(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e || *s == '"' || *s == '\\')
            *s = ' ';
}

/* The protocol's error line for a bad flag. `flag` is one of the program's
 * own option names (never the user's text); hi 0: an unknown option. */
static inline void probe_flag_error(const char *flag, unsigned long long lo, unsigned long long hi)
{
    if (hi)
        printf("{\"type\":\"error\",\"message\":\"%s needs a whole number from %llu to %llu\"}\n",
               flag, lo, hi);
    else
        printf("{\"type\":\"error\",\"message\":\"unknown option (see --help)\"}\n");
    fflush(stdout);
}

/* The sum, modulo 2^64, of the 32-bit words of a buffer filled with the
 * index pattern (word i holds i mod 2^32), over its first `words` words.
 * Every kernel adds up what it reads; a whole pass must come to this.
 * With q = words / 2^32 and r = words % 2^32: q whole cycles of
 * 0 + 1 + ... + (2^32 - 1) = 2^31 (2^32 - 1), then 0 + ... + (r - 1). */
static inline unsigned long long probe_index_sum(unsigned long long words)
{
    unsigned long long q = words >> 32, r = words & 0xffffffffull;
    unsigned long long cycle = (1ull << 31) * 0xffffffffull;
    /* r (r - 1) / 2 without overflow: halve the even factor first */
    unsigned long long tail = r % 2 == 0 ? (r / 2) * (r ? r - 1 : 0) : r * ((r - 1) / 2);
    return q * cycle + tail;
}

#endif
