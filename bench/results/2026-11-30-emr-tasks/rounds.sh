#!/bin/bash
# rounds.sh dt n rounds VARIANT...: paired rounds of `loop` (../2026-11-30-emr-adapt-keep/loop.c,
# built as /tmp/mb/loop against libgemmkit.so.0), 0.4 s per variant in each round (0.5 s with
# SECS=0.5). A VARIANT is name:libdir:VAR=value,VAR=value: the library in libdir
# (LD_LIBRARY_PATH), the environment given. Prints, for each variant after the first, the
# median over rounds of its GFLOPS over the first variant's in the same round, and the
# first's GFLOPS per round. Used for var2_b.log (../2026-11-30-emr-adapt-keep/), var3.log,
# var4.log and var4_avx2.log (this folder); the READMEs give the variants.
dt=$1; n=$2; R=$3; shift 3
for r in $(seq "$R"); do
	line=""
	for spec in "$@"; do
		IFS=: read -r name dir envs <<< "$spec"
		x=$(env ${envs//,/ } LD_LIBRARY_PATH="$dir" /tmp/mb/loop "$n" "$dt" "${SECS:-0.4}")
		line="$line $(echo "$x" | awk '{print $3}')"
	done
	echo "$line"
done | python3 -c "
import sys, statistics
names = [s.split(':')[0] for s in sys.argv[1:]]
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
for i in range(1, len(names)):
    r = sorted(x[i] / x[0] for x in rows)
    print(f'{names[i]}/{names[0]} median {statistics.median(r):.3f}  ', ' '.join(f'{v:.2f}' for v in r))
print(names[0], 'GFLOPS', ' '.join(f'{x[0]:.0f}' for x in rows))
" "$@"
