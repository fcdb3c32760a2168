/*
 * cuda_gemm.h - the seam between the backend-neutral API edge and the CUDA
 * backend, in plain C (included by .c and .cu files alike).
 *
 * The API edge checks every argument and builds the canonical problem
 * (gk_internal.h): C = alpha * A * B + beta * C, A m x k, B k x n, C m x n,
 * element (i, j) of X at x[i * rs_x + j * cs_x], C row-major (cs_c = 1).
 * From the BLAS layouts at least one of rs_a, cs_a is 1, and likewise for B.
 * The CUDA backend adds its execution state: the device and the stream.
 *
 * A device launcher (gk_cuda_sgemm_fn) computes one canonical problem whose
 * pointers are device memory, asynchronously on p->stream, on the current
 * device (the driver has made p->device current). Its contract:
 *   - m, n, k >= 1 and alpha != 0 (the driver does the trivial cases);
 *   - correct for every m, n, k, stride and alpha/beta; beta == 0 does not
 *     read C (NaN in C does not reach the result);
 *   - every CUDA call checked: a failure returns GK_ERR_CUDA (or
 *     GK_ERR_NO_MEMORY for an allocation) with gk_set_error's message; the
 *     launch itself is checked with cudaGetLastError();
 *   - workspace, if any, is taken stream-ordered (cudaMallocAsync /
 *     cudaFreeAsync on p->stream), never with a device-wide synchronization.
 */
#ifndef GK_CUDA_GEMM_H
#define GK_CUDA_GEMM_H

#include <stdint.h>
#include "gemmkit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gk_cuda_sgemm_args {
	int64_t m, n, k;
	float alpha, beta;
	const float *a; int64_t rs_a, cs_a;
	const float *b; int64_t rs_b, cs_b;
	float *c; int64_t rs_c;
	void *stream;  /* cudaStream_t */
	int device;    /* the current device */
	int sm_count;  /* its multiprocessors */
} gk_cuda_sgemm_args;

typedef struct gk_cuda_dgemm_args {
	int64_t m, n, k;
	double alpha, beta;
	const double *a; int64_t rs_a, cs_a;
	const double *b; int64_t rs_b, cs_b;
	double *c; int64_t rs_c;
	void *stream;
	int device;
	int sm_count;
} gk_cuda_dgemm_args;

typedef gk_status (*gk_cuda_sgemm_fn)(const gk_cuda_sgemm_args *p);
typedef gk_status (*gk_cuda_dgemm_fn)(const gk_cuda_dgemm_args *p);

/* ---- The drivers (src/cuda/core/) ------------------------------------- */

/* Run a CUDA launcher on a canonical problem of device pointers: select the
 * device, do the trivial cases (alpha = 0 or k = 0: C = beta C on the
 * device), launch. Asynchronous on `stream`. m, n >= 1. */
gk_status gk_cuda_sgemm_device_run(gk_cuda_sgemm_fn fn, int device, void *stream,
                                   int64_t m, int64_t n, int64_t k, float alpha,
                                   const float *a, int64_t rs_a, int64_t cs_a,
                                   const float *b, int64_t rs_b, int64_t cs_b,
                                   float beta, float *c, int64_t rs_c);
gk_status gk_cuda_dgemm_device_run(gk_cuda_dgemm_fn fn, int device, void *stream,
                                   int64_t m, int64_t n, int64_t k, double alpha,
                                   const double *a, int64_t rs_a, int64_t cs_a,
                                   const double *b, int64_t rs_b, int64_t cs_b,
                                   double beta, double *c, int64_t rs_c);

/* How a host-pointer call runs (from the context): the devices it shares
 * its work among, the stream queued work is ordered after, the budget. */
typedef struct gk_cuda_host_opts {
	int device;          /* the context's device; -1: the calling thread's current one */
	void *stream;        /* the context's stream (of `device`); NULL: the default stream */
	size_t budget;       /* device bytes per device (0: its free memory less a margin) */
	int ndevices;        /* entries of devices; 0: `device` when >= 0, else every device */
	const int *devices;
	unsigned flags;      /* GK_FLAG_*: GK_FLAG_DETERMINISTIC fixes the tiles (docs/CUDA_MULTI.md) */
	int threads;         /* the context's CPU threads (pageable staging); 0: the default */
} gk_cuda_host_opts;

/* The same problem with host pointers, of any size host memory holds:
 * tiles of A, B and C stream through device buffers (the out-of-core
 * driver, src/cuda/hostmem/) on one device or several; synchronous. */
gk_status gk_cuda_sgemm_host_run(gk_cuda_sgemm_fn fn, const gk_cuda_host_opts *o,
                                 int64_t m, int64_t n, int64_t k, float alpha,
                                 const float *a, int64_t rs_a, int64_t cs_a,
                                 const float *b, int64_t rs_b, int64_t cs_b,
                                 float beta, float *c, int64_t rs_c);
gk_status gk_cuda_dgemm_host_run(gk_cuda_dgemm_fn fn, const gk_cuda_host_opts *o,
                                 int64_t m, int64_t n, int64_t k, double alpha,
                                 const double *a, int64_t rs_a, int64_t cs_a,
                                 const double *b, int64_t rs_b, int64_t cs_b,
                                 double beta, double *c, int64_t rs_c);

/* Whether CUDA is built and a device is present (cached after the first
 * call): the availability test of every cuda.* row. */
int gk_cuda_available(void);

/* ---- Launchers, one per algorithm row of src/cuda/algos_cuda.c -------- */

/* The seeds' ladders (src/cuda/ladder/, one technique per file). */
/* LADDER-BEGIN (launcher prototypes of src/cuda/ladder/) */
/* sNN: the seed document (docs/CUDA_LADDER.md); in ladder order. */
gk_status gk_cuda_sgemm_s02_k1_naive(const gk_cuda_sgemm_args *p);     /* 01_naive.cu */
gk_status gk_cuda_sgemm_s00_plain(const gk_cuda_sgemm_args *p);
gk_status gk_cuda_sgemm_s00_plain_xy(const gk_cuda_sgemm_args *p);
gk_status gk_cuda_dgemm_s01_global_b8(const gk_cuda_dgemm_args *p);
gk_status gk_cuda_dgemm_s01_global_b16(const gk_cuda_dgemm_args *p);
gk_status gk_cuda_dgemm_s01_global_b32(const gk_cuda_dgemm_args *p);
gk_status gk_cuda_sgemm_s02_k2_smem(const gk_cuda_sgemm_args *p);      /* 02_smem_tile.cu */
gk_status gk_cuda_sgemm_s00_shared(const gk_cuda_sgemm_args *p);
gk_status gk_cuda_dgemm_s01_shared_b8(const gk_cuda_dgemm_args *p);
gk_status gk_cuda_dgemm_s01_shared_b16(const gk_cuda_dgemm_args *p);
gk_status gk_cuda_dgemm_s01_shared_b32(const gk_cuda_dgemm_args *p);
gk_status gk_cuda_dgemm_s01_rowcol(const gk_cuda_dgemm_args *p);       /* 03_smem_rowcol.cu */
gk_status gk_cuda_sgemm_s02_k3_tile1d(const gk_cuda_sgemm_args *p);    /* 04_thread_tile_1d.cu */
gk_status gk_cuda_sgemm_s02_k4_tile2d(const gk_cuda_sgemm_args *p);    /* 05_thread_tile_2d.cu */
gk_status gk_cuda_sgemm_s02_k5_regcache(const gk_cuda_sgemm_args *p);  /* 06_register_cache.cu */
gk_status gk_cuda_sgemm_s00_reg4x4(const gk_cuda_sgemm_args *p);       /* 07_register_4x4.cu */
gk_status gk_cuda_sgemm_s02_k6_float4(const gk_cuda_sgemm_args *p);    /* 08_float4.cu */
gk_status gk_cuda_sgemm_s00_prefetch(const gk_cuda_sgemm_args *p);     /* 09_prefetch_smem.cu */
gk_status gk_cuda_sgemm_s02_k7_prefetch(const gk_cuda_sgemm_args *p);  /* 10_prefetch.cu */
/* LADDER-END */

/* The production kernels (src/cuda/gemm/). */
/* SGEMM-BEGIN (launcher prototypes of src/cuda/gemm/sgemm_*) */
/* The tuned SGEMM (sgemm_tuned.cu): warp-tiled FFMA kernels with cp.async
 * pipelines, tile shape and split-K chosen by problem shape. */
gk_status gk_cuda_sgemm_tuned(const gk_cuda_sgemm_args *p);
/* The tensor-core SGEMMs (sgemm_tc*.cu): operands split into TF32 planes,
 * then three products (FP32-accurate) or one (TF32). */
gk_status gk_cuda_sgemm_3xtf32(const gk_cuda_sgemm_args *p);
gk_status gk_cuda_sgemm_tf32(const gk_cuda_sgemm_args *p);
/* SGEMM-END */
/* DGEMM-BEGIN (launcher prototypes of src/cuda/gemm/dgemm_*) */
/* FP64 tensor cores: DMMA 16x8x16 (sm_90+) / 8x8x4 (sm_80), split-K for few tiles. */
gk_status gk_cuda_dgemm_tuned(const gk_cuda_dgemm_args *p);
/* DGEMM-END */
/* HXV-BEGIN (horizontal x vertical products, src/cuda/hxv/, docs/CUDA_HXV.md) */
/* Any m, n, k and strides; fast where m, n are tiny and k large. */
/* "auto" on the CUDA backend routes m, n <= GK_HXV_AUTO_MN with k >= GK_HXV_AUTO_K to cuda.hxv. */
#define GK_HXV_AUTO_MN 16
#define GK_HXV_AUTO_K 65536
gk_status gk_cuda_sgemm_hxv_basic(const gk_cuda_sgemm_args *p);  /* basic.cu: seed BasicMM */
gk_status gk_cuda_dgemm_hxv_basic(const gk_cuda_dgemm_args *p);
gk_status gk_cuda_sgemm_hxv_phvm(const gk_cuda_sgemm_args *p);   /* phvm.cu: seed PHVM */
gk_status gk_cuda_dgemm_hxv_phvm(const gk_cuda_dgemm_args *p);
gk_status gk_cuda_sgemm_hxv(const gk_cuda_sgemm_args *p);        /* stream.cu: production */
gk_status gk_cuda_dgemm_hxv(const gk_cuda_dgemm_args *p);
/* PHVM at a given grid size gs and block size bs (0, 0: the model's choice). */
gk_status gk_cuda_sgemm_hxv_phvm_at(const gk_cuda_sgemm_args *p, int gs, int bs);
/* The host-pointer driver of cuda.hxv (host.cu): k streamed in chunks
 * through pinned staging, two streams; synchronous. */
gk_status gk_cuda_sgemm_hxv_host(int device, void *stream, int64_t m, int64_t n, int64_t k,
                                 float alpha, const float *a, int64_t rs_a, int64_t cs_a,
                                 const float *b, int64_t rs_b, int64_t cs_b, float beta,
                                 float *c, int64_t rs_c);
gk_status gk_cuda_dgemm_hxv_host(int device, void *stream, int64_t m, int64_t n, int64_t k,
                                 double alpha, const double *a, int64_t rs_a, int64_t cs_a,
                                 const double *b, int64_t rs_b, int64_t cs_b, double beta,
                                 double *c, int64_t rs_c);
/* probe.cu: the model's inputs measured on a device, PHVM timing, read floor. */
struct gk_hxv_device;
struct gk_hxv_config;
gk_status gk_cuda_hxv_resolve_device(int *device);
gk_status gk_cuda_hxv_probe(int device, struct gk_hxv_device *out);
gk_status gk_cuda_hxv_phvm_time(int device, int64_t m, int64_t n, int64_t k,
                                const struct gk_hxv_config *cfg, int count, int reps, double *ms);
gk_status gk_cuda_hxv_read(const void *p, size_t bytes, void *stream);
/* HXV-END */

#ifdef __cplusplus
}
#endif

#endif /* GK_CUDA_GEMM_H */
