#!/bin/bash
# Re-runs of the matrix-vector cells below 1 on this machine, three times, with neighbours.
cd "$(dirname "$0")"
for i in 1 2 3; do for a in avx2 avx512; do for x in "1 1000 1000" "1 1024 1000" "1 1500 1500" "2 1000 1000" "1 1000 4000"; do for d in s d; do
  printf "t=1 %-6s " $a; GK_NUM_THREADS=1 GK_ARCH=$a ./abdl ./gk_base.so ./gk_new.so $d $x 21
done; done; done; done > $OUT/ab_gemv_recheck.log 2>&1
