#!/bin/bash
# One device call: build with CUDA for sm_90, whole suite, cuda-sanitize label,
# then the pool's back-to-back test and the way-5 thread test many times under load.
R=$OUT/r; mkdir -p $R
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|Model:|CPU family|^CPU\(s\)"; git log --oneline -1; } > $R/machine.txt 2>&1
t0=$(date +%s)
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
cd build
ctest -LE cuda-sanitize -j8 --timeout 400 > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
timeout 150 ctest -L cuda-sanitize -j4 --timeout 140 > $R/ctest_sanitize.log 2>&1; echo "sanitize rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
# 16 CPUs: threads 2..16 back to back, beside 8 spinning processes part of the time
{ for i in 1 2 3 4 5; do ./tests/test_pool | tail -2; done
  for s in 1 2 3 4 5 6 7 8; do timeout 30 sh -c 'while :; do :; done' & done
  for i in 1 2 3 4 5; do ./tests/test_pool | tail -2; done
  fails=0; for i in $(seq 1 20); do GK_ARCH=avx2 ./tests/test_gemm_dot_api > /tmp/o.txt 2>&1 || { fails=$((fails+1)); grep FAIL /tmp/o.txt | head -3; }; done; echo "dot_api avx2 x20 beside spinners: $fails failed"
  wait; } > $R/pool_stress.log 2>&1
echo "stress done $(( $(date +%s)-t0 ))s" >> $R/summary.txt
cd $OUT && tar czf res.tgz r && cp r/summary.txt . && tail -4 r/ctest.log >> summary.txt
