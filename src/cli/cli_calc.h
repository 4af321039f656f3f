/* cli_calc.h: what `kvtutor calc` hands from its parser to its printers. */
#ifndef CLI_CALC_H
#define CLI_CALC_H

#include <stdio.h>

#include "cli_args.h"
#include "hf_config.h"
#include "kv_calc.h"
#include "kv_presets.h"

struct calc_view {
    const struct kv_model_preset *preset; /* NULL unless --model */
    const char *config_path;              /* NULL unless --config */
    struct hf_config_info config;
    const struct kv_gpu_preset *gpu; /* NULL unless --gpu */
    bool overhead_given;
    struct kv_result r;
};

/* The model, precision, deployment and engine flags: rows [0, CLI_CALC_SETUP_FLAGS)
 * of calc's table, which `sim` puts first in its own so that both read them alike. */
#define CLI_CALC_SETUP_FLAGS 49
const struct cli_flag *cli_calc_setup_flags(void);

/* Reads those rows of *a (given by `cmd`'s parser, same indexes) into *m and
 * *d, from kv_deploy_defaults, a preset or config, a GPU preset and the
 * flags, and fills v's preset, config and GPU. Returns 0, or 2 after a usage
 * error under `cmd`'s name. */
int cli_calc_setup(const char *cmd, const struct cli_args *a, struct kv_model *m,
                   struct kv_deploy *d, struct calc_view *v);

/* kv_calc's error as one usage line naming the flag at fault; returns 2. */
int cli_calc_error(const char *cmd, const struct cli_args *a, enum kvt_err e, enum kv_field bad,
                   enum kv_field other, const struct kv_model *m, const struct kv_deploy *d);

/* The learner-facing walk through the arithmetic. */
void calc_print_human(FILE *out, const struct calc_view *v);

/* One JSON object with the contract's keys; returns 0, or 1 if it could not be written. */
int calc_print_json(FILE *out, const struct calc_view *v);

#endif
