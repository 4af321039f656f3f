#include "valgrind_env.h"

#include <stdlib.h>
#include <string.h>

bool under_valgrind(void)
{
    const char *pre = getenv("LD_PRELOAD");
    return pre && strstr(pre, "vgpreload");
}
