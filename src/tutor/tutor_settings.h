/* tutor_settings.h: the learner's settings as sessions use them. One
 * parser for every reader (the app at start, its settings screen, the
 * commands), and one set of defaults: the store's (store_setting_fallback),
 * so "20 new a day" and "0.9 retention" are written once. */
#ifndef TUTOR_SETTINGS_H
#define TUTOR_SETTINGS_H

#include "fsrs.h"
#include "store.h"

struct tutor_settings {
    struct fsrs_params fsrs; /* FSRS-6 defaults with the desired retention */
    unsigned new_per_day;    /* new exercises reviews bring in a day */
    /* a mock interview's limits (tutor_session.h), 0 = none */
    unsigned interview_answer_seconds, interview_minutes;
};

/* The settings kept in `st` (NULL: the defaults). A value that is missing,
 * unreadable or refused by store_setting_check (a hand-edited database)
 * falls back to its default: settings never stop a session. */
void tutor_settings_load(struct store *st, struct tutor_settings *out);

/* The value in force for `key` (learner, desired_retention, new_per_day)
 * as text: the stored one, or the default where it is unset or refused by
 * the rule, as tutor_settings_load takes it. */
void tutor_settings_text(struct store *st, const char *key, char *buf, size_t cap);

/* Checks `value` for `key` (desired_retention or new_per_day) by the
 * store's rule, saves it and applies it to *s. Returns KVT_E_OK;
 * KVT_E_RANGE with the reason in *why (s and the store unchanged); or
 * the store's code with err filled. */
enum kvt_err tutor_settings_set(struct store *st, struct tutor_settings *s, const char *key,
                                const char *value, const char **why, struct store_error *err);

#endif
