#!/bin/bash
# Zen 5: dotall vs nodot sweep, same grid as the Xeon's, 1 thread, abdl
. /work/main/bench/results/2026-11-27-zen5-cpu-e/scripts/env.sh
cp /tmp/b6/libgemmkit.so.0.1.0 /tmp/libgk_nodot.so; cp /tmp/b7/libgemmkit.so.0.1.0 /tmp/libgk_dotall.so
for t in s d; do
  if [ $t = s ]; then NS="1 2 3 4 5 6 7 8"; else NS="1 2 3 4"; fi
  for mk in "16 64" "16 256" "64 32" "64 64" "64 128" "64 256" "64 1024" "256 64" "256 256" "256 4096"; do
    set -- $mk; m=$1; k=$2; line="$t m=$m k=$k:"
    for n in $NS; do line="$line n$n=$(ENVA=GK_GEMM_DOT=0 ENVB=GK_GEMM_DOT=1 /tmp/abdl /tmp/libgk_nodot.so /tmp/libgk_dotall.so $t $m $n $k 301 10 | sed 's/.*ratios //')"; done
    echo "$line"
  done
done
