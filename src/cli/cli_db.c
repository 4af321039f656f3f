#include "cli_db.h"
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "kvt_text.h"
#include "tutor_progress.h"

#define DEFAULT_LEARNER "default"

/* What to do about each way the database can fail. */
static const char *advice(enum kvt_err e)
{
    switch (e) {
    case KVT_E_DB_NOT_KVTUTOR:
        return "choose another file with --db";
    case KVT_E_DB_CORRUPT:
        return "keep a copy, then recover it with: sqlite3 FILE .recover | sqlite3 NEW.db";
    case KVT_E_DB_READONLY:
        return "progress cannot be saved here: fix the permissions or choose --db";
    case KVT_E_DB_FULL:
        return "free some disk space and try again";
    case KVT_E_DB_LOCKED:
        return "another kvtutor is writing; try again in a moment";
    case KVT_E_DB_NEWER:
        return "upgrade kvtutor, or choose another file with --db";
    case KVT_E_DB_NO_FOLDER:
        return "create the folder or choose another --db";
    case KVT_E_DB_IS_DIR:
        return "give --db the path of a file, not a folder";
    case KVT_E_DB_GONE:
        return "the answers up to now are in the file named; leave the path alone while kvtutor "
               "runs";
    default:
        return "check the file and its folder";
    }
}

int cli_db_error(const char *cmd, const char *path, const struct store_error *err)
{
    char f1[KVT_SAFE_FIELD * 2], f2[KVT_SAFE_FIELD];
    /* the path is the user's, the detail may quote the file: neither goes out raw */
    fprintf(stderr, "kvtutor %s: %s: %s", cmd, kvt_safe(path, f1, sizeof f1),
            kvt_strerror(err->code));
    if (err->detail[0])
        fprintf(stderr, " (%s)", kvt_safe(err->detail, f2, sizeof f2));
    fprintf(stderr, "; %s\n", advice(err->code));
    {
        char msg[KVT_SAFE_FIELD * 4];
        snprintf(msg, sizeof msg, "%s: %s%s%s%s; %s", f1, kvt_strerror(err->code),
                 err->detail[0] ? " (" : "", err->detail[0] ? f2 : "", err->detail[0] ? ")" : "",
                 advice(err->code));
        cli_json_error(msg);
    }
    return 1;
}

/* An import, an export or a second app holds the write lock: one line,
 * not a silent wait of seconds. */
static void say_waiting(void *ctx)
{
    fprintf(stderr, "kvtutor %s: %s\n", (const char *)ctx, tutor_db_wait_text());
}

int cli_db_open(const char *cmd, const char *db_path, const char *learner, int64_t now,
                struct cli_db *db)
{
    struct store_error err;
    enum kvt_err e = KVT_E_OK;
    bool found = true;
    const char *why;

    memset(db, 0, sizeof *db);
    if (learner && (why = store_setting_check("learner", learner)) != NULL)
        return cli_usage_error(strcmp(cmd, "app") == 0 ? NULL : cmd, "--learner: %s", why);
    if (learner && !kvt_text_is_safe(learner, strlen(learner), 0))
        return cli_usage_error(strcmp(cmd, "app") == 0 ? NULL : cmd,
                               "--learner: no control characters in a name");
    if (db_path) {
        snprintf(db->path, sizeof db->path, "%s", db_path);
    } else if (store_default_path(getenv("XDG_DATA_HOME"), getenv("HOME"), db->path,
                                  sizeof db->path) != KVT_E_OK) {
        fprintf(stderr,
                "kvtutor %s: neither XDG_DATA_HOME nor HOME is set; choose a file with "
                "--db\n",
                cmd);
        return 1;
    }
    if (store_open(db->path, db_path == NULL, &db->st, &err) != KVT_E_OK)
        return cli_db_error(cmd, db->path, &err);
    tutor_db_on_wait(db->st, say_waiting, (void *)cmd); /* the app says it on its screen */
    if (learner)
        snprintf(db->learner, sizeof db->learner, "%s", learner);
    else
        e = store_setting_get(db->st, "learner", db->learner, sizeof db->learner, &found, &err);
    if (e == KVT_E_OK && !found)
        snprintf(db->learner, sizeof db->learner, "%s", DEFAULT_LEARNER);
    if (e == KVT_E_OK)
        e = store_learner(db->st, db->learner, now, &db->learner_id, &err);
    if (e == KVT_E_DB_READONLY) {
        db->learner_id = 0; /* read-only and never used: nothing of theirs to show */
        e = KVT_E_OK;
    }
    if (e != KVT_E_OK) {
        cli_db_error(cmd, db->path, &err);
        cli_db_close(db);
        return 1;
    }
    return 0;
}

void cli_db_close(struct cli_db *db)
{
    store_close(db->st);
    db->st = NULL;
}
