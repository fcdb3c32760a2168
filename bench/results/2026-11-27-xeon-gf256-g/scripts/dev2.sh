#!/bin/bash
# One device call: build with CUDA, the whole suite, the GF(2^8) sanitizer runs, the gf256 suites,
# and the GF(2^8) kernels before and after the first-input change, batch by batch (gfdl).
R=$OUT/r; mkdir -p $R
export LD_LIBRARY_PATH=$PWD/build-ab
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv; nvcc --version | tail -2; lscpu; } > $R/machine.txt 2>&1
t0=$(date +%s)
{ echo "# gfdl: A = libgemmkit at 5bb8212, B = at f9545a6 (first input starts the sums); 1 thread pinned to CPU 2, 9 rounds";
  for set in "GK_ARCH=avx2 GK_GFNI=0" "GK_ARCH=avx2" "GK_ARCH=avx512"; do echo "## $set";
    for c in "4 2 65536 1 9 0" "6 3 65536 1 9 0" "10 4 65536 1 9 0" "12 4 65536 1 9 0" "28 4 65536 1 9 0" "10 4 65536 1 9 1" "4 2 1048576 1 9 0" "10 4 1048576 1 9 0"; do
      env $set taskset -c 2 build-ab/gfdl build-ab/libgk_gfbase.so build-ab/libgk_gfnew.so $c; done; done; } > $R/first_input_ab.log 2>&1
echo "ab rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
GK_SKIP_DEPS=1 CMAKE_FLAGS="-DCMAKE_CUDA_ARCHITECTURES=90" ./build.sh build > $R/build.log 2>&1; echo "build rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
cd build
ctest -LE cuda-sanitize -j8 --timeout 400 > $R/ctest.log 2>&1; echo "ctest rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
ctest -R cuda_gf256_sanitize > $R/sanitize_gf256.log 2>&1; echo "sanitize rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
for v in "avx512" "avx2" "avx2-nogfni"; do
  case $v in avx512) E="";; avx2) E="GK_ARCH=avx2";; avx2-nogfni) E="GK_ARCH=avx2 GK_GFNI=0";; esac
  env $E taskset -c 2,3 ./gemmkit bench --suite gf256 --out $R/gf256-$v > $R/gf256-$v.log 2>&1
  echo "gf256 $v rc=$? $(( $(date +%s)-t0 ))s" >> $R/summary.txt
done
cd $OUT && tar czf res.tgz r && cp r/summary.txt . && tail -3 r/ctest.log >> summary.txt
