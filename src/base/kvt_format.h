/* kvt_format.h: numbers written for people (and for scripts), the same in
 * every locale.
 *
 * One set of rules, so that every screen and command reads alike:
 * - Counts (tokens, blocks, whole bytes, layers) are exact and grouped by
 *   thousands: "57,344", "2,048 blocks", "1 sequence" (kvt_fmt_int,
 *   kvt_fmt_count).
 * - Measured or derived amounts carry about three significant digits, by
 *   their size: "220", "15.2", "7.14", "0.0875" (kvt_fmt_amount); rates one
 *   digit less below 100 so that columns of tok/s read alike: "220,074",
 *   "66.2" (kvt_fmt_rate); bytes in the largest binary unit that keeps the
 *   value at 1 or more, by the same rule: "56 KiB", "7.89 GiB", "14.2 GiB",
 *   "448 MiB" (kvt_fmt_bytes); shares as "83%" or "4.5%" (kvt_fmt_percent).
 * - Where a line mirrors one of vLLM's log lines, vLLM's own precision, so
 *   that a learner can hold the two side by side: "7.89 GiB" as vLLM prints
 *   "Available KV cache memory" (kvt_fmt_gib_vllm), "4.50x" as it prints
 *   "Maximum concurrency" (kvt_fmt_concurrency_vllm), "15.38%" of padding
 *   (kvt_fmt_fixed).
 * - A figure a lesson states exactly (0.4375 GiB) with the decimals it needs
 *   (kvt_fmt_real).
 * - Text for machines (JSON, CSV): the shortest that reads back as the same
 *   double, "0.8" not "0.80000000000000004" (kvt_fmt_shortest); times as
 *   ISO 8601 in UTC (kvt_fmt_date, kvt_fmt_utc).
 * The decimal point is always '.' and the group separator always ',',
 * whatever LC_NUMERIC says. Each function writes at most `cap` bytes, the
 * terminating NUL included, cuts rather than overflows, and returns `buf`. */
#ifndef KVT_FORMAT_H
#define KVT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 1234567 -> "1,234,567". */
const char *kvt_fmt_int(uint64_t v, char *buf, size_t cap);

/* A count and its noun, singular for exactly one: (1, "sequence",
 * "sequences") -> "1 sequence", 2048 -> "2,048 sequences". */
const char *kvt_fmt_count(uint64_t n, const char *one, const char *many, char *buf, size_t cap);

/* A real with at most `decimals` decimals, trailing zeros dropped:
 * 0.4375 -> "0.4375", (2.50, 2) -> "2.5". */
const char *kvt_fmt_real(double v, int decimals, char *buf, size_t cap);

/* Whole numbers grouped ("57,344"), others as kvt_fmt_real. */
const char *kvt_fmt_number(double v, int decimals, char *buf, size_t cap);

/* A value as precise as a tolerance around it makes sense of: the
 * decimals that show `tolerance` to two significant digits, grouped,
 * trailing zeros dropped; a value that ends one decimal further is written
 * whole. (58.109375, 0.01) -> "58.109", (615.679688, 1.231) ->
 * "615.7", (0.4375, 0.00875) -> "0.4375", (4.8125, 0.0963) -> "4.8125",
 * (57344, 573) -> "57,344". A tolerance of 0 or less: six decimals at most. */
const char *kvt_fmt_near(double v, double tolerance, char *buf, size_t cap);

/* About three significant digits: whole and grouped from 100 up (141.11 ->
 * "141", 3956 -> "3,956"), one decimal from 10 (15.23 -> "15.2"), two from 1
 * (7.894 -> "7.89"), three significant below 1 (0.00875 -> "0.00875");
 * trailing zeros dropped. */
const char *kvt_fmt_amount(double v, char *buf, size_t cap);

/* A latency in milliseconds with its unit, in the unit that keeps it short,
 * by kvt_fmt_amount's rule: "715 ms" below a second, seconds below two
 * minutes (1417 -> "1.42 s", 39555 -> "39.6 s"), minutes past that
 * (250000 -> "4.17 min"). A simulated p99 of minutes read as "39,555 ms". */
const char *kvt_fmt_ms(double ms, char *buf, size_t cap);

/* A rate written by its size, so that figures side by side read alike: whole
 * and grouped from 100 up (10846.1 -> "10,846"), one decimal below
 * (66.24 -> "66.2"). For tok/s and GB/s. */
const char *kvt_fmt_rate(double v, char *buf, size_t cap);

/* Bytes in the largest binary unit that keeps the value >= 1, by
 * kvt_fmt_amount's rule: 57344 -> "56 KiB", 8476921856 -> "7.89 GiB",
 * 15231233024 -> "14.2 GiB", 469762048 -> "448 MiB"; below 1 KiB whole
 * bytes ("640 B"). A value that rounds up to 1,024 of a unit is written as
 * 1 of the next ("1 GiB", not "1,024 MiB"). */
const char *kvt_fmt_bytes(double bytes, char *buf, size_t cap);

/* Bytes as vLLM logs "Available KV cache memory": GiB with two decimals,
 * zeros kept ("7.89 GiB", "40.00 GiB"). */
const char *kvt_fmt_gib_vllm(double bytes, char *buf, size_t cap);

/* A real with exactly `decimals` decimals, zeros kept, the whole part
 * grouped: (15.3846, 2) -> "15.38", (4.5, 2) -> "4.50", (1234.5, 1) ->
 * "1,234.5". For a figure whose precision is someone else's (vLLM's "%.2f"). */
const char *kvt_fmt_fixed(double v, int decimals, char *buf, size_t cap);

/* A concurrency as vLLM logs "Maximum concurrency for N tokens per request:
 * %.2fx": two decimals, zeros kept, and the x ("4.50x", "33.95x"). */
const char *kvt_fmt_concurrency_vllm(double v, char *buf, size_t cap);

/* A fraction as a percentage: whole from 10% ("83%"), one decimal below
 * ("4.5%", "0.4%"); never rounds to "100%" or "0%" unless it is exactly
 * that ("99.9%", "0.01%"). */
const char *kvt_fmt_percent(double fraction, char *buf, size_t cap);

/* The shortest text that strtod reads back as exactly `v` (at most 17
 * significant digits, '.' as the point): 0.8 -> "0.8", 1e-7 -> "1e-07",
 * 3352 -> "3352". Non-finite values as printf writes them. */
const char *kvt_fmt_shortest(double v, char *buf, size_t cap);

/* A UTC day number (days since 1970-01-01) as an ISO 8601 date:
 * 20423 -> "2025-12-01". */
const char *kvt_fmt_date(int64_t day, char *buf, size_t cap);

/* Seconds since 1970-01-01T00:00:00Z as an ISO 8601 UTC time:
 * 1764585845 -> "2025-12-01T10:44:05Z". */
const char *kvt_fmt_utc(int64_t seconds, char *buf, size_t cap);

/* The two above read back: "2025-12-01" as its day number (20423), and
 * "2025-12-01T10:44:05Z" as seconds since the epoch (1764585845). Exactly
 * that form (four-digit year, UTC, "Z"), a real date and time of day; false
 * otherwise, *out untouched. */
bool kvt_parse_date(const char *s, int64_t *day);
bool kvt_parse_utc(const char *s, int64_t *seconds);

#endif
