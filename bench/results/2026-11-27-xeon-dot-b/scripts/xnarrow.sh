#!/bin/bash
# Products a few columns wide on this CPU, 1 thread pinned, call by call (abdl): the dot tiles
# of every width from k = 32 (libgk_dotall.so) against none (the same code with GK_GEMM_DOT=0),
# for the table's least depths; the library as committed (new) and the commit before this
# session's (old) against OpenBLAS-SkylakeX; then the whole suite built with CUDA.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
R=$OUT/r; mkdir -p $R
{ date -u; lscpu | grep -E "Model name|Model:|CPU family|^CPU\(s\)|L1d|L2"; } > $R/machine.txt 2>&1
t0=$(date +%s)
P="taskset -c 3"
for t in s d; do
  if [ $t = s ]; then NS="1 2 3 4 5 6 7 8"; else NS="1 2 3 4"; fi
  for mk in "16 64" "16 256" "64 32" "64 64" "64 128" "64 256" "64 1024" "256 64" "256 256" "256 4096"; do
    set -- $mk; m=$1; k=$2; line="$t m=$m k=$k:"
    for n in $NS; do line="$line n$n=$(ENVA=GK_GEMM_DOT=0 ENVB=GK_GEMM_DOT=1 $P ./abdl ./libgk_nodot.so ./libgk_dotall.so $t $m $n $k 151 10 | sed 's/.*ratios //')"; done
    echo "$line" >> $R/sweep_nodot_vs_dotall.log
  done
done
echo "sweep $(( $(date +%s)-t0 ))s" >> $R/summary.txt
for s in "s 64 2 64" "s 128 2 128" "s 64 4 64" "s 128 4 128" "s 64 5 64" "s 64 6 64" "s 128 6 128" "s 64 7 64" "s 128 7 128" "s 64 8 64" "s 128 8 128" "s 512 4 512" "d 64 2 64" "d 128 2 128" "d 512 2 512" "d 64 3 64" "d 64 4 64" "d 128 4 128"; do
  echo "$s | OB vs new: $($P ./abdl ./libopenblas.so.0 ./libgk_new.so $s 601 20 | sed 's/.*: A/A/') | OB vs old: $($P ./abdl ./libopenblas.so.0 ./libgk_old.so $s 601 20 | sed 's/.*ratios //') | old vs new: $($P ./abdl ./libgk_old.so ./libgk_new.so $s 601 20 | sed 's/.*ratios //')" >> $R/vs_openblas.log
done
echo "vs_openblas $(( $(date +%s)-t0 ))s" >> $R/summary.txt
cd .. && OUT=$OUT/ct bash build-ab/ctest.sh
cd build && { ./tests/test_gemm_dot | grep -E "dot tiles|passed|skipped"; ./tests/test_gemm_dot_api | tail -4; GK_ARCH=avx2 ./tests/test_gemm_dot_api | tail -3; } > $R/dot_tests.txt 2>&1
cd $OUT && tar czf res.tgz r ct
