#!/bin/bash
# Build with CUDA for sm_90, run the whole test suite (compute-sanitizer memcheck label included),
# then the bench with the operands touched before each round: the CPU default rungs around the
# ladder's Strassen on the host's Xeon, and the GPU suite, quick, beside cuBLAS.
R=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)|L2"; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && timeout 400 ctest -j8 --output-on-failure > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
tail -8 $R/ctest.log >> $R/summary.txt
GK_NUM_THREADS=1 timeout 120 ./build/gemmkit bench --sizes 2048 --algos cpu.strassen_seed,cpu.blocked,auto --reps 3 --out $R/seed > $R/seed.log 2>&1; echo "seed rc=$?" >> $R/summary.txt
grep -A3 "^| n " $R/seed/results.md | head -4 >> $R/summary.txt
timeout 200 ./build/gemmkit bench --suite gpu --quick --out $R/gpu > $R/gpu.log 2>&1; echo "gpu rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
grep "^|" $R/gpu/results.md | head -30 >> $R/summary.txt
rm -rf $R/seed/*.png $R/gpu/*.png $R/seed/*.dat $R/gpu/*.dat $R/seed/*.gp $R/gpu/*.gp
cat $R/summary.txt
