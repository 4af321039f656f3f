/* Names for people of what the store keeps by id: see tutor_names.h. */
#include "tutor_names.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kv_grade.h"
#include "tutor_item.h"

const char *tutor_concept_name(struct lx_course *c, const char *concept)
{
    const char *name = c && concept ? lx_course_concept_title(c, concept) : NULL;
    return name ? name : concept && concept[0] ? concept : "(none)";
}

const char *tutor_lesson_name(struct lx_course *c, const char *lesson_id)
{
    const struct lx_lesson *l = c && lesson_id ? lx_course_find(c, lesson_id, NULL) : NULL;
    return l ? l->title : lesson_id ? lesson_id : "";
}

const char *tutor_module_name(struct lx_course *c, const char *module)
{
    if (!module || !module[0])
        return "(no module)";
    return c ? lx_course_module_title(c, module) : module;
}

#define MIS_PREFIX "misconception-"

static uint32_t fnv1a(uint32_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return (h ^ 0xFFu) * 16777619u; /* a separator no phrase holds */
}

const char *tutor_misconception_id(const struct lx_misconception *m, char *buf, size_t cap)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < m->n_about; i++)
        h = fnv1a(h, m->about[i]);
    h = fnv1a(h, "|");
    for (size_t i = 0; i < m->n_said; i++)
        h = fnv1a(h, m->said[i]);
    snprintf(buf, cap, MIS_PREFIX "%08x", (unsigned)h);
    return buf;
}

/* Item k of lesson l, counting its question, then its follow-ups, then its
 * exercises. */
static struct tutor_item nth_item(const struct lx_lesson *l, size_t k)
{
    if (k == 0)
        return (struct tutor_item){0, TUTOR_QUESTION, 0};
    if (k <= l->n_followups)
        return (struct tutor_item){0, TUTOR_FOLLOWUP, k - 1};
    return (struct tutor_item){0, TUTOR_EXERCISE, k - 1 - l->n_followups};
}

/* The misconception recorded as `id` in any live lesson's question,
 * follow-ups or free-text exercises; NULL when none has it any more. */
static const struct lx_misconception *find_misconception(struct lx_course *c, const char *id)
{
    char mine[TUTOR_MISCONCEPTION_ID_MAX];
    for (size_t li = 0; c && li < lx_course_size(c); li++) {
        const struct lx_lesson *l = lx_course_live(c, li) ? lx_course_at(c, li) : NULL;
        size_t n = l ? 1 + l->n_followups + l->n_exercises : 0;
        for (size_t k = 0; k < n; k++) {
            struct tutor_parts t;
            if (!tutor_item_parts(l, nth_item(l, k), &t))
                continue;
            for (size_t m = 0; m < t.n_mis; m++)
                if (strcmp(tutor_misconception_id(&t.mis[m], mine, sizeof mine), id) == 0)
                    return &t.mis[m];
        }
    }
    return NULL;
}

const char *tutor_diagnosis_name(struct lx_course *c, const char *diagnosis, char *buf, size_t cap)
{
    if (strncmp(diagnosis, MIS_PREFIX, strlen(MIS_PREFIX)) == 0) {
        const struct lx_misconception *m = find_misconception(c, diagnosis);
        if (!m) {
            snprintf(buf, cap, "a misconception no lesson of the course names now");
        } else {
            /* what it is about, and the correction up to its first clause */
            const char *why = m->why ? m->why : "";
            snprintf(buf, cap, "misconception about %s: %.*s", m->n_about ? m->about[0] : "it",
                     (int)strcspn(why, ":;"), why);
        }
        return buf;
    }
    for (int m = 0; m < KV_MISTAKE__COUNT; m++) {
        const char *text = kv_mistake_text((enum kv_mistake)m);
        if (strcmp(kv_mistake_id((enum kv_mistake)m), diagnosis) != 0)
            continue;
        /* the grader's sentence cut to its name: "you left out the x2 for
         * K and V: ..." is "left out the x2 for K and V" */
        if (strncmp(text, "you ", 4) == 0)
            text += 4;
        snprintf(buf, cap, "%.*s", (int)strcspn(text, ":"), text);
        return buf;
    }
    snprintf(buf, cap, "%s", diagnosis);
    return buf;
}
