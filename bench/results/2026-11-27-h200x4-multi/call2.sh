#!/bin/bash
# Run 2 (run from the repository root, with the build left by
# call 1, build/ in place): bench --suite gpu-multi at N = 65536.
# Optional second argument: an --algos list (default: the suite's default contenders).
set -o pipefail
export NCCL_NVLS_ENABLE=0
O=${1:?usage: call2.sh OUTDIR}; mkdir -p "$O"
T0=$(date +%s)
A=(); [ -n "${2:-}" ] && A=(--algos "$2")
[ -x build/gemmkit ] || { echo "build/gemmkit missing (machine not warm)"; exit 1; }
echo "== build/gemmkit bench --suite gpu-multi --reps 1 --sizes 65536 ${A[*]} --out OUTDIR/m65536  (timeout 570)" >"$O/bench_65536.log"
{ date -u; nvidia-smi --query-gpu=index,name,temperature.gpu,power.draw,clocks.sm,memory.used --format=csv; } >>"$O/bench_65536.log" 2>&1
timeout 570 build/gemmkit bench --suite gpu-multi --reps 1 --sizes 65536 "${A[@]}" --out "$O/m65536" 2>&1 | tee -a "$O/bench_65536.log"
echo "bench rc=$? at $(( $(date +%s) - T0 )) s" | tee -a "$O/bench_65536.log"
cd "$O" && x=$(find m65536 -type f ! -name results.md ! -name results.csv ! -name meta.txt) && [ -n "$x" ] && tar czf extras65536.tgz $x && rm -f $x
ls -laR "$O"
