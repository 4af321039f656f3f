#!/bin/sh
# Ignores SIGTERM (and so does its child, which inherits the setting):
# only SIGKILL ends them. $1: where to write the child's pid.
trap '' TERM
sleep 1000 &
echo $! > "$1"
while :; do wait; done
