#!/bin/sh
# What the CUDA probe says where there is no driver.
echo '{"type":"error","no_gpu":true,"message":"no usable NVIDIA driver"}'
exit 3
