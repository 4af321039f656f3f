/* Splitting a log at each start-up. A log kept with `tee -a` across
 * restarts holds one start-up after another; read as one, the first run's
 * lines would be explained under the last run's model and version.
 *
 * A start-up is told by its order: the server's banner or arguments come
 * first, the engine line after them, the capacity lines last. So a banner or
 * an arguments line after an engine or capacity line begins a new run, and
 * an engine line after capacity lines does when it names another model or
 * version (the same engine line again is a data-parallel rank's, which logs
 * its own capacity lines in the same start-up). */
#include "vllm_log.h"

#include <string.h>

#include "vllm_scan.h"

/* The value after `key` on a line, to the first of `stops`, into out. */
static void value_after(const char *line, const char *end, const char *key, const char *stops,
                        char *out, size_t cap)
{
    const char *p = vllm_scan_find(line, end, key);
    size_t o = 0;
    if (p)
        for (p += strlen(key); p < end && !strchr(stops, *p) && o + 1 < cap; p++)
            out[o++] = *p;
    out[o] = '\0';
}

static bool front_line(const char *line, const char *end)
{
    return vllm_scan_find(line, end, "vLLM API server version ") ||
           vllm_scan_find(line, end, "\xe2\x96\x88  version ") ||
           vllm_scan_find(line, end, "non-default args: {") ||
           vllm_scan_find(line, end, "args: Namespace(");
}

static bool capacity_line(const char *line, const char *end)
{
    return vllm_scan_find(line, end, "Available KV cache memory: ") ||
           vllm_scan_find(line, end, "reserved for KV Cache is ") ||
           vllm_scan_find(line, end, "GPU KV cache size: ") ||
           vllm_scan_find(line, end, "Maximum concurrency for ") ||
           vllm_scan_find(line, end, "# GPU blocks: ") ||
           vllm_scan_find(line, end, "# cuda blocks: ") ||
           vllm_scan_find(line, end, "# CUDA blocks: ");
}

size_t vllm_log_runs(const char *text, size_t len, struct vllm_run *runs, size_t cap,
                     size_t *merged)
{
    const char *p = text, *end = text + len;
    size_t n = 0, line_no = 0;
    bool engine = false, capacity = false;
    char version[32] = "", model[VLLM_LOG_STR] = "";

    if (merged)
        *merged = 0;
    if (cap == 0)
        return 0;
    runs[0] = (struct vllm_run){0, len, 1, 0};
    n = 1;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
        const char *eng = vllm_scan_find(p, e, "LLM engine (v");
        bool start = false;
        char v[sizeof version] = "", m[sizeof model] = "";

        line_no++;
        if (eng) {
            value_after(eng, e, "LLM engine (v", ") ", v, sizeof v);
            value_after(eng, e, "model='", "'", m, sizeof m);
        }
        if (front_line(p, e) && (engine || capacity))
            start = true;
        else if (eng && capacity && (strcmp(v, version) != 0 || strcmp(m, model) != 0))
            start = true;
        if (start) {
            if (n < cap) {
                runs[n - 1].end = (size_t)(p - text);
                runs[n - 1].last_line = line_no - 1;
                runs[n] = (struct vllm_run){(size_t)(p - text), len, line_no, 0};
                n++;
            } else if (merged) {
                (*merged)++; /* past cap: the rest stays in the last run */
            }
            engine = capacity = false;
            version[0] = model[0] = '\0';
        }
        if (eng) {
            engine = true;
            memcpy(version, v, sizeof v);
            memcpy(model, m, sizeof m);
        }
        if (capacity_line(p, e))
            capacity = true;
        p = nl ? nl + 1 : end;
    }
    runs[n - 1].last_line = line_no;
    return n;
}
