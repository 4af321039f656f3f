/* cli_json.h: JSON written the way people and scripts expect it. */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Writes `j` to `out` as json_dumpf does with `flags` (any real precision
 * in them is ignored), each real as the shortest text that reads back as
 * the same double: 0.92, not 0.92000000000000004 (kvt_fmt_shortest), still
 * with a point or an exponent so that it reads back as a real (3352.0),
 * and every C1 control escaped (\u009b): no string reaches a terminal raw.
 * Returns 0, or -1 when jansson cannot encode `j` or the write fails. */
int cli_json_dumpf(const json_t *j, FILE *out, size_t flags);

/* A command run with --json that fails writes {"error": "..."} to stdout
 * as well as its one line to stderr, so a script reading stdout always
 * gets JSON. cli_parse switches it on when --json is among the arguments
 * (before any "--") of a command that has the flag; cli_json_error then
 * writes the first failure's message, once (later calls do nothing). */
void cli_json_failures(bool on);
void cli_json_error(const char *msg);

/* "kvtutor CMD: message" on stderr, {"error": "message"} on stdout under
 * --json (cli_json_error); returns status. The message is the caller's to
 * make safe (kvt_safe on what came from a file). */
int cli_fail(const char *cmd, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
