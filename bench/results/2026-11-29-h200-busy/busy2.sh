#!/bin/bash
# On the GPU machine's 16 vCPUs, a 2-vCPU machine with a busy process
# emulated with taskset: ../2026-11-29-emr-busy-b/loop.c (one size, calls in a row for 3 s, mean
# GFLOPS) pinned to CPUs 2 and 3, a spinning process (spin.c) pinned to
# CPU 3 for the whole run. gemmkit on 1 thread, and on 2 threads before
# (A: adapt.patch reversed) and after (B: the tree as it is) the change
# of the thread count's learning, in turn, REPS (4) times; then the same
# two on 2 threads with no busy process. Log: $OUT/busy2.log.
set -e
R=${OUT:-.}
D=bench/results/2026-11-29-h200-busy
cmake -S . -B /tmp/bn -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bn -j16 --target gemmkit > /dev/null
rm -rf /tmp/other && mkdir /tmp/other && tar --exclude=./.git --exclude=./build -cf - . | tar -x -C /tmp/other
(cd /tmp/other && patch -R -p1 < $D/adapt.patch > /dev/null)
cmake -S /tmp/other -B /tmp/bo -DCMAKE_BUILD_TYPE=Release -DGK_WITH_CUDA=OFF > /dev/null
cmake --build /tmp/bo -j16 --target gemmkit > /dev/null
gcc -O2 -o /tmp/loop bench/results/2026-11-29-emr-busy-b/loop.c -ldl
gcc -O0 -o /tmp/spin $D/spin.c
A=/tmp/bo/libgemmkit.so B=/tmp/bn/libgemmkit.so
log=$R/busy2.log
{ date -u; lscpu | grep -E "Model name|^CPU\(s\)"; } > "$log"
run() { # label, lib, threads, then loop's arguments
	local l=$1 lib=$2 nt=$3; shift 3
	printf '%-10s %dt ' "$l" "$nt" >> "$log"
	GK_NUM_THREADS=$nt taskset -c 2,3 /tmp/loop "$lib" "$@" >> "$log" 2>&1
}
taskset -c 3 /tmp/spin & sp=$!
sleep 0.5
for x in "s 256" "d 256" "s 512"; do
	for i in $(seq ${REPS:-4}); do
		run busy-1t $B 1 $x 3
		run busy-A $A 2 $x 3
		run busy-B $B 2 $x 3
	done
done
kill $sp; wait $sp 2>/dev/null || true
for i in 1 2; do
	run idle-A $A 2 s 256 3
	run idle-B $B 2 s 256 3
	run idle-1t $B 1 s 256 3
done
