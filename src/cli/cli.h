/* cli.h: the non-interactive subcommands. Each takes the arguments after its
 * own name and returns the process exit status: 0 ok, 1 a check failed,
 * 2 a usage error (message already on stderr, one line). */
#ifndef CLI_H
#define CLI_H

int cli_calc(int argc, char **argv);
int cli_sim(int argc, char **argv);
int cli_explain_log(int argc, char **argv);
int cli_models(int argc, char **argv);
int cli_gpus(int argc, char **argv);
int cli_fsrs(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_config(int argc, char **argv);
int cli_reset(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_import(int argc, char **argv);
int cli_lint(int argc, char **argv);
/* lint --answers FILE.tsv: cli_lint_answers.c */
int cli_lint_answers(int argc, char **argv);
int cli_ask(int argc, char **argv);
int cli_probe(int argc, char **argv);
int cli_app(int argc, char **argv); /* the terminal app */

/* Glyphs for arithmetic: Unicode when the terminal's charset is UTF-8
 * (LC_CTYPE), ASCII otherwise. */
struct cli_glyphs {
    const char *times, *divide, *minus, *arrow, *approx, *cross, *check, *plusminus;
};
const struct cli_glyphs *cli_glyphs(void);

#endif
