#!/bin/sh
# A failure explained only on stderr.
echo 'first line' >&2
echo 'cannot open /dev/fake0' >&2
exit 1
