/* sys.h: the few things kvtutor asks of the operating system that POSIX
 * leaves to each system (as htop's Platform.h does): the running program's
 * own path, a pipe whose ends close on exec, secure random bytes, the
 * number of cores. Linux is what is built and tested; the other branches
 * (macOS, the BSDs, a plain POSIX fallback) follow each system's manual.
 *
 * Errors: every function returning int gives 0, or -1 with errno set to
 * say why (the caller words the message: strerror(errno)). Nothing here
 * prints, allocates or keeps state beyond the argv[0] it is given. */
#ifndef KVT_SYS_H
#define KVT_SYS_H

#include <stddef.h>

/* Remembers argv[0] for sys_exe_path on systems that cannot name the running
 * program any other way (it is then looked up through PATH). Call once at
 * start-up, before any change of folder; the string must outlive the
 * program (argv's does). */
void sys_set_argv0(const char *argv0);

/* Writes the absolute, link-free path of the running program into buf:
 * /proc/self/exe on Linux, _NSGetExecutablePath on macOS, the
 * KERN_PROC_PATHNAME sysctl on FreeBSD, else argv[0] (sys_set_argv0)
 * resolved through PATH. -1 with errno: ENAMETOOLONG when it does not fit
 * in cap, ENOENT when the path cannot be found. */
int sys_exe_path(char *buf, size_t cap);

/* pipe(2) with FD_CLOEXEC on both ends, set atomically where the system
 * can (pipe2 on Linux), so a program started meanwhile inherits neither. */
int sys_pipe_cloexec(int fds[2]);

/* Fills buf with len bytes from the system's secure generator: getrandom
 * on Linux, arc4random_buf on macOS and the BSDs, /dev/urandom elsewhere
 * or where getrandom is missing (ENOSYS). Interrupted calls are retried;
 * a short read from /dev/urandom is EIO. */
int sys_random(void *buf, size_t len);

/* Cores online now; at least 1 (1 where the system does not say). */
long sys_core_count(void);

/* The running program's build id as lowercase hex: the GNU build-id note
 * the linker writes into an ELF program (a hash of its contents, the same
 * in the build tree, once installed and once stripped), found through
 * dl_iterate_phdr on Linux. -1 with errno: ENOENT when the program has no
 * such note (a link with --build-id=none) or the system is not Linux, ENAMETOOLONG
 * when it does not fit in cap. */
int sys_build_id(char *hex, size_t cap);

#endif
