-- kvtutor progress database, schema 7: an answer in words may be graded
-- "unsure" (neither right nor wrong on the grader's evidence; the learner
-- checks it), kept as such rather than as a confident wrong. SQLite cannot
-- widen a CHECK in place, so the attempt table is rebuilt with its rows,
-- ids and indexes as they were (nothing references attempt).
CREATE TABLE attempt_new (
    id           INTEGER PRIMARY KEY,
    uid          TEXT NOT NULL UNIQUE,
    learner_id   INTEGER NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
    module       TEXT NOT NULL DEFAULT '',
    lesson_id    TEXT NOT NULL,
    exercise_id  TEXT NOT NULL,
    concept      TEXT NOT NULL DEFAULT '',
    answer       TEXT NOT NULL,
    parsed_value REAL,
    parsed_unit  TEXT,
    verdict      TEXT NOT NULL CHECK (verdict IN ('correct', 'wrong', 'invalid', 'unsure')),
    score        REAL NOT NULL CHECK (score >= 0 AND score <= 1),
    diagnosis    TEXT,
    param_seed   INTEGER,
    hinted       INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1)),
    rating       INTEGER CHECK (rating BETWEEN 1 AND 4),
    seconds      REAL NOT NULL CHECK (seconds >= 0),
    created_at   INTEGER NOT NULL
);
INSERT INTO attempt_new (id, uid, learner_id, module, lesson_id, exercise_id, concept, answer,
                         parsed_value, parsed_unit, verdict, score, diagnosis, param_seed,
                         hinted, rating, seconds, created_at)
    SELECT id, uid, learner_id, module, lesson_id, exercise_id, concept, answer, parsed_value,
           parsed_unit, verdict, score, diagnosis, param_seed, hinted, rating, seconds, created_at
    FROM attempt;
DROP TABLE attempt;
ALTER TABLE attempt_new RENAME TO attempt;
CREATE INDEX attempt_by_exercise ON attempt (learner_id, lesson_id, exercise_id, created_at);
CREATE INDEX attempt_by_time ON attempt (learner_id, created_at);
