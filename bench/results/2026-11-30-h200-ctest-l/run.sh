#!/bin/bash
# Build with CUDA for sm_90 and run the whole test suite but the sanitizer label; then the
# GEMM tests with row pairs and quads forced on (GK_GEMM_PAIRS=1: the unpacked split of the
# last columns, usplit, runs only with them) on 1 and 16 threads of the host's Xeon.
R=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)|L2"; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && timeout 300 ctest -j8 -LE cuda-sanitize --output-on-failure > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
for th in 1 16; do for t in test_gemm test_gemm_shapes test_gemm_unpacked test_blas; do
  (cd build/tests && GK_GEMM_PAIRS=1 GK_NUM_THREADS=$th timeout 150 ./$t > $R/pairs_t${th}_$t.log 2>&1; echo "pairs t=$th $t rc=$? $(tail -1 $R/pairs_t${th}_$t.log)" >> $R/summary.txt)
done; done
tail -5 $R/ctest.log >> $R/summary.txt
cat $R/summary.txt
