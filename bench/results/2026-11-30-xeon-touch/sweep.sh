#!/bin/bash
# AVX2 SGEMM 4096^3 on one thread of the Xeon: gemmkit against OpenBLAS Haswell with the
# default blocking and with GK_GEMM_BLOCKS=mc,kc,nc,l2 variants (the fourth field keeps
# the row-walk rule of a 2 MiB L2), 7 rounds each, interleaved; the ratio is within each run.
R=$OUT; t0=$(date +%s)
cmake -S . -B /tmp/bx -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > $R/build.log 2>&1 && cmake --build /tmp/bx -j16 --target gemmkit_cli >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
export GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell BLIS_ARCH_TYPE=3
for v in default 354,368,4096,2097152 240,368,4096,2097152 528,368,4096,2097152 354,256,4096,2097152 504,256,4096,2097152 354,368,2048,2097152 252,512,4096,2097152 default; do
  if [ $v = default ]; then unset GK_GEMM_BLOCKS; else export GK_GEMM_BLOCKS=$v; fi
  echo "== $v ($(( $(date +%s)-t0 ))s)"
  taskset -c 4 /tmp/bx/gemmkit bench --no-plot --algos auto,openblas-best --threads 1 --dtype s --sizes 4096 --reps 7 --out /tmp/o 2>>$R/sweep.err | grep -E "^\| 4096"
done
echo "done $(( $(date +%s)-t0 ))s"
