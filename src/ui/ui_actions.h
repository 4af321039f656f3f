/* ui_actions.h: every user action, listed once with its keys, the screens
 * it works on and its help text. Key handling, the status line and the help
 * screen are all generated from this list. */
#ifndef UI_ACTIONS_H
#define UI_ACTIONS_H

#include <stddef.h>

/* Where an action works: one bit per screen, and EDIT while a line is typed. */
enum {
    UC_MAP = 1,
    UC_READ = 2,
    UC_RESULT = 4, /* a quiz item, graded */
    UC_EDIT = 8,   /* typing an answer or a search */
    UC_HELP = 16,
    UC_CALC = 32,               /* the calculator playground */
    UC_PAGE = 64,               /* the progress and settings screens */
    UC_PROBE = 128,             /* the bandwidth probe */
    UC_SETTINGS = 256,          /* the settings screen (with UC_PAGE): Enter changes a setting */
    UC_HINTS = 512,             /* typing an answer that has a hint left: Tab shows it */
    UC_RESULT_HINTS = 1024,     /* a graded item that has a hint left: h shows it */
    UC_RESULT_FOLLOWUPS = 2048, /* a graded exercise with its lesson's follow-ups ahead */
    UC_HISTORY = 4096,          /* typing a line that keeps a history (with UC_EDIT) */
    UC_SEARCH = 8192,           /* typing a search on the course map (with UC_EDIT) */
    UC_ANSWER = 16384,          /* typing an answer in a quiz (with UC_EDIT) */
    UC_RESULT_RATED = 32768,    /* a graded item that asks for a rating: 1-4 choose it */
    UC_RESULT_UNSAVED = 65536,  /* a graded answer a database error left unsaved: s retries */
    UC_MAP_LESSON = 131072,     /* the course map with a lesson selected (a search may find none) */
    UC_SERVE = 262144,          /* the playground's serving view */
    UC_RESULT_SERVING = 524288, /* a graded exercise whose figures come from a serving setup */
    UC_SKIP = 1048576,          /* typing an answer in practice: Ctrl-N leaves it for later */
    UC_PATH = 2097152,          /* typing a file's path: Tab completes it */
    UC_STILL = 4194304, /* a page that fits the screen: help leaves out the keys that move */
    UC_VIEW = UC_MAP | UC_READ | UC_RESULT | UC_HELP | UC_CALC | UC_PAGE | UC_PROBE | UC_SERVE,
    UC_KNOBS = UC_CALC | UC_SERVE, /* the playground's deployment, in both of its views */
};

/* name, contexts, up to three keys (0 = none), key label, help. Where two
 * rows take a key in one context, the first has it (a search's Esc before
 * every line's), and only it is listed. A pair of
 * directions (next and previous, up and down) is two actions, the second
 * documented by the first's label and help; a handler never asks which key. */
#define UI_ACTIONS(X)                                                                              \
    X(HELP, UC_VIEW & ~UC_HELP, '?', KEY_F(1), 0, "?", "help: every key that works here")          \
    X(HELP_EDIT, UC_EDIT, KEY_F(1), 0, 0, "F1", "help")                                            \
    X(BACK, UC_VIEW, 'q', 0, 0, "q", "back one screen (on the course map: quit)")                  \
    X(LEFT, UC_VIEW, KEY_LEFT, 0, 0, "Left", "back one screen, never a quit")                      \
    X(ESCAPE, UC_VIEW, 27, 0, 0, "Esc", "back one screen; on the course map it clears a search")   \
    X(QUIT, UC_VIEW, 'Q', 0, 0, "Q", "quit kvtutor from any screen")                               \
    X(DOWN, UC_MAP | UC_READ | UC_HELP | UC_RESULT | UC_PAGE | UC_KNOBS, 'j', KEY_DOWN, 0, "j/k",  \
      "move down / up (or the arrows)")                                                            \
    X(UP, UC_MAP | UC_READ | UC_HELP | UC_RESULT | UC_PAGE | UC_KNOBS, 'k', KEY_UP, 0, NULL, "up") \
    X(PAGE_DOWN, UC_MAP | UC_READ | UC_RESULT | UC_PAGE | UC_HELP | UC_SERVE, ' ', KEY_NPAGE, 0,   \
      "Space/b", "page down / up (or PgDn/PgUp)")                                                  \
    X(PAGE_UP, UC_MAP | UC_READ | UC_RESULT | UC_PAGE | UC_HELP | UC_SERVE, 'b', KEY_PPAGE, 0,     \
      NULL, "page up")                                                                             \
    X(TOP, UC_MAP | UC_READ | UC_PAGE | UC_HELP, 'g', KEY_HOME, 0, "g/G",                          \
      "top / bottom (or Home/End)")                                                                \
    X(BOTTOM, UC_MAP | UC_READ | UC_PAGE | UC_HELP, 'G', KEY_END, 0, NULL, "to the bottom")        \
    X(OPEN, UC_MAP_LESSON, '\r', KEY_ENTER, 'l', "Enter/l", "open the selected lesson")            \
    X(CHANGE, UC_SETTINGS, '\r', KEY_ENTER, 0, "Enter", "change the selected setting")             \
    X(NEXT, UC_RESULT, 'n', '\r', KEY_ENTER, "Enter/n", "next: save the rating and go on")         \
    X(RETRY, UC_RESULT, 'a', 0, 0, "a", "again: answer this one once more")                        \
    X(HINT, UC_RESULT_HINTS, 'h', 0, 0, "h", "hint: show the next one")                            \
    X(SERVING_VIEW, UC_RESULT_SERVING, 'v', 0, 0, "v",                                             \
      "serving view: the exercise's setup in the playground, its knee and figures")                \
    X(RATE_AGAIN, UC_RESULT_RATED, '1', 0, 0, "1-4", "rate: 1 again, 2 hard, 3 good, 4 easy")      \
    X(RATE_HARD, UC_RESULT_RATED, '2', 0, 0, NULL, NULL)                                           \
    X(RATE_GOOD, UC_RESULT_RATED, '3', 0, 0, NULL, NULL)                                           \
    X(RATE_EASY, UC_RESULT_RATED, '4', 0, 0, NULL, NULL)                                           \
    X(SAVE_AGAIN, UC_RESULT_UNSAVED, 's', 0, 0, "s", "save: try the unsaved answer again")         \
    X(PRACTISE, UC_MAP_LESSON | UC_READ, 'e', 0, 0, "e", "exercises: practise the lesson")         \
    X(REVIEW, UC_MAP, 'r', 0, 0, "r", "review: today's due exercises, then new ones")              \
    X(SEARCH, UC_MAP, '/', 0, 0, "/", "search lessons: their text, follow-ups and exercises")      \
    X(PROGRESS, UC_MAP, 'p', 0, 0, "p", "progress: answers, accuracy, activity, mistakes")         \
    X(FOLLOWUPS, UC_MAP_LESSON | UC_READ | UC_RESULT_FOLLOWUPS, 'f', 0, 0, "f",                    \
      "follow-ups: the interviewer's questions")                                                   \
    X(CRAM, UC_MAP, 'c', 0, 0, "c", "cram: go over everything seen, schedule untouched")           \
    X(INTERVIEW, UC_MAP_LESSON | UC_READ, 'i', 0, 0, "i", "interview: a timed mock interview")     \
    X(PLAYGROUND, UC_MAP, '=', 0, 0, "=", "calculator: the KV playground")                         \
    X(SETTINGS, UC_MAP, 'S', 0, 0, "S", "settings: retention, new exercises a day, learner")       \
    X(PROBE, UC_MAP, 'P', 0, 0, "P", "probe: measure this machine's memory bandwidth")             \
    X(PROBE_MODEL_NEXT, UC_PROBE, 'm', 0, 0, "m/M", "model: next or previous preset")              \
    X(PROBE_MODEL_PREV, UC_PROBE, 'M', 0, 0, NULL, NULL)                                           \
    X(PROBE_SEQ_UP, UC_PROBE, 'c', 0, 0, "c/C", "sequence length x2 or /2")                        \
    X(PROBE_SEQ_DOWN, UC_PROBE, 'C', 0, 0, NULL, NULL)                                             \
    X(PROBE_AGAIN, UC_PROBE, 'r', 0, 0, "r", "run the probe again")                                \
    X(CALC_SERVE, UC_KNOBS, 's', 0, 0, "s",                                                        \
      "serving: vLLM under load, simulated (TTFT, TPOT, the knee); s again leaves")                \
    X(SIM_RATE_UP, UC_SERVE, 'r', 0, 0, "r/R",                                                     \
      "rate: requests/s, the next rung up or down (top: inf)")                                     \
    X(SIM_RATE_DOWN, UC_SERVE, 'R', 0, 0, NULL, NULL)                                              \
    X(SIM_CONCURRENCY_UP, UC_SERVE, 'n', 0, 0, "n/N",                                              \
      "concurrency: the client's limit x2 or /2 (past 1,024: none)")                               \
    X(SIM_CONCURRENCY_DOWN, UC_SERVE, 'N', 0, 0, NULL, NULL)                                       \
    X(SIM_INPUT_UP, UC_SERVE, 'i', 0, 0, "i/I", "input: prompt length x2 or /2")                   \
    X(SIM_INPUT_DOWN, UC_SERVE, 'I', 0, 0, NULL, NULL)                                             \
    X(SIM_OUTPUT_UP, UC_SERVE, 'o', 0, 0, "o/O", "output: tokens generated x2 or /2")              \
    X(SIM_OUTPUT_DOWN, UC_SERVE, 'O', 0, 0, NULL, NULL)                                            \
    X(SIM_FP8, UC_SERVE, 'f', 0, 0, "f", "fp8: the KV cache in fp8, or back to the model's dtype") \
    X(CALC_MODEL_NEXT, UC_KNOBS, 'm', 0, 0, "m/M", "model: next or previous preset")               \
    X(CALC_MODEL_PREV, UC_KNOBS, 'M', 0, 0, NULL, NULL)                                            \
    X(CALC_GPU_NEXT, UC_KNOBS, 'g', 0, 0, "g/G", "GPU: next or previous preset")                   \
    X(CALC_GPU_PREV, UC_KNOBS, 'G', 0, 0, NULL, NULL)                                              \
    X(CALC_CONTEXT_UP, UC_KNOBS, 'c', 0, 0, "c/C", "context length x2 or /2")                      \
    X(CALC_CONTEXT_DOWN, UC_KNOBS, 'C', 0, 0, NULL, NULL)                                          \
    X(CALC_BATCH_UP, UC_CALC, 'b', 0, 0, "b/B", "batch x2 or /2")                                  \
    X(CALC_BATCH_DOWN, UC_CALC, 'B', 0, 0, NULL, NULL)                                             \
    X(CALC_KV, UC_KNOBS, 'v', 0, 0, "v", "KV dtype: the next one")                                 \
    X(CALC_WEIGHTS, UC_KNOBS, 'w', 0, 0, "w", "weights dtype: the next one")                       \
    X(CALC_UTIL_UP, UC_KNOBS, 'u', 0, 0, "u/U", "util: gpu_memory_utilization +0.05 or -0.05")     \
    X(CALC_UTIL_DOWN, UC_KNOBS, 'U', 0, 0, NULL, NULL)                                             \
    X(CALC_TP_UP, UC_KNOBS, 't', 0, 0, "t/T", "TP: tensor parallel x2 or /2")                      \
    X(CALC_TP_DOWN, UC_KNOBS, 'T', 0, 0, NULL, NULL)                                               \
    X(CALC_SHOW, UC_CALC, 'a', 0, 0, "a", "arithmetic: show or hide it")                           \
    X(CALC_CONFIG, UC_CALC, 'o', 0, 0, "o", "config.json: open one for the model")                 \
    X(CALC_LOG, UC_CALC, 'l', 0, 0, "l",                                                           \
      "log: open a vLLM start-up log, its KV cache lines explained")                               \
    X(CALC_PAGE_DOWN, UC_CALC, ' ', KEY_NPAGE, 0, "Space/PgUp",                                    \
      "page an explained log down / up (PgDn pages down too)")                                     \
    X(CALC_PAGE_UP, UC_CALC, KEY_PPAGE, 0, 0, NULL, NULL)                                          \
    X(CALC_TOP, UC_CALC, KEY_HOME, 0, 0, "Home/End", "an explained log's top / end")               \
    X(CALC_BOTTOM, UC_CALC, KEY_END, 0, 0, NULL, NULL)                                             \
    X(NEXT_LINK, UC_READ, '\t', 0, 0, "Tab", "link: select the next linked lesson")                \
    X(FOLLOW_LINK, UC_READ, '\r', KEY_ENTER, 'l', "Enter/l", "follow: open the selected link")     \
    X(RELOAD, UC_READ, 'R', 0, 0, "R", "reload the lesson from disk (for its author)")             \
    X(KEEP_SEARCH, UC_SEARCH, '\r', KEY_ENTER, 0, "Enter",                                         \
      "done: keep the lessons found (Enter again opens one where found)")                          \
    X(CLEAR_SEARCH, UC_SEARCH, 27, 0, 0, "Esc", "clear: drop the search, every lesson again")      \
    X(SUBMIT, UC_EDIT, '\r', KEY_ENTER, 0, "Enter", "submit")                                      \
    X(LEAVE_ANSWER, UC_ANSWER, 27, 0, 0, "Esc",                                                    \
      "leave: back one screen (with an answer typed, Esc twice)")                                  \
    X(CANCEL, UC_EDIT, 27, 0, 0, "Esc", "stop typing")                                             \
    X(MATCH_NEXT, UC_SEARCH, KEY_DOWN, 0, 0, "Down/Up", "move through the lessons found")          \
    X(MATCH_PREV, UC_SEARCH, KEY_UP, 0, 0, NULL, "up")                                             \
    X(EDIT_HINT, UC_HINTS, '\t', 0, 0, "Tab", "hint")                                              \
    X(SKIP, UC_SKIP, 14, 0, 0, "C-n", "skip: on to the next, this one left unanswered")            \
    X(COMPLETE_PATH, UC_PATH, '\t', 0, 0, "Tab", "complete the path, as a shell does")

enum ui_action {
    UI_NONE = 0,
#define UI_ACTION_ENUM(name, ctx, k1, k2, k3, label, help) UI_##name,
    UI_ACTIONS(UI_ACTION_ENUM)
#undef UI_ACTION_ENUM
        UI__COUNT
};

/* The action a key means in this context, or UI_NONE. */
enum ui_action ui_action_for(int key, unsigned context);

/* "? help  Enter open ..." for the status line, from the table: the
 * screen's own keys (moving, back and quit are in help), in the table's
 * order (what matters most first) as far as fit in `width` columns. */
void ui_action_keys(unsigned context, int width, char *buf, size_t cap);

/* For the help screen: the i-th documented action of a context. Returns
 * false past the last; *label and *help point into the table. */
bool ui_action_doc(unsigned context, size_t i, const char **label, const char **help);

#endif
