#!/bin/sh
# The row-walk rule, before (A: commit 909ba94) and after (B), call by call
# in one process (bench/results/2026-11-27-emr-cpu/logs/abdl.c), 11 rounds;
# B/A above 1: the new rule faster. $1, $2: the two libgemmkit.so.
A=$1 B=$2  # ABDL: the abdl binary (default ./abdl)
for x in "avx2 1 d 720 720 720" "avx2 1 d 800 800 800" "avx2 1 d 880 880 880" "avx2 1 d 1000 1000 1000" \
         "avx2 1 d 600 600 600" "avx2 1 d 500 500 500" "avx2 1 d 4096 4096 64" "avx2 1 d 2000 2000 256" \
         "avx2 1 s 1100 1100 1100" "avx2 1 s 1250 1250 1250" "avx2 1 s 1400 1400 1400" "avx2 1 s 1000 600 1000" \
         "avx512 1 d 2000 2000 256" "avx512 1 d 2000 320 800" "avx512 1 d 1000 300 1000" "avx512 1 d 320 320 800" \
         "avx512 1 d 4096 4096 64" "avx512 1 d 600 600 600" "avx512 1 s 2000 2000 256" "avx512 1 s 1500 1500 1500" \
         "avx512 1 s 1950 1950 1950" "avx512 1 s 4096 4096 64" \
         "avx2 2 d 880 880 880" "avx2 2 s 1250 1250 1250" "avx512 2 d 2000 2000 256" "avx512 2 d 2000 320 800" \
         "avx512 2 s 4096 4096 64"; do
	set -- $x
	arch=$1 nt=$2
	shift 2
	printf '%-6s %st ' "$arch" "$nt"
	GK_ARCH=$arch GK_NUM_THREADS=$nt "${ABDL:-./abdl}" "$A" "$B" "$@" 11
done
