#!/bin/bash
# After the GFNI four-vector change and the bench's gf256 changes: CUDA build for sm_90, the
# whole test suite (compute-sanitizer memcheck and racecheck tests included), then the gf256
# suite, quick, on the host's Xeon (1 and 2 threads, the round-by-round column).
R=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)|L2"; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && timeout 330 ctest -j8 --output-on-failure > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
tail -8 $R/ctest.log >> $R/summary.txt
timeout 60 ./build/gemmkit bench --suite gf256 --quick --threads 1,2 --no-plot --out $R/gf > $R/gf.log 2>&1; echo "gf256 rc=$?" >> $R/summary.txt
grep "^|" $R/gf/results.md >> $R/summary.txt
cat $R/summary.txt
