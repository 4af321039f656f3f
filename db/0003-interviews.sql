-- kvtutor progress database, schema 3: mock interviews, kept with their
-- score and timing. Their answers are ordinary attempts.
CREATE TABLE interview (
    id          INTEGER PRIMARY KEY,
    learner_id  INTEGER NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
    lesson_id   TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    seconds     REAL NOT NULL CHECK (seconds >= 0),
    answered    INTEGER NOT NULL,
    score       REAL NOT NULL CHECK (score >= 0 AND score <= 1),
    review      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX interview_by_learner ON interview (learner_id, started_at);
