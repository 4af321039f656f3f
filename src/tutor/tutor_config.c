/* Reading a config.json for the calculator's readers. */
#include "tutor_config.h"

#include <stdio.h>

#include "kvt_text.h"

enum kvt_err tutor_config_load(const char *path, struct kv_model *m, struct hf_config_info *info,
                               char *why, size_t cap)
{
    struct hf_config_error err;
    char shown[KVT_SAFE_FIELD];
    enum kvt_err e = hf_config_load(path, m, info, &err);

    if (e == KVT_E_OK)
        return e;
    kvt_safe(path, shown, sizeof shown);
    if (err.line > 0)
        snprintf(why, cap, "%s:%d:%d: %s", shown, err.line, err.column, err.what);
    else
        snprintf(why, cap, "%s: %s", shown, err.what);
    return e;
}

bool tutor_config_needs_params(const struct kv_model *m)
{
    return m->params_b <= 0 && m->weights_gib <= 0;
}
