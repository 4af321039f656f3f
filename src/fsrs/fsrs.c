#include "fsrs.h"

#include <math.h>

#define S_MIN 0.001
#define S_MAX 36500.0

/* FSRS-6 defaults, as ts-fsrs 5.4.2 ships them. */
static const double default_w[FSRS_WEIGHTS] = {
    0.212,  1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001,  1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
};

void fsrs_default_params(struct fsrs_params *p)
{
    for (int i = 0; i < FSRS_WEIGHTS; i++)
        p->w[i] = default_w[i];
    p->desired_retention = 0.9;
    p->max_interval = 36500;
}

enum kvt_err fsrs_check_params(const struct fsrs_params *p)
{
    for (int i = 0; i < FSRS_WEIGHTS; i++)
        if (!isfinite(p->w[i]))
            return KVT_E_RANGE;
    if (!(p->w[20] > 0) || !(p->desired_retention > 0 && p->desired_retention < 1) ||
        p->max_interval < 1)
        return KVT_E_RANGE;
    return KVT_E_OK;
}

/* ts-fsrs rounds most intermediate figures to 8 decimals (toFixed(8));
 * doing the same keeps interval rounding on the same side of .5. */
static double round8(double x)
{
    return round(x * 1e8) / 1e8;
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static double factor(const struct fsrs_params *p)
{
    return round8(exp(log(0.9) / -p->w[20]) - 1.0);
}

double fsrs_retrievability(const struct fsrs_params *p, double s, double t)
{
    if (s <= 0)
        return 1.0;
    return round8(pow(1.0 + factor(p) * t / s, -p->w[20]));
}

static double init_stability(const struct fsrs_params *p, int g)
{
    return fmax(p->w[g - 1], 0.1);
}

/* Unclamped: the mean-reversion target uses Easy's raw value, below 1. */
static double init_difficulty(const struct fsrs_params *p, int g)
{
    return round8(p->w[4] - exp((g - 1) * p->w[5]) + 1.0);
}

static double next_difficulty(const struct fsrs_params *p, double d, int g)
{
    double delta = -p->w[6] * (g - 3);
    double damped = round8(delta * (10.0 - d) / 9.0); /* smaller steps near 10 */
    double next = d + damped;
    double target = init_difficulty(p, FSRS_EASY);
    return clamp(round8(p->w[7] * target + (1.0 - p->w[7]) * next), 1.0, 10.0);
}

static double recall_stability(const struct fsrs_params *p, double d, double s, double r, int g)
{
    double hard = g == FSRS_HARD ? p->w[15] : 1.0, easy = g == FSRS_EASY ? p->w[16] : 1.0;
    double grow = exp(p->w[8]) * (11.0 - d) * pow(s, -p->w[9]) * (exp((1.0 - r) * p->w[10]) - 1.0);
    return round8(clamp(s * (1.0 + grow * hard * easy), S_MIN, S_MAX));
}

static double forget_stability(const struct fsrs_params *p, double d, double s, double r)
{
    double f =
        p->w[11] * pow(d, -p->w[12]) * (pow(s + 1.0, p->w[13]) - 1.0) * exp((1.0 - r) * p->w[14]);
    /* long-term mode: a lapse never raises stability (the short-term bound
     * s / exp(w17 w18) collapses to s) */
    return clamp(s, S_MIN, round8(f));
}

static uint32_t interval(const struct fsrs_params *p, double s)
{
    double retention = p->desired_retention, decay = -p->w[20];
    double modifier = round8((pow(retention, 1.0 / decay) - 1.0) / factor(p));
    double days = floor(s * modifier + 0.5); /* JavaScript's Math.round */
    if (days < 1)
        days = 1;
    if (days > p->max_interval)
        days = p->max_interval;
    return (uint32_t)days;
}

/* The four outcomes are computed together and their intervals kept in
 * order (Again <= Hard < Good < Easy), as ts-fsrs does, after each is
 * capped: so an interval can exceed max_interval by up to 2 days. */
enum kvt_err fsrs_apply(const struct fsrs_params *p, struct fsrs_card *card, double elapsed_days,
                        enum fsrs_rating rating, struct fsrs_review *out)
{
    double s[5], d[5], r = 1.0;
    uint32_t ivl[5];
    bool first = card->reps == 0;

    if (rating < FSRS_AGAIN || rating > FSRS_EASY)
        return KVT_E_RANGE;
    if (!first && !(isfinite(elapsed_days) && elapsed_days >= 0))
        return KVT_E_RANGE;
    if (!first && !(card->stability > 0 && card->difficulty >= 1 && card->difficulty <= 10))
        return KVT_E_RANGE;

    if (first) {
        for (int g = FSRS_AGAIN; g <= FSRS_EASY; g++) {
            s[g] = init_stability(p, g);
            d[g] = clamp(init_difficulty(p, g), 1.0, 10.0);
        }
    } else {
        r = fsrs_retrievability(p, card->stability, elapsed_days);
        for (int g = FSRS_AGAIN; g <= FSRS_EASY; g++) {
            d[g] = next_difficulty(p, card->difficulty, g);
            s[g] = g == FSRS_AGAIN ? forget_stability(p, card->difficulty, card->stability, r)
                                   : recall_stability(p, card->difficulty, card->stability, r, g);
        }
    }
    for (int g = FSRS_AGAIN; g <= FSRS_EASY; g++)
        ivl[g] = interval(p, s[g]);
    if (ivl[FSRS_AGAIN] > ivl[FSRS_HARD])
        ivl[FSRS_AGAIN] = ivl[FSRS_HARD];
    if (ivl[FSRS_HARD] < ivl[FSRS_AGAIN] + 1)
        ivl[FSRS_HARD] = ivl[FSRS_AGAIN] + 1;
    if (ivl[FSRS_GOOD] < ivl[FSRS_HARD] + 1)
        ivl[FSRS_GOOD] = ivl[FSRS_HARD] + 1;
    if (ivl[FSRS_EASY] < ivl[FSRS_GOOD] + 1)
        ivl[FSRS_EASY] = ivl[FSRS_GOOD] + 1;

    card->stability = s[rating];
    card->difficulty = d[rating];
    card->reps++;
    if (rating == FSRS_AGAIN && !first)
        card->lapses++;
    /* no second cap: ts-fsrs keeps Hard < Good < Easy after capping each,
     * so at the cap Good and Easy come out max_interval + 1 and + 2 (the
     * reference vectors in tests/fixtures/ts-fsrs-5.4.2-cap.tsv) */
    out->interval = ivl[rating];
    out->retrievability = r;
    out->first = first;
    return KVT_E_OK;
}
