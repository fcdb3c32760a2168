#!/bin/sh
# Device-machine CPU run: A/B of two gemmkit builds call by call on 1, 2, 8 and 16 threads
# (long-k and skinny shapes), then gemmkit bench vs OpenBLAS/BLIS on 16 threads; results tarred.
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; R=/tmp/res; mkdir -p $O $R
lscpu > $R/machine.txt; nproc >> $R/machine.txt
tar xJf refs.tar.xz -C /tmp
export LD_LIBRARY_PATH=/tmp/refs:$PWD/bin
{
for t in 1 2 8 16; do
for a in avx2 avx512; do
for sh in "100 100 100000" "60 70 40000" "200 200 20000" "64 64 20000" "100 300 50000" "64 4096 4096"; do
for d in s d; do printf "t%-2s %-6s " $t $a; GK_NUM_THREADS=$t GK_ARCH=$a timeout 60 ./abdl $PWD/gk_base.so $PWD/gk_new.so $d $sh 5; done; done; done; done
} > $R/ab_threads.log 2>&1
OPENBLAS_CORETYPE=SkylakeX BLIS_ARCH_TYPE=0 timeout 150 bin/gemmkit bench --shapes 100x100x100000,60x70x40000,200x200x20000,64x64x20000 --algos auto,openblas-best,blis-best --dtype both --threads 16 --out $R/bench-avx512-t16 > $R/bench-avx512-t16.log 2>&1
tar czf $O/res.tgz -C /tmp res
