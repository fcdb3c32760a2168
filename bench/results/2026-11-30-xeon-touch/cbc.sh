#!/bin/bash
# Call by call on the Xeon (logs/abdl.c of ../2026-11-27-emr-cpu: two GEMM libraries
# alternated in one process, median of per-round time ratios; B/A > 1: B faster).
# A = gemmkit (built here at the working tree's commit), B = OpenBLAS as installed there.
R=$OUT; t0=$(date +%s)
cmake -S . -B /tmp/bx -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > $R/build.log 2>&1 && cmake --build /tmp/bx -j16 --target gemmkit >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
gcc -O2 -o /tmp/abdl bench/results/2026-11-27-emr-cpu/logs/abdl.c -ldl || exit 1
GK=$(ls /tmp/bx/libgemmkit.so.0.*); OB=$(ls /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas*.so.0 | head -1)
echo "gemmkit $GK, OpenBLAS $OB; $(date -u)"
ab() { echo "-- $*"; AL=64 "$@" 2>&1 | tail -1; }
export GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
for i in 1 2; do ab env GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell taskset -c 4 /tmp/abdl $GK $OB s 4096 4096 4096 7; done
ab env GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell taskset -c 4 /tmp/abdl $GK $OB s 2048 2048 2048 11 3
ab env OPENBLAS_CORETYPE=Cooperlake taskset -c 4 /tmp/abdl $GK $OB d 2048 2048 2048 11 2
ab env OPENBLAS_CORETYPE=Cooperlake taskset -c 4 /tmp/abdl $GK $OB d 4096 4096 4096 5
export GK_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2
ab env GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell taskset -c 4,5 /tmp/abdl $GK $OB s 1024 1024 1024 11 5
ab env GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell taskset -c 4,5 /tmp/abdl $GK $OB s 1000 1000 1000 11 5
echo "done $(( $(date +%s)-t0 ))s"
