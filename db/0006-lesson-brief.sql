-- kvtutor progress database, schema 6: each lesson file's catalogue entry
-- (its brief: id, title, module, prerequisites, item ids and counts) and its
-- items' fingerprints, as the last full load of that file gave them, so the
-- course map is drawn without running every lesson. A row holds only while
-- the file's bytes (content_hash) and what loaded it (engine: the program,
-- the DSL and the glossary) are the same; the lesson files stay the source.
CREATE TABLE lesson_brief (
    path         TEXT PRIMARY KEY,
    content_hash TEXT NOT NULL,
    engine       TEXT NOT NULL,
    brief        TEXT NOT NULL,
    fingerprints TEXT NOT NULL
);
