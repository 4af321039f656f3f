/* tutor_vllm_log.h: a vLLM start-up log read from a file, bounded, for
 * `kvtutor explain-log` and the calculator playground alike.
 *
 * The parsing and the explanation are pure and live in core (vllm_log.h,
 * vllm_explain.h); this is the file side: the whole log read into memory,
 * refused at once when it is a folder, larger than VLLM_LOG_MAX_BYTES, or
 * binary (a NUL byte stops the read, so /dev/zero costs one buffer). */
#ifndef TUTOR_VLLM_LOG_H
#define TUTOR_VLLM_LOG_H

#include <stddef.h>
#include <stdio.h>

/* Reads all of `path` (or of `in` when path is NULL, named "standard input"
 * in messages) into *text, NUL-terminated, *len bytes; free it with free().
 * Returns 0, or -1 with a one-line reason in why ("serve.log: binary data (a
 * NUL byte): not a text log"; the name sanitised). */
int tutor_vllm_log_read(const char *path, FILE *in, char **text, size_t *len, char *why,
                        size_t cap);

#endif
