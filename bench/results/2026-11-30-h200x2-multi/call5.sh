#!/bin/bash
# Run 5 on two H200s (from the repository root; OUTDIR the first argument):
# test_cuda_multi after the deterministic mode went back to sessions for
# every call (so that two units on two workers are planned as on one),
# then the same test with that line planted back (expected to fail: the
# new case of two units on {0,0} and {0,1} not bit-identical to {0}).
set -o pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
O=${1:?usage: call5.sh OUTDIR}; mkdir -p "$O"; T0=$(date +%s)
( GK_SKIP_DEPS=1 JOBS=32 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" timeout 200 ./build.sh build ) >"$O/build.log" 2>&1
echo "build rc=$? after $(( $(date +%s) - T0 )) s"
timeout 90 build/tests/test_cuda_multi >"$O/test_fixed.log" 2>&1; echo "fixed: rc=$?"
grep -E "devices; lists|products on|injected|passed, " "$O/test_fixed.log"
sed -i 's/j->sessions = o->deterministic || units > nw;/j->sessions = units > nw;/' src/cuda/hostmem/hm_multi.cu
grep -n "j->sessions = " src/cuda/hostmem/hm_multi.cu
timeout 120 cmake --build build -j32 >"$O/build_planted.log" 2>&1; echo "planted build rc=$? at $(( $(date +%s) - T0 )) s"
timeout 90 build/tests/test_cuda_multi >"$O/test_planted.log" 2>&1; echo "planted: rc=$?"
grep -E "FAIL" "$O/test_planted.log" | head -5; grep -E "passed, " "$O/test_planted.log"
