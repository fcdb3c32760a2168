#!/bin/bash
# The matrix-vector way: gemmkit 74094b6 (gk_base.so) against the current tree (gk_new.so), 1, 2 and 8 threads.
cd "$(dirname "$0")"
{ date -u; lscpu | grep -E "Model name|^CPU\(s\)"; } > $OUT/machine.txt 2>&1
for t in 1 2 8; do for a in avx2 avx512; do for x in "1 4096 4096" "2 4096 4096" "1 20000 3000" "1 8192 1024" "1 1000 1000" "2 800 700" "1 600 600"; do for d in s d; do
  printf "t=$t %-6s " $a; GK_NUM_THREADS=$t GK_ARCH=$a ./abdl ./gk_base.so ./gk_new.so $d $x 15
done; done; done; done > $OUT/ab_gemv.log 2>&1
