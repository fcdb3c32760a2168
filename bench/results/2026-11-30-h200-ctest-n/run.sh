#!/bin/bash
# Build with CUDA for sm_90 and run the test suite but the sanitizer label (the change is
# CPU-only); then the GEMM tests on the host's Xeon with each kernel set, 1 and 16 threads
# (Intel's cubes send other products to way 1 than AMD's: the dot rest's bits across counts).
R=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)|L2|Flags" | cut -c1-400; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && timeout 300 ctest -j8 -LE cuda-sanitize --output-on-failure > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
tail -4 $R/ctest.log >> $R/summary.txt
for set in avx512 avx2; do for th in 1 16; do for t in test_gemm_shapes test_gemm test_blas; do
  (cd build/tests && GK_ARCH=$set GK_NUM_THREADS=$th timeout 120 ./$t > $R/${set}_t${th}_$t.log 2>&1; echo "$set t=$th $t rc=$? $(tail -1 $R/${set}_t${th}_$t.log)" >> $R/summary.txt)
done; done; done
cat $R/summary.txt
