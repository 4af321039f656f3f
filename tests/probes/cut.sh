#!/bin/sh
# Dies in the middle of writing a line, yet exits 0.
echo '{"type":"device","kind":"cpu","name":"Fake CPU"}'
printf '%s' '{"type":"result","kernel":"re'
exit 0
