/* store_sql.h: every SQL statement the store runs, in one table, with the
 * parameters each binds. Prepared once per connection, on first use. */
#ifndef STORE_SQL_H
#define STORE_SQL_H

#define STORE_STATEMENTS(X)                                                                        \
    /* name, SQL                                                           binds */                \
    X(LEARNER_GET, "SELECT id FROM learner WHERE name = ?1")                 /* name */            \
    X(LEARNER_ADD, "INSERT INTO learner (name, created_at) VALUES (?1, ?2)") /* name, now */       \
    X(SETTING_GET, "SELECT value FROM setting WHERE key = ?1")               /* key */             \
    X(SETTING_SET, "INSERT INTO setting (key, value) VALUES (?1, ?2) "                             \
                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value") /* key, value */      \
    X(ATTEMPT_EXISTS, "SELECT 1 FROM attempt WHERE uid = ?1")                /* uid */             \
    X(ATTEMPT_ADD,                                                                                 \
      "INSERT INTO attempt (uid, learner_id, module, lesson_id, exercise_id, concept, answer, "    \
      "parsed_value, parsed_unit, verdict, score, diagnosis, param_seed, hinted, rating, "         \
      "seconds, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "      \
      "?14, ?15, ?16, ?17)")                                                                       \
    X(REVIEW_GET,                                                                                  \
      "SELECT stability, difficulty, reps, lapses, last_review, due_day, content_hash, "           \
      "answer_hash FROM review_state WHERE learner_id = ?1 AND lesson_id = ?2 AND "                \
      "exercise_id = ?3")                                                                          \
    X(REVIEW_PUT,                                                                                  \
      "INSERT INTO review_state (learner_id, lesson_id, exercise_id, stability, difficulty, "      \
      "reps, lapses, last_review, due_day) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "           \
      "ON CONFLICT (learner_id, lesson_id, exercise_id) DO UPDATE SET "                            \
      "stability = excluded.stability, difficulty = excluded.difficulty, reps = excluded.reps, "   \
      "lapses = excluded.lapses, last_review = excluded.last_review, due_day = excluded.due_day")  \
    X(REVIEW_HASHES,                                                                               \
      "UPDATE review_state SET content_hash = ?4, answer_hash = ?5 WHERE learner_id = ?1 AND "     \
      "lesson_id = ?2 AND exercise_id = ?3")                                                       \
    X(REVIEW_DELETE_ONE,                                                                           \
      "DELETE FROM review_state WHERE learner_id = ?1 AND lesson_id = ?2 AND exercise_id = ?3")    \
    X(RESET_ATTEMPTS, "DELETE FROM attempt WHERE learner_id = ?1 AND lesson_id = ?2")              \
    X(RESET_REVIEWS, "DELETE FROM review_state WHERE learner_id = ?1 AND lesson_id = ?2")          \
    X(RESET_PROGRESS, "DELETE FROM lesson_progress WHERE learner_id = ?1 AND lesson_id = ?2")      \
    X(ATTEMPT_GET,                                                                                 \
      "SELECT learner_id, lesson_id, exercise_id, created_at, rating FROM attempt WHERE uid = ?1") \
    X(ATTEMPT_RATE, "UPDATE attempt SET rating = ?2 WHERE uid = ?1")                               \
    X(LESSON_SEEN,                                                                                 \
      "INSERT INTO lesson_progress (learner_id, lesson_id, started_at, position, updated_at) "     \
      "VALUES (?1, ?2, ?3, ?4, ?3) ON CONFLICT (learner_id, lesson_id) DO UPDATE SET "             \
      "position = excluded.position, updated_at = excluded.updated_at")                            \
    X(LESSON_DONE,                                                                                 \
      "UPDATE lesson_progress SET completed_at = coalesce(completed_at, ?3), updated_at = ?3 "     \
      "WHERE learner_id = ?1 AND lesson_id = ?2")                                                  \
    X(LESSON_GET,                                                                                  \
      "SELECT position, completed_at IS NOT NULL FROM lesson_progress WHERE learner_id = ?1 AND "  \
      "lesson_id = ?2")                                                                            \
    X(LESSON_LAST,                                                                                 \
      "SELECT lesson_id FROM lesson_progress WHERE learner_id = ?1 ORDER BY updated_at DESC "      \
      "LIMIT 1")                                                                                   \
    X(DUE_LIST,                                                                                    \
      "SELECT lesson_id, exercise_id, due_day, stability FROM review_state WHERE learner_id = ?1 " \
      "AND due_day <= ?2 ORDER BY due_day, stability, lesson_id, exercise_id")                     \
    X(SEEN_LIST,                                                                                   \
      "SELECT lesson_id, exercise_id, due_day, stability FROM review_state WHERE learner_id = ?1 " \
      "ORDER BY due_day, stability, lesson_id, exercise_id")                                       \
    X(ACTIVITY,                                                                                    \
      "SELECT created_at / 86400, count(*), sum(verdict = 'correct') FROM attempt WHERE "          \
      "learner_id = ?1 AND created_at >= ?2 GROUP BY created_at / 86400")                          \
    X(CONCEPTS,                                                                                    \
      "SELECT concept, count(*), sum(verdict = 'correct') FROM attempt WHERE learner_id = ?1 "     \
      "GROUP BY concept ORDER BY 1.0 * sum(verdict = 'correct') / count(*), concept")              \
    X(INTERVIEW_ADD, "INSERT INTO interview (learner_id, lesson_id, started_at, seconds, "         \
                     "answered, score, review) "                                                   \
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")                                        \
    X(PROBE_ADD,                                                                                   \
      "INSERT INTO probe_run (learner_id, created_at, seconds, probe, outcome, message, device, "  \
      "device_json, figures, read_gbps, peak_gbps, free_bytes) "                                   \
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)")                                \
    X(PROBE_LAST,                                                                                  \
      "SELECT probe, created_at, device, read_gbps, peak_gbps, free_bytes FROM probe_run "         \
      "WHERE learner_id = ?1 AND outcome = 'ok' AND read_gbps IS NOT NULL "                        \
      "AND (?2 IS NULL OR probe = ?2) ORDER BY created_at DESC, id DESC LIMIT 1")                  \
    X(STATS_LESSONS, "SELECT module, lesson_id, count(DISTINCT exercise_id), count(*), "           \
                     "sum(verdict = 'correct'), sum(seconds) FROM attempt WHERE learner_id = ?1 "  \
                     "GROUP BY module, lesson_id ORDER BY module, lesson_id") /* learner */        \
    X(STATS_DUE, "SELECT lesson_id, sum(due_day <= ?2), sum(due_day <= ?2 + 7) FROM review_state " \
                 "WHERE learner_id = ?1 GROUP BY lesson_id") /* learner, today */                  \
    X(STATS_DAYS, "SELECT DISTINCT created_at / 86400 AS day FROM attempt WHERE learner_id = ?1 "  \
                  "ORDER BY day DESC") /* learner */                                               \
    X(STATS_DIAGNOSES,                                                                             \
      "SELECT diagnosis, count(*) AS n FROM attempt WHERE learner_id = ?1 AND diagnosis IS NOT "   \
      "NULL AND diagnosis != '' GROUP BY diagnosis ORDER BY n DESC, diagnosis LIMIT ?2")           \
    X(EXPORT_ATTEMPTS,                                                                             \
      "SELECT a.uid, l.name, a.module, a.lesson_id, a.exercise_id, a.concept, a.answer, "          \
      "a.parsed_value, a.parsed_unit, a.verdict, a.score, a.diagnosis, a.param_seed, a.hinted, "   \
      "a.rating, a.seconds, a.created_at, a.learner_id FROM attempt a JOIN learner l "             \
      "ON l.id = a.learner_id ORDER BY a.created_at, a.id")                                        \
    X(EXPORT_REVIEWS,                                                                              \
      "SELECT l.name, r.lesson_id, r.exercise_id, r.stability, r.difficulty, r.reps, r.lapses, "   \
      "r.last_review, r.due_day, r.content_hash, r.answer_hash FROM review_state r JOIN learner "  \
      "l "                                                                                         \
      "ON l.id = r.learner_id ORDER BY l.name, r.lesson_id, r.exercise_id")                        \
    X(IMPORT_REVIEW,                                                                               \
      "INSERT INTO review_state (learner_id, lesson_id, exercise_id, stability, difficulty, "      \
      "reps, lapses, last_review, due_day, content_hash, answer_hash) VALUES (?1, ?2, ?3, ?4, "    \
      "?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (learner_id, lesson_id, exercise_id) DO UPDATE "  \
      "SET stability = excluded.stability, difficulty = excluded.difficulty, "                     \
      "reps = excluded.reps, lapses = excluded.lapses, last_review = excluded.last_review, "       \
      "due_day = excluded.due_day, content_hash = excluded.content_hash, "                         \
      "answer_hash = excluded.answer_hash WHERE excluded.last_review > review_state.last_review")

enum store_stmt {
#define STORE_STMT_ENUM(name, sql) STMT_##name,
    STORE_STATEMENTS(STORE_STMT_ENUM)
#undef STORE_STMT_ENUM
        STMT__COUNT
};

extern const char *const store_sql[STMT__COUNT];

#endif
