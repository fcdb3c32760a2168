#!/bin/bash
# One device call: build with CUDA for sm_90 and test; then the packing A/B (9586579 vs 6ab7e38) on this CPU, pinned to one core.
R=$OUT/r; mkdir -p $R
export LD_LIBRARY_PATH=$PWD/build-ab
{ date -u; nvidia-smi -L; lscpu | grep -E "Model name|Model:|CPU family|^CPU\(s\)|L1d|L2|L3"; } > $R/machine.txt 2>&1
t0=$(date +%s)
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
(cd build && ctest -LE cuda-sanitize -j8 --timeout 400 > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt)
B=$PWD/build-ab
gcc -O2 $B/packbench.c -o $B/packbench $B/libgemmkit_c.a -lpthread -lm
{ echo "# $(date -u) packbench, pinned to CPU 3"; for a in "s 60 256 256 6" "s 56 256 256 14" "d 64 128 128 8" "s 510 256 512 6" "s 196 584 4096 14" "d 256 512 4096 8"; do for ar in generic avx2 avx512; do echo "GK_ARCH=$ar $(GK_ARCH=$ar taskset -c 3 $B/packbench $a)"; done; done; } > $R/pack_cycles.log 2>&1
{ echo "# $(date -u) abdl2 A=9586579 B=6ab7e38 (pack_t + sliver padding), 1 thread pinned to CPU 3; TB=1: B by columns"
export GK_NUM_THREADS=1
for ar in avx512 avx2; do for s in "s 512 512 512 31 10" "d 256 256 256 31 20" "d 512 512 512 21 5" "s 1000 1000 1000 9 1" "d 2048 2048 2048 5 1" "s 64 4096 4096 9 1"; do
  echo "GK_ARCH=$ar $(GK_ARCH=$ar taskset -c 3 $B/abdl2 $B/gkA.so $B/gkC.so $s | tail -1)"; done
  echo "TB=1 GK_ARCH=$ar $(TB=1 GK_ARCH=$ar taskset -c 3 $B/abdl2 $B/gkA.so $B/gkC.so s 512 512 512 31 10 | tail -1)"
done
echo "# against OpenBLAS (Debian 0.3.21 copy; SkylakeX kernels with avx512, Haswell with avx2): ratio = OpenBLAS / gemmkit"
for s in "s 512 512 512 31 10" "d 512 512 512 21 5" "s 1000 1000 1000 9 1" "d 2048 2048 2048 5 1" "s 64 4096 4096 9 1"; do
  echo "avx512 $(OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX taskset -c 3 $B/abdl2 $B/gkC.so $B/libopenblas.so.0 $s | tail -1)"
  echo "avx2 $(GK_ARCH=avx2 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=Haswell taskset -c 3 $B/abdl2 $B/gkC.so $B/libopenblas.so.0 $s | tail -1)"
done; } > $R/pack_ab.log 2>&1
echo "ab done $(( $(date +%s)-t0 ))s" >> $R/summary.txt
cd $OUT && tar czf res.tgz r && cp r/summary.txt . && tail -4 r/ctest.log >> summary.txt
