/* cli_calc.h: what `kvtutor calc` hands from its parser to its printers. */
#ifndef CLI_CALC_H
#define CLI_CALC_H

#include <stdio.h>

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

/* The learner-facing walk through the arithmetic. */
void calc_print_human(FILE *out, const struct calc_view *v);

/* One JSON object with the contract's keys; returns 0, or 1 if it could not be written. */
int calc_print_json(FILE *out, const struct calc_view *v);

#endif
