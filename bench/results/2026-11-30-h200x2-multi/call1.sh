#!/bin/bash
# Run 1 on two H200s (from the repository root; OUTDIR the first argument):
# the machine, the build, test_hostmem_plan and test_cuda_multi, then the
# gpu-multi suite at 32768 and 65536 with the units of this commit (one per
# device) and, for comparison in the same run, with the former fixed units
# of 16384 (GK_HOSTMEM_UNIT=16384). GK_HM_TRACE=1 prints each unit's worker,
# device and times on stderr (into the logs).
set -o pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
O=${1:?usage: call1.sh OUTDIR}; mkdir -p "$O"
T0=$(date +%s)
left() { echo $((${1:-580} - ($(date +%s) - T0))); }
{ date -u; uname -a; nproc; free -g; nvidia-smi; nvidia-smi topo -m; lscpu; } >"$O/machine.txt" 2>&1
( time GK_SKIP_DEPS=1 JOBS=32 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" timeout 300 ./build.sh build ) >"$O/build.log" 2>&1
rc=$?; echo "build rc=$rc after $(( $(date +%s) - T0 )) s"
if [ $rc != 0 ]; then tail -40 "$O/build.log"; exit 1; fi
timeout 200 ctest --test-dir build -R "test_cuda_multi|test_hostmem_plan" --output-on-failure -V >"$O/tests.log" 2>&1
echo "ctest rc=$? at $(( $(date +%s) - T0 )) s"
grep -E "devices; lists|tests passed|Failed|bit-identical|injected|passed, " "$O/tests.log"
run() { # label, budget, bench args...
  local L=$1 B=$2; shift 2
  echo "== $L: gemmkit bench --suite gpu-multi $*" >>"$O/bench.log"
  timeout $B build/gemmkit bench --suite gpu-multi --no-plot "$@" >>"$O/bench.log" 2>&1
  echo "$L rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$O/bench.log"
  grep -E "^\| (gemmkit|cublasxt)" "$O/$L/results.md" | head -20
}
export GK_HM_TRACE=1
run n32768 100 --reps 3 --sizes 32768 --out "$O/n32768" \
  --algos gemmkit-d1,gemmkit-d2,gemmkit-accurate-d1,gemmkit-accurate-d2,gemmkit-tf32-d1,gemmkit-tf32-d2,cublasxt-d1,cublasxt-d2
GK_HOSTMEM_UNIT=16384 run n32768-u16384 60 --reps 3 --sizes 32768 --out "$O/n32768-u16384" \
  --algos gemmkit-d2,gemmkit-accurate-d2,gemmkit-tf32-d2
run n65536 $(left 560) --reps 1 --sizes 65536 --out "$O/n65536" \
  --algos gemmkit-accurate-d1,gemmkit-accurate-d2,gemmkit-tf32-d1,gemmkit-tf32-d2,gemmkit-d2,cublasxt-d2
B=$(left 585); [ $B -gt 40 ] && GK_HOSTMEM_UNIT=16384 run n65536-u16384 $B --reps 1 --sizes 65536 --out "$O/n65536-u16384" \
  --algos gemmkit-accurate-d2,gemmkit-tf32-d2
grep -E "^gemmkit: " "$O/bench.log" | grep -E "workers|done at" | head -40
cd "$O" && tar czf logs.tgz build.log tests.log && rm -f build.log tests.log
ls -la "$O"
