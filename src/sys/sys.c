/* The system-specific half of kvtutor: one #if per system, and the only
 * file of src/ that asks glibc for its extensions (pipe2, getrandom). */
#if defined(__linux__)
#define _GNU_SOURCE /* pipe2, getrandom, realpath */
#endif
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__linux__)
#include <link.h> /* dl_iterate_phdr, ElfW */
#include <sys/random.h>
#define HAVE_DL_ITERATE_PHDR 1
#elif defined(__APPLE__)
#include <mach-o/dyld.h>
#elif defined(__FreeBSD__) || defined(__DragonFly__)
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__) ||   \
    defined(__DragonFly__)
#define HAVE_ARC4RANDOM 1
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static const char *saved_argv0;

void sys_set_argv0(const char *argv0)
{
    saved_argv0 = argv0;
}

/* Copies s into buf, or ENAMETOOLONG. */
static int put(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n + 1 > cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, s, n + 1);
    return 0;
}

/* realpath(path) into buf. */
static int put_real(char *buf, size_t cap, const char *path)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        return -1;
    return put(buf, cap, real);
}

/* argv[0] as a shell would have found it: a name with a slash is a path
 * (relative to the folder the program started in), a bare name is looked
 * up in PATH. Used where the system cannot name the running program. */
static int from_argv0(char *buf, size_t cap)
{
    const char *a = saved_argv0, *path = getenv("PATH");
    char cand[PATH_MAX];

    if (!a || !*a) {
        errno = ENOENT;
        return -1;
    }
    if (strchr(a, '/'))
        return put_real(buf, cap, a);
    for (const char *p = path ? path : "/usr/bin:/bin"; p;) {
        const char *colon = strchr(p, ':');
        int len = colon ? (int)(colon - p) : (int)strlen(p);
        struct stat st;
        /* an empty entry is the current folder */
        int k = snprintf(cand, sizeof cand, "%.*s/%s", len ? len : 1, len ? p : ".", a);
        if (k > 0 && (size_t)k < sizeof cand && stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
            access(cand, X_OK) == 0)
            return put_real(buf, cap, cand);
        p = colon ? colon + 1 : NULL;
    }
    errno = ENOENT;
    return -1;
}

int sys_exe_path(char *buf, size_t cap)
{
#if defined(__linux__)
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        return put(buf, cap, exe);
    }
#elif defined(__APPLE__)
    char exe[PATH_MAX];
    uint32_t size = sizeof exe;
    /* may name the program through a link or "..": resolved */
    if (_NSGetExecutablePath(exe, &size) == 0)
        return put_real(buf, cap, exe);
#elif defined(__FreeBSD__) || defined(__DragonFly__)
    char exe[PATH_MAX];
    size_t size = sizeof exe;
    int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, -1};
    if (sysctl(mib, 4, exe, &size, NULL, 0) == 0)
        return put(buf, cap, exe);
#endif
    /* /proc not mounted, or a system with no call for it */
    return from_argv0(buf, cap);
}

int sys_pipe_cloexec(int fds[2])
{
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    /* not atomic: a fork in another thread between pipe and fcntl would
     * inherit the ends (kvtutor starts programs from one thread only) */
    if (pipe(fds) != 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        int flags = fcntl(fds[i], F_GETFD);
        if (flags < 0 || fcntl(fds[i], F_SETFD, flags | FD_CLOEXEC) != 0) {
            int saved = errno;
            close(fds[0]);
            close(fds[1]);
            fds[0] = fds[1] = -1;
            errno = saved;
            return -1;
        }
    }
    return 0;
#endif
}

#if !defined(HAVE_ARC4RANDOM)
/* /dev/urandom, read until len bytes came. */
static int from_urandom(unsigned char *p, size_t len)
{
    int fd, saved;
    do
        fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return -1;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            saved = n < 0 ? errno : EIO;
            close(fd);
            errno = saved;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    close(fd);
    return 0;
}
#endif

int sys_random(void *buf, size_t len)
{
    unsigned char *p = buf;
#if defined(HAVE_ARC4RANDOM)
    arc4random_buf(p, len); /* cannot fail */
    return 0;
#elif defined(__linux__)
    while (len > 0) {
        /* requests over 256 bytes may come back short: ask for the rest */
        ssize_t n = getrandom(p, len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == ENOSYS)
            return from_urandom(p, len); /* a kernel before 3.17 */
        if (n < 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
#else
    return from_urandom(p, len);
#endif
}

long sys_core_count(void)
{
#if defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
#else
    return 1;
#endif
}

#if defined(HAVE_DL_ITERATE_PHDR)
struct note_search {
    char *hex;
    size_t cap;
    int rc; /* 0 found; else the errno to give */
};

#define NOTE_ALIGN(n) (((n) + 3u) & ~(size_t)3u)
#define NT_BUILD_ID   3 /* NT_GNU_BUILD_ID: not every libc names it */

/* The first object dl_iterate_phdr lists is the program itself: its
 * PT_NOTE segments are read for a note "GNU" of type 3. */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *ctx)
{
    struct note_search *s = ctx;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        if (ph->p_type != PT_NOTE)
            continue;
        while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(const void *)p;
            const unsigned char *name = p + sizeof *n, *desc = name + NOTE_ALIGN(n->n_namesz);
            if (n->n_namesz > (size_t)(end - name) || n->n_descsz > (size_t)(end - desc))
                break; /* a note cut short: nothing after it can be trusted */
            if (n->n_type == NT_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
                n->n_descsz > 0) {
                if (s->cap < 2 * (size_t)n->n_descsz + 1) {
                    s->rc = ENAMETOOLONG;
                } else {
                    for (size_t k = 0; k < n->n_descsz; k++)
                        snprintf(s->hex + 2 * k, 3, "%02x", desc[k]);
                    s->rc = 0;
                }
                return 1;
            }
            p = desc + NOTE_ALIGN(n->n_descsz);
        }
    }
    return 1; /* only the program itself */
}
#endif

int sys_build_id(char *hex, size_t cap)
{
#if defined(HAVE_DL_ITERATE_PHDR)
    struct note_search s = {hex, cap, ENOENT};
    dl_iterate_phdr(find_build_id, &s);
    if (s.rc == 0)
        return 0;
    errno = s.rc;
    return -1;
#else
    (void)hex;
    (void)cap;
    errno = ENOENT;
    return -1;
#endif
}
