#!/bin/sh
# A GPU run on a MIG slice as the CUDA probe reports it: no peak (the clock
# and bus attributes are the whole GPU's), ECC on, driver and runtime 13.0,
# 8 blocks of 256 threads per SM; a decode step scaled to half its layers.
echo '{"type":"device","kind":"cuda","name":"NVIDIA H200 MIG 1g.18gb","compute_capability":"9.0","sms":16,"l2_bytes":6291456,"total_bytes":19327352832,"free_bytes":18253611008,"memory_clock_khz":3201000,"bus_bits":6144,"peak_known":false,"ecc":true,"mig":true,"driver_version":13000,"runtime_version":13000,"read_blocks_per_sm":8,"read_registers":32,"paged_blocks_per_sm":8,"paged_registers":29,"threads_per_block":256,"waves":1,"small":false}'
echo '{"type":"result","kernel":"read","bytes":1073741824,"iterations":20,"per_sample":9,"gbps_best":560.0,"gbps_median":550.0}'
echo '{"type":"result","kernel":"decode","bytes":9000000000,"weights_bytes":7000000000,"kv_bytes":2000000000,"layers":14,"scale":0.5,"iterations":20,"launches":113,"gbps_best":545.0,"gbps_median":540.0,"step_us":16666.7,"eager_gbps_median":520.0,"eager_step_us":17307.7,"graph_gbps_median":535.0,"graph_step_us":16822.4}'
exit 0
