#include "lx_schema.h"

#include <string.h>

#include "kv_claims.h"

_Static_assert(LX_MAX_POINTS == KV_MAX_POINTS, "a question's points must all be gradable");
_Static_assert(LX_MAX_MISCONCEPTIONS + LX_MAX_COURSE_MISCONCEPTIONS <= KV_MAX_MISCONCEPTIONS,
               "a question's misconceptions and the course's must all be checked");

static const char *const lesson_keys[] = {
    "id",       "title",        "module",        "baseline", "concept",
    "question", "answer",       "sections",      "worked",   "points",
    "requires", "followups",    "exercises",     "links",    "misconceptions",
    "glossary", "module_title", "concept_title", NULL};
static const char *const section_keys[] = {"title", "text", NULL};
static const char *const followup_keys[] = {"question", "answer", "points", "misconceptions", NULL};
#define EXERCISE_KEYS "id", "prompt", "hints"
static const char *const numeric_keys[] = {
    EXERCISE_KEYS, "unit",     "expected", "tolerance", "params",  "model",  "kv_dtype", "diagnose",
    "measured",    "left_out", "slips",    "per",       "serving", "worked", NULL};
static const char *const choice_keys[] = {EXERCISE_KEYS, "options", "serving", NULL};
static const char *const freetext_keys[] = {EXERCISE_KEYS, "points", "answer", "misconceptions",
                                            NULL};
static const char *const option_keys[] = {"text", "correct", "why", NULL};
static const char *const point_keys[] = {"text",  "accept", "about",    "said",
                                         "short", "weight", "polarity", NULL};
static const char *const misconception_keys[] = {"about", "said", "why", "unless", NULL};

static const struct lx_shape_info shapes[LX_SHAPE__COUNT] = {
    [LX_SHAPE_LESSON] = {"lesson", lesson_keys, false},
    [LX_SHAPE_SECTION] = {"section", section_keys, false},
    [LX_SHAPE_FOLLOWUP] = {"followup", followup_keys, false},
    [LX_SHAPE_NUMERIC] = {"numeric", numeric_keys, false},
    [LX_SHAPE_CHOICE] = {"choice", choice_keys, false},
    [LX_SHAPE_FREETEXT] = {"freetext", freetext_keys, false},
    [LX_SHAPE_OPTION] = {"option", option_keys, true},
    [LX_SHAPE_POINT] = {"point", point_keys, true},
    [LX_SHAPE_MISCONCEPTION] = {"misconception", misconception_keys, false},
};

static const struct lx_limit limits[] = {
#define LX_LIMIT_ROW(name, max, what) {#name, max, what},
    LX_LIMITS(LX_LIMIT_ROW)
#undef LX_LIMIT_ROW
};

const struct lx_shape_info *lx_shape_info(enum lx_shape s)
{
    return (unsigned)s < LX_SHAPE__COUNT ? &shapes[s] : NULL;
}

enum lx_shape lx_shape_find(const char *name)
{
    for (int s = 0; name && s < LX_SHAPE__COUNT; s++)
        if (strcmp(shapes[s].name, name) == 0)
            return (enum lx_shape)s;
    return LX_SHAPE__COUNT;
}

bool lx_shape_allows(enum lx_shape s, const char *key)
{
    const struct lx_shape_info *info = lx_shape_info(s);
    for (size_t i = 0; info && info->keys[i]; i++)
        if (strcmp(info->keys[i], key) == 0)
            return true;
    return false;
}

const struct lx_limit *lx_limits(size_t *n)
{
    *n = sizeof limits / sizeof limits[0];
    return limits;
}

bool lx_reserved_id(const char *id)
{
    static const char followup[] = "followup-";
    const char *d = id + sizeof followup - 1;
    if (strcmp(id, "question") == 0)
        return true;
    if (strncmp(id, followup, sizeof followup - 1) != 0 || !*d)
        return false;
    return strspn(d, "0123456789") == strlen(d);
}
