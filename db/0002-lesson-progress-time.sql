-- kvtutor progress database, schema 2: when each lesson was last open, so
-- the app can resume where the learner left off.
ALTER TABLE lesson_progress ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
UPDATE lesson_progress SET updated_at = started_at;
CREATE INDEX lesson_progress_by_time ON lesson_progress (learner_id, updated_at);
