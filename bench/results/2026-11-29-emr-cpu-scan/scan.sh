#!/bin/sh
# scan.sh GK ISA(avx512|avx2) THREADS : call by call against OpenBLAS then BLIS on the cpu suite's shapes
GK=$1; ISA=$2; T=$3
OB=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so
BL=$(ls /usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4* 2>/dev/null | head -1)
[ -z "$BL" ] && BL=$(ls /usr/lib/x86_64-linux-gnu/blis-pthread/libblis.so.4* /usr/lib/x86_64-linux-gnu/libblis.so.4* 2>/dev/null | head -1)
export GK_NUM_THREADS=$T OPENBLAS_NUM_THREADS=$T OMP_NUM_THREADS=$T BLIS_NUM_THREADS=$T
if [ $ISA = avx2 ]; then export GK_ARCH=avx2 OPENBLAS_CORETYPE=Haswell BLIS_ARCH_TYPE=3; else export OPENBLAS_CORETYPE=SkylakeX BLIS_ARCH_TYPE=0; fi
for p in s d; do
for sz in "16 16 16 201 500" "32 32 32 201 100" "64 64 64 101 20" "128 128 128 61 4" "256 256 256 31" "512 512 512 15" "1024 1024 1024 7" "2048 2048 2048 3" "4096 4096 64 7" "64 4096 4096 7" "1000 1000 1000 7" "1023 1025 1027 7"; do
 for L in $OB $BL; do echo "$(basename $L | cut -c1-8) $ISA ${T}t: $(/tmp/abdl $GK $L $p $sz)"; done
done; done
