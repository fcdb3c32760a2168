#!/bin/bash
# ab2.sh A B "shape"...: per shape, 2 runs each order; prints geometric mean of B/A
. /work/main/bench/results/2026-11-27-zen5-cpu-e/scripts/env.sh
A=$1; B=$2; shift 2
for s in "$@"; do
  r1=$(AL=${AL:-64} OFF=${OFF:-0} /tmp/abdl $A $B $s ${ROUNDS:-1000} 20 | awk '{print $NF}')
  r2=$(AL=${AL:-64} OFF=${OFF:-0} /tmp/abdl $B $A $s ${ROUNDS:-1000} 20 | awk '{print $NF}')
  r3=$(AL=${AL:-64} OFF=${OFF:-0} /tmp/abdl $A $B $s ${ROUNDS:-1000} 20 | awk '{print $NF}')
  r4=$(AL=${AL:-64} OFF=${OFF:-0} /tmp/abdl $B $A $s ${ROUNDS:-1000} 20 | awk '{print $NF}')
  echo "$s OFF=${OFF:-0}: $r1 $(echo "1/$r2" | bc -l | cut -c1-5) $r3 $(echo "1/$r4" | bc -l | cut -c1-5) gm $(echo "e((l($r1)-l($r2)+l($r3)-l($r4))/4)" | bc -l | cut -c1-5)"
done
