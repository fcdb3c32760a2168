#!/bin/bash
# The cells that the Emerald Rapids guest missed before the bench touched the operands
# (2026-11-29/30), measured again with the touch on the H200 machine's Xeon (same family 6
# model 207), two of its vCPUs, CPU-only build. Each bench prints its table to stdout.
R=$OUT; t0=$(date +%s)
{ date -u; git log -1 --format=%H 2>/dev/null; lscpu | grep -E "Model name|^CPU\(s\)|Model:|L1d|L2|L3|Flags" | cut -c1-300; uptime; } > $R/machine.txt 2>&1
cmake -S . -B /tmp/bx -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > $R/build.log 2>&1 && cmake --build /tmp/bx -j16 --target gemmkit_cli >> $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build $(( $(date +%s)-t0 ))s"; cat $R/machine.txt
B="taskset -c 4,5 /tmp/bx/gemmkit bench --no-plot --algos auto,cpu.blocked,openblas-best,blis-best"
run() { n=$1; shift; echo "== $n: $* ($(( $(date +%s)-t0 ))s)"; "$@" --out $R/$n 2>$R/$n.err | grep -E "^\|"; }
run a512_1t_d $B --threads 1 --dtype d --sizes 1024,2048,4096
run a512_1t_s $B --threads 1 --dtype s --sizes 2048,4096
export GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell BLIS_ARCH_TYPE=3
run a2_1t_s $B --threads 1 --dtype s --sizes 512,1024,2048,4096
run a2_2t_s $B --threads 2 --dtype s --sizes 1024 --shapes 1000x1000x1000,64x4096x4096
run a2_2t_d $B --threads 2 --dtype d --sizes 64,128,2048
echo "done $(( $(date +%s)-t0 ))s"
