/* vllm_args.h: the arguments a vLLM log prints as Python reprs, read into
 * struct vllm_args: the "non-default args: {...}" dict, "args: Namespace(...)"
 * and the engine line's "key=value, ..." list. Quoted strings are unescaped,
 * nested dicts (speculative_config), lists, True/False/None and <Enum: n>
 * values are skipped or read; keys it does not know are skipped unread. A
 * parallel size, block size or utilisation no engine runs with (0, -1, 1e20,
 * "four") is a problem of the log, never a silent default.
 * Internal to the log reader (vllm_log.c). */
#ifndef VLLM_ARGS_H
#define VLLM_ARGS_H

#include "vllm_log.h"

/* Reads the items of one container from p (just past its opening bracket)
 * to its closing bracket or end; sep is ':' in a dict, '=' in a key=value
 * list. Fields of *a the items name are overwritten; others are kept. */
void vllm_args_read(const char *p, const char *end, char sep, struct vllm_args *a,
                    struct vllm_log *log, size_t line_no);

/* Records a problem of line line_no in log (vllm_log.c); `value` is the
 * log's text of the value, shown inert and cut, where the format has "%s"
 * once: vllm_log_problem(log, 5, true, "block_size %s: ...", v, n). */
void vllm_log_problem(struct vllm_log *log, size_t line_no, bool error, const char *fmt,
                      const char *value, size_t value_len);

#endif
