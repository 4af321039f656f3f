/* Temporary folders for tests: see tmp_dir.h. */
#define _XOPEN_SOURCE 700
#include "tmp_dir.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

int tmp_dir_make(char *buf, size_t cap, const char *stem)
{
    int n = snprintf(buf, cap, "/tmp/%sXXXXXX", stem);
    if (n < 0 || (size_t)n >= cap)
        return -1;
    return mkdtemp(buf) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path) == 0 ? 0 : -1;
}

int tmp_dir_remove(const char *dir)
{
    /* depth first: a folder's contents go before the folder */
    return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
