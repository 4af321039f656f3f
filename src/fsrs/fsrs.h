/* fsrs.h: the FSRS-6 review scheduler, long-term mode.
 *
 * Matches ts-fsrs 5.4.2 with enable_fuzz = false and enable_short_term =
 * false: no same-day learning steps, every review (the first included) gives
 * a whole number of days until the next one. Time enters only as elapsed
 * whole days; callers count them (UTC day numbers) and store the due date.
 *
 * The model: retrievability R(t, S) = (1 + F t / S)^(-w20) with
 * F = 0.9^(-1/w20) - 1, so R(S, S) = 0.9; difficulty D in [1, 10];
 * stability S in days, in [0.001, 36500]. */
#ifndef FSRS_H
#define FSRS_H

#include <stdbool.h>
#include <stdint.h>

#include "kvt_error.h"

#define FSRS_WEIGHTS 21

enum fsrs_rating { FSRS_AGAIN = 1, FSRS_HARD = 2, FSRS_GOOD = 3, FSRS_EASY = 4 };

struct fsrs_params {
    double w[FSRS_WEIGHTS];
    double desired_retention; /* (0, 1): 0.9 by default */
    uint32_t max_interval;    /* days: 36500 by default (see fsrs_apply) */
};

/* A card's memory. A card with reps == 0 has never been reviewed. */
struct fsrs_card {
    double stability, difficulty;
    uint32_t reps, lapses;
};

struct fsrs_review {
    uint32_t interval;     /* days until the next review */
    double retrievability; /* before this review; meaningless on the first */
    bool first;            /* this was the card's first review */
};

/* FSRS-6's 21 published default weights, retention 0.9, 36500 days. */
void fsrs_default_params(struct fsrs_params *p);

/* Checks weights and retention are usable (finite, retention in (0,1),
 * max_interval >= 1). Returns KVT_E_OK or KVT_E_RANGE. */
enum kvt_err fsrs_check_params(const struct fsrs_params *p);

/* Applies one review `elapsed_days` after the last one (ignored on the first
 * review). out->interval is each grade's interval capped at max_interval,
 * then Hard, Good and Easy kept a day apart as ts-fsrs 5.4.2 does: so up to
 * max_interval + 3 (+ 2 with the default weights). Returns KVT_E_RANGE for a rating outside 1..4 or
 * negative or non-finite days, and leaves the card untouched then. */
enum kvt_err fsrs_apply(const struct fsrs_params *p, struct fsrs_card *card, double elapsed_days,
                        enum fsrs_rating rating, struct fsrs_review *out);

/* Probability of recall after `elapsed_days` at stability `s` (1 when s <= 0). */
double fsrs_retrievability(const struct fsrs_params *p, double s, double elapsed_days);

#endif
