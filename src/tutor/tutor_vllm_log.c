/* Reading a vLLM log file: the limits are checked before and during the read,
 * never after a whole hostile file has been taken in. */
#define _POSIX_C_SOURCE 200809L
#include "tutor_vllm_log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kvt_text.h"
#include "vllm_log.h"

static int refuse(char *why, size_t cap, const char *name, const char *what)
{
    char shown[KVT_SAFE_FIELD];
    snprintf(why, cap, "%s: %s", kvt_safe(name, shown, sizeof shown), what);
    return -1;
}

int tutor_vllm_log_read(const char *path, FILE *in, char **text, size_t *len, char *why, size_t cap)
{
    const char *name = path ? path : "standard input";
    FILE *f = path ? fopen(path, "rb") : in;
    size_t size = 0, n = 0;
    char *buf = NULL, *nb, msg[160];
    struct stat st;
    int rc = -1;

    if (!f)
        return refuse(why, cap, name, strerror(errno));
    if (fstat(fileno(f), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            refuse(why, cap, name, "is a folder, not a log file");
            goto out;
        }
        if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > VLLM_LOG_MAX_BYTES) {
            snprintf(msg, sizeof msg,
                     "%.0f MiB is more than a start-up log (the limit is %zu MiB); cut out the "
                     "start-up part (head -n 5000)",
                     (double)st.st_size / 1048576.0, VLLM_LOG_MAX_BYTES >> 20);
            refuse(why, cap, name, msg);
            goto out;
        }
    }
    for (;;) {
        size_t got;
        if (n == size) {
            size_t grow = size ? size * 2 : 65536;
            if (grow > VLLM_LOG_MAX_BYTES + 1)
                grow = VLLM_LOG_MAX_BYTES + 1;
            if (grow <= size) {
                snprintf(msg, sizeof msg, "more than %zu MiB: not a start-up log",
                         VLLM_LOG_MAX_BYTES >> 20);
                refuse(why, cap, name, msg);
                goto out;
            }
            if (!(nb = realloc(buf, grow + 1))) {
                refuse(why, cap, name, "out of memory");
                goto out;
            }
            buf = nb;
            size = grow;
        }
        got = fread(buf + n, 1, size - n, f);
        if (memchr(buf + n, '\0', got)) {
            refuse(why, cap, name, "binary data (a NUL byte): not a text log");
            goto out;
        }
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                refuse(why, cap, name, strerror(errno));
                goto out;
            }
            break;
        }
    }
    if (vllm_log_check_text(buf, n, NULL) != VLLM_TEXT_OK) {
        refuse(why, cap, name,
               n > VLLM_LOG_MAX_BYTES ? "more than the limit: not a start-up log"
                                      : "mostly control bytes: not a text log");
        goto out;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    buf = NULL;
    rc = 0;
out:
    free(buf);
    if (path)
        fclose(f);
    return rc;
}

enum tutor_log_model tutor_log_model(const struct vllm_log *log, const struct kv_model *given,
                                     struct kv_model *out, const struct kv_model_preset **preset)
{
    *preset = NULL;
    if (given) {
        *out = *given;
        return TUTOR_LOG_MODEL_GIVEN;
    }
    if (!log->args.model[0])
        return TUTOR_LOG_MODEL_UNNAMED;
    *preset = kv_model_preset_find(log->args.model);
    if (!*preset)
        return TUTOR_LOG_MODEL_UNKNOWN;
    *out = (*preset)->model;
    return TUTOR_LOG_MODEL_PRESET;
}
