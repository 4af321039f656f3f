#!/bin/sh
# 100 MB on stdout with no newline at all: one line far past any limit.
yes 0123456789abcdef | tr -d '\n' | head -c 100000000
exit 0
