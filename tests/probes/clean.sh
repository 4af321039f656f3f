#!/bin/sh
# A well-behaved probe: a device line, progress, two results, exit 0.
echo '{"type":"device","kind":"cpu","name":"Fake CPU","threads":2,"free_bytes":8589934592}'
echo '{"type":"progress","kernel":"read","percent":50}'
echo '{"type":"progress","kernel":"read","percent":100}'
echo '{"type":"result","kernel":"read","bytes":1073741824,"gbps_best":21.5,"gbps_median":20.0}'
echo '{"type":"result","kernel":"paged","block_size":16,"bytes":1073741824,"gbps_best":19.0,"gbps_median":18.0}'
echo 'the probe may talk on stderr' >&2
exit 0
