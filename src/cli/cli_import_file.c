/* Reading the bytes an import merges, bounded before and during the read
 * (cli_import_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_import_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Standard input, to the limit, in growing reads. */
static char *load_stdin(size_t *len_out, char *why, size_t cap)
{
    size_t len = 0, size = 0;
    char *buf = NULL, *nb;

    for (;;) {
        ssize_t n;
        if (len == size) {
            size = size ? size * 2 : 65536;
            if (size > CLI_IMPORT_MAX_BYTES + 1)
                size = CLI_IMPORT_MAX_BYTES + 1;
            if (len == size) {
                snprintf(why, cap, "more than %zu MiB; an export may be at most that",
                         CLI_IMPORT_MAX_BYTES >> 20);
                free(buf);
                return NULL;
            }
            if (!(nb = realloc(buf, size))) {
                snprintf(why, cap, "out of memory");
                free(buf);
                return NULL;
            }
            buf = nb;
        }
        n = read(STDIN_FILENO, buf + len, size - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(why, cap, "%s", strerror(errno));
            free(buf);
            return NULL;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    *len_out = len;
    return buf ? buf : calloc(1, 1);
}

/* A regular file, refusing what is not one (a FIFO or a device would block
 * or never end) and what is over the limit. */
static char *load_file(const char *file, size_t *len_out, char *why, size_t cap)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    char *buf = NULL;
    size_t len = 0;

    if (fd < 0) {
        snprintf(why, cap, "%s",
                 errno == ENOENT   ? "no such file"
                 : errno == EACCES ? "not allowed to read it"
                                   : strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        bool dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
        snprintf(why, cap, "%s", dir ? "a folder, not an export file" : "not a regular file");
        goto fail;
    }
    if ((uint64_t)st.st_size > CLI_IMPORT_MAX_BYTES) {
        snprintf(why, cap, "%.0f MiB; an export may be at most %zu MiB",
                 (double)st.st_size / (1 << 20), CLI_IMPORT_MAX_BYTES >> 20);
        goto fail;
    }
    /* one byte more than the size, to notice a file that grows while read */
    if (!(buf = malloc((size_t)st.st_size + 1))) {
        snprintf(why, cap, "out of memory");
        goto fail;
    }
    for (;;) {
        ssize_t n = read(fd, buf + len, (size_t)st.st_size + 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            snprintf(why, cap, "%s", strerror(errno));
            goto fail;
        }
        if (n == 0)
            break;
        len += (size_t)n;
        if (len > (size_t)st.st_size) {
            snprintf(why, cap, "the file grew while it was read");
            goto fail;
        }
    }
    close(fd);
    *len_out = len;
    return buf;
fail:
    free(buf);
    close(fd);
    return NULL;
}

char *cli_import_load(const char *file, size_t *len, char *why, size_t cap)
{
    return strcmp(file, "-") == 0 ? load_stdin(len, why, cap) : load_file(file, len, why, cap);
}
