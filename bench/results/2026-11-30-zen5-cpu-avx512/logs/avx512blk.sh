#!/bin/bash
cp /tmp/bn/libgemmkit.so.0.1.0 /tmp/libgk_a.so; cp /tmp/bn/libgemmkit.so.0.1.0 /tmp/libgk_b.so
export GK_THREADS=1 OMP_NUM_THREADS=1 AL=64
n=${N:-4096}
for blk in $BLKS; do
  echo -n "blk=$blk "; ENVA="GK_GEMM_BLOCKS=$blk" ENVB="" /tmp/abdl /tmp/libgk_a.so /tmp/libgk_b.so ${DT:-s} $n $n $n ${R:-5}
done
