#!/bin/sh
# ab.sh OLD.so NEW.so "p m n k rounds [calls]" ... : two builds of gemmkit in one process,
# call by call (abdl built from ../../2026-11-27-emr-cpu/logs/abdl.c into /tmp/abdl), 1 thread
# unless GK_NUM_THREADS is set. B/A above 1: NEW is faster.
OLD=$1; NEW=$2; shift 2
export GK_NUM_THREADS=${GK_NUM_THREADS:-1}
for sz in "$@"; do /tmp/abdl $OLD $NEW $sz; done
