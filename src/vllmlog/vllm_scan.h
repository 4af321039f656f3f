/* vllm_scan.h: the small readers a vLLM log is scanned with: a substring
 * search bounded by an end pointer, and numbers read by hand (no strtod, so
 * the locale never changes a figure). Every pointer stays inside [p, end).
 * Internal to the log reader (vllm_log.c, vllm_args.c). */
#ifndef VLLM_SCAN_H
#define VLLM_SCAN_H

#include <stdbool.h>
#include <stdint.h>

/* The first `needle` in [hay, end), or NULL. */
const char *vllm_scan_find(const char *hay, const char *end, const char *needle);

/* An ASCII digit. */
bool vllm_scan_digit(char c);

/* p past any spaces and tabs, never past end. */
const char *vllm_scan_spaces(const char *p, const char *end);

/* "1,505,552" or "1505552" at *pp (at most 18 digits); advances *pp past it.
 * Commas count only in groups of three ("58,11" is read as 58, *pp left at
 * the comma). False, *pp untouched, when there is no digit or more than 18. */
bool vllm_scan_uint(const char **pp, const char *end, uint64_t *out);

/* "58.11", "0.9", "3" at *pp; digits of the fraction past the 15th are
 * ignored. False, *pp untouched, when there is no number. */
bool vllm_scan_real(const char **pp, const char *end, double *out);

/* `word` after optional spaces at *pp; advances *pp past it. */
bool vllm_scan_expect(const char **pp, const char *end, const char *word);

#endif
