#define _POSIX_C_SOURCE 200809L
#include "cli_paths.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int cli_data_dir(char *buf, size_t cap)
{
    static const char *const rel[] = {"/share/kvtutor", "/../share/kvtutor"};
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;

    if (n <= 0)
        return -1;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
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
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;

    if (n <= 0)
        return -1;
    exe[n] = '\0';
    if (!(slash = strrchr(exe, '/')))
        return -1;
    *slash = '\0';
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
