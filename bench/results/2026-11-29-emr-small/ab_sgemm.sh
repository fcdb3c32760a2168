#!/bin/sh
# SGEMM on Intel, way 1 up to 512^3 (A: fa961a4) against the per-table cube
# (B: 400^3 with the AVX-512 set, 440^3 with the AVX2 one), call by call,
# 9 rounds, as ab.sh.
A=$1 B=$2
for x in "avx512 1 400 400 400" "avx512 1 440 440 440" "avx512 1 480 480 480" "avx512 1 500 500 500" \
         "avx512 1 300 500 500" "avx512 1 500 500 300" "avx512 1 500 300 500" "avx512 1 250 500 500" \
         "avx512 1 400 400 500" "avx512 1 100 500 500" "avx512 1 60 500 500" \
         "avx2 1 440 440 440" "avx2 1 480 480 480" "avx2 1 500 500 500" "avx2 1 300 500 500" \
         "avx2 1 500 300 500" "avx2 1 400 400 500" "avx2 1 350 512 512" \
         "avx512 2 480 480 480" "avx512 2 500 500 500" "avx512 2 300 500 500" "avx2 2 480 480 480" \
         "avx2 2 500 500 500"; do
	set -- $x
	arch=$1 nt=$2
	shift 2
	printf '%-6s %st ' "$arch" "$nt"
	GK_ARCH=$arch GK_NUM_THREADS=$nt "${ABDL:-./abdl}" "$A" "$B" s "$@" 9
done
