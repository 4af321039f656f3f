#!/bin/sh
# Crashes by a signal after one progress line.
echo '{"type":"progress","kernel":"read","percent":10}'
kill -SEGV $$
