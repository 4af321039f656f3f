/* `kvtutor fsrs replay`: runs review histories through the scheduler, in the
 * reference vectors' own format, so anyone can diff kvtutor against ts-fsrs. */
#include "cli.h"
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsrs.h"

#define LINE_MAX_BYTES 4096

static const char header[] = "case\tstep\telapsed_days\trating\tstability\tdifficulty\t"
                             "scheduled_days\tretrievability_before";

static int replay_usage(FILE *out)
{
    fputs("usage: kvtutor fsrs replay < reviews.tsv\n\n"
          "Reads tab-separated rows \"case, step, elapsed_days, rating\" (a header line first;\n"
          "further columns are ignored) and prints each with the FSRS-6 state after it:\n"
          "stability and difficulty (six decimals), the days scheduled, and the\n"
          "retrievability before the review (empty on a card's first). Ratings: 1 Again,\n"
          "2 Hard, 3 Good, 4 Easy. A new case starts a new card. Default FSRS-6 weights,\n"
          "desired retention 0.9, long-term mode.\n",
          out);
    return out == stdout ? 0 : 2;
}

static int bad_row(size_t line, const char *what)
{
    fprintf(stderr, "kvtutor fsrs replay: stdin:%zu: %s\n", line, what);
    return 2;
}

/* Cuts the first four tab-separated fields out of `s` in place. */
static bool split4(char *s, char *f[4])
{
    for (int i = 0; i < 4; i++) {
        f[i] = s;
        s += strcspn(s, "\t");
        if (i < 3 && *s != '\t')
            return false;
        if (*s)
            *s++ = '\0';
    }
    return true;
}

static int replay(void)
{
    char buf[LINE_MAX_BYTES], prev_case[LINE_MAX_BYTES] = "";
    struct fsrs_params p;
    struct fsrs_card card = {0};
    size_t line = 0;
    bool seen_header = false;

    fsrs_default_params(&p);
    while (fgets(buf, sizeof buf, stdin)) {
        size_t n = strlen(buf);
        char *f[4];
        uint64_t rating, days;
        struct fsrs_review rev;
        const char *why;

        line++;
        if (n == sizeof buf - 1 && buf[n - 1] != '\n')
            return bad_row(line, "line too long");
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
            buf[--n] = '\0';
        if (n == 0 || buf[0] == '#')
            continue;
        if (!split4(buf, f))
            return bad_row(line, "needs four tab-separated fields: case, step, elapsed_days, "
                                 "rating");
        if (!seen_header) {
            if (strcmp(f[0], "case") != 0 || strcmp(f[1], "step") != 0 ||
                strcmp(f[2], "elapsed_days") != 0 || strcmp(f[3], "rating") != 0)
                return bad_row(line, "the header must be: case, step, elapsed_days, rating");
            puts(header);
            seen_header = true;
            continue;
        }
        if ((why = cli_parse_uint(f[2], 36500000, true, &days)) != NULL) {
            char msg[96];
            snprintf(msg, sizeof msg, "elapsed_days \"%.20s\" %s", f[2], why);
            return bad_row(line, msg);
        }
        if (cli_parse_uint(f[3], 4, false, &rating) != NULL)
            return bad_row(line, "rating must be 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy)");
        if (strcmp(f[0], prev_case) != 0) {
            card = (struct fsrs_card){0};
            snprintf(prev_case, sizeof prev_case, "%s", f[0]);
        }
        if (fsrs_apply(&p, &card, (double)days, (enum fsrs_rating)rating, &rev) != KVT_E_OK)
            return bad_row(line, "the review cannot be applied");
        printf("%s\t%s\t%s\t%s\t%.6f\t%.6f\t%u\t", f[0], f[1], f[2], f[3], card.stability,
               card.difficulty, rev.interval);
        if (!rev.first)
            printf("%.6f", rev.retrievability);
        putchar('\n');
    }
    if (ferror(stdin))
        return bad_row(line, "read error");
    if (!seen_header)
        return bad_row(line, "no header line");
    return fflush(stdout) == 0 ? 0 : 1;
}

int cli_fsrs(int argc, char **argv)
{
    static const struct cli_spec spec = {.cmd = "fsrs", .max_pos = 1};
    struct cli_args a;
    int rc = cli_parse(&spec, argc, argv, &a);

    if (rc != 0)
        return rc;
    if (a.help)
        return replay_usage(stdout);
    if (a.npos < 1 || strcmp(a.pos[0], "replay") != 0)
        return cli_usage_error("fsrs", "%s: unknown subcommand (kvtutor fsrs replay)",
                               a.npos ? a.pos[0] : "(none)");
    return replay();
}
