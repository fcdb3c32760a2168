#!/bin/bash
# Run 2 on two H200s (from the repository root; OUTDIR the first argument),
# after the first step of a call went in depth parts: the build; the
# out-of-core and multi-GPU tests and their compute-sanitizer (memcheck)
# runs; the gpu-multi suite at 32768 (3 rounds) and 65536 (1 round).
set -o pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
O=${1:?usage: call2.sh OUTDIR}; mkdir -p "$O"
T0=$(date +%s)
left() { echo $((${1:-580} - ($(date +%s) - T0))); }
( time GK_SKIP_DEPS=1 JOBS=32 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" timeout 300 ./build.sh build ) >"$O/build.log" 2>&1
rc=$?; echo "build rc=$rc after $(( $(date +%s) - T0 )) s"
if [ $rc != 0 ]; then tail -40 "$O/build.log"; exit 1; fi
timeout 240 ctest --test-dir build -j3 -R "test_cuda_multi|test_hostmem_plan|test_cuda_hostmem|cuda_hostmem_sanitize_memcheck|cuda_multi_sanitize_memcheck" --output-on-failure >"$O/tests.log" 2>&1
echo "ctest rc=$? at $(( $(date +%s) - T0 )) s"
grep -E "Test +#|tests passed|Failed|ERROR SUMMARY" "$O/tests.log"
run() { # label, budget, bench args...
  local L=$1 B=$2; shift 2
  echo "== $L: gemmkit bench --suite gpu-multi $*" >>"$O/bench.log"
  timeout $B build/gemmkit bench --suite gpu-multi --no-plot "$@" >>"$O/bench.log" 2>&1
  echo "$L rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$O/bench.log"
  grep -E "^\| (gemmkit|cublasxt)|^\| SGEMM" "$O/$L/results.md" | head -24
}
export GK_HM_TRACE=1
run n32768 120 --reps 3 --sizes 32768 --out "$O/n32768" \
  --algos gemmkit-d1,gemmkit-d2,gemmkit-accurate-d1,gemmkit-accurate-d2,gemmkit-tf32-d1,gemmkit-tf32-d2,gemmkit-det-d2,cublasxt-d1,cublasxt-d2
run n65536 $(left 585) --reps 1 --sizes 65536 --out "$O/n65536" \
  --algos gemmkit-accurate-d1,gemmkit-accurate-d2,gemmkit-tf32-d1,gemmkit-tf32-d2,gemmkit-d1,gemmkit-d2,cublasxt-d1,cublasxt-d2
cd "$O" && tar czf logs.tgz build.log tests.log n65536/results.csv n32768/results.csv && rm -f build.log
ls -la "$O"
