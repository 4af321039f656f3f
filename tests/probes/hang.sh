#!/bin/sh
# Starts, then never finishes; its child sleeps in the same group. $1: where
# to write the child's pid.
echo '{"type":"progress","kernel":"read","percent":1}'
sleep 1000 &
echo $! > "$1"
wait
