#!/bin/sh
# Writes the arguments it was given after $1, one a line, to the file $1,
# then reports a small GPU run.
out=$1
shift
printf '%s\n' "$@" > "$out"
echo '{"type":"device","kind":"cuda","name":"Fake GPU","free_bytes":25769803776,"peak_gbps":1008.0}'
echo '{"type":"result","kernel":"read","bytes":1073741824,"iterations":20,"gbps_best":910.0,"gbps_median":900.0}'
exit 0
