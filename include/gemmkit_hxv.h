/*
 * gemmkit_hxv.h - horizontal x vertical products on the GPU: seed 003's
 * time-cost model of PHVM launches (docs/CUDA_HXV.md).
 * Part of gemmkit's public API: included by gemmkit.h, which is all a
 * program needs to include.
 */
#ifndef GEMMKIT_HXV_H
#define GEMMKIT_HXV_H

#include "gemmkit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* HXV-BEGIN ---------------------------------------------------------------- */
/* Horizontal x vertical products on the GPU: the time-cost model            */
/* ------------------------------------------------------------------------ */
/*
 * E (m x k) times F (k x n) with m, n tiny and k huge runs as the algorithms
 * cuda.hxv (production), cuda.hxv_phvm and cuda.hxv_basic through the GEMM
 * calls. What follows is the PHVM launch-configuration model (docs/CUDA_HXV.md):
 * a device's parameters and latencies, the predicted time of each grid size
 * GS and block size BS, and PHVM timed at a given configuration.
 */

/** A device as the time-cost model sees it. Latencies are in clock cycles. */
typedef struct gk_hxv_device {
	char name[96];
	int sm_count;              /**< SM_NUM */
	int threads_per_sm;        /**< SMS: resident threads per SM */
	int warp_size;             /**< WS */
	int cores_per_sm;          /**< FP32 cores per SM (CoreS = cores_per_sm * sm_count) */
	int max_threads_per_block;
	int max_blocks_per_sm;
	double clock_ghz;          /**< SM clock, to turn cycles into time */
	double sigma_g;            /**< global-memory load latency */
	double sigma_s;            /**< shared-memory load latency */
	double sigma_add, sigma_mul; /**< dependent FP32 add / multiply latency */
	double u_sm;               /**< SM utilisation of PHVM, in (0, 1] */
	double sigma_atomic;       /**< extension: cycles per atomic add to one address */
	double read_bytes_per_cycle; /**< extension: measured device read bandwidth */
	int measured;              /**< 1: latencies measured on this device; 0: given */
} gk_hxv_device;

/** One launch configuration and its predicted times. */
typedef struct gk_hxv_config {
	int gs, bs;
	int admissible;  /**< meets the model's constraints (2)-(4) and the device's limits */
	int paper_case;  /**< 1: equation (9), 2: equation (10) */
	double t_paper;  /**< cycles: the seed model, equations (1), (6)-(11) */
	double t_ext;    /**< cycles: the extension (bandwidth, waves, atomics) */
} gk_hxv_config;

/**
 * Fill *out for CUDA device `device` (-1: the current one): its properties,
 * and latencies measured by micro-benchmarks (pointer chasing, dependent
 * chains, one PHVM run), cached per device for the process; remeasure != 0
 * measures again.
 * @return GK_OK, GK_ERR_NO_GPU, GK_ERR_CUDA, GK_ERR_NULL_POINTER.
 */
GK_API gk_status gk_hxv_device_query(int device, int remeasure, gk_hxv_device *out);

/**
 * The predicted table for an m x k by k x n product of elements of `esize`
 * bytes: every configuration of the sweep (BS a multiple of the warp size
 * dividing threads_per_sm, GS = sm_count * 2^j), at most `cap` of them into
 * out (NULL: count only). *best_paper is the index of the admissible
 * configuration the seed model predicts fastest (the PHVM default),
 * *best_ext the fastest of the whole sweep by the extension (either NULL).
 * Pure computation: no GPU needed.
 * @return the number of configurations of the sweep, or a negative status.
 */
GK_API int gk_hxv_model_table(const gk_hxv_device *d, int64_t m, int64_t n, int64_t k, int esize,
                              gk_hxv_config *out, int cap, int *best_paper, int *best_ext);

/**
 * Time PHVM (float) on device `device` at each of `count` configurations:
 * E (m x k) and F (k x n) are allocated and filled on the device; each
 * configuration runs once to warm up, then `reps` times; ms[i] is the
 * median time of cfg[i] in milliseconds.
 * @return GK_OK, GK_ERR_NO_GPU, GK_ERR_NO_MEMORY, GK_ERR_CUDA, ...
 */
GK_API gk_status gk_hxv_phvm_time(int device, int64_t m, int64_t n, int64_t k,
                                  const gk_hxv_config *cfg, int count, int reps, double *ms);

/**
 * Enqueue on `stream` (a cudaStream_t; NULL: the default one) a read-only
 * kernel over `bytes` bytes of device memory at p: the read floor that the
 * streaming products are measured against.
 * @return GK_OK, GK_ERR_NO_GPU, GK_ERR_CUDA.
 */
GK_API gk_status gk_hxv_read_device(const void *p, size_t bytes, void *stream);
/* HXV-END ------------------------------------------------------------------ */

#ifdef __cplusplus
}
#endif

#endif /* GEMMKIT_HXV_H */
