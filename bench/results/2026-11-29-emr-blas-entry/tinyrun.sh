#!/bin/sh
# tinyrun.sh LIB... : ns per call of 1^3 ... 32^3 products, each library and interface in a
# process of its own, the libraries taken in turn ROUNDS times (default 3); 1 thread, AVX-512
# kernels, OpenBLAS on its SkylakeX ones. tinyrun: cc -O2 -o tinyrun tinyrun.c -ldl
T=${TINYRUN:-./tinyrun}; R=${ROUNDS:-3}
export GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
for i in gk cblas f77; do for p in s d; do for n in 1 2 4 8 16 32; do
  calls=$((4000000 / (n * n)))
  for r in $(seq $R); do
    line="$i $p $n round $r:"
    for L in "$@"; do
      case $(basename $L) in *openblas*) [ $i = gk ] && { line="$line -"; continue; };; esac
      line="$line $($T $L $i $p $n $calls 5)"
    done
    echo "$line"
  done
done; done; done
