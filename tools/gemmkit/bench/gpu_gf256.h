/*
 * gpu_gf256.h - `gemmkit bench --suite gpu-gf256` (gpu_gf256.c): the GF(2^8)
 * GPU kernels and the GPU Reed-Solomon path on the measurement engine.
 */
#ifndef GK_BENCH_GPU_GF256_H
#define GK_BENCH_GPU_GF256_H

#include "suite.h"

/* The runner: exit status 0, 1 (a wrong result, no GPU, a file not written). */
int bench_run_gpu_gf256(const bench_opts *o);

#endif
