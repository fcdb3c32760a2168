#!/bin/bash
# The GPU suites after the engine's peak floor and memory checks (CPU contenders only get a
# floor; every cell checks host memory): quick gpu and gpu-ladder runs, a gpu cell too large
# for the host's memory, and a CLI product too large for it.
R=$OUT; t0=$(date +%s)
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)"; grep MemAvailable /proc/meminfo; } > $R/machine.txt 2>&1
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s"
G=./build/gemmkit
timeout 200 $G bench --suite gpu --quick --no-plot --out $R/gpu > $R/gpu.log 2>&1; echo "gpu quick rc=$?"
grep "^|" $R/gpu/results.md | head -12
timeout 200 $G bench --suite gpu-ladder --quick --no-plot --out $R/ladder > $R/ladder.log 2>&1; echo "gpu-ladder quick rc=$?"
grep "^|" $R/ladder/results.md | head -8
timeout 60 $G bench --suite gpu --sizes 200000 --no-plot --out $R/big > $R/big.log 2>&1; echo "gpu 200000 rc=$?"; grep "^\[" $R/big.log | head -4
timeout 60 $G gemm 200000 200000 200000 --backend cuda > $R/gemm_big.log 2>&1; echo "gemm 200000^3 cuda rc=$?"; cat $R/gemm_big.log
echo "total $(( $(date +%s)-t0 ))s"
