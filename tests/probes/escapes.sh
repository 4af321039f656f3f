#!/bin/sh
# Text that would drive a terminal: a title change (OSC 0 ... BEL), a screen
# clear (CSI 2 J), an 8-bit CSI (U+009B) in the device name and the kernel
# name; with $1 "fail", in an error message too, and exit 1.
echo '{"type":"device","kind":"cuda","name":"GPU\u001b]0;pwned\u0007 \u001b[2J\u009b31m","compute_capability":"9.0\u001b[2J","sms":1,"free_bytes":1073741824,"peak_gbps":100.0}'
echo '{"type":"progress","kernel":"re\u001b[2Jad","percent":50}'
echo '{"type":"result","kernel":"read","bytes":1073741824,"iterations":20,"gbps_best":91.0,"gbps_median":90.0}'
if [ "$1" = fail ]; then
  echo '{"type":"error","message":"bad \u001b]0;title\u0007 \u009b2J end"}'
  exit 1
fi
exit 0
