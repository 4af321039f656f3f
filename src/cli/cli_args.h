/* cli_args.h: strict, locale-independent parsing of flag values, and the
 * number formatting the human output uses.
 *
 * Parsers return NULL on success or a short reason ("must be a positive
 * integer") the caller prefixes with the flag: one line, nothing printed here.
 * Formatting lives in core (kvt_format.h), shared with the app. */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvt_format.h"

/* Decimal digits only, at most `max`; zero allowed only when allow_zero. */
const char *cli_parse_uint(const char *s, uint64_t max, bool allow_zero, uint64_t *out);

/* A finite decimal number in [min, max], "min_open" excluding min itself.
 * Accepts "0.9", "10", "1e3"; rejects "nan", "inf", "0x10", "1,5". */
const char *cli_parse_real(const char *s, double min, bool min_open, double max, double *out);

#endif
