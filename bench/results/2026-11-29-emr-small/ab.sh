#!/bin/sh
# Way 1 (unpacked tiles) against the packed way for DGEMM on Intel: commit
# fa961a4 (A, way 1 up to 512^3) against the per-table cube (B: 160^3 with
# the AVX-512 set, 340^3 with the AVX2 one), call by call in one process
# (bench/results/2026-11-27-emr-cpu/logs/abdl.c), 9 rounds; B/A above 1:
# the change faster. $1, $2: the two libgemmkit.so; ABDL: the abdl binary.
A=$1 B=$2
for x in "avx512 1 128 128 128" "avx512 1 144 144 144" "avx512 1 176 176 176" "avx512 1 200 200 200" \
         "avx512 1 240 240 240" "avx512 1 256 256 256" "avx512 1 300 300 300" "avx512 1 384 384 384" \
         "avx512 1 400 400 400" "avx512 1 480 480 480" "avx512 1 500 500 500" "avx512 1 512 512 512" \
         "avx512 1 100 500 500" "avx512 1 500 100 500" "avx512 1 500 500 100" "avx512 1 500 500 50" \
         "avx512 1 60 500 500" "avx512 1 200 200 500" "avx512 1 512 512 16" "avx512 1 100 100 400" \
         "avx2 1 300 300 300" "avx2 1 352 352 352" "avx2 1 400 400 400" "avx2 1 480 480 480" \
         "avx2 1 500 500 500" "avx2 1 512 512 512" "avx2 1 500 500 250" \
         "avx512 2 200 200 200" "avx512 2 300 300 300" "avx512 2 400 400 400" "avx512 2 500 500 500" \
         "avx512 2 100 500 500" "avx2 2 400 400 400" "avx2 2 500 500 500"; do
	set -- $x
	arch=$1 nt=$2
	shift 2
	printf '%-6s %st ' "$arch" "$nt"
	GK_ARCH=$arch GK_NUM_THREADS=$nt "${ABDL:-./abdl}" "$A" "$B" d "$@" 9
done
