#!/bin/bash
# Large products on this CPU, 1 thread pinned, call by call (abdl): gemmkit (ab47e28) against OpenBLAS-SkylakeX.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
R=$OUT/r; mkdir -p $R
P="taskset -c 5"
for s in "d 1024 1024 1024 9 1" "d 2048 2048 2048 5 1" "d 4096 4096 4096 3 1" "s 2048 2048 2048 5 1" "s 4096 4096 4096 3 1" "d 4096 4096 64 9 1" "d 256 256 256 41 5" "s 32 32 32 401 50"; do
  echo "$s | OB vs new: $($P ./abdl ./libopenblas.so.0 ./libgk_new.so $s | sed 's/.*: A/A/')" >> $R/large.log
done
cd $OUT && tar czf res.tgz r
