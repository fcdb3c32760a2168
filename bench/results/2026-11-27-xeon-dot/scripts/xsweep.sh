#!/bin/bash
# Dot tiles on this CPU: the build that sends every C up to 8 floats / 4 doubles wide to them (dotall) against the commit before (old), call by call, 1 thread; and against OpenBLAS.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
R=$OUT/r; mkdir -p $R
{ date -u; lscpu | grep -E "Model name|Model:|CPU family|^CPU\(s\)|L1d|L2"; } > $R/machine.txt 2>&1
for t in s d; do
  if [ $t = s ]; then NS="1 2 3 4 5 6 7 8"; else NS="1 2 3 4"; fi
  for mk in "8 64" "16 32" "16 64" "64 32" "64 64" "16 256" "64 256" "256 256" "64 1024" "256 4096" "12 500"; do
    set -- $mk; m=$1; k=$2; line="$t m=$m k=$k:"
    for n in $NS; do line="$line n$n=$(./abdl ./libgk_old.so ./libgk_dotall.so $t $m $n $k 301 10 | sed 's/.*ratios //')"; done
    echo "$line" >> $R/sweep_old_vs_dotall.log
  done
done
for s in "s 64 4 64" "s 128 4 128" "s 64 8 64" "s 128 8 128" "s 64 5 64" "s 16 8 256" "s 64 8 300" "s 16 4 256" "d 64 2 64" "d 64 4 64" "d 16 4 256" "d 128 4 128"; do
  echo "$(./abdl ./libopenblas.so.0 ./libgk_dotall.so $s 1001 20) | old/OB: $(./abdl ./libopenblas.so.0 ./libgk_old.so $s 1001 20 | sed 's/.*ratios //')" >> $R/vs_openblas.log
done
cd $OUT && tar czf res.tgz r
