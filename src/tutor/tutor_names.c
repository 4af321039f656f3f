/* Names for people of what the store keeps by id: see tutor_names.h. */
#include "tutor_names.h"

#include <stdio.h>
#include <string.h>

#include "kv_grade.h"

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

const char *tutor_diagnosis_name(struct lx_course *c, const char *diagnosis, char *buf, size_t cap)
{
    (void)c;
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
