/* cli_import_file.h: the bytes `kvtutor import` reads: a regular file, or
 * standard input for "-" (the convention explain-log keeps too), never more
 * than CLI_IMPORT_MAX_BYTES, and never a FIFO or a device given by name
 * (either could block for ever). */
#ifndef CLI_IMPORT_FILE_H
#define CLI_IMPORT_FILE_H

#include <stddef.h>

#define CLI_IMPORT_MAX_BYTES ((size_t)64 << 20)

/* The whole of `file` ("-": standard input), malloc'd, *len bytes (not
 * NUL-terminated); NULL with a short reason in why ("no such file", "a
 * folder, not an export file", "65 MiB; an export may be at most 64 MiB"). */
char *cli_import_load(const char *file, size_t *len, char *why, size_t cap);

#endif
