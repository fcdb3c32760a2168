#!/bin/sh
# Device-machine CPU run: A/B of two gemmkit builds call by call, then gemmkit bench vs OpenBLAS/BLIS.
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p $O
lscpu > $O/machine.txt; nproc >> $O/machine.txt
tar xJf refs.tar.xz -C /tmp
export LD_LIBRARY_PATH=/tmp/refs:$PWD/bin
{
for a in avx2 avx512; do
for sh in "64 4096 4096" "100 100 100000" "200 200 20000" "100 300 50000" "48 2000 3000" "8 4096 4096" "16 4096 4096" "32 4096 4096" "300 300 300" "1000 1000 1000" "4096 4096 64" "256 256 256"; do
for d in s d; do printf "%-6s " $a; GK_NUM_THREADS=1 GK_ARCH=$a timeout 60 ./abdl $PWD/gk_base.so $PWD/gk_new.so $d $sh 5; done; done; done
} > $O/ab_1t.log 2>&1
for s in avx2 avx512; do
  if [ $s = avx2 ]; then E="GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell BLIS_ARCH_TYPE=3"; else E="OPENBLAS_CORETYPE=SkylakeX BLIS_ARCH_TYPE=0"; fi
  env $E timeout 200 bin/gemmkit bench --shapes 64x4096x4096,100x100x100000,200x200x20000,100x300x50000,48x2000x3000 --algos auto,openblas-best,blis-best --dtype both --threads 1,2 --out $O/bench-$s > $O/bench-$s.log 2>&1
done
