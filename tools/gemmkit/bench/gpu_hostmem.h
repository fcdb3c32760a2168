/*
 * gpu_hostmem.h - the host-pointer GPU suites of `gemmkit bench`
 * (gpu-hostmem, gpu-hostmem-heavy, gpu-seed000): operands in host memory,
 * end to end, copies included (gpu_hostmem.c). The contenders and the cell
 * they share with the multi-GPU suite (gpu_multi.c) are below, built with
 * CUDA and cuBLAS only (gpu_hostmem_cell.c).
 */
#ifndef GK_BENCH_GPU_HOSTMEM_H
#define GK_BENCH_GPU_HOSTMEM_H

#include "suite.h"

/* Run a host-memory suite: exit status 0, or 1 (a wrong result, a file
 * not written). */
int bench_run_hostmem(const bench_opts *o);

#ifdef GK_BENCH_CUDA
#include <stddef.h>
#include <stdint.h>
#include <cublasXt.h>
#include <cublas_v2.h>
#include "engine.h"
#include "gemmkit.h"

#define HM_ROWS 8      /* sampled rows of C checked against the reference */
#define HM_FACTOR 8.0  /* the factor of the precision mode's bound */
#define HM_XT_MAX 64   /* devices of one cuBLASXt contender */

/* What a host-memory contender runs. */
enum { HM_GK, HM_XT, HM_COPIES };

/*
 * A host-memory contender's state (bench_contender.self points to it, or
 * to a struct that starts with it):
 *   HM_GK      gk_sgemm_ex / gk_dgemm_ex with ctx (CUDA backend, its
 *              precision mode, devices and flags set by the suite), the
 *              device budget data / budget_div (0: the default)
 *   HM_XT      cublasXtSgemm / cublasXtDgemm on xt_dev[0 .. xt_ndev)
 *              (xt_ndev 0: device 0), the block dimension chosen per cell
 *              by hm_xt_block_dim (tuned on the cell up to N = 16384)
 *   HM_COPIES  cuBLAS in core: cudaMemcpy of A and B, cublasGemmEx (FP32 or
 *              FAST_TF32 by mode) or cublasDgemm, cudaMemcpy of C
 * need_devices > 1: the contender is "n/a" where fewer devices are present.
 */
typedef struct hm_side {
	int what;
	gk_precision mode;
	int budget_div;
	int pageable;
	int need_devices;
	gk_context *ctx;
	cublasXtHandle_t xt;
	int xt_block;
	int xt_ndev, xt_dev[HM_XT_MAX];
	cublasHandle_t cb;
	void *da, *db, *dc;
} hm_side;

/*
 * A cell: C = A B, N x N, row-major, in pinned (cudaHostAlloc) or pageable
 * (malloc) host memory; dt 0 float, 1 double. Setup fills A, B and C with
 * a fixed random stream and computes the reference of HM_ROWS sampled rows
 * in double (B read once). A cell holds only its own A, B and C.
 */
typedef struct hm_cell {
	int dt, pageable;
	int64_t n;
	void *a, *b, *c;
	int64_t rows[HM_ROWS];
	double *ref, norm_a, norm_b;
} hm_cell;

/* The operations of every host-memory contender (cell: an hm_cell, or a
 * struct that starts with one). */
extern const bench_ops hm_ops;

/* The cell's hooks (bench_cell.setup, before_check, check, teardown). The
 * check: every element of C finite, and the normwise error of the sampled
 * rows, ||C - C_ref|| / (||A_rows|| ||B||), within the bound of the
 * contender's precision mode (gkc_gemm_bound_mode, factor HM_FACTOR). */
int hm_cell_setup(void *data, char *why, size_t len);
void hm_cell_poison(void *data, bench_contender *c);
int hm_cell_check(void *data, bench_contender *c, double *err, char *why, size_t len);
void hm_cell_teardown(void *data);

/* Free what a contender's side holds (contexts and handles). */
void hm_side_free(hm_side *s);
#endif

#endif
