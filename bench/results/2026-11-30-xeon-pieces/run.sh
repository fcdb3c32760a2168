#!/bin/bash
# The own-columns pieces with several threads (7abeba1) on the H200 machine's Xeon: the
# library with the change (new) and without it (old: piece_rule.patch reversed), CPU-only
# builds, the thin products on two of its vCPUs, in turn, three times.
R=$OUT; t0=$(date +%s); D=bench/results/2026-11-30-xeon-pieces
{ date -u; lscpu | grep -E "Model name|^CPU\(s\)|Model:|L1d|L2|L3" | cut -c1-200; uptime; ls /usr/lib/x86_64-linux-gnu/openblas*/ 2>/dev/null | head; } > $R/machine.txt 2>&1
rm -rf /tmp/old && mkdir /tmp/old && cp -a . /tmp/old/ && (cd /tmp/old && patch -R -p1 < $D/piece_rule.patch) > $R/patch.log 2>&1 || { cat $R/patch.log; exit 1; }
for v in new old; do src=.; [ $v = old ] && src=/tmp/old
  cmake -S $src -B /tmp/b$v -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > $R/build_$v.log 2>&1 && cmake --build /tmp/b$v -j16 --target gemmkit_cli >> $R/build_$v.log 2>&1 || { tail -20 $R/build_$v.log; exit 1; }
done
echo "built $(( $(date +%s)-t0 ))s"; cat $R/machine.txt
run() { n=$1; v=$2; shift 2; echo "== $n $v ($(( $(date +%s)-t0 ))s)"; taskset -c 4,5 /tmp/b$v/gemmkit bench --no-plot --algos auto,openblas-best "$@" --out $R/${n}_$v 2>$R/${n}_$v.err | grep -E "^\| [0-9]"; }
for i in 1 2 3; do for v in old new; do
  GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell run a2s_$i $v --suite cpu --threads 2 --dtype s --shapes 64x4096x4096,32x4096x4096,48x2000x3000
  run a512_$i $v --suite cpu --threads 2 --dtype both --shapes 64x4096x4096
done; done
GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell run a2s_1t new --suite cpu --threads 1 --dtype s --shapes 64x4096x4096,48x2000x3000
echo "done $(( $(date +%s)-t0 ))s"
