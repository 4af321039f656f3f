/* tutor_sync.h: keeping the schedule honest when a lesson changes.
 *
 * Each item carries two fingerprints: one of everything the learner reads
 * (prompt, options, hints, model answer) and one of what is graded as
 * right (the expected value or how it is computed, the unit, the right
 * options, the key points). A schedule remembers the fingerprints it was
 * trained on; when the lesson is loaded or reloaded, a new answer
 * fingerprint restarts the item's schedule (the old reviews trained a
 * different fact) and a new wording keeps it (store_sync_exercise). */
#ifndef TUTOR_SYNC_H
#define TUTOR_SYNC_H

#include <stddef.h>
#include <stdint.h>

#include "lx.h"
#include "store.h"
#include "tutor_item.h"

struct tutor_fingerprint {
    char content[17], answer[17]; /* 16 hex digits each */
};

/* The item's fingerprints. A computed expected value is fingerprinted by
 * its value at a few fixed draws (and fixed stand-ins for the learner's
 * measured figures), so a changed formula is a changed answer. */
void tutor_fingerprint(struct lx_lesson *l, struct tutor_item it, struct tutor_fingerprint *out);

/* Applies the rule to the item's schedule; *out as store_sync_exercise. */
enum kvt_err tutor_sync_item(struct store *st, int64_t learner_id, struct lx_lesson *l,
                             struct tutor_item it, enum store_sync *out, struct store_error *err);

/* Every item of the lesson: *restarted counts the schedules started over
 * (may be NULL). A read-only database is left as it is (KVT_E_OK); any
 * other failure stops at the first item it hits. */
enum kvt_err tutor_sync_lesson(struct store *st, int64_t learner_id, struct lx_lesson *l,
                               size_t *restarted, struct store_error *err);

#endif
