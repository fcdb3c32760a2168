#!/bin/sh
# Call by call: gemmkit (A) against OpenBLAS 0.3.21 SkylakeX (B), then BLIS skx.
# usage: cbc.sh LIBGEMMKIT THREADS "m n k rounds [calls]" ...
GK=$1; T=$2; shift 2
OB=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so
export GK_NUM_THREADS=$T OPENBLAS_NUM_THREADS=$T OMP_NUM_THREADS=$T BLIS_NUM_THREADS=$T OPENBLAS_CORETYPE=SkylakeX BLIS_ARCH_TYPE=0
for sz in "$@"; do set -- $sz; P=$1; shift; /tmp/abdl $GK $OB $P "$@"; done
