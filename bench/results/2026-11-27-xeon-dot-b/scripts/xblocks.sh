#!/bin/bash
# SGEMM and DGEMM 2048^3, 1 thread pinned: the blocking rule (A) against GK_GEMM_BLOCKS=mc,kc,nc (B), same library, call by call.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=$PWD GK_NUM_THREADS=1
R=$OUT/r; mkdir -p $R
P="taskset -c 5"
for v in "s 224,584,2048" "s 112,584,2048" "s 336,584,2048" "s 448,584,2048" "s 224,768,2048" "s 336,384,2048" "s 224,584,1024" "d 80,768,2048" "d 160,768,2048" "d 40,768,2048" "d 120,512,2048" "d 240,512,2048" "d 80,1024,2048" "d 80,768,1024"; do
  set -- $v
  echo "$1 2048 rule vs $2: $(ENVA= ENVB=GK_GEMM_BLOCKS=$2 $P ./abdl ./libgk_new.so ./libgk_new2.so $1 2048 2048 2048 5 1 | sed 's/.*: A/A/')" >> $R/blocks.log
done
cd $OUT && tar czf res.tgz r
