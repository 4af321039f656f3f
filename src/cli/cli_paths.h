/* cli_paths.h: where kvtutor's data (lessons, lua/, probes) lives, found from
 * the program's own location so that it runs from any folder. */
#ifndef CLI_PATHS_H
#define CLI_PATHS_H

#include <stddef.h>

/* Writes the data folder into buf: <bin>/share/kvtutor in a build tree,
 * <prefix>/share/kvtutor once installed (bin/kvtutor beside share/).
 * Returns 0, or -1 when neither exists or the path does not fit. */
int cli_data_dir(char *buf, size_t cap);

/* Writes the path of one of kvtutor's helper programs ("kvtutor-probe-cpu")
 * into buf: <bin>/libexec/kvtutor/NAME in a build tree, <prefix>/libexec/
 * kvtutor/NAME once installed (helpers stay out of PATH). Where neither
 * exists, the build tree's path is written. Returns 0, or -1 when the
 * program's folder is unknown or the path does not fit (whether the file
 * exists is the caller's to find out). */
int cli_helper_program(const char *name, char *buf, size_t cap);

#endif
