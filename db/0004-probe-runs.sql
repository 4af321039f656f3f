-- kvtutor progress database, schema 4: what a probe run needs beyond the
-- first schema's probe_run (probe, device, figures = its result lines as a
-- JSON array, created_at = when it started): how it ended, the probe's device
-- line, and the figures the ceiling and "measure, then predict" questions use.
ALTER TABLE probe_run ADD COLUMN seconds REAL NOT NULL DEFAULT 0 CHECK (seconds >= 0);
ALTER TABLE probe_run ADD COLUMN outcome TEXT NOT NULL DEFAULT 'ok'
    CHECK (outcome IN ('ok', 'failed', 'no-gpu', 'crashed', 'timed-out', 'not-found'));
ALTER TABLE probe_run ADD COLUMN message TEXT NOT NULL DEFAULT '';
ALTER TABLE probe_run ADD COLUMN device_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE probe_run ADD COLUMN read_gbps REAL;  -- median of the streaming read
ALTER TABLE probe_run ADD COLUMN peak_gbps REAL;  -- the device's computed peak
ALTER TABLE probe_run ADD COLUMN free_bytes INTEGER; -- free memory when it ran
CREATE INDEX probe_run_by_learner ON probe_run (learner_id, created_at);
