#!/bin/sh
# gemmkit (AVX2 set) against OpenBLAS Haswell and BLIS haswell, call by call.
OB=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so
BL=/usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4
GK=$1
while read -r nt m n k; do
  [ -n "$nt" ] || continue
  printf 'OB   %st ' $nt; IFACE=cblas OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=$nt GK_ARCH=avx2 GK_NUM_THREADS=$nt /tmp/abdl $OB $GK d $m $n $k ${ROUNDS:-15}
  printf 'BLIS %st ' $nt; IFACE=cblas BLIS_ARCH_TYPE=3 BLIS_NUM_THREADS=$nt OMP_NUM_THREADS=$nt GK_ARCH=avx2 GK_NUM_THREADS=$nt /tmp/abdl $BL $GK d $m $n $k ${ROUNDS:-15}
done
