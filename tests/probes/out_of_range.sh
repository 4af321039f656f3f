#!/bin/sh
# A probe that exits 0 but reports a figure no machine has: its device line
# is sound, its read result claims 1e300 GB/s (an H200 reads 4.8 TB/s).
echo '{"type":"device","kind":"cuda","name":"Fake GPU 24G","sms":128,"free_bytes":25769803776,"peak_gbps":1008.0}'
echo '{"type":"result","kernel":"read","bytes":1073741824,"iterations":20,"gbps_best":1e300,"gbps_median":1e300}'
echo '{"type":"result","kernel":"paged","block_size":16,"bytes":1073741824,"iterations":20,"gbps_best":880.0,"gbps_median":870.0,"contiguous_gbps_median":890.0,"tax_percent":2.2}'
exit 0
