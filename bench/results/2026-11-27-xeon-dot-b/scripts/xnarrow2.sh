#!/bin/bash
# The library with the least depths measured again (new) and the commit before the session's
# changes (old) against OpenBLAS-SkylakeX, 1 thread pinned, call by call (abdl, buffers from
# malloc); then the AVX2 set (GK_ARCH=avx2) against OpenBLAS-Haswell.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
R=$OUT/r; mkdir -p $R
{ date -u; lscpu | grep -E "Model name|Model:|CPU family|^CPU\(s\)|L1d|L2"; } > $R/machine.txt 2>&1
P="taskset -c 3"
SH="s 64 2 64|s 128 2 128|s 64 3 64|s 64 4 64|s 128 4 128|s 16 4 256|s 64 5 64|s 64 6 64|s 128 6 128|s 64 7 64|s 128 7 128|s 64 8 64|s 128 8 128|s 512 4 512|d 64 2 64|d 128 2 128|d 512 2 512|d 64 3 64|d 128 3 128|d 64 4 64|d 128 4 128"
IFS='|'; for s in $SH; do IFS=' '
  echo "$s | OB vs new: $($P ./abdl ./libopenblas.so.0 ./libgk_new.so $s 601 20 | sed 's/.*: A/A/') | OB vs old: $($P ./abdl ./libopenblas.so.0 ./libgk_old.so $s 601 20 | sed 's/.*ratios //') | old vs new: $($P ./abdl ./libgk_old.so ./libgk_new.so $s 601 20 | sed 's/.*ratios //')" >> $R/vs_openblas.log
done
IFS='|'; for s in $SH; do IFS=' '
  echo "avx2 $s | OB vs new: $(GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell $P ./abdl ./libopenblas.so.0 ./libgk_new.so $s 401 20 | sed 's/.*: A/A/') | old vs new: $(GK_ARCH=avx2 $P ./abdl ./libgk_old.so ./libgk_new.so $s 401 20 | sed 's/.*ratios //')" >> $R/vs_openblas.log
done
cd $OUT && tar czf res.tgz r
