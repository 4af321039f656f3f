#!/bin/sh
# A failure the probe explains on stdout, with noise on stderr.
echo 'warming up' >&2
echo '{"type":"error","message":"cudaMalloc(&buf, want) failed: out of memory"}'
exit 1
