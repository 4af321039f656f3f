/* Whether a test runs under valgrind (ctest -T memcheck), which runs code
 * some 20 to 50 times slower and preloads its own libraries. Tests that bound
 * the time or memory something takes widen those bounds then, rather than
 * fail for valgrind's cost. */
#ifndef KVT_TESTS_VALGRIND_ENV_H
#define KVT_TESTS_VALGRIND_ENV_H

#include <stdbool.h>

/* True when valgrind's preload library is in LD_PRELOAD, as memcheck sets it. */
bool under_valgrind(void);

#endif
