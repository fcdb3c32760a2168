#!/bin/bash
# The same two builds as run.sh (old: piece_rule.patch reversed), now in one process, call by
# call (abdl.c: A = old, B = new; "B/A median of per-round ratios" is B's speed over A's),
# two of the Xeon's vCPUs, AVX2 set.
R=$OUT; t0=$(date +%s); D=bench/results/2026-11-30-xeon-pieces
rm -rf /tmp/old && mkdir /tmp/old && cp -a . /tmp/old/ && (cd /tmp/old && patch -R -p1 < $D/piece_rule.patch) > $R/patch.log 2>&1 || { cat $R/patch.log; exit 1; }
for v in new old; do src=.; [ $v = old ] && src=/tmp/old
  cmake -S $src -B /tmp/b$v -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > $R/build_$v.log 2>&1 && cmake --build /tmp/b$v -j16 --target gemmkit >> $R/build_$v.log 2>&1 || { tail -20 $R/build_$v.log; exit 1; }
done
gcc -O2 -o /tmp/abdl bench/results/2026-11-27-emr-cpu/logs/abdl.c -ldl || exit 1
echo "built $(( $(date +%s)-t0 ))s"; date -u
export GK_ARCH=avx2
for i in 1 2 3; do for sh in "64 4096 4096" "32 4096 4096" "48 2000 3000"; do
  echo -n "2t $sh run $i: "; GK_NUM_THREADS=2 taskset -c 4,5 /tmp/abdl /tmp/bold/libgemmkit.so /tmp/bnew/libgemmkit.so s $sh 40 | tail -1
done; done
for sh in "64 4096 4096" "48 2000 3000"; do echo -n "1t $sh: "; GK_NUM_THREADS=1 taskset -c 4,5 /tmp/abdl /tmp/bold/libgemmkit.so /tmp/bnew/libgemmkit.so s $sh 20 | tail -1; done
echo "done $(( $(date +%s)-t0 ))s"
