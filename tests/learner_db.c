#include "learner_db.h"

#include <stdio.h>
#include <string.h>

int learner_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int rc;
    if (!f)
        return -1;
    rc = fputs(text, f) < 0 ? -1 : 0;
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

int learner_db_import(const char *db, const char *file, const char *export_json,
                      struct run_result *res)
{
    char *argv[] = {(char *)run_kvtutor_path(), "import", (char *)file, "--db", (char *)db, NULL};
    memset(res, 0, sizeof *res);
    if (learner_write_file(file, export_json) != 0)
        return -1;
    return run_cmd(argv, NULL, res);
}
