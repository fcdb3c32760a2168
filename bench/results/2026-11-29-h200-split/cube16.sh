#!/bin/bash
# On the GPU machine's 16 vCPUs, with the rows cut by the thread count: the
# small-product cube bounding the whole product (B: way 1 only up to the
# cube, packed past it on any thread count) against bounding each thread's
# share (A: the tree as it is), on 16, 8, 4 and 2 threads, call by call,
# 15 rounds; B/A above 1: packed faster. Only shapes whose way differs.
set -e
R=${OUT:-.}
D=bench/results/2026-11-29-h200-split
cmake -S . -B /tmp/bn -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bn -j16 --target gemmkit > /dev/null
rm -rf /tmp/whole && mkdir /tmp/whole && tar --exclude=./.git --exclude=./build -cf - . | tar -x -C /tmp/whole
sed -i 's/<= cube \* cube \* cube \* nt \&\&/<= cube * cube * cube \&\&/' /tmp/whole/src/gemm/blocked_direct_tmpl.h
grep -c "cube \* cube \* cube &&" /tmp/whole/src/gemm/blocked_direct_tmpl.h
cmake -S /tmp/whole -B /tmp/bw -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bw -j16 --target gemmkit > /dev/null
gcc -O2 -o /tmp/abdl bench/results/2026-11-27-emr-cpu/logs/abdl.c -ldl
{ date -u; lscpu | grep -E "Model name|^CPU\(s\)"; } > $R/cube16.log
for x in "avx512 d 200" "avx512 d 300" "avx512 d 400" "avx512 s 480" "avx512 s 500" "avx2 d 400" "avx2 d 500" "avx2 s 480" "avx2 s 500"; do
	set -- $x
	for nt in 16 8 4 2; do
		printf '%-6s %2dt ' "$1" "$nt" >> $R/cube16.log
		GK_ARCH=$1 GK_NUM_THREADS=$nt /tmp/abdl /tmp/bn/libgemmkit.so /tmp/bw/libgemmkit.so $2 $3 $3 $3 15 >> $R/cube16.log 2>&1
	done
done
