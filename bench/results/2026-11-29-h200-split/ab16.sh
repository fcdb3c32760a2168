#!/bin/bash
# On the GPU machine's 16 vCPUs, two builds of gemmkit call by call
# (bench/results/2026-11-27-emr-cpu/logs/abdl.c), B/A the median of
# per-round ratios over ROUNDS (9) rounds, for each line "arch s|d m n k"
# of the case list and each thread count of THREADS:
#   ab16.sh split: A the tree without split.patch (rows not cut by the
#     thread count), B the tree as it is; split16.txt, THREADS "16 8 4";
#   ab16.sh cube: A the tree as it is, B the small-product cube bounding
#     the whole product (packed past it on any thread count) instead of
#     each thread's share; cube16.txt, THREADS "16 8 4 2".
# The log goes to $OUT/<mode>16.log.
set -e
mode=$1
R=${OUT:-.}
D=bench/results/2026-11-29-h200-split
cmake -S . -B /tmp/bn -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bn -j16 --target gemmkit > /dev/null
rm -rf /tmp/other && mkdir /tmp/other && tar --exclude=./.git --exclude=./build -cf - . | tar -x -C /tmp/other
if [ "$mode" = split ]; then
	(cd /tmp/other && patch -R -p1 < $D/split.patch > /dev/null)
	A=/tmp/bo/libgemmkit.so B=/tmp/bn/libgemmkit.so threads=${THREADS:-16 8 4}
else
	sed -i 's/<= cube \* cube \* cube \* nt \&\&/<= cube * cube * cube \&\&/' /tmp/other/src/gemm/blocked_direct_tmpl.h
	A=/tmp/bn/libgemmkit.so B=/tmp/bo/libgemmkit.so threads=${THREADS:-16 8 4 2}
fi
cmake -S /tmp/other -B /tmp/bo -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bo -j16 --target gemmkit > /dev/null
gcc -O2 -o /tmp/abdl bench/results/2026-11-27-emr-cpu/logs/abdl.c -ldl
log=$R/${mode}16.log
{ date -u; lscpu | grep -E "Model name|^CPU\(s\)|L2|L3"; } > "$log"
while read -r arch dt m n k; do
	[ -n "$arch" ] || continue
	for nt in $threads; do
		printf '%-6s %2dt ' "$arch" "$nt" >> "$log"
		GK_ARCH=$arch GK_NUM_THREADS=$nt /tmp/abdl $A $B $dt $m $n $k ${ROUNDS:-9} >> "$log" 2>&1
	done
done < $D/${mode}16.txt
