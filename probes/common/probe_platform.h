/* probe_platform.h: what the CPU probe asks of the machine it measures: the
 * CPU's name, its core count, its last-level cache and the memory free now.
 * Linux answers from /proc and glibc's sysconf; elsewhere each falls back to
 * plain POSIX or to a stated default, so the probe still builds and runs
 * (Linux is what is tested). Libc only: the probes must not link the app's
 * libraries (src/sys is the app's own platform layer). Include after the
 * feature macros (_POSIX_C_SOURCE 200809L). */
#ifndef PROBE_PLATFORM_H
#define PROBE_PLATFORM_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The CPU's model name ("AMD EPYC 9654 96-Core Processor"): the first
 * "model name" of /proc/cpuinfo on Linux; "unknown CPU" when not found. */
static inline void probe_cpu_name(char *buf, size_t cap)
{
    snprintf(buf, cap, "unknown CPU");
#if defined(__linux__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            char *s = colon + 1, *e;
            while (*s == ' ' || *s == '\t')
                s++;
            e = s + strlen(s);
            while (e > s && (e[-1] == '\n' || e[-1] == ' '))
                *--e = '\0';
            snprintf(buf, cap, "%s", s);
            break;
        }
    }
    fclose(f);
#endif
}

/* Cores online; 0 when the system does not say. */
static inline long probe_core_count(void)
{
#if defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 0;
#else
    return 0;
#endif
}

/* The last-level cache in bytes: L3, else L2 (glibc's sysconf reads them
 * from CPUID or sysfs); 32 MiB, a large one, when neither is known, so the
 * default buffer still outgrows it. */
static inline long probe_llc_bytes(void)
{
    long llc = 0;
#if defined(_SC_LEVEL3_CACHE_SIZE)
    llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
#if defined(_SC_LEVEL2_CACHE_SIZE)
    if (llc <= 0)
        llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    return llc > 0 ? llc : 32l << 20;
}

/* Memory a new allocation can have without swapping, in bytes: Linux's
 * MemAvailable (free memory plus the page cache it can drop); elsewhere
 * the free pages sysconf counts where it does; 0 when unknown. */
static inline uint64_t probe_mem_available(void)
{
#if defined(__linux__)
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return (uint64_t)kib * 1024;
#elif defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
#else
    return 0;
#endif
}

#endif
