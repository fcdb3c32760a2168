#!/bin/bash
# After the device-free check of test_cuda_hostmem became "not below the baseline" (and its
# sanitizer run RUN_SERIAL): configure with CUDA for sm_90, build that test, run it plain.
R=$OUT; t0=$(date +%s)
cmake -S . -B /tmp/bh -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $R/hm_build.log 2>&1 && cmake --build /tmp/bh -j16 --target test_cuda_hostmem >> $R/hm_build.log 2>&1 || { tail -20 $R/hm_build.log; exit 1; }
echo "built $(( $(date +%s)-t0 ))s"
(cd /tmp/bh && ctest -N | grep -c hostmem; timeout 150 ctest -R "^test_cuda_hostmem$" --output-on-failure 2>&1 | tail -5)
echo "done $(( $(date +%s)-t0 ))s"
