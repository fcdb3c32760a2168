#!/bin/sh
# Two builds of libgemmkit call by call in one process
# (bench/results/2026-11-27-emr-cpu/logs/abdl.c), over the cases read from
# standard input, one per line: kernel set, threads, s|d, m n k. $1, $2:
# the two libgemmkit.so (A, B); ROUNDS (default 11); ABDL: the abdl binary
# (default ./abdl). B/A above 1: B faster.
# Here (cases.txt, 11 rounds): the row-walk rule, before (A: commit
# 909ba94) and after (B). Also used by ../2026-11-29-emr-small/.
A=$1 B=$2
while read -r arch nt dt m n k; do
	[ -n "$arch" ] || continue
	printf '%-6s %st ' "$arch" "$nt"
	GK_ARCH=$arch GK_NUM_THREADS=$nt "${ABDL:-./abdl}" "$A" "$B" "$dt" "$m" "$n" "$k" "${ROUNDS:-11}"
done
