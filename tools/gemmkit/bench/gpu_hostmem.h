/*
 * gpu_hostmem.h - the host-pointer GPU suites of `gemmkit bench`
 * (gpu-hostmem, gpu-hostmem-heavy): operands in host memory, end to end,
 * copies included (gpu_hostmem.c).
 */
#ifndef GK_BENCH_GPU_HOSTMEM_H
#define GK_BENCH_GPU_HOSTMEM_H

#include "suite.h"

/* Run a host-memory suite: exit status 0, or 1 (a wrong result, a file
 * not written). */
int bench_run_hostmem(const bench_opts *o);

#endif
