-- kvtutor progress database, schema 1.
-- Times are Unix seconds (UTC); days are UTC day numbers (seconds / 86400).

-- People using kvtutor on this machine; one is created on first use.
CREATE TABLE learner (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);

-- Every answer given, as typed, with how it was graded. Never updated:
-- history is appended to. uid is random and stable across machines, so
-- an import merges without duplicating.
CREATE TABLE attempt (
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
    verdict      TEXT NOT NULL CHECK (verdict IN ('correct', 'wrong', 'invalid')),
    score        REAL NOT NULL CHECK (score >= 0 AND score <= 1),
    diagnosis    TEXT,
    param_seed   INTEGER,
    hinted       INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1)),
    rating       INTEGER CHECK (rating BETWEEN 1 AND 4),
    seconds      REAL NOT NULL CHECK (seconds >= 0),
    created_at   INTEGER NOT NULL
);
CREATE INDEX attempt_by_exercise ON attempt (learner_id, lesson_id, exercise_id, created_at);
CREATE INDEX attempt_by_time ON attempt (learner_id, created_at);

-- The FSRS memory of each exercise for each learner. content_hash and
-- answer_hash fingerprint the exercise's definition when it was last seen.
CREATE TABLE review_state (
    learner_id   INTEGER NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
    lesson_id    TEXT NOT NULL,
    exercise_id  TEXT NOT NULL,
    stability    REAL NOT NULL,
    difficulty   REAL NOT NULL,
    reps         INTEGER NOT NULL,
    lapses       INTEGER NOT NULL,
    last_review  INTEGER NOT NULL,
    due_day      INTEGER NOT NULL,
    content_hash TEXT NOT NULL DEFAULT '',
    answer_hash  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (learner_id, lesson_id, exercise_id)
);
CREATE INDEX review_by_due ON review_state (learner_id, due_day);

CREATE TABLE lesson_progress (
    learner_id   INTEGER NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
    lesson_id    TEXT NOT NULL,
    started_at   INTEGER NOT NULL,
    completed_at INTEGER,
    position     TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (learner_id, lesson_id)
);

-- A probe's run on the learner's hardware: the device and its figures (JSON).
CREATE TABLE probe_run (
    id         INTEGER PRIMARY KEY,
    learner_id INTEGER NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
    probe      TEXT NOT NULL,
    device     TEXT NOT NULL,
    figures    TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- Settings: desired_retention, new_per_day, learner (the current one).
CREATE TABLE setting (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
