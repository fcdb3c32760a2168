#!/bin/bash
# Zen 5, 1 thread, call by call (abdl: the buffers from malloc): the library as committed (new)
# and the commit before this session's (old, 0ac61cc) against OpenBLAS 0.3.21, and new against old;
# then with GK_ARCH=avx2 against OpenBLAS Haswell.
. /work/main/bench/results/2026-11-27-zen5-cpu-e/scripts/env.sh
NEW=${NEW:-/tmp/b6/libgemmkit.so.0}; OLD=${OLD:-/tmp/bbase/libgemmkit.so.0}
SH="s 64 2 64|s 128 2 128|s 64 3 64|s 64 4 64|s 128 4 128|s 16 4 256|s 64 5 64|s 64 6 64|s 128 6 128|s 64 7 64|s 128 7 128|s 64 8 64|s 128 8 128|s 512 4 512|d 64 2 64|d 128 2 128|d 512 2 512|d 64 3 64|d 128 3 128|d 64 4 64|d 128 4 128"
IFS='|'; for s in $SH; do IFS=' '
  echo "$s | OB vs new: $(/tmp/abdl $OB $NEW $s 601 20 | sed 's/.*: A/A/') | OB vs old: $(/tmp/abdl $OB $OLD $s 601 20 | sed 's/.*ratios //') | old vs new: $(/tmp/abdl $OLD $NEW $s 601 20 | sed 's/.*ratios //')"
done
echo "# GK_ARCH=avx2, OPENBLAS_CORETYPE=Haswell"
IFS='|'; for s in $SH; do IFS=' '
  echo "avx2 $s | OB vs new: $(GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell /tmp/abdl $OB $NEW $s 401 20 | sed 's/.*: A/A/') | old vs new: $(GK_ARCH=avx2 /tmp/abdl $OLD $NEW $s 401 20 | sed 's/.*ratios //')"
done
