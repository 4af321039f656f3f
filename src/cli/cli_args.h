/* cli_args.h: strict, locale-independent parsing of flag values, and the
 * number formatting the human output uses.
 *
 * Parsers return NULL on success or a short reason ("must be a positive
 * integer") the caller prefixes with the flag: one line, nothing printed here. */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decimal digits only, at most `max`; zero allowed only when allow_zero. */
const char *cli_parse_uint(const char *s, uint64_t max, bool allow_zero, uint64_t *out);

/* A finite decimal number in [min, max], "min_open" excluding min itself.
 * Accepts "0.9", "10", "1e3"; rejects "nan", "inf", "0x10", "1,5". */
const char *cli_parse_real(const char *s, double min, bool min_open, double max, double *out);

/* 1234567 -> "1,234,567" (always commas, whatever the locale). */
const char *cli_fmt_int(uint64_t v, char *buf, size_t cap);

/* Bytes in the largest binary unit that keeps the value >= 1, trailing zeros
 * dropped: 57344 -> "56 KiB", 469762048 -> "448 MiB", 1879048192 -> "1.75 GiB". */
const char *cli_fmt_bytes(double bytes, char *buf, size_t cap);

/* A real with at most `decimals` decimals, trailing zeros dropped: 0.4375 -> "0.4375". */
const char *cli_fmt_real(double v, int decimals, char *buf, size_t cap);

#endif
