#include "kv_grade.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kv_units.h"
#include "kvt_format.h"

static const char *const mistake_ids[] = {
#define KV_MISTAKE_ID(name, id, text) id,
    KV_MISTAKES(KV_MISTAKE_ID)
#undef KV_MISTAKE_ID
};

static const char *const mistake_texts[] = {
#define KV_MISTAKE_TEXT(name, id, text) text,
    KV_MISTAKES(KV_MISTAKE_TEXT)
#undef KV_MISTAKE_TEXT
};

const char *kv_mistake_id(enum kv_mistake m)
{
    return (unsigned)m < KV_MISTAKE__COUNT ? mistake_ids[m] : "none";
}

const char *kv_mistake_text(enum kv_mistake m)
{
    return (unsigned)m < KV_MISTAKE__COUNT ? mistake_texts[m] : "";
}

static const enum kv_mistake slip_mistake[] = {
#define KV_SLIP_MISTAKE(name, key) KV_MISTAKE_##name,
    KV_SLIPS(KV_SLIP_MISTAKE)
#undef KV_SLIP_MISTAKE
};

static const char *const slip_keys[] = {
#define KV_SLIP_KEY(name, key) key,
    KV_SLIPS(KV_SLIP_KEY)
#undef KV_SLIP_KEY
};

int kv_slip_find(const char *key)
{
    for (int s = 0; key && s < KV_SLIP__COUNT; s++)
        if (strcmp(slip_keys[s], key) == 0)
            return s;
    return -1;
}

const char *kv_slip_key(enum kv_slip s)
{
    return (unsigned)s < KV_SLIP__COUNT ? slip_keys[s] : "";
}

struct candidate {
    enum kv_mistake m;
    double factor; /* answer = expected x factor under this mistake */
    int binary;    /* unit mistakes: -1 any unit, else the unit written must be binary (1) ... */
    int level;     /* ... or decimal (0), at this prefix (1 K, 2 M, 3 G); -1 any */
};

/* The prefix of a byte unit: 1 for K/Ki, 2 for M/Mi, 3 for G/Gi, 0 for
 * bytes; -1 for other units and for bits. */
static int prefix_level(const struct kv_unit *u)
{
    double s;
    int level = 0;
    if (!u || u->dim != KV_DIM_BYTES || strstr(u->name, "bit"))
        return -1;
    for (s = u->scale; s >= (u->binary ? 1024 : 1000) * 0.999; level++)
        s /= u->binary ? 1024 : 1000;
    return level;
}

#define GIB 1073741824.0

/* The products of the expected value under each mistake, most common first. */
static size_t candidates(const struct kv_numeric *ex, struct candidate *c)
{
    size_t n = 0;
    bool bytes = ex->unit && ex->unit->dim == KV_DIM_BYTES;
    const struct kv_diag_model *m = &ex->model;

    /* parts the lesson says a learner may leave out: the most specific, first */
    if (ex->if_no_kv != 0 && ex->expected != 0)
        c[n++] = (struct candidate){KV_MISTAKE_LEFT_OUT_KV, ex->if_no_kv / ex->expected, -1, -1};
    if (ex->if_no_overhead != 0 && ex->expected != 0)
        c[n++] = (struct candidate){KV_MISTAKE_LEFT_OUT_OVERHEAD, ex->if_no_overhead / ex->expected,
                                    -1, -1};
    for (int s = 0; s < KV_SLIP__COUNT; s++)
        if (ex->if_slip[s] != 0 && ex->expected != 0)
            c[n++] = (struct candidate){slip_mistake[s], ex->if_slip[s] / ex->expected, -1, -1};
    /* 0.478 for 47.8%: the fraction, not the percentage */
    if (ex->unit && strcmp(ex->unit->name, "%") == 0)
        c[n++] = (struct candidate){KV_MISTAKE_FRACTION_FOR_PERCENT, 0.01, -1, -1};

    if (ex->relation != KV_REL_NONE) {
        bool inv = ex->relation == KV_REL_INVERSE;
        uint32_t tp = m->tp > 1 ? m->tp : 1;
        /* Past TP = KV heads each GPU keeps one whole head; 8 heads over 16
         * GPUs taken as half a head halves the figure, as a missing x2 does,
         * so it is listed first and wins the tie (Llama-3.1-70B at TP 16:
         * 20 KiB, not 40). */
        if (m->known && m->kv_heads > 0 && tp > m->kv_heads) {
            double f = (double)m->kv_heads / tp;
            c[n++] = (struct candidate){KV_MISTAKE_SPLIT_KV_HEADS, inv ? 1 / f : f, -1, -1};
        }
        /* the whole model's cache for a per-GPU figure: KV heads over the
         * heads a GPU keeps (Llama-3.1-70B at TP 16: 8 / 1, 320 KiB for 40).
         * Listed before the x8 of bits, fp32's x2 and the query heads, which
         * it often equals, because it is the lesson's own misconception. */
        if (m->known && m->kv_heads > 0 && tp > 1) {
            double kept = m->kv_heads / tp >= 1 ? (double)(m->kv_heads / tp) : 1;
            double f = m->kv_heads / kept;
            if (f > 1)
                c[n++] = (struct candidate){KV_MISTAKE_NO_TP_SPLIT, inv ? 1 / f : f, -1, -1};
        }
        c[n++] = (struct candidate){KV_MISTAKE_NO_KV_PAIR, inv ? 2.0 : 0.5, -1, -1};
        if (m->known && m->kv_heads > 0 && m->heads > m->kv_heads) {
            /* per GPU: its share of the query heads over the KV heads it keeps */
            double kvh = m->kv_heads / tp >= 1 ? (double)(m->kv_heads / tp) : 1;
            double g = (double)m->heads / tp / kvh;
            if (g > 1)
                c[n++] = (struct candidate){KV_MISTAKE_QUERY_HEADS, inv ? 1 / g : g, -1, -1};
        }
        if (m->known && m->kv_bytes > 0) {
            static const double widths[] = {4, 2, 1};
            for (int i = 0; i < 3; i++) {
                double f = widths[i] / m->kv_bytes; /* /2 also reads as the K/V pair, found first */
                if (f != 1)
                    c[n++] = (struct candidate){KV_MISTAKE_DTYPE_WIDTH, inv ? 1 / f : f, -1, -1};
            }
        }
        if (m->known && m->layers > 1)
            c[n++] = (struct candidate){KV_MISTAKE_PER_LAYER,
                                        inv ? (double)m->layers : 1.0 / m->layers, -1, -1};
    }
    if (bytes) {
        /* a GB figure labelled GiB is 7.4% high, written in a binary unit, and so on */
        c[n++] = (struct candidate){KV_MISTAKE_GB_AS_GIB, GIB / 1e9, 1, 3};
        c[n++] = (struct candidate){KV_MISTAKE_GIB_AS_GB, 1e9 / GIB, 0, 3};
        c[n++] = (struct candidate){KV_MISTAKE_PREFIX_MIX, 1048576.0 / 1e6, 1, 2};
        c[n++] = (struct candidate){KV_MISTAKE_PREFIX_MIX, 1e6 / 1048576.0, 0, 2};
        c[n++] = (struct candidate){KV_MISTAKE_PREFIX_MIX_K, 1.024, 1, 1};
        c[n++] = (struct candidate){KV_MISTAKE_PREFIX_MIX_K, 1 / 1.024, 0, 1};
        c[n++] = (struct candidate){KV_MISTAKE_BITS, 8, -1, -1};
        c[n++] = (struct candidate){KV_MISTAKE_BYTES_AS_BITS, 1.0 / 8, -1, -1};
    }
    return n;
}

static bool within(double got, double want, double allowed)
{
    /* a hair of slack for values that went through a unit conversion */
    return fabs(got - want) <= allowed + 1e-12 * fabs(want);
}

double kv_grade_allowed(bool relative, double tolerance, double expected)
{
    return relative ? tolerance * fabs(expected) : tolerance;
}

void kv_grade_numeric(const struct kv_numeric *ex, const char *typed, struct kv_numeric_result *r)
{
    double scale_in, scale_ex = ex->unit ? ex->unit->scale : 1, rel;
    struct candidate c[32];
    size_t n;

    memset(r, 0, sizeof *r);
    r->mistake = KV_MISTAKE_NONE;
    r->parsed = NAN;
    r->allowed = kv_grade_allowed(ex->relative, ex->tolerance, ex->expected);
    if (kv_answer_parse(typed, &r->answer, r->why, sizeof r->why) != KVT_E_OK) {
        r->verdict = KV_INVALID;
        return;
    }
    if (r->answer.unit && ex->unit && r->answer.unit->dim != ex->unit->dim) {
        snprintf(r->why, sizeof r->why, "answer in %s: %s measures %s",
                 ex->unit->name[0] ? ex->unit->name : "a plain number",
                 r->answer.unit->name[0] ? r->answer.unit->name : "a plain number",
                 kv_dim_name(r->answer.unit->dim));
        r->verdict = KV_INVALID;
        return;
    }
    /* "1.73/s": a rate in the exercise's unit, when that is a rate */
    if (r->answer.per_second &&
        !(ex->unit && (ex->unit->dim == KV_DIM_THROUGHPUT || ex->unit->dim == KV_DIM_RATE))) {
        snprintf(r->why, sizeof r->why, "answer in %s: \"/s\" says a rate, not of what",
                 ex->unit && ex->unit->name[0] ? ex->unit->name : "a plain number");
        r->verdict = KV_INVALID;
        return;
    }
    /* "0.44 GiB/token" is not the size of a sequence */
    if (r->answer.per && ex->per && strcmp(r->answer.per, ex->per) != 0) {
        snprintf(r->why, sizeof r->why, "answer per %s: %s/%s is a size per %s", ex->per,
                 r->answer.unit->name, r->answer.per, r->answer.per);
        r->verdict = KV_INVALID;
        return;
    }
    /* "22 blocks" or "22 GPUs" is not a number of sequences */
    if (r->answer.unit && ex->unit && r->answer.unit->counts && ex->unit->counts &&
        strcmp(r->answer.unit->counts, ex->unit->counts) != 0) {
        snprintf(r->why, sizeof r->why, "answer in %s: %s counts %s", ex->unit->counts,
                 r->answer.unit->name, r->answer.unit->counts);
        r->verdict = KV_INVALID;
        return;
    }
    scale_in = r->answer.unit ? r->answer.unit->scale : scale_ex;
    r->parsed = r->answer.value * scale_in / scale_ex;
    if (!isfinite(r->parsed)) {
        snprintf(r->why, sizeof r->why, "the number is too large to be an answer");
        r->verdict = KV_INVALID;
        r->parsed = NAN;
        return;
    }
    if (within(r->parsed, ex->expected, r->allowed)) {
        r->verdict = KV_CORRECT;
        r->score = 1;
        return;
    }
    r->verdict = KV_WRONG;
    /* "7" for 7.46: within the rounding of the digits typed, no mistake is named */
    if (r->answer.ulp > 0 &&
        fabs(r->parsed - ex->expected) <= r->answer.ulp * scale_in / scale_ex / 2 * (1 + 1e-9))
        return;
    /* 22.7 or 23 sequences where 22 fit: the fraction kept, or rounded up */
    if (ex->unit &&
        ((ex->unit->counts && strcmp(ex->unit->counts, "sequences") == 0) ||
         (ex->unit->name[0] == '\0' && ex->relation == KV_REL_INVERSE)) &&
        ex->expected == floor(ex->expected) && r->parsed > ex->expected &&
        r->parsed <= ex->expected + 1) {
        r->mistake = KV_MISTAKE_NO_ROUND_DOWN;
        return;
    }
    /* 315 blocks where 314 fit in the budget: the last, partial block
     * counted. Only for blocks that fit (capacity): the blocks one request
     * holds are rounded up, rightly. */
    if (ex->unit && ex->unit->counts && strcmp(ex->unit->counts, "blocks") == 0 &&
        ex->relation == KV_REL_INVERSE && ex->expected == floor(ex->expected) &&
        r->parsed > ex->expected && r->parsed <= ex->expected + 1) {
        r->mistake = KV_MISTAKE_BLOCKS_ROUND_UP;
        return;
    }
    /* a mistake's product, within the exercise's own tolerance and never
     * tighter than 5%: answers built on a mistake are often rounded too
     * (22 whole sequences doubled is 44, the doubled arithmetic gives 45) */
    rel = ex->expected != 0 ? r->allowed / fabs(ex->expected) : 0;
    if (rel < 0.05)
        rel = 0.05;
    /* the closest product wins; on a tie, the more common mistake (listed first) */
    n = candidates(ex, c);
    /* "10 Mibit" where 10 MiB is right: the unit says bits, so the bytes
     * labelled as bits is tried before any other mistake's product */
    if (ex->unit && ex->unit->dim == KV_DIM_BYTES && r->answer.unit &&
        strstr(r->answer.unit->name, "bit") && ex->expected != 0 &&
        fabs(r->parsed * 8 - ex->expected) / fabs(ex->expected) <= rel) {
        r->mistake = KV_MISTAKE_BIT_UNIT;
        return;
    }
    {
        double best = INFINITY;
        for (size_t i = 0; i < n; i++) {
            double want = ex->expected * c[i].factor, off;
            const struct kv_unit *w = r->answer.unit ? r->answer.unit : ex->unit;
            if (want == 0)
                continue;
            if (c[i].binary >= 0 &&
                (!w || prefix_level(w) != c[i].level || (int)w->binary != c[i].binary))
                continue; /* the unit written cannot make this slip */
            off = fabs(r->parsed - want) / fabs(want);
            /* a unit slip is a few percent: within half of it, or it is just wrong */
            if (c[i].binary >= 0 && off > fabs(c[i].factor - 1) / 2)
                continue;
            if (off <= rel && off < best) {
                best = off;
                r->mistake = c[i].m;
            }
        }
    }
}

/* Lower-case ASCII letters and digits; everything else one space. */
static size_t normalise(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    bool space = true;
    for (const unsigned char *p = (const unsigned char *)in; *p && o + 2 < cap; p++) {
        unsigned char ch = *p;
        if (ch >= 'A' && ch <= 'Z')
            ch = (unsigned char)(ch - 'A' + 'a');
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch >= 0x80) {
            out[o++] = (char)ch;
            space = false;
        } else if (!space) {
            out[o++] = ' ';
            space = true;
        }
    }
    while (o > 0 && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
    return o;
}

int kv_choice_pick(const char *const *options, size_t n, const char *typed, char *why, size_t cap)
{
    char t[256], o[256];
    size_t len = normalise(typed ? typed : "", t, sizeof t);

    if (len == 0) {
        snprintf(why, cap, "no answer");
        return -1;
    }
    if (len <= 3 && t[0] >= '0' && t[0] <= '9') {
        int k = 0;
        for (size_t i = 0; i < len; i++) {
            if (t[i] < '0' || t[i] > '9')
                goto text;
            k = k * 10 + (t[i] - '0');
        }
        if (k >= 1 && (size_t)k <= n)
            return k - 1;
        snprintf(why, cap, "there are %zu options", n);
        return -1;
    }
    if (len == 1 && t[0] >= 'a' && t[0] <= 'z') {
        if ((size_t)(t[0] - 'a') < n)
            return t[0] - 'a';
        snprintf(why, cap, "there are %zu options (a to %c)", n, (int)('a' + n - 1));
        return -1;
    }
text:
    for (size_t i = 0; i < n; i++) {
        normalise(options[i] ? options[i] : "", o, sizeof o);
        if (strcmp(o, t) == 0)
            return (int)i;
    }
    snprintf(why, cap, "pick an option by its number, its letter or its text");
    return -1;
}

/* A number as typed: the decimals the learner wrote ("0.00001" keeps its
 * five), grouped when whole; an exact fraction ("7/16") by its value. */
static const char *as_typed(const struct kv_answer *a, char *buf, size_t cap)
{
    int d = a->ulp > 0 ? (int)lround(-log10(a->ulp)) : 6;
    return kvt_fmt_number(a->value, d < 0 ? 0 : d > 12 ? 12 : d, buf, cap);
}

/* A converted figure: up to four decimals (448 MiB is 0.4375 GiB, whole),
 * and a small one to three significant digits, never a misleading "0". */
static const char *converted(double v, char *buf, size_t cap)
{
    int d = 4;
    if (v != 0 && fabs(v) < 1 && 2 - (int)floor(log10(fabs(v))) > d)
        d = 2 - (int)floor(log10(fabs(v)));
    return kvt_fmt_number(v, d > 12 ? 12 : d, buf, cap);
}

const char *kv_numeric_read_as(const struct kv_numeric_result *r, const char *unit, char *buf,
                               size_t cap)
{
    const struct kv_answer *a = &r->answer;
    const char *typed = a->unit && a->unit->name[0] ? a->unit->name : NULL;
    char n1[64], n2[64];

    if (!unit)
        unit = "";
    if (isnan(r->parsed)) {
        snprintf(buf, cap, "nothing");
    } else if (typed && strcmp(typed, unit) != 0 && unit[0]) {
        /* in the unit written, then in the exercise's */
        snprintf(buf, cap, "%s%s%s = %s%s%s", as_typed(a, n1, sizeof n1), kv_unit_gap(typed), typed,
                 converted(r->parsed, n2, sizeof n2), kv_unit_gap(unit), unit);
    } else if (typed) {
        snprintf(buf, cap, "%s%s%s", as_typed(a, n1, sizeof n1), kv_unit_gap(typed), typed);
    } else {
        /* no unit typed: read in the exercise's */
        snprintf(buf, cap, "%s%s%s",
                 a->value == r->parsed ? as_typed(a, n1, sizeof n1)
                                       : converted(r->parsed, n1, sizeof n1),
                 kv_unit_gap(unit), unit);
    }
    return buf;
}
