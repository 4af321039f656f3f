/* cli_args.h: the one flag parser every command uses, strict and
 * locale-independent parsing of flag values, and the one usage error.
 *
 * A command describes its flags as a table of struct cli_flag; cli_parse reads
 * argv against it and the global flags (--db, --lessons, --learner), which
 * main moves in front of the command's own arguments, so they work before or
 * after the command's name. Every usage error is one line on stderr:
 *   kvtutor CMD: WHAT (see kvtutor CMD --help)
 * and exit status 2. Value parsers return NULL on success or a short reason
 * ("must be a positive integer") the caller prefixes with the flag. */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kv_dtype.h"
#include "kvt_format.h"

#define CLI_MAX_FLAGS 64      /* rows in one command's table */
#define CLI_MAX_LIST  8       /* values of a repeatable (CLI_LIST) flag */
#define CLI_MANY      INT_MAX /* max_pos: any number of positional arguments */

enum cli_kind {
    CLI_SWITCH, /* no value */
    CLI_STR,    /* any non-empty text */
    CLI_UINT,   /* cli_parse_uint up to umax; zero only when zero_ok */
    CLI_REAL,   /* cli_parse_real in [rmin, rmax] */
    CLI_DTYPE,  /* a kv_dtype name among `dtypes` */
    CLI_LIST,   /* text, repeatable: every value kept in order in cli_args.list */
    CLI_TOKENS, /* cli_parse_human_int up to umax ("32k", "128K"); zero only when zero_ok */
};

/* Global flags: a command names the ones it uses in cli_spec.globals. */
enum {
    CLI_G_DB = 1, /* --db FILE: the progress database */
    CLI_G_LESSONS =
        2, /* --lessons PATH: a folder of lessons, or one lesson file, after the others */
    CLI_G_LEARNER = 4, /* --learner NAME: whose progress */
};

struct cli_flag {
    const char *name, *alias, *metavar; /* "--seq", "-s" or NULL, "N" (NULL for a switch) */
    enum cli_kind kind;
    int section;        /* the command's own grouping, for its help text */
    int field;          /* the command's own tag (calc: the kv_field it sets) */
    uint64_t umax;      /* CLI_UINT: largest accepted */
    bool zero_ok;       /* CLI_UINT: 0 is a meaningful value */
    double rmin, rmax;  /* CLI_REAL: accepted range */
    bool rmin_open;     /* CLI_REAL: rmin itself excluded */
    const char *dtypes; /* CLI_DTYPE: the accepted names, '|'-separated */
    const char *help;
};

struct cli_spec {
    const char *cmd; /* "calc"; NULL for the app itself */
    const struct cli_flag *flags;
    int nflags;
    unsigned globals; /* CLI_G_* the command uses; others are refused */
    int max_pos;      /* positional arguments accepted (CLI_MANY: no limit) */
    bool dash_pos;    /* an unknown "-word" is a positional (an answer "-3") */
    bool pass_rest;   /* "--" ends the flags; what follows is in rest[] */
};

/* What was given; indexes are rows of the command's table. A flag given
 * twice keeps its last value. */
struct cli_args {
    bool help; /* --help or -h: nothing after it was read */
    bool given[CLI_MAX_FLAGS];
    const char *text[CLI_MAX_FLAGS];  /* the value as typed, for messages */
    const char *typed[CLI_MAX_FLAGS]; /* the flag as typed ("--seq" for --max-model-len) */
    int typed_len[CLI_MAX_FLAGS];     /* its length: up to '=' when the value is there */
    uint64_t u[CLI_MAX_FLAGS];
    double r[CLI_MAX_FLAGS];
    enum kv_dtype t[CLI_MAX_FLAGS];
    const char *list[CLI_MAX_LIST]; /* CLI_LIST values, in order */
    int nlist;
    const char *db, *lessons, *learner; /* global flags; NULL when not given */
    char **pos; /* the positionals, in order: argv's own slots, moved to its front */
    int npos;
    char **rest; /* after "--" (pass_rest) */
    int nrest;
};

/* Parses argv (the arguments after the command's name) into *a. Returns 0,
 * or 2 after printing the usage error. Positionals past max_pos, unknown
 * flags, missing or bad values and unused global flags are errors. */
int cli_parse(const struct cli_spec *s, int argc, char **argv, struct cli_args *a);

/* Prints the usage error for `cmd` (NULL: the app) and returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether argv[i] is a global flag; *takes gets how many arguments it spans
 * (1 for "--db=FILE", 2 for "--db FILE"). For main, before the command. */
bool cli_is_global(int argc, char **argv, int i, int *takes);

/* Decimal digits only, at most `max`; zero allowed only when allow_zero. */
const char *cli_parse_uint(const char *s, uint64_t max, bool allow_zero, uint64_t *out);

/* A whole number as vLLM reads --max-model-len, --max-num-batched-tokens and
 * --kv-cache-memory-bytes (vllm/utils/argparse_utils.py, human_readable_int;
 * vllm/engine/arg_utils.py, get_kwargs picks it for those three):
 * surrounding blanks dropped; digits, optionally ".digits", then one suffix:
 * lower-case decimal (k 1e3, m 1e6, g 1e9, t 1e12; decimals allowed, the
 * count is int(float(n) x mult), so 25.6k = 25,600) or upper-case binary
 * (K 2^10, M 2^20, G 2^30, T 2^40; whole numbers only: 1.5K is refused);
 * else plain decimal digits as cli_parse_uint. At most `max`; zero only when
 * allow_zero. */
const char *cli_parse_human_int(const char *s, uint64_t max, bool allow_zero, uint64_t *out);

/* Whether a CLI_TOKENS value was written with a suffix ("32k"), so that its
 * count is worth echoing. */
bool cli_has_suffix(const struct cli_args *a, int id);

/* One line "--seq 32k = 32,000 tokens" for every CLI_TOKENS flag of the
 * table given with a suffix, so the user sees the count the figures use;
 * nothing when none was. */
void cli_print_resolved(FILE *out, const struct cli_spec *s, const struct cli_args *a);

/* A finite decimal number in [min, max], "min_open" excluding min itself.
 * Accepts "0.9", "10", "1e3"; rejects "nan", "inf", "0x10", "1,5". */
const char *cli_parse_real(const char *s, double min, bool min_open, double max, double *out);

#endif
