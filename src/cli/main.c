/* kvtutor: entry point. Picks the subcommand; everything else lives in the
 * command's own file. */
#define _POSIX_C_SOURCE 200809L
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_paths.h"
#include "sys.h"

#ifndef KVT_VERSION
#define KVT_VERSION "0.0.0"
#endif

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"calc", cli_calc, "KV cache, capacity and decode ceiling of a model on a GPU"},
    {"sim", cli_sim, "a vLLM serving benchmark simulated: TTFT, TPOT, throughput, limits"},
    {"explain-log", cli_explain_log, "explain a vLLM start-up log's KV cache lines, recomputed"},
    {"models", cli_models, "the model presets calc knows"},
    {"gpus", cli_gpus, "the GPU presets calc knows"},
    {"ask", cli_ask, "grade one answer to one exercise, as the app would"},
    {"probe", cli_probe, "measure this machine's memory bandwidth and your decode ceiling"},
    {"lint", cli_lint, "check lesson files: fields, values, units, links (for instructors)"},
    {"stats", cli_stats, "your progress: accuracy, what is due, streak, frequent mistakes"},
    {"config", cli_config, "settings: learner, retention, new a day, interview limits"},
    {"reset", cli_reset, "start one lesson over (asks first)"},
    {"export", cli_export, "every attempt and schedule, as JSON or CSV"},
    {"import", cli_import, "merge a JSON export from another machine"},
    {"fsrs", cli_fsrs, "fsrs replay: run review histories through the scheduler"},
};

static const struct cli_glyphs utf8 = {"×", "÷", "−", "→", "≈", "✗", "✓", "±"};
static const struct cli_glyphs ascii = {"x", "/", "-", "->", "~", "x", "ok", "+-"};
static const struct cli_glyphs *glyphs = &ascii;

const struct cli_glyphs *cli_glyphs(void)
{
    return glyphs;
}

static void usage(FILE *out)
{
    fputs("usage: kvtutor [--db FILE] [--lessons PATH] [--learner NAME] [open LESSON_ID]\n"
          "       kvtutor COMMAND [ARGS]\n\n"
          "kvtutor teaches how LLM serving uses GPU memory, with numbers you can check.\n"
          "Without a command it opens the tutor in the terminal.\n\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fputs("\nProgress is kept in $XDG_DATA_HOME/kvtutor/progress.db (else\n"
          "~/.local/share/kvtutor/progress.db); --db FILE chooses another.\n",
          out);
    fputs("\n  kvtutor COMMAND --help   the command's flags\n"
          "  kvtutor --version        version and optional parts\n",
          out);
}

static void version(void)
{
    char data[4096], cpu[4096];

    printf("kvtutor %s\n", KVT_VERSION);
#ifdef KVT_CUDA_COMPILER
    printf("CUDA compiler: found at build time (%s); GPU probes: kvtutor-probe-cuda\n",
           KVT_CUDA_COMPILER);
#else
    puts("CUDA compiler: not found at build time; GPU probes: not built");
#endif
    if (cli_data_dir(data, sizeof data) == 0)
        printf("data: %s\n", data);
    if (cli_helper_program("kvtutor-probe-cpu", cpu, sizeof cpu) == 0)
        printf("CPU probe: %s%s\n", cpu, access(cpu, X_OK) == 0 ? "" : " (not found)");
}

/* Global flags may come before the command's name ("kvtutor --db F stats"):
 * they are handed to the command first, ahead of its own arguments, so one
 * parser (cli_args.h) reads them in either place. argv[1..argc) is reordered
 * in place: the command's name, then the globals, then the rest (unless what
 * follows them is one of the app's own flags: then as it is). Returns how
 * many arguments the leading globals took. */
static int globals_first(int argc, char **argv)
{
    int i = 1, takes;

    while (i < argc && cli_is_global(argc, argv, i, &takes))
        i += takes;
    /* a flag of the app's own after them (--keys, --size): nothing to move,
     * or the globals would be read as its value */
    if (i > 1 && i < argc && strncmp(argv[i], "--keys", 6) != 0 &&
        strncmp(argv[i], "--size", 6) != 0) {
        char *name = argv[i];
        memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof *argv);
        argv[1] = name;
    }
    return i - 1;
}

int main(int argc, char **argv)
{
    int nglobal;

    sys_set_argv0(argv[0]); /* where the system cannot name the program (sys.h) */
    /* Only the character type comes from the environment: numbers are read
     * and printed the same way under every locale. */
    setlocale(LC_CTYPE, "");
    if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
        glyphs = &utf8;

    nglobal = globals_first(argc, argv);
    /* the version, whatever global flags come before it */
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        version();
        return 0;
    }
    /* no command, "open", or global flags and then the app's own (--help): the app */
    if (nglobal == argc - 1 || strcmp(argv[1], "open") == 0 || (nglobal > 0 && argv[1][0] == '-'))
        return cli_app(argc - 1, argv + 1);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        version();
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr, "kvtutor: %s: unknown command (see kvtutor --help)\n", argv[1]);
    return 2;
}
