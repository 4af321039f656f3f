#!/bin/sh
# Line 2 is not JSON; line 3 is JSON but not an object with a "type".
echo '{"type":"device","kind":"cpu","name":"Fake CPU"}'
echo 'GB/s: 20'
echo '[1, 2, 3]'
exit 0
