/* cli_json.h: JSON written the way people and scripts expect it. */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <jansson.h>
#include <stdio.h>

/* Writes `j` to `out` as json_dumpf does with `flags` (any real precision
 * in them is ignored), each real as the shortest text that reads back as
 * the same double: 0.92, not 0.92000000000000004 (kvt_fmt_shortest), still
 * with a point or an exponent so that it reads back as a real (3352.0),
 * and every C1 control escaped (\u009b): no string reaches a terminal raw.
 * Returns 0, or -1 when jansson cannot encode `j` or the write fails. */
int cli_json_dumpf(const json_t *j, FILE *out, size_t flags);

#endif
