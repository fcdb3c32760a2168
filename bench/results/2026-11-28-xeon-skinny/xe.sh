#!/bin/bash
# A/B of gemmkit 74094b6 (gk_base.so) against the current tree (gk_new.so) on this machine's CPU, 1 and 2 threads.
cd "$(dirname "$0")"
{ date -u; lscpu | grep -E "Model name|^CPU\(s\)|Flags" | cut -c1-400; nproc; } > $OUT/machine.txt 2>&1
./abrun.sh ./gk_base.so ./gk_new.so 11 > $OUT/ab_1t.log 2>&1
for a in avx2 avx512; do for sh in "8 4096 4096" "24 4096 4096" "24 4100 2048" "16 4112 2048" "32 1000 1000" "64 4096 4096" "1000 1000 1000"; do for d in s d; do
  printf "%-6s t=2 " $a; GK_NUM_THREADS=2 GK_ARCH=$a ./abdl ./gk_base.so ./gk_new.so $d $sh 11
  printf "%-6s t=8 " $a; GK_NUM_THREADS=8 GK_ARCH=$a ./abdl ./gk_base.so ./gk_new.so $d $sh 11
done; done; done > $OUT/ab_mt.log 2>&1
