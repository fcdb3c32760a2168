#!/bin/bash
# Build with CUDA for sm_90 and run the cuda-sanitize label (compute-sanitizer memcheck and racecheck) to the end.
R=$OUT/r; mkdir -p $R
t0=$(date +%s)
{ date -u; nvidia-smi -L; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && timeout 520 ctest -L cuda-sanitize -j8 --timeout 500 > $R/ctest_sanitize.log 2>&1; echo "sanitize rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
cd $OUT && cp r/summary.txt . && tail -15 r/ctest_sanitize.log >> summary.txt
