#!/bin/bash
# The whole suite built with CUDA (sm_90) on this GPU machine at the tree's commit, and the dot tiles' tests of both kernel sets on its CPU.
cd "$(dirname "$0")/.." && OUT=$OUT/ct bash build-ab/ctest.sh
cd build && { git log --oneline -1 2>/dev/null; lscpu | grep -E "Model name|Model:|CPU family"; ./tests/test_gemm_dot | grep -E "dot tiles|passed|skipped"; ./tests/test_gemm_dot_api | tail -4; GK_ARCH=avx2 ./tests/test_gemm_dot_api | tail -3; } > $OUT/ct/r/dot_tests.txt 2>&1
cd $OUT && tar czf res.tgz ct
