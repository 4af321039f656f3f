#include "ui_term.h"
#include "ui_draw.h"

#include <curses.h>
#include <langinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

static volatile sig_atomic_t quit_signal;
static bool started, color, utf8;
static char later[8][240];
static int n_later;
/* the virtual terminal (ui_term_start_virtual): its screen and files */
static SCREEN *virt;
static FILE *virt_out, *virt_in;

static void set_modes(bool want_color);

static void on_quit(int sig)
{
    quit_signal = sig;
}

/* A crash: give the terminal back, then die the way the signal meant. */
static void on_crash(int sig)
{
    if (started)
        endwin();
    signal(sig, SIG_DFL);
    raise(sig);
}

void ui_term_later(const char *fmt, ...)
{
    va_list ap;
    if (n_later >= 8)
        return;
    va_start(ap, fmt);
    vsnprintf(later[n_later++], sizeof later[0], fmt, ap);
    va_end(ap);
}

bool ui_term_quit_requested(void)
{
    return quit_signal != 0;
}

void ui_term_quit_by_key(void)
{
    if (!quit_signal)
        quit_signal = -1; /* asked for, not signalled: the app exits 0 */
}

void ui_term_exit_as_signalled(void)
{
    int sig = (int)quit_signal;
    if (sig <= 0)
        return;
    ui_term_stop();
    fflush(NULL);
    signal(sig, SIG_DFL);
    raise(sig);
}

const volatile sig_atomic_t *ui_term_quit_flag(void)
{
    return &quit_signal;
}

bool ui_term_color(void)
{
    return color;
}

bool ui_term_utf8(void)
{
    return utf8;
}

int ui_term_start(char *why, size_t cap)
{
    struct sigaction sa;
    const char *nc = getenv("NO_COLOR");
    int err = 0;

    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(why, cap,
                 "the app needs a terminal on stdin and stdout; for scripts use "
                 "kvtutor calc, ask, lint or stats");
        return -1;
    }
    /* ask terminfo ourselves first: initscr would exit on an unknown TERM */
    if (!getenv("TERM") || !*getenv("TERM")) {
        snprintf(why, cap,
                 "TERM is not set, so the terminal's kind is unknown; try "
                 "TERM=xterm-256color");
        return -1;
    }
    if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
        snprintf(why, cap, "TERM=%s: %s", getenv("TERM"),
                 err == 1   ? "a hardcopy terminal cannot show the app"
                 : err == 0 ? "no such terminal in the terminfo database"
                            : "no terminfo database was found");
        return -1;
    }
    if (!tigetstr("cup") || tigetstr("cup") == (char *)-1) {
        const char *t = getenv("TERM");
        del_curterm(cur_term);
        snprintf(why, cap, "TERM=%s cannot move the cursor; try TERM=xterm-256color",
                 t ? t : "(unset)");
        return -1;
    }
    del_curterm(cur_term);
    utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    if (!newterm(NULL, stdout, stdin)) {
        snprintf(why, cap, "the terminal could not be set up");
        return -1;
    }
    started = true;
    atexit(ui_term_stop);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_quit;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* the rest of the signals that end a process by default: the terminal
     * is given back before the process dies as the signal meant (Ctrl-\,
     * a USR1 sent by mistake, a terminal that went away under a write) */
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_RESETHAND;
    {
        static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE,  SIGABRT, SIGQUIT, SIGILL,
                                    SIGTRAP, SIGSYS, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM};
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
            struct sigaction old;
            /* one that is ignored (nohup, a shell's trap) stays ignored, and
             * SIGALRM's own handler (the loading timer) is set later */
            if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
                continue;
            sigaction(fatal[i], &sa, NULL);
        }
    }
    /* a save past `ulimit -f` fails with EFBIG, which the store reports as
     * "not saved", instead of killing the app mid-write */
    signal(SIGXFSZ, SIG_IGN);
    set_modes(!(nc && *nc));
    return 0;
}

/* The modes every start sets: keys one at a time, unechoed, with their
 * codes; no cursor; the colours when wanted and the terminal has them. */
static void set_modes(bool want_color)
{
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    mousemask(BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    color = has_colors() && want_color;
    if (color) {
        start_color();
        use_default_colors(); /* -1: the terminal's own background and foreground */
        ui_color_start();
    }
}

int ui_term_start_virtual(int width, int height, char *why, size_t cap)
{
    static const char *const kinds[] = {"xterm-256color", "xterm", "vt100"};

    if (started) {
        snprintf(why, cap, "the terminal is already started");
        return -1;
    }
    virt_out = fopen("/dev/null", "w");
    virt_in = fopen("/dev/null", "r");
    for (size_t i = 0; virt_out && virt_in && !virt && i < sizeof kinds / sizeof kinds[0]; i++)
        virt = newterm(kinds[i], virt_out, virt_in);
    if (!virt) {
        snprintf(why, cap, "no terminfo entry for xterm-256color, xterm or vt100");
        ui_term_stop();
        return -1;
    }
    started = true;
    utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    resizeterm(height, width);
    set_modes(false); /* no colours: a dump compares characters */
    return 0;
}

bool ui_term_is_virtual(void)
{
    return virt != NULL;
}

void ui_term_stop(void)
{
    if (virt) {
        endwin();
        delscreen(virt);
        virt = NULL;
    } else if (started) {
        endwin();
    }
    started = false;
    if (virt_out)
        fclose(virt_out);
    if (virt_in)
        fclose(virt_in);
    virt_out = virt_in = NULL;
    for (int i = 0; i < n_later; i++)
        fprintf(stderr, "%s\n", later[i]);
    n_later = 0;
}
