#!/bin/bash
. /tmp/proto/env.sh
NEW=/tmp/bnew/libgemmkit.so.0; OLD=/tmp/bold2/libgemmkit.so.0
for t in s d; do
  if [ $t = s ]; then NS="1 2 3 4 5 6 7 8"; else NS="1 2 3 4"; fi
  for mk in "8 64" "16 32" "16 64" "64 32" "64 64" "16 256" "64 256" "256 256" "64 1024" "256 4096" "12 500"; do
    set -- $mk; m=$1; k=$2
    line="$t m=$m k=$k:"
    for n in $NS; do
      r=$(/tmp/abdl $OLD $NEW $t $m $n $k 301 10 | sed 's/.*ratios //')
      line="$line n$n=$r"
    done
    echo "$line"
  done
done
