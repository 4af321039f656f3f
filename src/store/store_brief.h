/* store_brief.h: the lesson briefs the progress database keeps (db/0006, db/0008),
 * and the stored fingerprints of every schedule read at once.
 *
 * The store keeps the texts as given and never reads them: the tutor layer
 * decides when a row still holds (the same file hash and engine) and what
 * the texts mean (lx_brief.h, tutor_sync.h). */
#ifndef STORE_BRIEF_H
#define STORE_BRIEF_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

struct store_brief_row {
    const char *path, *content_hash, *engine, *brief, *fingerprints;
    /* the file's stamp when content_hash was taken (lx_file_stamp), or ""
     * (NULL when putting: "") where it proves nothing */
    const char *file_stamp;
};

/* Each kept row, in no order; fn returns non-zero to stop. The row's texts
 * live until fn returns. */
typedef int store_brief_fn(void *ctx, const struct store_brief_row *row);
enum kvt_err store_brief_each(struct store *st, store_brief_fn *fn, void *ctx,
                              struct store_error *err);

/* Keeps the rows (each replacing the row of its path) in one transaction.
 * A read-only database keeps nothing and is not an error. */
enum kvt_err store_brief_put(struct store *st, const struct store_brief_row *rows, size_t n,
                             struct store_error *err);

/* Every schedule of the learner with the fingerprints it was trained on
 * ("" when recorded before they were known); fn returns non-zero to stop. */
typedef int store_fingerprint_fn(void *ctx, const char *lesson_id, const char *item_id,
                                 const char *content_hash, const char *answer_hash);
enum kvt_err store_each_fingerprint(struct store *st, int64_t learner_id, store_fingerprint_fn *fn,
                                    void *ctx, struct store_error *err);

#endif
