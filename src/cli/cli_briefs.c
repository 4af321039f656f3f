/* The briefs file (cli_briefs.h): jansson reads and writes it; what a row
 * means and when it holds is the tutor layer's (tutor_course.c). */
#define _POSIX_C_SOURCE 200809L
#include "cli_briefs.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FORMAT    1
#define MAX_BYTES (8u << 20) /* a course of a thousand lessons is well under */
#define MAX_ROWS  4096

static const char *text_of(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* Reads s->path into s->rows; on any fault, none. */
static void load(struct cli_shipped *s)
{
    struct stat sb;
    json_error_t err;
    json_t *root, *lessons;
    const char *engine;
    size_t n;

    if (!s->path[0] || stat(s->path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
        sb.st_size > (off_t)MAX_BYTES)
        return;
    if (!(root = json_load_file(s->path, JSON_REJECT_DUPLICATES, &err)))
        return;
    lessons = json_object_get(root, "lessons");
    engine = text_of(root, "engine");
    n = json_array_size(lessons);
    if (json_integer_value(json_object_get(root, "kvtutor_briefs")) != FORMAT || !engine ||
        !json_is_array(lessons) || n == 0 || n > MAX_ROWS ||
        !(s->rows = calloc(n, sizeof *s->rows))) {
        json_decref(root);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(lessons, i);
        const char *hash = text_of(e, "content_hash"), *brief = text_of(e, "brief"),
                   *fps = text_of(e, "fingerprints");
        if (!hash || !brief || !fps)
            continue; /* that entry proves nothing: its file is run */
        s->rows[s->n++] = (struct store_brief_row){"", hash, engine, brief, fps, ""};
    }
    s->json = root;
}

/* tutor_shipped's rows: the file, read the first time they are asked for. */
static const struct store_brief_row *read_rows(void *ctx, size_t *n)
{
    struct cli_shipped *s = ctx;
    if (!s->tried) {
        s->tried = true;
        load(s);
    }
    *n = s->n;
    return s->rows;
}

void cli_briefs_init(struct cli_shipped *s, const char *data)
{
    memset(s, 0, sizeof *s);
    s->source = (struct tutor_shipped){read_rows, s};
    if (data && snprintf(s->path, sizeof s->path, "%s/briefs.json", data) >= (int)sizeof s->path)
        s->path[0] = '\0';
}

void cli_briefs_free(struct cli_shipped *s)
{
    free(s->rows);
    json_decref(s->json);
    memset(s, 0, sizeof *s);
}

int cli_briefs_write(const char *path, const struct store_brief_row *rows, size_t n, char *why,
                     size_t cap)
{
    json_t *root = json_object(), *lessons = json_array();
    char tmp[4300];
    int rc = -1;

    if (!root || !lessons || n == 0) {
        snprintf(why, cap, n ? "out of memory" : "no lesson to write a brief of");
        json_decref(root);
        json_decref(lessons);
        return -1;
    }
    json_object_set_new(root, "kvtutor_briefs", json_integer(FORMAT));
    json_object_set_new(root, "engine", json_string(rows[0].engine));
    for (size_t i = 0; i < n; i++) {
        const char *slash = strrchr(rows[i].path, '/');
        json_t *e = json_pack("{s:s, s:s, s:s, s:s}", "file", slash ? slash + 1 : rows[i].path,
                              "content_hash", rows[i].content_hash, "brief", rows[i].brief,
                              "fingerprints", rows[i].fingerprints);
        if (!e || json_array_append_new(lessons, e) != 0) {
            /* text that is not UTF-8 (a lesson's own bytes), or no memory */
            snprintf(why, cap, "the brief of %s cannot be written as JSON", rows[i].path);
            json_decref(root);
            json_decref(lessons);
            return -1;
        }
    }
    json_object_set_new(root, "lessons", lessons);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (json_dump_file(root, tmp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0)
        snprintf(why, cap, "cannot write %s: %s", tmp, errno ? strerror(errno) : "out of memory");
    else if (rename(tmp, path) != 0)
        snprintf(why, cap, "cannot write %s: %s", path, strerror(errno));
    else
        rc = 0;
    if (rc != 0)
        unlink(tmp);
    json_decref(root);
    return rc;
}
