#!/bin/sh
# A GPU run as a 24 GB card would report it: 24 GiB free, 1008 GB/s peak,
# 900 GB/s measured.
echo '{"type":"device","kind":"cuda","name":"Fake GPU 24G","compute_capability":"8.9","sms":128,"l2_bytes":75497472,"total_bytes":25769803776,"free_bytes":25769803776,"peak_gbps":1008.0}'
echo '{"type":"progress","kernel":"read","percent":100}'
echo '{"type":"result","kernel":"read","bytes":1073741824,"iterations":20,"gbps_best":910.0,"gbps_median":900.0,"peak_percent":89.3}'
echo '{"type":"result","kernel":"paged","block_size":16,"bytes":1073741824,"iterations":20,"gbps_best":880.0,"gbps_median":870.0,"contiguous_gbps_median":890.0,"tax_percent":2.2}'
exit 0
