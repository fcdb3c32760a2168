#!/bin/bash
# The whole test suite again with the CUDA build for sm_90, after the sanitizer runs of a test
# took its properties (RUN_SERIAL) and test_cuda_hostmem's free-memory check became `now >= base`:
# the sanitizer run of that test had not been repeated on a GPU after the change.
R=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi -L; nvcc --version | tail -2; lscpu | grep -E "Model name|^CPU\(s\)|L2"; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && timeout 420 ctest -j8 --output-on-failure > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
grep -E "Test +#|tests passed|Failed|Not Run|Skipped" $R/ctest.log | grep -vi " Passed" >> $R/summary.txt
tail -6 $R/ctest.log >> $R/summary.txt
grep -E "cuda_hostmem" $R/ctest.log >> $R/summary.txt
cat $R/summary.txt
