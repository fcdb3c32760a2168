#!/bin/bash
# Run 1 (run from the repository root): the machine, the build,
# test_cuda_multi, gemm --devices at 32768 (FP32-accurate), and
# bench --suite gpu-multi at N = 32768. Logs under OUTDIR, the first argument.
set -o pipefail
export NCCL_NVLS_ENABLE=0
O=${1:?usage: call1.sh OUTDIR}; mkdir -p "$O"
T0=$(date +%s)
left() { echo $((${1:-570} - ($(date +%s) - T0))); }
{ date -u; uname -a; nproc; free -g; nvidia-smi; nvidia-smi topo -m; nvidia-smi nvlink -s; lscpu; } >"$O/machine.txt" 2>&1
echo "== GK_SKIP_DEPS=1 JOBS=64 CMAKE_FLAGS=-DCMAKE_CUDA_ARCHITECTURES=90 ./build.sh build" >"$O/build.log"
( time GK_SKIP_DEPS=1 JOBS=64 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" timeout 300 ./build.sh build ) >>"$O/build.log" 2>&1
rc=$?; echo "build rc=$rc after $(( $(date +%s) - T0 )) s"
if [ $rc != 0 ]; then tail -40 "$O/build.log"; exit 1; fi
echo "== ctest --test-dir build -R test_cuda_multi --output-on-failure -V" >"$O/test_cuda_multi.log"
timeout 240 ctest --test-dir build -R test_cuda_multi --output-on-failure -V 2>&1 | tee -a "$O/test_cuda_multi.log" | grep -E "devices; lists|Passed|Failed|tests passed|bit-identical"
echo "ctest rc=$? at $(( $(date +%s) - T0 )) s"
for d in 0 0,1 0,1,2,3; do
  echo "== build/gemmkit gemm 32768 32768 32768 --backend cuda --precision accurate --devices $d --repeat 3 --seed 7 --no-check"
  timeout 90 build/gemmkit gemm 32768 32768 32768 --backend cuda --precision accurate --devices $d --repeat 3 --seed 7 --no-check 2>&1
  echo "rc=$?"
done | tee "$O/gemm_32768.log" | grep -E "^==|devices:|time:|rc="
B=$(left 580); echo "bench budget ${B} s"
echo "== build/gemmkit bench --suite gpu-multi --reps 1 --sizes 32768 --out OUTDIR/m32768  (timeout $B)" >"$O/bench_32768.log"
timeout $B build/gemmkit bench --suite gpu-multi --reps 1 --sizes 32768 --out "$O/m32768" 2>&1 | tee -a "$O/bench_32768.log"
echo "bench rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$O/bench_32768.log"
cd "$O" && x=$(find m32768 -type f ! -name results.md ! -name results.csv ! -name meta.txt) && tar czf extras.tgz build.log $x && rm -f build.log $x
ls -laR "$O"
