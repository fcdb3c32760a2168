#!/bin/bash
# The same A/B on the H200 machine's Xeon (Emerald Rapids class, AVX-512 + GFNI): the
# library before (logs/nv4.patch taken back) and after, gfdl.c (../2026-11-27-zen5-cpu-c/logs/gfdl.c
# with logs/gfdl_paired.patch),
# 1 thread, decode and encode, both orders; then test_gf256 of the build after.
R=$OUT; t0=$(date +%s); D=bench/results/2026-11-30-zen5-gf-nv4
lscpu | grep -E "Model name|Model:|L2" > $R/machine.txt
cp -r . /tmp/old && (cd /tmp/old && patch -s -R -p1 < $OLDPWD/$D/logs/nv4.patch) || exit 1
for t in old new; do src=/tmp/old; [ $t = new ] && src=.; cmake -S $src -B /tmp/b$t -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > $R/build_$t.log 2>&1 && cmake --build /tmp/b$t -j16 --target gemmkit test_gf256 >> $R/build_$t.log 2>&1 || { tail -20 $R/build_$t.log; exit 1; }; done
cp bench/results/2026-11-27-zen5-cpu-c/logs/gfdl.c /tmp/gfdl.c && patch -s /tmp/gfdl.c $D/logs/gfdl_paired.patch && gcc -O2 -o /tmp/gfdl /tmp/gfdl.c -ldl || exit 1
echo "built $(( $(date +%s)-t0 ))s"; cat $R/machine.txt
O=$(ls /tmp/bold/libgemmkit.so.0.*); N=$(ls /tmp/bnew/libgemmkit.so.0.*)
for c in "12 4 1048576 1 9 1" "10 4 1048576 1 9 1" "28 4 1048576 1 7 1" "6 3 1048576 1 9 1" "12 4 65536 1 9 1" "12 4 1048576 1 9 0"; do
  for i in 1 2; do taskset -c 4 /tmp/gfdl $O $N $c | sed 's/^/AB: /'; taskset -c 4 /tmp/gfdl $N $O $c | sed 's/^/BA: /'; done; done
(cd /tmp/bnew/tests && ./test_gf256 2>&1 | tail -1; GK_ARCH=avx2 ./test_gf256 2>&1 | tail -1)
echo "done $(( $(date +%s)-t0 ))s"
