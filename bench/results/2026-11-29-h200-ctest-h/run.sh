#!/bin/bash
# Build with CUDA for sm_90, run the whole test suite but the sanitizer label, then the GEMM
# tests under compute-sanitizer memcheck; then the GEMM tests with the AVX2 set on all the
# host's threads (the prefetching kernels take a run of lines besides the list).
R=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)|L2"; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && timeout 300 ctest -j8 -LE cuda-sanitize --output-on-failure > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
(cd build && timeout 200 ctest -j4 -R "cuda_sanitize_memcheck|hostmem.*memcheck" --timeout 190 > $R/ctest_sanitize.log 2>&1; echo "sanitize rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
for t in test_gemm test_gemm_shapes test_gemm_ukr; do
  (cd build/tests && GK_ARCH=avx2 GK_NUM_THREADS=16 timeout 120 ./$t > $R/avx2_$t.log 2>&1; echo "avx2 $t rc=$? $(tail -1 $R/avx2_$t.log)" >> $R/summary.txt)
done
tail -5 $R/ctest.log >> $R/summary.txt; tail -8 $R/ctest_sanitize.log >> $R/summary.txt
