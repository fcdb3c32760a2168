#!/bin/bash
# C 3 columns wide on this Intel CPU, 1 thread pinned, call by call (abdl): the AVX-512 table
# as it is (new: off for 2 and 3 columns, 3 doubles to the dot tiles from k = 128) and two
# variants (v1: off for 2 columns only, 3 doubles from k = 64; v2: off for 2 and 3, 3 doubles
# from k = 64), each against OpenBLAS-SkylakeX; buffers from malloc, then 64-byte aligned + 16.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
R=$OUT/r; mkdir -p $R
P="taskset -c 6"
for al in "" "64"; do
  for s in "d 16 3 64" "d 64 3 64" "d 256 3 64" "d 128 3 128" "d 64 3 1024" "s 16 3 64" "s 64 3 256" "s 256 3 1024" "d 64 2 128" "s 64 2 256"; do
    line="AL=${al:-malloc} $s |"; E=""; [ -n "$al" ] && E="env AL=$al OFF=16"
    for v in new v1 v2; do line="$line $v/OB $($E $P ./abdl ./libopenblas.so.0 ./libgk_$v.so $s 401 20 | sed 's/.*ratios //')"; done
    echo "$line" >> $R/off3.log
  done
done
cd $OUT && tar czf res.tgz r
