#include "kvt_error.h"

static const char *const messages[] = {
#define KVT_ERR_MSG(name, msg) msg,
    KVT_ERRORS(KVT_ERR_MSG)
#undef KVT_ERR_MSG
};

static const char *const names[] = {
#define KVT_ERR_NAME(name, msg) #name,
    KVT_ERRORS(KVT_ERR_NAME)
#undef KVT_ERR_NAME
};

const char *kvt_strerror(enum kvt_err err)
{
    if ((unsigned)err >= KVT_E__COUNT)
        return "unknown error";
    return messages[err];
}

const char *kvt_errname(enum kvt_err err)
{
    if ((unsigned)err >= KVT_E__COUNT)
        return "UNKNOWN";
    return names[err];
}
