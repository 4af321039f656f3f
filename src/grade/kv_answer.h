/* kv_answer.h: reading a number the way a person types it.
 *
 * The grammar (docs/answers.md has the full table):
 *   answer  = [approx] number [unit]
 *   approx  = "~" | "≈" | "about" | "approx." | "approximately" | "roughly" | "around"
 *   number  = [sign] digits [. digits] [e [sign] digits]   digits may be grouped by
 *             thousands with "," or "_" ("57,344"), or start at the point (".44")
 *   unit    = any kv_units.h name ("KiB", "tok/s", "%", "x", ...), also "×" for "x",
 *             case-insensitive where that is unambiguous ("gib", "kb"), with or
 *             without a space before it ("56KiB")
 * Decimal and binary prefixes stay distinct (GB is 1e9 B, GiB 2^30 B). inf,
 * nan, hex, a comma as the decimal point, and numbers past 1e300 are refused
 * with a reason. Parsing never looks at the locale. */
#ifndef KV_ANSWER_H
#define KV_ANSWER_H

#include <stdbool.h>
#include <stddef.h>

#include "kv_units.h"
#include "kvt_error.h"

struct kv_answer {
    double value;               /* as typed, in `unit` */
    const struct kv_unit *unit; /* NULL when no unit was typed */
    bool approx;                /* "~22": marked as an estimate */
    double ulp;                 /* the place of the last digit typed, in `unit` ("0.44": 0.01);
                                   0 for an exact fraction ("7/16") */
    const char *per;            /* "token" or "sequence" when a size said per what
                                   ("0.44 GiB/token"); NULL otherwise */
    bool per_second;            /* "1.73/s", "1.73 per second": a rate with no unit of its
                                   own, read in the exercise's unit when that is a rate */
};

/* KVT_E_OK, or KVT_E_PARSE with a one-line reason in why ("hexadecimal
 * numbers are not answers", "unknown unit \"KB/h\""). */
enum kvt_err kv_answer_parse(const char *text, struct kv_answer *out, char *why, size_t cap);

/* Reads a decimal number from s without the locale: digits, an optional
 * point and exponent. Returns the characters used, 0 when there is no
 * number. Correctly rounded for up to 19 significant digits and exponents
 * within +-22; within an ulp or two beyond. */
size_t kv_read_decimal(const char *s, double *out);

#endif
