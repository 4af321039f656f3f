/* fake_libcuda.c: a stand-in for the NVIDIA driver's libcuda.so.1, so that
 * the CUDA probe's "no usable GPU" paths run where there is no GPU.
 *
 * The static CUDA runtime dlopens libcuda.so.1 (found through
 * LD_LIBRARY_PATH), asks cuDriverGetVersion, then cuInit, and reports what
 * cuInit returns as the matching cudaError_t on the first runtime call:
 *   FAKE_CU_INIT    the CUresult cuInit returns (100 no device, 34 stub
 *                   library, 802 system not ready, 803 driver mismatch, 804
 *                   compatibility not supported, 46 devices unavailable);
 *   FAKE_CU_DRIVER  the version cuDriverGetVersion says (13000 = CUDA 13.0;
 *                   older than the runtime makes it report an insufficient
 *                   driver).
 * Any other entry point the runtime asks for is "not found". */
#include <stdlib.h>
#include <string.h>

typedef int CUresult;

static int env_int(const char *name, int dflt)
{
    const char *s = getenv(name);
    return s && *s ? atoi(s) : dflt;
}

CUresult cuInit(unsigned flags)
{
    (void)flags;
    return env_int("FAKE_CU_INIT", 100);
}

CUresult cuDriverGetVersion(int *version)
{
    *version = env_int("FAKE_CU_DRIVER", 13000);
    return 0;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **fn, int version, unsigned long long flags,
                             int *status)
{
    (void)version;
    (void)flags;
    *fn = NULL;
    if (strcmp(symbol, "cuInit") == 0)
        *fn = (void *)cuInit;
    else if (strcmp(symbol, "cuDriverGetVersion") == 0)
        *fn = (void *)cuDriverGetVersion;
    else if (strcmp(symbol, "cuGetProcAddress") == 0)
        *fn = (void *)cuGetProcAddress_v2;
    if (status)
        *status = *fn != NULL;
    return *fn ? 0 : 500; /* CUDA_ERROR_NOT_FOUND */
}

CUresult cuGetProcAddress(const char *symbol, void **fn, int version, unsigned long long flags,
                          int *status)
{
    return cuGetProcAddress_v2(symbol, fn, version, flags, status);
}
