-- kvtutor progress database, schema 5: a probe run the learner stopped (left
-- the screen, pressed q, interrupted kvtutor) is 'stopped', no longer
-- 'timed-out' as if it had hung. SQLite cannot change a CHECK in place, so
-- the table is made again with the same columns in the same order, and the
-- runs kept as stopped before (outcome 'timed-out', message 'stopped') are
-- moved to the new word.
CREATE TABLE probe_run_5 (
    id         INTEGER PRIMARY KEY,
    learner_id INTEGER NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
    probe      TEXT NOT NULL,
    device     TEXT NOT NULL,
    figures    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    seconds REAL NOT NULL DEFAULT 0 CHECK (seconds >= 0),
    outcome TEXT NOT NULL DEFAULT 'ok'
        CHECK (outcome IN ('ok', 'failed', 'no-gpu', 'crashed', 'timed-out', 'stopped',
                           'not-found')),
    message TEXT NOT NULL DEFAULT '',
    device_json TEXT NOT NULL DEFAULT '{}',
    read_gbps REAL,
    peak_gbps REAL,
    free_bytes INTEGER
);
INSERT INTO probe_run_5 (id, learner_id, probe, device, figures, created_at, seconds, outcome,
                         message, device_json, read_gbps, peak_gbps, free_bytes)
    SELECT id, learner_id, probe, device, figures, created_at, seconds,
           CASE WHEN outcome = 'timed-out' AND message = 'stopped' THEN 'stopped' ELSE outcome END,
           message, device_json, read_gbps, peak_gbps, free_bytes
    FROM probe_run;
DROP TABLE probe_run;
ALTER TABLE probe_run_5 RENAME TO probe_run;
CREATE INDEX probe_run_by_learner ON probe_run (learner_id, created_at);
