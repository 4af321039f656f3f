-- kvtutor progress database, schema 8: beside each lesson brief, the file's
-- stamp when it was hashed (size, inode, device, modification and change
-- times, to the nanosecond), so a start that finds the same stamp takes the
-- kept hash instead of reading the file again, as git's index does. Empty
-- when the file had changed less than two seconds before it was read (a
-- change in the same tick would leave the stamp the same), or for rows
-- kept before this schema: those files are hashed as before.
ALTER TABLE lesson_brief ADD COLUMN file_stamp TEXT NOT NULL DEFAULT '';
