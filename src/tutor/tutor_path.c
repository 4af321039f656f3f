#define _POSIX_C_SOURCE 200809L /* strdup */
/* Completing a path as a shell does: see tutor_path.h. */
#include "tutor_path.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_NAMES 512

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool plain(const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

size_t tutor_path_complete(const char *typed, char *out, size_t cap, char *list, size_t list_cap)
{
    const char *slash = strrchr(typed, '/'), *base = slash ? slash + 1 : typed;
    char dir[1024], shown[1024], first[256] = "";
    char *names[MAX_NAMES];
    size_t n = 0, kept = 0, blen = strlen(base), common = 0, o = 0;
    int w;
    DIR *d;
    struct dirent *e;

    snprintf(out, cap, "%s", typed);
    if (list_cap)
        list[0] = '\0';
    /* the folder as the file system reads it, and as the learner typed it;
     * one that does not fit is not opened cut short */
    snprintf(shown, sizeof shown, "%.*s", slash ? (int)(slash - typed + 1) : 0, typed);
    if (!slash)
        w = snprintf(dir, sizeof dir, ".");
    else if (strncmp(typed, "~/", 2) == 0 && getenv("HOME"))
        w = snprintf(dir, sizeof dir, "%s/%.*s", getenv("HOME"), (int)(slash - typed - 1),
                     typed + 2);
    else
        w = snprintf(dir, sizeof dir, "%.*s", slash == typed ? 1 : (int)(slash - typed), typed);
    if (w < 0 || (size_t)w >= sizeof dir || strlen(typed) >= sizeof shown || !(d = opendir(dir)))
        return 0;
    /* every match counts and narrows the common beginning; the first
     * MAX_NAMES are kept for the list */
    while ((e = readdir(d)) != NULL) {
        size_t k = 0;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            (e->d_name[0] == '.' && base[0] != '.') || strncmp(e->d_name, base, blen) != 0 ||
            !plain(e->d_name) || strlen(e->d_name) >= sizeof first)
            continue;
        if (n++ == 0) {
            snprintf(first, sizeof first, "%s", e->d_name);
            common = strlen(first);
        } else {
            while (k < common && e->d_name[k] == first[k])
                k++;
            common = k;
        }
        if (kept < MAX_NAMES && (names[kept] = strdup(e->d_name)) != NULL)
            kept++;
    }
    closedir(d);
    if (n == 0)
        return 0;
    qsort(names, kept, sizeof names[0], by_name);
    /* a common beginning never ends inside a UTF-8 sequence */
    while (common > blen && ((unsigned char)first[common] & 0xC0) == 0x80)
        common--;
    if (n == 1) {
        char full[2048];
        struct stat st;
        bool folder;
        snprintf(full, sizeof full, "%s/%s", dir, first);
        folder = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
        snprintf(out, cap, "%s%s%s", shown, first, folder ? "/" : "");
    } else {
        snprintf(out, cap, "%s%.*s", shown, (int)common, first);
        for (size_t i = 0; i < kept && list_cap; i++) {
            size_t need = strlen(names[i]) + (o ? 2 : 0);
            if (o + need + 4 >= list_cap || (i + 1 == kept && kept < n)) {
                snprintf(list + o, list_cap - o, "%s...", o ? "  " : "");
                break;
            }
            o += (size_t)snprintf(list + o, list_cap - o, "%s%s", o ? "  " : "", names[i]);
        }
    }
    for (size_t i = 0; i < kept; i++)
        free(names[i]);
    return n;
}
