/* tmp_dir.h: a fresh folder under /tmp for a test's files, and its removal
 * with everything in it, so a test leaves nothing behind. */
#ifndef TMP_DIR_H
#define TMP_DIR_H

#include <stddef.h>

/* Makes /tmp/<stem>XXXXXX (a unique name) and writes its path into buf.
 * 0, or -1 when the name does not fit or the folder cannot be made. */
int tmp_dir_make(char *buf, size_t cap, const char *stem);

/* Removes the folder, its files and folders below it, without following
 * links. 0, or -1 when something could not be removed. */
int tmp_dir_remove(const char *dir);

#endif
