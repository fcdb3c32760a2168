#!/bin/bash
# gk AVX2 SGEMM: blocking X (A) vs default (B), call by call
cp /tmp/bn/libgemmkit.so.0.1.0 /tmp/libgk_a.so; cp /tmp/bn/libgemmkit.so.0.1.0 /tmp/libgk_b.so
export GK_ARCH=avx2 GK_THREADS=1 OMP_NUM_THREADS=1 AL=64
for n in 2048 4096; do
 r=7; [ $n = 4096 ] && r=3
 for blk in 354,368,4096 240,368,4096 480,256,4096 354,256,4096 192,512,4096 354,368,2048 354,368,1024 120,368,4096; do
  echo -n "blk=$blk "; ENVA="GK_GEMM_BLOCKS=$blk" ENVB="" /tmp/abdl /tmp/libgk_a.so /tmp/libgk_b.so s $n $n $n $r
 done
done
