#!/bin/bash
# Build with CUDA for sm_90, run the whole test suite but the sanitizer label, then the
# sanitizer tests; then the GF(2^8) tests with the AVX2 set and the gf256 suite (1 thread)
# with the AVX-512+GFNI and AVX2+GFNI kernels on the host's Xeon (the GFNI kernels now
# request their inputs ahead for 9 or more inputs from past L2).
R=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)|L2|Flags" | cut -c1-200; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && timeout 300 ctest -j8 -LE cuda-sanitize --output-on-failure > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
(cd build && timeout 200 ctest -j4 -R "cuda_sanitize_memcheck|hostmem.*memcheck" --timeout 190 > $R/ctest_sanitize.log 2>&1; echo "sanitize rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
for t in test_gf256 test_rs; do
  (cd build/tests && GK_ARCH=avx2 timeout 120 ./$t > $R/avx2_$t.log 2>&1; echo "avx2 $t rc=$? $(tail -1 $R/avx2_$t.log)" >> $R/summary.txt)
done
GK_NUM_THREADS=1 timeout 100 ./build/gemmkit bench --suite gf256 --threads 1 --no-plot --out $R/gf256 > $R/gf256.log 2>&1; echo "gf256 rc=$?" >> $R/summary.txt
GK_ARCH=avx2 timeout 100 ./build/gemmkit bench --suite gf256 --threads 1 --no-plot --out $R/gf256-avx2-gfni > $R/gf256-avx2.log 2>&1; echo "gf256 avx2 rc=$?" >> $R/summary.txt
tail -5 $R/ctest.log >> $R/summary.txt; tail -8 $R/ctest_sanitize.log >> $R/summary.txt
