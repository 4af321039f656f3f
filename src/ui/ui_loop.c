/* The app: starts up (settings, terminal, the course catalogue loaded with
 * a progress line), runs the one generic screen loop, and draws the frame
 * around every screen (title bar, message line, status line). */
#include "ui_app.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "kvt_text.h"
#include "tutor_course.h"
#include "tutor_progress.h"
#include "ui_term.h"
#include "ui_draw.h"

void ui_say(struct ui *ui, enum ui_say kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->message, sizeof ui->message, fmt, ap);
    va_end(ap);
    ui->message_kind = kind;
    ui->message_until_typed = false;
}

void ui_push(struct ui *ui, struct ui_screen s)
{
    if (!s.self) {
        ui_say(ui, UI_BAD, "out of memory");
        return;
    }
    if (ui->depth == UI_MAX_DEPTH) {
        if (s.ops->destroy)
            s.ops->destroy(s.self);
        ui_say(ui, UI_BAD, "too many screens open; go back first");
        return;
    }
    ui->stack[ui->depth++] = s;
}

void ui_pop(struct ui *ui)
{
    struct ui_screen *s;
    if (ui->depth == 0)
        return;
    s = &ui->stack[--ui->depth];
    if (s->ops->leave)
        s->ops->leave(s->self, ui);
    if (s->ops->destroy)
        s->ops->destroy(s->self);
}

/* The message under the screen wrapped to `width` columns, on up to
 * UI_MESSAGE_LINES lines (the last cut after a whole word with an ellipsis
 * only past that), so that a refusal is read whole at 80 columns. Returns
 * the lines used; line[i] is one of them, sanitised. */
#define UI_MESSAGE_LINES 4
static int message_lines(const char *message, int width, char line[][512])
{
    char safe[1024];
    size_t len, at = 0;
    int n = 0;

    kvt_sanitize(message, strlen(message), safe, sizeof safe, 0);
    len = strlen(safe);
    while (at < len && n < UI_MESSAGE_LINES) {
        size_t next, take = kvt_wrap_line(safe + at, len - at, width, &next);
        if (n == UI_MESSAGE_LINES - 1 && at + next < len) {
            kvt_text_fit(safe + at, width, ui_term_utf8() ? "…" : "...", line[n], 512);
        } else {
            if (take > 511)
                take = 511;
            memcpy(line[n], safe + at, take);
            line[n][take] = '\0';
        }
        n++;
        if (next == 0)
            break;
        at += next;
    }
    return n;
}

static void draw_frame(struct ui *ui)
{
    char said[UI_MESSAGE_LINES][512];
    int n_said = ui->message[0] ? message_lines(ui->message, COLS - 2, said) : 0;
    struct ui_screen *top = &ui->stack[ui->depth - 1];
    unsigned ctx = top->ops->context(top->self);
    char keys[512], status[1024], title[1200];
    attr_t msg = ui->message_kind == UI_BAD    ? ui_color(UI_C_WRONG)
                 : ui->message_kind == UI_GOOD ? ui_color(UI_C_RIGHT)
                                               : A_NORMAL;

    erase();
    curs_set(0);
    /* title bar */
    attron(A_REVERSE);
    mvhline(0, 0, ' ', COLS);
    attroff(A_REVERSE);
    /* a title too long is cut after a whole word, with an ellipsis */
    kvt_text_fit(top->ops->title(top->self, ui), COLS - 2, ui_term_utf8() ? "…" : "...", title,
                 sizeof title);
    ui_put(0, 1, COLS - 2, title, A_REVERSE | A_BOLD);
    /* message lines (one row is kept for them; a longer message takes rows
     * from the screen above it) and the status line */
    for (int i = 0; i < n_said; i++)
        ui_put(LINES - 1 - n_said + i, 1, COLS - 2, said[i], msg);
    /* the database path is on the settings screen: here it would push the
     * keys off an 80-column line */
    {
        /* the learner's name, cut at 16 columns: a 64-character name would
         * leave no room for the keys */
        char name[256];
        kvt_text_fit(ui->opt.learner, 16, ui_term_utf8() ? "…" : "...", name, sizeof name);
        snprintf(status, sizeof status, "%s │ ", name);
    }
    ui_action_keys(ctx, COLS - 2 - (int)kvt_text_width(status, strlen(status)), keys, sizeof keys);
    snprintf(status + strlen(status), sizeof status - strlen(status), "%s", keys);
    attron(A_REVERSE);
    mvhline(LINES - 1, 0, ' ', COLS);
    attroff(A_REVERSE);
    ui_put(LINES - 1, 1, COLS - 2, status, A_REVERSE);
    /* the screen itself, last, so it can place the cursor */
    top->ops->draw(top->self, ui, 1, LINES - 2 - (n_said > 1 ? n_said : 1), COLS);
}

static void draw_too_small(void)
{
    char msg[96];
    erase();
    curs_set(0);
    snprintf(msg, sizeof msg, "Terminal too small: %d×%d. kvtutor needs %d×%d.", COLS, LINES,
             UI_MIN_COLS, UI_MIN_LINES);
    ui_put(LINES / 2, 1, COLS - 2, msg, A_BOLD);
    if (LINES > 2)
        ui_put(LINES / 2 + 1, 1, COLS - 2, "Enlarge the window, or press Q to quit.", A_NORMAL);
}

/* Mouse wheel: three lines a notch. */
static void wheel(struct ui *ui, unsigned ctx)
{
    MEVENT ev;
    struct ui_screen *top = &ui->stack[ui->depth - 1];
    enum ui_action a = UI_NONE;
    if (getmouse(&ev) != OK)
        return;
    if (ev.bstate & BUTTON4_PRESSED)
        a = UI_UP;
    else if (ev.bstate & BUTTON5_PRESSED)
        a = UI_DOWN;
    if (a != UI_NONE && (ctx & (UC_MAP | UC_READ | UC_HELP | UC_RESULT)))
        for (int i = 0; i < 3; i++)
            top->ops->action(top->self, ui, a);
}

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* True when another key is already waiting: a key that arrives with
 * others at once is part of a paste, not typed. The key is put back. On
 * the virtual terminal (ui_harness.h) keys are handed over one at a time,
 * never read from curses, so none is ever waiting there (its input reads
 * as waiting, and a scripted Tab was taken for a pasted one). */
static bool more_input(void)
{
    wint_t next;
    int kind;
    if (ui_term_is_virtual())
        return false;
    timeout(0);
    kind = get_wch(&next);
    if (kind == ERR)
        return false;
    if (kind == KEY_CODE_YES)
        ungetch((int)next);
    else
        unget_wch(next);
    return true;
}

/* What quitting now would lose, on any screen open; NULL when nothing. */
static const char *at_stake(const struct ui *ui)
{
    for (int i = ui->depth - 1; i >= 0; i--) {
        const struct ui_screen *s = &ui->stack[i];
        const char *what = s->ops->at_stake ? s->ops->at_stake(s->self) : NULL;
        if (what)
            return what;
    }
    return NULL;
}

/* After a key: a quit it asked for goes ahead at once when nothing would be
 * lost (q on the course map, Q anywhere: the convention of htop and tig),
 * else it asks first, and the same key again quits; any other key stays. */
static void confirm_quit(struct ui *ui, int key)
{
    const char *what;

    if (!ui->quit) {
        ui->quit_armed = false;
        return;
    }
    if (ui->quit_armed || !(what = at_stake(ui)))
        return;
    ui->quit = false;
    ui->quit_armed = true;
    ui_say(ui, UI_BAD, "Quit kvtutor? %s would be lost: %c again quits, any other key stays", what,
           key);
}

bool ui_app_frame(struct ui *ui)
{
    struct ui_screen *top = &ui->stack[ui->depth - 1];

    if (top->ops->tick)
        top->ops->tick(top->self, ui);
    if (ui->quit || ui->depth == 0)
        return false;
    {
        /* said after whichever write found it, on any screen */
        const char *gone = tutor_db_notice(ui->opt.store);
        if (gone)
            ui_say(ui, UI_BAD, "%s", gone);
    }
    if (COLS < UI_MIN_COLS || LINES < UI_MIN_LINES)
        draw_too_small();
    else
        draw_frame(ui);
    return true;
}

bool ui_app_editing(const struct ui *ui)
{
    const struct ui_screen *top;
    if (ui->depth == 0)
        return false;
    top = &ui->stack[ui->depth - 1];
    return (top->ops->context(top->self) & UC_EDIT) != 0;
}

void ui_app_key(struct ui *ui, int kind, wint_t ch)
{
    struct ui_screen *top;
    unsigned ctx;

    if (kind == ERR || ui->depth == 0)
        return;
    if (kind == KEY_CODE_YES && ch == KEY_RESIZE)
        return; /* redrawn with the next frame */
    top = &ui->stack[ui->depth - 1];
    ctx = top->ops->context(top->self);
    if (COLS < UI_MIN_COLS || LINES < UI_MIN_LINES) {
        if (kind == OK && (ch == 'Q' || ch == 'q'))
            ui->quit = true;
        confirm_quit(ui, (int)ch);
        return;
    }
    if (kind == KEY_CODE_YES && ch == KEY_MOUSE) {
        wheel(ui, ctx);
        return;
    }
    if (ctx & UC_EDIT) {
        enum ui_action a;
        ui->quit_armed = false; /* typing is another key: a quit asked for is off */
        /* a tab inside pasted text is a space: Tab asks for a hint,
         * which caps the rating, and a paste never meant that */
        if (kind == OK && ch == '\t' && more_input())
            ch = ' ';
        a = ui_action_for((int)ch, ctx);
        if (a == UI_HELP_EDIT) {
            ui_push(ui, ui_help_new(ctx));
        } else if (a != UI_NONE) {
            /* as below: a message is about the step it answered (a
             * warning before leaving does not follow to the map) */
            ui->message[0] = '\0';
            top->ops->action(top->self, ui, a);
        } else if (kind == OK && ch >= 0x20 && ch != 0x7F) {
            /* a note that asks for typing ("Nothing typed yet", the
             * interview's limits) is read once typing starts; others (a
             * completion's matches, a refusal) stay until the next step */
            if (ui->message_until_typed)
                ui->message[0] = '\0';
            top->ops->text(top->self, ui, (uint32_t)ch);
        } else
            top->ops->edit_key(top->self, ui, (int)ch);
        return;
    }
    {
        enum ui_action a = ui_action_for((int)ch, ctx);
        /* Esc goes back a screen but never quits: on the course map
         * the map has it (to clear a search) */
        if (a == UI_ESCAPE && ui->depth > 1)
            a = UI_BACK;
        /* the left arrow goes back too, but is never a quit: on the
         * course map it does nothing (q and Q quit there) */
        if (a == UI_LEFT)
            a = ui->depth > 1 ? UI_BACK : UI_NONE;
        if (a == UI_QUIT) {
            ui->quit = true;
        } else if (a == UI_HELP || a == UI_HELP_EDIT) {
            ui_push(ui, ui_help_new(ctx));
        } else if (a != UI_NONE) {
            ui->message[0] = '\0';
            top->ops->action(top->self, ui, a);
        }
        confirm_quit(ui, (int)ch);
    }
}

static void loop(struct ui *ui, uint64_t started)
{
    const char *bench = getenv("KVTUTOR_EXIT_AFTER_FIRST_DRAW");

    while (!ui->quit && ui->depth > 0 && !ui_term_quit_requested()) {
        struct ui_screen *top = &ui->stack[ui->depth - 1];
        bool busy = top->ops->busy && top->ops->busy(top->self);
        wint_t ch;
        int kind;

        /* text still arriving in a field (a paste) is drawn once it is in */
        if (ui->draws > 0 && ui_app_editing(ui) && more_input()) {
            kind = get_wch(&ch);
            ui_app_key(ui, kind, ch);
            continue;
        }
        /* wake up for signals and resizes, and often while a screen works */
        timeout(busy ? 50 : 200);
        if (!ui_app_frame(ui))
            break;
        refresh();
        if (ui->draws++ == 0 && bench && *bench) {
            struct rusage ru;
            getrusage(RUSAGE_SELF, &ru);
            ui_term_later("first draw after %.1f ms; max resident %ld KiB; %zu of %zu lesson "
                          "files run",
                          (double)(now_us() - started) / 1000.0, ru.ru_maxrss, ui->files_run,
                          ui->opt.n_lessons);
            return;
        }
        kind = get_wch(&ch);
        ui_app_key(ui, kind, ch);
    }
}

/* The learner's settings, as the store keeps them. */
static void load_settings(struct ui *ui)
{
    snprintf(ui->learner, sizeof ui->learner, "%s", ui->opt.learner);
    ui->opt.learner = ui->learner;
    tutor_settings_load(ui->opt.store, &ui->settings);
}

/* 'q' while lessons load. Loading holds the thread (a lesson may run to its
 * deadline, 2 s), so a timer looks at the keyboard meanwhile and turns a
 * 'q' into the same wind-down as Ctrl-C (ui_term_quit_by_key), which the sandbox obeys at once. The
 * first look is 200 ms in: a normal start has loaded by then, and keys
 * typed early wait in the terminal for the app. Other keys the timer reads
 * are kept, bytes as they came, and handed to curses once loading ends, so
 * nothing typed is lost and an arrow (ESC [ A) arrives whole rather than as
 * "[A". At most typed_cap bytes are read: curses takes back no more than its
 * input queue holds, and a longer burst waits in the terminal. */
enum { typed_cap = 64 };
static unsigned char typed[typed_cap];
static volatile sig_atomic_t typed_len;

static void on_load_tick(int sig)
{
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    int saved = errno;
    (void)sig;
    while (typed_len < typed_cap && poll(&p, 1, 0) == 1) {
        ssize_t n = read(STDIN_FILENO, typed + typed_len, (size_t)(typed_cap - typed_len));
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; i++)
            if (typed[typed_len + i] == 'q' || typed[typed_len + i] == 'Q')
                ui_term_quit_by_key();
        typed_len += (sig_atomic_t)n;
    }
    errno = saved;
}

/* The bytes read while loading, back to curses as keys in the order typed.
 * Curses does not match what ungetch gives it against the terminal's key
 * sequences, so an escape sequence is matched here (key_defined: the key
 * curses knows by that string; the shortest that is one, as key_defined
 * also answers for a string that merely starts with a key's) and given back
 * as its key; other bytes go back as they came. ungetch puts a key in front
 * of the queue, so the last typed goes first. */
static void give_back_typed(void)
{
    int keys[typed_cap];
    size_t n = 0, len = (size_t)typed_len;

    for (size_t i = 0; i < len;) {
        size_t used = 1;
        int key = typed[i];
        for (size_t end = i + 2; typed[i] == 27 && end <= len; end++) {
            char seq[typed_cap + 1];
            int k;
            memcpy(seq, typed + i, end - i);
            seq[end - i] = '\0';
            if ((k = key_defined(seq)) > 0) {
                key = k;
                used = end - i;
                break;
            }
        }
        keys[n++] = key;
        i += used;
    }
    while (n > 0)
        ungetch(keys[--n]);
    typed_len = 0;
}

static void watch_keys_while_loading(bool on)
{
    static struct sigaction old;
    struct itimerval it = {{0, 0}, {0, 0}};
    if (on) {
        struct sigaction sa = {.sa_handler = on_load_tick, .sa_flags = SA_RESTART};
        sigemptyset(&sa.sa_mask);
        typed_len = 0;
        sigaction(SIGALRM, &sa, &old);
        it.it_value.tv_usec = 200000;
        it.it_interval.tv_usec = 50000;
        setitimer(ITIMER_REAL, &it, NULL);
    } else {
        setitimer(ITIMER_REAL, &it, NULL);
        sigaction(SIGALRM, &old, NULL);
        give_back_typed();
    }
}

/* The course's loading, as tutor_course_open reports it: a progress line
 * while there are several files, and the first failure said. */
static void show_loading(void *ctx, size_t i, size_t n)
{
    (void)ctx;
    if (n > 1) {
        mvprintw(0, 1, "kvtutor · loading lessons: %zu of %zu", i + 1, n);
        clrtoeol();
        refresh();
    }
}

static void note_failure(void *ctx, size_t i, enum kvt_err e, const struct lx_report *rep)
{
    struct ui *ui = ctx;
    if (e != KVT_E_OK && !ui->message[0])
        ui_say(ui, UI_BAD, "%s: %s (kvtutor lint says more)", ui->opt.lesson_paths[i],
               rep->n ? rep->items[0].msg : "cannot be loaded");
}

void ui_app_init(struct ui *ui, const struct ui_options *o)
{
    *ui = (struct ui){.opt = *o};
    load_settings(ui);
}

int ui_app_open(struct ui *ui)
{
    const struct ui_options *o = &ui->opt;
    const struct tutor_course_open how = {.lx = &ui->opt.lx,
                                          .store = o->store,
                                          .learner_id = o->learner_id,
                                          .build = o->build,
                                          .shipped = o->shipped,
                                          .before = show_loading,
                                          .after = note_failure,
                                          .ctx = ui};
    struct tutor_course_result res;
    enum kvt_err e;

    /* Ctrl-C, SIGTERM or SIGHUP stop a lesson that is still running, at
     * load and on reload, instead of waiting out its deadline */
    ui->opt.lx.stop = ui_term_quit_flag();
    e = tutor_course_open(o->lesson_paths, o->n_lessons, &how, &ui->course, &res);
    if (e == KVT_E_NOMEM)
        return -1;
    ui->files_run = res.run;
    if (res.failed > 1)
        ui_say(ui, UI_BAD, "%zu lesson files could not be loaded; run kvtutor lint on them",
               res.failed);
    if (res.sync_stuck)
        ui_say(ui, UI_BAD, "the schedules of %s were not checked: %s", res.sync_stuck,
               res.err.detail);
    ui_push(ui, ui_map_new(ui));
    if (!tutor_progress_saved(o->store))
        ui_say(ui, UI_BAD, "%s is read-only: you can practise, but nothing will be saved",
               o->db_path ? o->db_path : "the progress database");
    if (o->open_lesson) {
        size_t idx;
        if (tutor_course_find(ui->course, o->open_lesson, &idx) && tutor_course_at(ui->course, idx))
            ui_push(ui, ui_reader_new(ui, idx));
        else if (tutor_course_find(ui->course, o->open_lesson, NULL))
            ui_say(ui, UI_BAD, "lesson \"%s\" cannot be loaded (kvtutor lint says why)",
                   o->open_lesson);
        else
            ui_say(ui, UI_BAD, "no lesson \"%s\"", o->open_lesson);
    }
    return 0;
}

void ui_app_close(struct ui *ui)
{
    while (ui->depth > 0)
        ui_pop(ui);
    tutor_course_close(ui->course);
    ui->course = NULL;
}

/* Another kvtutor holds the database while a write waits for it: said on
 * the message row at once, over the last frame drawn (the screen is
 * halfway through its step, so it is not drawn again), the cursor put back
 * where the frame left it; the next frame draws the screen's own message
 * over it. A terminal below the minimum size shows only its own notice. */
void ui_app_say_waiting(void)
{
    int y, x;
    if (COLS < UI_MIN_COLS || LINES < UI_MIN_LINES)
        return;
    getyx(stdscr, y, x);
    mvhline(LINES - 2, 0, ' ', COLS);
    ui_put(LINES - 2, 1, COLS - 2, tutor_db_wait_text(), A_BOLD);
    move(y, x);
    refresh();
}

static void say_waiting(void *ctx)
{
    (void)ctx;
    ui_app_say_waiting();
}

int ui_run(const struct ui_options *o)
{
    struct ui ui;
    uint64_t started = o->started_us ? o->started_us : now_us();
    char why[256];
    int rc;

    ui_app_init(&ui, o);
    if (ui_term_start(why, sizeof why) != 0) {
        fprintf(stderr, "kvtutor: %s\n", why);
        return 2;
    }
    tutor_db_on_wait(o->store, say_waiting, NULL);
    watch_keys_while_loading(true);
    rc = ui_app_open(&ui);
    watch_keys_while_loading(false);
    if (rc != 0) {
        tutor_db_on_wait(o->store, NULL, NULL);
        ui_term_stop();
        fprintf(stderr, "kvtutor: out of memory\n");
        return 2;
    }
    loop(&ui, started);
    ui_app_close(&ui);
    tutor_db_on_wait(o->store, NULL, NULL);
    ui_term_stop();
    return 0;
}
