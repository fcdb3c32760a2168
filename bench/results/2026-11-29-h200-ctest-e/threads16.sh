#!/bin/bash
# On the GPU machine's 16 vCPUs: the tree as it is (B) against the same
# tree with every table's small-product cube back at 512 (A), on 16, 8, 4
# and 2 threads, call by call (bench/results/2026-11-27-emr-cpu/logs/abdl.c),
# 9 rounds; B/A above 1: the cube faster.
set -e
R=${OUT:-.}
cmake -S . -B /tmp/bn -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bn -j16 --target gemmkit > /dev/null
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude=./bench --exclude=./.git --exclude=./build -cf - . | tar -x -C /tmp/old
sed -i 's/gk_cpu_intel() ? 160 : GK_KERNELS_U_CUBE/GK_KERNELS_U_CUBE/; s/gk_cpu_intel() ? 400 : GK_KERNELS_U_CUBE/GK_KERNELS_U_CUBE/' /tmp/old/src/cpu/avx512/table_avx512.c
sed -i 's/t->gemm_u_f32_cube = 440;/t->gemm_u_f32_cube = GK_KERNELS_U_CUBE;/; s/t->gemm_u_f64_cube = 340;/t->gemm_u_f64_cube = GK_KERNELS_U_CUBE;/' /tmp/old/src/cpu/avx2/table_avx2.c
cmake -S /tmp/old -B /tmp/bo -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bo -j16 --target gemmkit > /dev/null
gcc -O2 -o /tmp/abdl bench/results/2026-11-27-emr-cpu/logs/abdl.c -ldl
{ lscpu | grep -E "Model name|^CPU\(s\)"; grep -n "cube" src/gemm/blocked_direct_tmpl.h | head -3; } > $R/threads16.log
for x in "avx512 d 300" "avx512 d 400" "avx512 d 500" "avx512 s 480" "avx512 s 500" "avx2 d 400" "avx2 d 500" "avx2 s 500"; do
	set -- $x
	for nt in 16 8 4 2; do
		printf '%-6s %2dt ' "$1" "$nt" >> $R/threads16.log
		GK_ARCH=$1 GK_NUM_THREADS=$nt /tmp/abdl /tmp/bo/libgemmkit.so /tmp/bn/libgemmkit.so $2 $3 $3 $3 9 >> $R/threads16.log 2>&1
	done
done
