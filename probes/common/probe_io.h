/* probe_io.h: what both probe programs need to speak the protocol
 * (docs/probes.md) and read their flags; plain C that nvcc also compiles. */
#ifndef PROBE_IO_H
#define PROBE_IO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif
