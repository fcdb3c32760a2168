/*
 * gpu.h - the GPU contenders of the GEMM suites (gpu.c): gemmkit's cuda.*
 * algorithms on device pointers and cuBLAS, timed with CUDA events.
 */
#ifndef GK_BENCH_GPU_H
#define GK_BENCH_GPU_H

#include <stddef.h>
#include <stdint.h>
#include "engine.h"
#include "gemmkit.h"

/* What a GPU contender sees of a GEMM cell (gemm.c fills it). */
typedef struct gemm_cell_view {
	int dt;              /* 0 float, 1 double */
	int64_t m, n, k;
	const void *a, *b;   /* row-major, host */
	void *out;           /* row-major, host: where the check reads C */
} gemm_cell_view;
void gemm_cell_view_of(void *cell, gemm_cell_view *v);

typedef struct gpu_side gpu_side;
/* The GPU state of a GEMM contender (gemm.c keeps it in its side). */
gpu_side *gemm_gpu_state(bench_contender *c);

/* 1 when GPU contenders can run: built with CUDA and cuBLAS, a device
 * present; else 0 with the reason in why. */
int gpu_ready(char *why, size_t len);
/* The device, CUDA and cuBLAS versions, for the report. */
void gpu_describe(char *buf, size_t len);
/* A contender's state: the gemmkit algorithm `algo` on device pointers, or
 * cuBLAS when algo is NULL or "cublas" (default math), "cublas-tf32"
 * (FAST_TF32 compute), "cublas-bf16x9" (FP32 emulation, where cuBLAS has it);
 * NULL with the reason in why (why must hold "" on entry). */
gpu_side *gpu_side_new(const char *algo, char *why, size_t len);
void gpu_side_free(gpu_side *g);

extern const bench_ops gemm_gpu_ops;

#endif
