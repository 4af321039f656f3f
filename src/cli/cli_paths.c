#define _POSIX_C_SOURCE 200809L
#include "cli_paths.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys.h"

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder the program is in, without a trailing slash. 0, or -1. */
static int exe_dir(char *exe, size_t cap)
{
    char *slash;
    if (sys_exe_path(exe, cap) != 0 || !(slash = strrchr(exe, '/')))
        return -1;
    *slash = '\0';
    return 0;
}

int cli_data_dir(char *buf, size_t cap)
{
    static const char *const rel[] = {"/share/kvtutor", "/../share/kvtutor"};
    char exe[4096];

    if (exe_dir(exe, sizeof exe) != 0)
        return -1;
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        int k = snprintf(buf, cap, "%s%s", exe, rel[i]);
        if (k > 0 && (size_t)k < cap && is_dir(buf))
            return 0;
    }
    return -1;
}

int cli_helper_program(const char *name, char *buf, size_t cap)
{
    static const char *const rel[] = {"/libexec/kvtutor/", "/../libexec/kvtutor/"};
    char exe[4096];

    if (exe_dir(exe, sizeof exe) != 0)
        return -1;
    /* the layout whose helper folder exists (the build tree's when neither
     * does), so that a helper not built, the CUDA probe without nvcc, is
     * named where it would be */
    size_t pick = 0;
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        int k = snprintf(buf, cap, "%s%s", exe, rel[i]);
        if (k <= 0 || (size_t)k >= cap)
            return -1;
        if (is_dir(buf)) {
            pick = i;
            break;
        }
    }
    snprintf(buf, cap, "%s%s", exe, rel[pick]);
    size_t len = strlen(buf);
    int k = snprintf(buf + len, cap - len, "%s", name);
    if (k <= 0 || (size_t)k >= cap - len)
        return -1;
    return 0;
}
