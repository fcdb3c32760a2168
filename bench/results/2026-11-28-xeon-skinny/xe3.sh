#!/bin/bash
# Small products in cache, 1 thread, 31 rounds, twice: does the next-sliver request cost on this CPU?
cd "$(dirname "$0")"
for i in 1 2; do
for a in avx2 avx512; do for sh in "128 128 128" "200 200 200" "256 256 256" "300 300 300" "400 400 400" "64 64 64"; do for d in s d; do
  printf "%-6s " $a; GK_NUM_THREADS=1 GK_ARCH=$a ./abdl ./gk_base.so ./gk_new.so $d $sh 31
done; done; done; done > $OUT/ab_small.log 2>&1
