#!/bin/bash
# rounds of XPF variants, each the gf256 bench vs ISA-L (ratio = the pairing)
for rep in $(seq ${REPS:-3}); do
 for v in $VARS; do
  env $v $XENV GK_ARCH=${ARCH:-avx512} /tmp/bx/gemmkit bench --suite gf256 --codes ${CODES:-10+4,12+4,28+4} --sizes ${SIZES:-64k,1M} --threads 1 --no-plot --out /tmp/exp/pfr 2>/dev/null | grep '^|' | grep -v -- '---\|case' | awk -F'|' -v v="$v" '{printf "%s|%s|%s|%s|%s\n",v,$2,$4,$5,$7}'
 done
done
