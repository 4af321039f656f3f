/* vllm_log.h: reads a vLLM start-up log (text in, facts out).
 *
 * Finds what decides the KV cache: the vLLM version, the model, the
 * arguments (from the "non-default args: {...}" dict, the engine's
 * "with config: key=value, ..." line and the old "args: Namespace(...)"
 * line), and every capacity line vLLM prints:
 *   Available KV cache memory: X GiB                 (vllm/v1/worker/gpu_worker.py;
 *                                                     V0: "reserved for KV Cache is XGiB")
 *   GPU KV cache size: N tokens                      (vllm/v1/core/kv_cache_utils.py)
 *   Maximum concurrency for N tokens per request: Xx (on their own lines through
 *                                                     0.24 at least; on one line with
 *                                                     the size in later sources)
 *   # GPU blocks: N / # cuda blocks: N               (V0 and early V1)
 *   Setting attention block size to N tokens ...     (hybrid Mamba models)
 *   Padding mamba page size by X% ...
 *   Add N padding layers, may waste at most X% KV cache memory   (hybrid grouping)
 * docs/calculator.md ("explain-log") cites the source of each line by version.
 *
 * Pure: no I/O, no allocation. Lines are found anywhere in a log line, so the
 * prefixes vLLM, Docker or a terminal add ("(EngineCore pid=1) INFO 05-01
 * [kv_cache_utils.py:1711] ") do not matter. Strings it keeps are copied as
 * they were in the log (they may hold any bytes: sanitise before showing). */
#ifndef VLLM_LOG_H
#define VLLM_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VLLM_LOG_MAX_BYTES    ((size_t)64 << 20) /* larger input is refused */
#define VLLM_LOG_MAX_LINES    64                 /* capacity lines kept; more are counted */
#define VLLM_LOG_STR          256                /* longest string field kept, with its NUL */
#define VLLM_LOG_MAX_PROBLEMS 16                 /* problems kept; more are counted */

enum vllm_line_kind {
    VLLM_LINE_KV_MEMORY,   /* "Available KV cache memory: X GiB" */
    VLLM_LINE_KV_TOKENS,   /* "GPU KV cache size: N tokens" */
    VLLM_LINE_CONCURRENCY, /* "Maximum concurrency for N tokens per request: Xx" */
    VLLM_LINE_GPU_BLOCKS,  /* "# GPU blocks: N" (V0 and early V1) */
    VLLM_LINE_ATTN_BLOCK,  /* "Setting attention block size to N tokens" */
    VLLM_LINE_MAMBA_PAD,   /* "Padding mamba page size by X%" */
    VLLM_LINE_PAD_LAYERS,  /* "Add N padding layers, may waste at most X% KV cache memory" */
    VLLM_LINE__COUNT
};

/* The kind's short name for JSON: "kv_memory", "kv_tokens", "concurrency",
 * "gpu_blocks", "attention_block_size", "mamba_padding", "padding_layers". */
const char *vllm_line_kind_name(enum vllm_line_kind k);

struct vllm_line {
    enum vllm_line_kind kind;
    size_t line_no;       /* 1-based line of the log */
    size_t msg, msg_len;  /* the message in the text, from its first word ("GPU KV
                           * cache size") to the end of the log line */
    double value;         /* GiB, tokens, blocks, concurrency or percent, as printed */
    uint64_t count;       /* the integer of tokens, blocks, block sizes and padding layers */
    uint64_t per_request; /* CONCURRENCY: the "for N tokens" figure */
    bool one_line;        /* KV_TOKENS and CONCURRENCY printed together on one line */
};

/* Where a setting was read; a later source in this list wins over an earlier
 * one: a line such as "Using max model len N" < the arguments < the engine's
 * resolved config. */
enum vllm_src { VLLM_SRC_NONE, VLLM_SRC_LINE, VLLM_SRC_ARGS, VLLM_SRC_ENGINE };

/* Which numeric settings the log gave (struct vllm_args.given): a number
 * it printed counts, 0 and 0.0 included, so a logged zero is told apart
 * from a setting the log does not mention. */
enum vllm_given {
    VLLM_GIVEN_MAX_MODEL_LEN = 1u << 0,
    VLLM_GIVEN_GPU_MEMORY_UTILIZATION = 1u << 1,
    VLLM_GIVEN_TP = 1u << 2,
    VLLM_GIVEN_PP = 1u << 3,
    VLLM_GIVEN_DCP = 1u << 4,
    VLLM_GIVEN_BLOCK_SIZE = 1u << 5,
    VLLM_GIVEN_MAX_NUM_BATCHED_TOKENS = 1u << 6,
    VLLM_GIVEN_NUM_GPU_BLOCKS_OVERRIDE = 1u << 7,
    VLLM_GIVEN_KV_CACHE_MEMORY_BYTES = 1u << 8,
    VLLM_GIVEN_SPEC_TOKENS = 1u << 9,
};

/* The settings that decide the cache; "" = the log does not say, and a
 * number is the log's when its bit is in `given` (else 0). */
struct vllm_args {
    uint32_t given; /* enum vllm_given bits */
    char model[VLLM_LOG_STR];
    char dtype[32]; /* the model dtype as written, "torch." dropped: "bfloat16" */
    uint64_t max_model_len;
    double gpu_memory_utilization;
    uint32_t tp, pp, dcp;
    char kv_cache_dtype[32]; /* as written: "auto", "fp8_e4m3" */
    uint32_t block_size;
    int prefix_caching;   /* -1 not said, 0 off, 1 on */
    int async_scheduling; /* -1 not said, 0 off, 1 on */
    uint64_t max_num_batched_tokens;
    uint64_t num_gpu_blocks_override;
    uint64_t kv_cache_memory_bytes;
    char mamba_cache_mode[16]; /* "align", "all", "none" */
    char mamba_cache_dtype[32], mamba_ssm_cache_dtype[32];
    char attention_backend[32]; /* the argument, or "Using X attention backend" */
    bool spec;                  /* a speculative_config (or speculative_model) that is not None */
    char spec_method[32];       /* "eagle", "eagle3", "mtp", "ngram", ...; "" = not said */
    char spec_model[VLLM_LOG_STR];
    uint32_t spec_tokens; /* num_speculative_tokens (num_spec_tokens in the engine line) */
};

/* A value the log printed that is not taken at its word: a capacity line
 * whose figure cannot be read ("nan GiB", "58,11 GiB", full-width digits), a
 * setting no engine runs with (tensor_parallel_size=0, block_size=-16), or
 * two versions in one start-up. An error means the log's figures cannot be
 * explained as it stands (the caller refuses it); a note says what was
 * chosen instead. `what` names the setting or line and the value, the log's
 * bytes made inert: "tensor_parallel_size -1: not a number of GPUs (a whole
 * number, at least 1)". */
struct vllm_problem {
    size_t line_no; /* 1-based line of the log */
    bool error;
    char what[240];
};

struct vllm_log {
    char version[32]; /* "0.19.0", "0.20.1rc1"; empty when the log does not say */
    bool engine_v0;   /* "Initializing a V0 LLM engine" or "Initializing an LLM engine" */
    bool engine_v1;   /* "Initializing a V1 LLM engine" */
    bool args_line;   /* a "non-default args" or "args: Namespace" line was read */

    struct vllm_args args; /* merged: the engine's config over the arguments over other lines */
    enum vllm_src model_src, max_model_len_src;

    struct vllm_line lines[VLLM_LOG_MAX_LINES];
    size_t n_lines;
    size_t lines_dropped; /* capacity lines past VLLM_LOG_MAX_LINES */
    size_t total_lines;   /* lines in the text */

    struct vllm_problem problems[VLLM_LOG_MAX_PROBLEMS];
    size_t n_problems, problems_dropped; /* past VLLM_LOG_MAX_PROBLEMS */
    size_t n_errors;                     /* problems that are errors, counted ones included */
};

/* Why a text is not a log: binary or too large. */
enum vllm_text_problem { VLLM_TEXT_OK, VLLM_TEXT_BINARY, VLLM_TEXT_TOO_LARGE };

/* Checks text[0..len) before parsing: a NUL byte anywhere (or more than 1 in
 * 8 bytes that are neither printable ASCII, whitespace nor UTF-8 sequences)
 * makes it binary; len over VLLM_LOG_MAX_BYTES too large. *where gets the
 * offset of the first NUL (binary) when where is not NULL. */
enum vllm_text_problem vllm_log_check_text(const char *text, size_t len, size_t *where);

/* One start-up in a log: bytes [begin, end) of the text, lines first_line
 * to last_line (1-based). */
struct vllm_run {
    size_t begin, end;
    size_t first_line, last_line;
};

#define VLLM_LOG_MAX_RUNS 32 /* start-ups told apart; later ones join the last */

/* Splits text[0..len) at each start-up (vllm_runs.c says how one is told):
 * fills runs[0..cap) and returns how many (1 for a single start-up or a
 * text with none; 0 only when cap is 0). Start-ups past cap stay in the last
 * run, counted in *merged (may be NULL). */
size_t vllm_log_runs(const char *text, size_t len, struct vllm_run *runs, size_t cap,
                     size_t *merged);

/* Parses one run of text (vllm_log_runs) into *out as vllm_log_parse does
 * the whole: line numbers and message offsets stay the whole text's, and
 * total_lines counts the run's lines. */
void vllm_log_parse_run(const char *text, const struct vllm_run *run, struct vllm_log *out);

/* Parses text[0..len) into *out (zeroed first). Never fails: a text with
 * nothing recognisable gives n_lines 0 and empty fields; values it cannot
 * take at their word are listed in out->problems. Work is linear in
 * len; nested brackets in the argument lists are counted, not recursed
 * into, so any depth is read in one pass (vllm_args.c). */
void vllm_log_parse(const char *text, size_t len, struct vllm_log *out);

#endif
