#!/bin/sh
# run.sh OLD.so NEW.so : the BLAS entry points of two gemmkit builds call by call (CBLAS through
# abdl.c with its gk_ lookup disabled, Fortran sgemm_/dgemm_ through abf.c), then the new
# build against OpenBLAS (SkylakeX kernels) through each, 1 thread.
OLD=$1; NEW=$2
OB=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so
export GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
for p in s d; do for sz in "8 8 8 201 1000" "16 16 16 201 500" "32 32 32 101 100" "64 64 64 101 20"; do
  echo "cblas   new/old    $(/tmp/abcb $OLD $NEW $p $sz)"
  echo "fortran new/old    $(/tmp/abf $OLD $NEW $p $sz)"
  echo "gk_     new/old    $(/tmp/abdl $OLD $NEW $p $sz)"
  echo "cblas   new/OpenBLAS $(/tmp/abcb $OB $NEW $p $sz)"
  echo "fortran new/OpenBLAS $(/tmp/abf $OB $NEW $p $sz)"
done; done
