#!/bin/bash
# The README's test command, exactly, on the two-H200 machine (every
# host-pointer GPU call without a device list there runs on both devices).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; T0=$(date +%s)
{ date -u; nvidia-smi -L; nproc; free -g; } >"$O/machine.txt" 2>&1
timeout 560 ./build.sh test >"$O/test.log" 2>&1
echo "rc=$? after $(( $(date +%s) - T0 )) s" | tee -a "$O/test.log"
grep -E "tests passed|Failed|\*\*\*|Not Run|Skipped|skipped" "$O/test.log" | head -30
