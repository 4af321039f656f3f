/* gpu_gate.h: whether the CUDA probe has a GPU it can measure, decided from
 * what the runtime said, in plain C so that every "no usable GPU" case is
 * tested without one (tests/test_probe.c).
 *
 * Each reason gets its own one-line message and exit 3 (PROBE_EXIT_NO_GPU),
 * so that kvtutor measures host memory instead. Error numbers are the CUDA
 * runtime's cudaError_t values (driver_types.h), written as numbers so that
 * this header needs no CUDA. */
#ifndef GPU_GATE_H
#define GPU_GATE_H

#include <stdio.h>

#include "probe_io.h"

enum {
    GPU_ERR_STUB_LIBRARY = 34,          /* cudaErrorStubLibrary */
    GPU_ERR_INSUFFICIENT_DRIVER = 35,   /* cudaErrorInsufficientDriver (also: none at all) */
    GPU_ERR_DEVICES_UNAVAILABLE = 46,   /* cudaErrorDevicesUnavailable */
    GPU_ERR_NO_DEVICE = 100,            /* cudaErrorNoDevice */
    GPU_ERR_SYSTEM_NOT_READY = 802,     /* cudaErrorSystemNotReady */
    GPU_ERR_DRIVER_MISMATCH = 803,      /* cudaErrorSystemDriverMismatch */
    GPU_ERR_COMPAT_NOT_SUPPORTED = 804, /* cudaErrorCompatNotSupportedOnDevice */
    GPU_ERR_UNKNOWN = 999               /* cudaErrorUnknown */
};

/* The oldest compute capability CUDA 13 builds for (Turing). */
#define GPU_MIN_CC_MAJOR 7
#define GPU_MIN_CC_MINOR 5

struct gpu_gate {
    int err;            /* the first failing call's error (0: none) */
    int count;          /* devices, when err is 0 */
    int major, minor;   /* the chosen device's compute capability, when count > 0 */
    int driver_version; /* cudaDriverGetVersion: 13000 is CUDA 13.0; 0 when no driver */
    int runtime_version;
};

/* PROBE_EXIT_OK when there is a GPU to measure; PROBE_EXIT_NO_GPU with the
 * reason in why[] when the error or the device says there is none here;
 * PROBE_EXIT_FAILED (why[] empty) for any other error, which the caller
 * reports with the runtime's own words. */
static inline int gpu_gate_check(const struct gpu_gate *g, char *why, size_t cap)
{
    int d = g->driver_version, r = g->runtime_version;
    why[0] = '\0';
    switch (g->err) {
    case 0:
        break;
    case GPU_ERR_INSUFFICIENT_DRIVER:
        if (d <= 0)
            snprintf(why, cap, "no NVIDIA driver is installed (libcuda.so.1 was not found)");
        else
            snprintf(why, cap,
                     "the NVIDIA driver supports CUDA %d.%d, older than this probe's CUDA %d.%d "
                     "runtime: upgrade the driver",
                     d / 1000, d % 1000 / 10, r / 1000, r % 1000 / 10);
        return PROBE_EXIT_NO_GPU;
    case GPU_ERR_STUB_LIBRARY:
        snprintf(why, cap,
                 "only the CUDA toolkit's stub libcuda.so was found, not a real NVIDIA driver");
        return PROBE_EXIT_NO_GPU;
    case GPU_ERR_NO_DEVICE:
        snprintf(why, cap, "the NVIDIA driver sees no CUDA device");
        return PROBE_EXIT_NO_GPU;
    case GPU_ERR_DEVICES_UNAVAILABLE:
        snprintf(why, cap,
                 "every GPU is busy or in a compute mode that lets no other process use it "
                 "(error 46)");
        return PROBE_EXIT_NO_GPU;
    case GPU_ERR_SYSTEM_NOT_READY:
        snprintf(why, cap,
                 "the GPUs are not ready (error 802): on NVSwitch systems the Fabric Manager "
                 "service must be running");
        return PROBE_EXIT_NO_GPU;
    case GPU_ERR_DRIVER_MISMATCH:
        snprintf(why, cap,
                 "the kernel module and the user-space NVIDIA driver differ in version "
                 "(error 803): reboot, or reinstall the driver");
        return PROBE_EXIT_NO_GPU;
    case GPU_ERR_COMPAT_NOT_SUPPORTED:
        snprintf(why, cap,
                 "a CUDA forward-compatibility driver is in use on a GPU that does not support "
                 "it (error 804)");
        return PROBE_EXIT_NO_GPU;
    case GPU_ERR_UNKNOWN:
        /* what the driver says when a GPU has fallen off the bus or needs
         * a reset: nothing this probe can measure, like the cases above */
        snprintf(why, cap,
                 "the CUDA driver reports an unknown error (999): the GPU may need a reset or "
                 "have fallen off the bus (see nvidia-smi and the kernel log)");
        return PROBE_EXIT_NO_GPU;
    default:
        return PROBE_EXIT_FAILED;
    }
    if (g->count <= 0) {
        snprintf(why, cap, "the NVIDIA driver sees no CUDA device");
        return PROBE_EXIT_NO_GPU;
    }
    if (g->major < GPU_MIN_CC_MAJOR ||
        (g->major == GPU_MIN_CC_MAJOR && g->minor < GPU_MIN_CC_MINOR)) {
        snprintf(why, cap,
                 "the GPU's compute capability %d.%d is below %d.%d, the oldest CUDA 13 "
                 "builds for",
                 g->major, g->minor, GPU_MIN_CC_MAJOR, GPU_MIN_CC_MINOR);
        return PROBE_EXIT_NO_GPU;
    }
    return PROBE_EXIT_OK;
}

#endif
