/* probe_lines.h: the probe protocol's reader. Bytes in, in whatever pieces
 * the pipe gives them; complete lines out, each read into a record
 * (probe_event.h) when it is a JSON object with a string "type", and handed
 * to a callback. Memory is one line buffer
 * of `max_line` bytes, whatever comes in: a longer line is counted as bad
 * and skipped to its end. The supervisor (probe.c) feeds it from the probe's
 * stdout; the fuzz target feeds it arbitrary bytes. */
#ifndef PROBE_LINES_H
#define PROBE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe.h"

struct probe_lines {
    char *buf;
    size_t len, max;
    bool overlong;      /* the current line passed max: skip to its end */
    uint32_t lines;     /* JSON objects with a "type" */
    uint32_t bad_lines; /* anything else (empty lines are ignored) */
    uint32_t first_bad; /* 1-based number of the first bad line; 0 none */
    bool truncated;     /* the input ended mid-line */
    char error[256];    /* the message of the last "error" line */
};

/* 0, or -1 when the buffer cannot be had. */
int probe_lines_init(struct probe_lines *pl, uint32_t max_line);
void probe_lines_free(struct probe_lines *pl);

void probe_lines_feed(struct probe_lines *pl, const char *p, size_t n, probe_event_fn fn,
                      void *ctx);

/* End of input: an unterminated last line is still read (and marks the
 * input truncated). */
void probe_lines_finish(struct probe_lines *pl, probe_event_fn fn, void *ctx);

/* Copies src (n bytes at most) as one line: control characters become
 * spaces, trailing spaces go. */
void probe_one_line(char *dst, size_t cap, const char *src, size_t n);

#endif
