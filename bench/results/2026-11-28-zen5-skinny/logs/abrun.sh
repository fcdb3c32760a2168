#!/bin/sh
# usage: abrun.sh OLD.so NEW.so rounds -- runs the shape list on both kernel sets, both precisions
for a in avx2 avx512; do
for sh in "8 4096 4096" "16 4096 4096" "24 4096 4096" "32 4096 4096" "16 4112 2048" "24 4100 2048" "8 4100 4096" "32 1000 1000" "16 1024 2048" "64 4096 4096" "16 256 256" "32 512 512" "100 100 100" "300 300 300" "1023 1025 1027" "8 8 100000"; do
for d in s d; do
  printf "%-6s " $a; GK_NUM_THREADS=1 GK_ARCH=$a ./abdl $1 $2 $d $sh $3
done; done; done
