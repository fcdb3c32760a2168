/*
 * gk_internal.h - what the library's layers share behind the public header:
 * error helpers, the canonical GEMM problem, the algorithm registry, threads,
 * aligned allocation and timing. Tools and benches may include it for
 * kernel-level work; users never need it.
 */
#ifndef GK_INTERNAL_H
#define GK_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include "gemmkit.h"
#include "kernel_api.h"
#include "../cuda/cuda_gemm.h"

#define GK_HIDDEN __attribute__((visibility("hidden")))

/* 1 unless the environment variable `name` is "0": a switch that is on by
 * default. *cache starts at -1 and keeps the answer (env.c). */
GK_HIDDEN int gk_env_on(const char *name, int *cache);

/* 1 if `name` is "1", 0 if it is "0", else dflt() (the machine's default);
 * read once: *cache starts at -1 and keeps the answer (env.c). */
GK_HIDDEN int gk_env_switch(const char *name, int *cache, int (*dflt)(void));

/* Record a formatted description of an error for gk_last_error(), return it. */
GK_HIDDEN gk_status gk_set_error(gk_status st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Empty the calling thread's message. Until some thread has recorded an
 * error (gk_error_recorded, status.c) every thread's message is empty and
 * there is nothing to do: no thread-local access on a call's way in. */
extern GK_HIDDEN int gk_error_recorded;
GK_HIDDEN void gk_clear_error_now(void);
static inline void gk_clear_error(void)
{
	if (__atomic_load_n(&gk_error_recorded, __ATOMIC_RELAXED))
		gk_clear_error_now();
}

/* Flat control flow at the API edge (zstd's RETURN_ERROR_IF/FORWARD_IF_ERROR). */
#define GK_RETURN_IF(cond, st, ...) \
	do { if (cond) return gk_set_error((st), __VA_ARGS__); } while (0)
#define GK_FORWARD(expr) \
	do { gk_status gk_fwd_st_ = (expr); if (gk_fwd_st_ != GK_OK) return gk_fwd_st_; } while (0)

/*
 * One GEMM call after the API edge has checked it, in canonical form:
 * C = alpha * A * B + beta * C with A m x k, B k x n, C m x n, element (i, j)
 * of X at x[i * rs_x + j * cs_x]. The edge transposes the whole problem when
 * C is column-major, so C is always row-major here: cs_c == 1. m, n, k > 0
 * and alpha != 0 (the edge handles the trivial cases); threads >= 1.
 */
typedef struct gk_sgemm_args {
	int64_t m, n, k;
	float alpha, beta;
	const float *a; int64_t rs_a, cs_a;
	const float *b; int64_t rs_b, cs_b;
	float *c; int64_t rs_c;
	int threads;
	unsigned flags; /* GK_FLAG_* of the context */
	const gk_kernels *kern;
} gk_sgemm_args;

typedef struct gk_dgemm_args {
	int64_t m, n, k;
	double alpha, beta;
	const double *a; int64_t rs_a, cs_a;
	const double *b; int64_t rs_b, cs_b;
	double *c; int64_t rs_c;
	int threads;
	unsigned flags; /* GK_FLAG_* of the context */
	const gk_kernels *kern;
} gk_dgemm_args;

typedef gk_status (*gk_sgemm_fn)(const gk_sgemm_args *p);
typedef gk_status (*gk_dgemm_fn)(const gk_dgemm_args *p);

/*
 * One selectable algorithm. A CPU row fills sgemm/dgemm (host pointers,
 * canonical problem); a CUDA row fills dev_sgemm/dev_dgemm (device
 * pointers: the CUDA drivers call them for the device-pointer API, and
 * through pinned staging for host pointers). A NULL function means that
 * type is not handled.
 */
typedef struct gk_algo {
	const char *name;
	const char *description;
	gk_backend backend;
	int threaded;
	gk_sgemm_fn sgemm;
	gk_dgemm_fn dgemm;
	int (*available)(void); /* NULL: always available */
	gk_cuda_sgemm_fn dev_sgemm;
	gk_cuda_dgemm_fn dev_dgemm;
	gk_precision precision; /* of its float products; 0 (DEFAULT) stands for strict */
} gk_algo;

/* Whether an algorithm has a function for the type (GK_DTYPE_F32 or _F64). */
static inline int gk_algo_has_type(const gk_algo *al, unsigned dtype)
{
	if (al->backend == GK_BACKEND_CUDA)
		return dtype == GK_DTYPE_F32 ? al->dev_sgemm != NULL : al->dev_dgemm != NULL;
	return dtype == GK_DTYPE_F32 ? al->sgemm != NULL : al->dgemm != NULL;
}

/* Each backend's rows of the registry: src/gemm/algos_cpu.c and
 * src/cuda/algos_cuda.c (listed, unavailable, when CUDA is not built). */
extern GK_HIDDEN const gk_algo gk_algos_cpu[];
extern GK_HIDDEN const int gk_algos_cpu_count;
extern GK_HIDDEN const gk_algo gk_algos_cuda[];
extern GK_HIDDEN const int gk_algos_cuda_count;

/* The registry (src/api/algos.c): every algorithm, "auto" excluded. */
GK_HIDDEN int gk_algo_table_size(void);
GK_HIDDEN const gk_algo *gk_algo_table_entry(int i);
GK_HIDDEN const gk_algo *gk_algo_find(const char *name);
GK_HIDDEN const gk_algo *gk_algo_auto(int dtype_bits, int64_t m, int64_t n, int64_t k,
                                      gk_backend backend, unsigned flags, gk_precision precision);

/* The seed ladder (src/gemm/ladder_*.c). */
GK_HIDDEN gk_status gk_sgemm_plain(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_plain(const gk_dgemm_args *p);
GK_HIDDEN gk_status gk_sgemm_trans(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_trans(const gk_dgemm_args *p);
GK_HIDDEN gk_status gk_sgemm_ikj(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_ikj(const gk_dgemm_args *p);
GK_HIDDEN gk_status gk_sgemm_ikj_omp(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_ikj_omp(const gk_dgemm_args *p);
/* Rungs 5 to 9 (src/gemm/ladder_tiled_*.c): blocks copied into local tiles,
 * multiplied by a tile kernel of p->kern, OpenMP over block rows. */
GK_HIDDEN gk_status gk_sgemm_block64(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_block64(const gk_dgemm_args *p);
GK_HIDDEN gk_status gk_sgemm_block64_aligned(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_block64_aligned(const gk_dgemm_args *p);
GK_HIDDEN gk_status gk_sgemm_unroll_2x4(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_unroll_2x4(const gk_dgemm_args *p);
GK_HIDDEN gk_status gk_sgemm_regtile_3x32(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_regtile_3x16(const gk_dgemm_args *p);
GK_HIDDEN gk_status gk_sgemm_regtile_6x64(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_regtile_6x32(const gk_dgemm_args *p);
/* Rung 10 (src/gemm/strassen_*.c): Strassen's algorithm over the blocked
 * driver. A level recurses while min(m, n, k) >= 2 * cutoff; the cut-off is
 * GK_STRASSEN_CUTOFF from the environment when it is a number >= 1 (raised
 * to GK_STRASSEN_CUTOFF_MIN), else the default. gk_strassen_levels() is how
 * many levels a product of that size gets now. */
#define GK_STRASSEN_CUTOFF_DEFAULT 512
#define GK_STRASSEN_CUTOFF_MIN 8
GK_HIDDEN gk_status gk_sgemm_strassen(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_strassen(const gk_dgemm_args *p);
GK_HIDDEN int64_t gk_strassen_cutoff(void);
GK_HIDDEN int gk_strassen_levels(int64_t m, int64_t n, int64_t k);
/* The production Strassen, "cpu.strassen" (src/gemm/strassen_abc_*.c): one
 * or two levels with the operand sums folded into packing and the products
 * added into C from the microkernel's tiles; cpu.blocked where no level
 * runs. gk_strassen_abc_levels() is how many levels a product of that size
 * and type (GK_DTYPE_F32 or GK_DTYPE_F64) gets now: 0, 1 or 2, by measured
 * thresholds on min(m, n, k) that GK_STRASSEN_MIN="t1[,t2]" overrides. */
GK_HIDDEN gk_status gk_sgemm_strassen_abc(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_strassen_abc(const gk_dgemm_args *p);
GK_HIDDEN int gk_strassen_abc_levels(unsigned dtype, int64_t m, int64_t n, int64_t k);

/* The production CPU path: packed, cache-blocked, microkernels from p->kern
 * (src/gemm/blocked_*.c). */
GK_HIDDEN gk_status gk_sgemm_blocked(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_blocked(const gk_dgemm_args *p);
/* The same after the direct calls of the smallest products were found not
 * to apply (src/gemm/blocked_direct_tmpl.h, direct_try): gemmkit's entry
 * tries those itself, inline, and calls this. */
GK_HIDDEN gk_status gk_sgemm_blocked_choose(const gk_sgemm_args *p);
GK_HIDDEN gk_status gk_dgemm_blocked_choose(const gk_dgemm_args *p);

/* Multiply-adds (m * n * k) each thread of the blocked driver should have at
 * least: below it, a thread costs more to start and join than it saves. A
 * product under twice this runs on one thread. */
#define GK_BLOCKED_MIN_WORK (48.0 * 48.0 * 48.0)

/* C := beta * C on an m x n row-major block (beta = 0 writes zeros, reads nothing). */
GK_HIDDEN void gk_scale_rows_f32(int64_t m, int64_t n, float beta, float *c, int64_t rs_c);
GK_HIDDEN void gk_scale_rows_f64(int64_t m, int64_t n, double beta, double *c, int64_t rs_c);

/* Threads (src/core/threads.c): the count a call runs with. */
GK_HIDDEN int gk_default_threads(void);
GK_HIDDEN int gk_resolve_threads(int requested);
/* The CPUs a quota of `quota` microseconds per `period` allows, rounded
 * up; 0 for no quota (quota or period <= 0). */
GK_HIDDEN int gk_cpu_quota_of(long long quota, long long period);

/* Memory (src/core/alloc.c): 64-byte aligned, NULL on failure or overflow. */
GK_HIDDEN void *gk_aligned_alloc(size_t count, size_t elem_size);
GK_HIDDEN void gk_aligned_free(void *p);

/* Data cache sizes of one core, in bytes (src/core/cache_sizes.c): read once
 * from sysfs, else sysconf; 0 when unknown. */
GK_HIDDEN void gk_cache_sizes(size_t *l1d, size_t *l2, size_t *l3);

/* Whether the blocked GEMM driver walks C along its rows for any B panel:
 * an L2 of at most GK_BLOCKED_WALK_L2 (src/gemm/blocked_sizes.c), or one
 * that GK_GEMM_BLOCKS gives as such. A kernel table whose best tile depends
 * on the walk asks it (table_avx2.c). */
GK_HIDDEN int gk_gemm_walks_rows(void);

/* CPU (src/core/cpu_features.c). */
GK_HIDDEN uint64_t gk_cpu_features(void);
GK_HIDDEN void gk_cpu_brand(char *buf, size_t len);
/* Whether the CPU is Intel's (CPUID vendor GenuineIntel): for the tuning
 * choices measured to differ between vendors. */
GK_HIDDEN int gk_cpu_intel(void);
/* The CPU family of an AMD processor (0x17 Zen 1-2, 0x19 Zen 3-4, 0x1A
 * Zen 5), 0 for any other vendor. */
GK_HIDDEN int gk_cpu_amd_family(void);
GK_HIDDEN void gk_cpu_feature_string(uint64_t f, char *buf, size_t len);

/* CUDA (src/cuda/cuda_info.cu, or its stub when built without CUDA). */
GK_HIDDEN int gk_cuda_built(void);
GK_HIDDEN int gk_cuda_device_count(void);
GK_HIDDEN void gk_cuda_device_name(int dev, char *buf, size_t len);

#endif /* GK_INTERNAL_H */
