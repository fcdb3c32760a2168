#!/bin/bash
# On one H200 (from the repository root; OUTDIR the first argument), after
# the out-of-core driver's first step in parts and its other steps became
# one path (src/cuda/hostmem/hm_driver.cu): the build; the out-of-core and
# multi-GPU tests and their compute-sanitizer (memcheck) runs; the
# gpu-multi suite's one-device cells at 32768 against cuBLASXt.
set -o pipefail
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"
T0=$(date +%s)
( time GK_SKIP_DEPS=1 JOBS=16 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" timeout 300 ./build.sh build ) >"$O/build.log" 2>&1
rc=$?; echo "build rc=$rc after $(( $(date +%s) - T0 )) s"
if [ $rc != 0 ]; then tail -40 "$O/build.log"; exit 1; fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
timeout 300 ctest --test-dir build -j3 -R "test_cuda_multi|test_hostmem_plan|test_cuda_hostmem|cuda_hostmem_sanitize_memcheck|cuda_multi_sanitize_memcheck" --output-on-failure >"$O/tests.log" 2>&1
echo "ctest rc=$? at $(( $(date +%s) - T0 )) s"
grep -E "Test +#|tests passed|Failed|ERROR SUMMARY" "$O/tests.log"
timeout 200 build/gemmkit bench --suite gpu-multi --no-plot --reps 3 --sizes 32768 --out "$O/n32768" \
  --algos gemmkit-d1,gemmkit-accurate-d1,gemmkit-tf32-d1,cublasxt-d1 >"$O/bench.log" 2>&1
echo "bench rc=$? at $(( $(date +%s) - T0 )) s"
grep -E "^\| " "$O/n32768/results.md" | head -12
