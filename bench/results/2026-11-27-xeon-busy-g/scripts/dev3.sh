#!/bin/bash
# One device call: build with CUDA for sm_90, the whole suite, and the busy-machine suite pinned to two CPUs.
R=$OUT/r; mkdir -p $R
export LD_LIBRARY_PATH=$PWD/build-ab
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|Model:|CPU family|^CPU\(s\)"; } > $R/machine.txt 2>&1
t0=$(date +%s)
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
cd build
ctest -LE cuda-sanitize -j8 --timeout 400 > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
taskset -c 2,3 ./gemmkit bench --suite cpu-busy --out $R/busy > $R/busy.log 2>&1; echo "busy rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
cd $OUT && tar czf res.tgz r && cp r/summary.txt . && tail -4 r/ctest.log >> summary.txt
