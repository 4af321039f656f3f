/* Reading and saving the learner's settings. Values are parsed here only
 * after store_setting_check accepted them, so strtod and strtoul see plain
 * decimals in range. */
#include "tutor_settings.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Applies an accepted value; false for a key that is not a session's. */
static bool apply(struct tutor_settings *s, const char *key, const char *value)
{
    if (strcmp(key, "desired_retention") == 0)
        s->fsrs.desired_retention = strtod(value, NULL);
    else if (strcmp(key, "new_per_day") == 0)
        s->new_per_day = (unsigned)strtoul(value, NULL, 10);
    else if (strcmp(key, "interview_answer_seconds") == 0)
        s->interview_answer_seconds = (unsigned)strtoul(value, NULL, 10);
    else if (strcmp(key, "interview_minutes") == 0)
        s->interview_minutes = (unsigned)strtoul(value, NULL, 10);
    else
        return false;
    return true;
}

void tutor_settings_text(struct store *st, const char *key, char *buf, size_t cap)
{
    bool found = false;
    struct store_error err;
    const char *fallback = store_setting_fallback(key);

    if (!st || store_setting_get(st, key, buf, cap, &found, &err) != KVT_E_OK || !found ||
        store_setting_check(key, buf))
        snprintf(buf, cap, "%s", fallback ? fallback : "");
}

void tutor_settings_load(struct store *st, struct tutor_settings *out)
{
    static const char *const keys[] = {"desired_retention", "new_per_day",
                                       "interview_answer_seconds", "interview_minutes"};

    fsrs_default_params(&out->fsrs);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char v[64];
        tutor_settings_text(st, keys[i], v, sizeof v);
        apply(out, keys[i], v);
    }
}

enum kvt_err tutor_settings_set(struct store *st, struct tutor_settings *s, const char *key,
                                const char *value, const char **why, struct store_error *err)
{
    struct tutor_settings next = *s;
    enum kvt_err e;

    *why = store_setting_check(key, value);
    if (!*why && !apply(&next, key, value))
        *why = "not a setting of study sessions";
    if (*why)
        return KVT_E_RANGE;
    if ((e = store_setting_set(st, key, value, err)) != KVT_E_OK)
        return e;
    *s = next;
    return KVT_E_OK;
}
