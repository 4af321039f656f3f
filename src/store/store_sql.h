/* store_sql.h: every SQL statement the store runs, in one table, each with
 * the signature of what it binds. Prepared once per connection, on first use;
 * a signature that does not match its SQL's parameters fails the prepare. */
#ifndef STORE_SQL_H
#define STORE_SQL_H

#define STORE_STATEMENTS(X)                                                                        \
    /* name, bind signature, SQL */                                                                \
    X(LEARNER_GET, "T", "SELECT id FROM learner WHERE name = ?1")                                  \
    X(LEARNER_ADD, "TI", "INSERT INTO learner (name, created_at) VALUES (?1, ?2)")                 \
    X(SETTING_GET, "T", "SELECT value FROM setting WHERE key = ?1")                                \
    X(SETTING_SET, "TT",                                                                           \
      "INSERT INTO setting (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = "  \
      "excluded.value")                                                                            \
    X(ATTEMPT_EXISTS, "T", "SELECT 1 FROM attempt WHERE uid = ?1")                                 \
    X(ATTEMPT_ADD, "TITTTTTdTTDTiIiDI",                                                            \
      "INSERT INTO attempt (uid, learner_id, module, lesson_id, exercise_id, concept, answer, "    \
      "parsed_value, parsed_unit, verdict, score, diagnosis, param_seed, hinted, rating, "         \
      "seconds, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "      \
      "?14, ?15, ?16, ?17)")                                                                       \
    X(REVIEW_GET, "ITT",                                                                           \
      "SELECT stability, difficulty, reps, lapses, last_review, due_day, content_hash, "           \
      "answer_hash FROM review_state WHERE learner_id = ?1 AND lesson_id = ?2 AND exercise_id = "  \
      "?3")                                                                                        \
    X(REVIEW_PUT, "ITTDDIIII",                                                                     \
      "INSERT INTO review_state (learner_id, lesson_id, exercise_id, stability, difficulty, "      \
      "reps, lapses, last_review, due_day) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON "        \
      "CONFLICT (learner_id, lesson_id, exercise_id) DO UPDATE SET stability = "                   \
      "excluded.stability, difficulty = excluded.difficulty, reps = excluded.reps, lapses = "      \
      "excluded.lapses, last_review = excluded.last_review, due_day = excluded.due_day")           \
    X(REVIEW_HASHES, "ITTTT",                                                                      \
      "UPDATE review_state SET content_hash = ?4, answer_hash = ?5 WHERE learner_id = ?1 AND "     \
      "lesson_id = ?2 AND exercise_id = ?3")                                                       \
    X(REVIEW_DELETE_ONE, "ITT",                                                                    \
      "DELETE FROM review_state WHERE learner_id = ?1 AND lesson_id = ?2 AND exercise_id = ?3")    \
    X(RESET_ATTEMPTS, "IT", "DELETE FROM attempt WHERE learner_id = ?1 AND lesson_id = ?2")        \
    X(RESET_REVIEWS, "IT", "DELETE FROM review_state WHERE learner_id = ?1 AND lesson_id = ?2")    \
    X(RESET_PROGRESS, "IT",                                                                        \
      "DELETE FROM lesson_progress WHERE learner_id = ?1 AND lesson_id = ?2")                      \
    X(ATTEMPT_GET, "T",                                                                            \
      "SELECT learner_id, lesson_id, exercise_id, created_at, rating FROM attempt WHERE uid = "    \
      "?1")                                                                                        \
    X(ATTEMPT_RATE, "TI", "UPDATE attempt SET rating = ?2 WHERE uid = ?1")                         \
    X(LESSON_SEEN, "ITIT",                                                                         \
      "INSERT INTO lesson_progress (learner_id, lesson_id, started_at, position, updated_at) "     \
      "VALUES (?1, ?2, ?3, ?4, ?3) ON CONFLICT (learner_id, lesson_id) DO UPDATE SET position = "  \
      "excluded.position, updated_at = excluded.updated_at")                                       \
    X(LESSON_DONE, "ITI",                                                                          \
      "INSERT INTO lesson_progress (learner_id, lesson_id, started_at, completed_at, updated_at) " \
      "VALUES (?1, ?2, ?3, ?3, ?3) ON CONFLICT (learner_id, lesson_id) DO UPDATE SET "             \
      "completed_at = coalesce(completed_at, excluded.completed_at), updated_at = "                \
      "excluded.updated_at")                                                                       \
    X(LESSON_GET, "IT",                                                                            \
      "SELECT position, completed_at IS NOT NULL FROM lesson_progress WHERE learner_id = ?1 AND "  \
      "lesson_id = ?2")                                                                            \
    X(LESSON_LAST, "I",                                                                            \
      "SELECT lesson_id FROM lesson_progress WHERE learner_id = ?1 ORDER BY updated_at DESC "      \
      "LIMIT 1")                                                                                   \
    X(DUE_LIST, "II",                                                                              \
      "SELECT lesson_id, exercise_id, due_day, stability FROM review_state WHERE learner_id = "    \
      "?1 AND due_day <= ?2 ORDER BY due_day, stability, lesson_id, exercise_id")                  \
    X(SEEN_LIST, "I",                                                                              \
      "SELECT lesson_id, exercise_id, due_day, stability FROM review_state WHERE learner_id = "    \
      "?1 ORDER BY due_day, stability, lesson_id, exercise_id")                                    \
    X(ACTIVITY, "II",                                                                              \
      "SELECT created_at / 86400, count(*), sum(verdict = 'correct') FROM attempt WHERE "          \
      "learner_id = ?1 AND created_at >= ?2 GROUP BY created_at / 86400")                          \
    X(CONCEPTS, "I",                                                                               \
      "SELECT concept, count(*), sum(verdict = 'correct') FROM attempt WHERE learner_id = ?1 "     \
      "GROUP BY concept ORDER BY 1.0 * sum(verdict = 'correct') / count(*), concept")              \
    X(INTERVIEW_ADD, "ITIDIDT",                                                                    \
      "INSERT INTO interview (learner_id, lesson_id, started_at, seconds, answered, score, "       \
      "review) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")                                               \
    X(PROBE_ADD, "IIDTTTTTTddi",                                                                   \
      "INSERT INTO probe_run (learner_id, created_at, seconds, probe, outcome, message, device, "  \
      "device_json, figures, read_gbps, peak_gbps, free_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "   \
      "?7, ?8, ?9, ?10, ?11, ?12)")                                                                \
    X(PROBE_LAST, "IT",                                                                            \
      "SELECT probe, created_at, device, read_gbps, peak_gbps, free_bytes FROM probe_run WHERE "   \
      "learner_id = ?1 AND outcome = 'ok' AND read_gbps IS NOT NULL AND (?2 IS NULL OR probe = "   \
      "?2) ORDER BY created_at DESC, id DESC LIMIT 1")                                             \
    X(STATS_LESSONS, "I",                                                                          \
      "SELECT module, lesson_id, count(DISTINCT exercise_id), count(*), sum(verdict = "            \
      "'correct'), sum(seconds) FROM attempt WHERE learner_id = ?1 GROUP BY module, lesson_id "    \
      "ORDER BY module, lesson_id")                                                                \
    X(STATS_DAYS, "I",                                                                             \
      "SELECT DISTINCT created_at / 86400 AS day FROM attempt WHERE learner_id = ?1 ORDER BY "     \
      "day DESC")                                                                                  \
    X(STATS_DIAGNOSES, "II",                                                                       \
      "SELECT diagnosis, count(*) AS n FROM attempt WHERE learner_id = ?1 AND diagnosis IS NOT "   \
      "NULL AND diagnosis != '' GROUP BY diagnosis ORDER BY n DESC, diagnosis LIMIT ?2")           \
    X(EXPORT_ATTEMPTS, "",                                                                         \
      "SELECT a.uid, l.name, a.module, a.lesson_id, a.exercise_id, a.concept, a.answer, "          \
      "a.parsed_value, a.parsed_unit, a.verdict, a.score, a.diagnosis, a.param_seed, a.hinted, "   \
      "a.rating, a.seconds, a.created_at, a.learner_id FROM attempt a JOIN learner l ON l.id = "   \
      "a.learner_id ORDER BY a.created_at, a.id")                                                  \
    X(EXPORT_REVIEWS, "",                                                                          \
      "SELECT l.name, r.lesson_id, r.exercise_id, r.stability, r.difficulty, r.reps, r.lapses, "   \
      "r.last_review, r.due_day, r.content_hash, r.answer_hash FROM review_state r JOIN learner "  \
      "l ON l.id = r.learner_id ORDER BY l.name, r.lesson_id, r.exercise_id")                      \
    X(IMPORT_REVIEW, "ITTDDIIIITT",                                                                \
      "INSERT INTO review_state (learner_id, lesson_id, exercise_id, stability, difficulty, "      \
      "reps, lapses, last_review, due_day, content_hash, answer_hash) VALUES (?1, ?2, ?3, ?4, "    \
      "?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (learner_id, lesson_id, exercise_id) DO UPDATE "  \
      "SET stability = excluded.stability, difficulty = excluded.difficulty, reps = "              \
      "excluded.reps, lapses = excluded.lapses, last_review = excluded.last_review, due_day = "    \
      "excluded.due_day, content_hash = excluded.content_hash, answer_hash = "                     \
      "excluded.answer_hash WHERE excluded.last_review > review_state.last_review")

enum store_stmt {
#define STORE_STMT_ENUM(name, sig, sql) STMT_##name,
    STORE_STATEMENTS(STORE_STMT_ENUM)
#undef STORE_STMT_ENUM
        STMT__COUNT
};

/* Each statement's SQL and bind signature, one character per parameter in
 * order (?1, ?2...), read by store_prepare (store_private.h):
 *   T text (NULL binds NULL)   I integer   D real
 *   i integer or NULL          d real or NULL  (given as a pointer; NULL binds NULL) */
struct store_statement {
    const char *name, *sig, *sql;
};
extern const struct store_statement store_statements[STMT__COUNT];

#endif
