#!/bin/bash
# On the GPU machine's 16 vCPUs: the packed way's rows cut by the thread
# count (B: the tree as it is) against the tree without it (A: split.patch
# reversed), on 16, 8 and 4 threads, call by call
# (bench/results/2026-11-27-emr-cpu/logs/abdl.c), 9 rounds; B/A above 1:
# the split faster.
set -e
R=${OUT:-.}
D=bench/results/2026-11-29-h200-split
cmake -S . -B /tmp/bn -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bn -j16 --target gemmkit > /dev/null
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude=./.git --exclude=./build -cf - . | tar -x -C /tmp/old
(cd /tmp/old && patch -R -p1 < $D/split.patch > /dev/null)
cmake -S /tmp/old -B /tmp/bo -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bo -j16 --target gemmkit > /dev/null
gcc -O2 -o /tmp/abdl bench/results/2026-11-27-emr-cpu/logs/abdl.c -ldl
{ date -u; lscpu | grep -E "Model name|^CPU\(s\)|L2|L3"; } > $R/split16.log
while read -r arch dt m n k; do
	[ -n "$arch" ] || continue
	for nt in ${THREADS:-16 8 4}; do
		printf '%-6s %2dt ' "$arch" "$nt" >> $R/split16.log
		GK_ARCH=$arch GK_NUM_THREADS=$nt /tmp/abdl /tmp/bo/libgemmkit.so /tmp/bn/libgemmkit.so $dt $m $n $k ${ROUNDS:-9} >> $R/split16.log 2>&1
	done
done < $D/cases16.txt
