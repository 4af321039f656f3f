/* tutor_path.h: completing a file path as it is typed, as a shell's Tab
 * does, for the playground's config.json and log prompts. */
#ifndef TUTOR_PATH_H
#define TUTOR_PATH_H

#include <stddef.h>

/* The entries of the typed path's folder (what comes before its last '/',
 * "." when none; "~/" is the home folder) whose names begin with what
 * follows that '/'; dot entries only when that begins with '.'. With one,
 * *out is the whole path, '/' after a folder; with several, the path to
 * their longest common beginning, and `list` their names, two spaces
 * between, sorted, cut with "..." to fit. Returns how many matched (0:
 * *out is typed unchanged; a folder that cannot be read matches none).
 * Names with control characters are left out. */
size_t tutor_path_complete(const char *typed, char *out, size_t cap, char *list, size_t list_cap);

#endif
