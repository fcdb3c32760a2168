#!/bin/bash
# Re-runs of the cells of xe.sh furthest below 1, three times each.
cd "$(dirname "$0")"
for i in 1 2 3; do
for x in "avx2 8 s 64 4096 4096" "avx512 8 d 64 4096 4096" "avx512 2 s 1000 1000 1000" "avx2 1 s 300 300 300" "avx2 1 d 300 300 300" "avx2 1 s 8 8 100000" "avx2 2 s 16 4112 2048" "avx2 2 d 1000 1000 1000"; do
  set -- $x; a=$1; t=$2; shift 2
  printf "%-6s t=$t " $a; GK_NUM_THREADS=$t GK_ARCH=$a ./abdl ./gk_base.so ./gk_new.so $@ 15
done; done > $OUT/ab_recheck.log 2>&1
