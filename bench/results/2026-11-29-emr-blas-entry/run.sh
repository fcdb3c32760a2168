#!/bin/sh
# run.sh OLD.so NEW.so : the BLAS entry points of two gemmkit builds call by call, through CBLAS
# (IFACE=cblas) and through the Fortran sgemm_/dgemm_ (IFACE=f77), and gk_sgemm/gk_dgemm; then the
# new build against OpenBLAS (SkylakeX kernels) through each interface; 1 thread.
# abdl: cc -O2 -o abdl ../2026-11-27-emr-cpu/logs/abdl.c -ldl
OLD=$1; NEW=$2; AB=${AB:-./abdl}
OB=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so
export GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
for p in s d; do for sz in "8 8 8 201 1000" "16 16 16 201 500" "32 32 32 101 100" "64 64 64 101 20"; do
  echo "cblas   new/old    $(IFACE=cblas $AB $OLD $NEW $p $sz)"
  echo "fortran new/old    $(IFACE=f77 $AB $OLD $NEW $p $sz)"
  echo "gk_     new/old    $($AB $OLD $NEW $p $sz)"
  echo "cblas   new/OpenBLAS $(IFACE=cblas $AB $OB $NEW $p $sz)"
  echo "fortran new/OpenBLAS $(IFACE=f77 $AB $OB $NEW $p $sz)"
done; done
