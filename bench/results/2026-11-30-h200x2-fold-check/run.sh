#!/bin/bash
# On two H200s, after the out-of-core driver's single step path (d1fd849)
# and the pool change (4ef63cb): the build, then the multi-GPU and
# out-of-core tests and their compute-sanitizer memcheck runs (the lists
# {0} {0,0} {0,0,0} {0,1} {1,0} of test_cuda_multi). From the repository
# root; OUTDIR the first argument.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; T0=$(date +%s)
{ date -u; nvidia-smi -L; nproc; } >"$O/machine.txt" 2>&1
( GK_SKIP_DEPS=1 JOBS=32 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" timeout 240 ./build.sh build ) >"$O/build.log" 2>&1
echo "build rc=$? after $(( $(date +%s) - T0 )) s"
timeout 300 ctest --test-dir build -j3 -R "test_cuda_multi|test_hostmem_plan|test_cuda_hostmem|cuda_hostmem_sanitize_memcheck|cuda_multi_sanitize_memcheck" --output-on-failure >"$O/tests.log" 2>&1
echo "ctest rc=$? at $(( $(date +%s) - T0 )) s"
grep -E "Test +#|tests passed|Failed" "$O/tests.log"
grep -E "devices; lists|products on|injected|passed, " build/Testing/Temporary/LastTest.log | head -6
gzip -f "$O/build.log"
