/* fuzz_vllm_log: a vLLM start-up log, any bytes. Whatever parses is explained
 * with a dense, a sliding-window and an MLA preset, so arbitrary settings and
 * lines reach every rule of the explanation. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kv_presets.h"
#include "vllm_explain.h"
#include "vllm_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const presets[] = {"llama-3.1-8b", "gemma-2-27b", "deepseek-v3"};
    struct vllm_log *log;
    struct vllm_explain *ex;

    if (vllm_log_check_text((const char *)data, size, NULL) != VLLM_TEXT_OK)
        return 0;
    log = malloc(sizeof *log);
    ex = malloc(sizeof *ex);
    if (log && ex) {
        vllm_log_parse((const char *)data, size, log);
        for (size_t i = 0; i < log->n_lines; i++)
            if (log->lines[i].msg + log->lines[i].msg_len > size)
                abort(); /* a line must lie inside the text */
        for (size_t p = 0; p < sizeof presets / sizeof presets[0] && log->n_lines > 0; p++) {
            const struct kv_model_preset *m = kv_model_preset_find(presets[p]);
            if (m && vllm_explain(log, &m->model, p == 1, ex, NULL) == 0)
                for (size_t i = 0; i < ex->n; i++)
                    if (strlen(ex->v[i].how) >= sizeof ex->v[i].how)
                        abort();
        }
    }
    free(log);
    free(ex);
    return 0;
}
