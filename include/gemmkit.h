/*
 * gemmkit.h - the public interface of gemmkit, a library for fast matrix
 * multiplication on x86-64 CPUs and NVIDIA GPUs.
 *
 * Every function returns a gk_status (GK_OK = 0, errors < 0) unless it is a
 * pure query. Every size, index and leading dimension is int64_t. Arguments
 * are checked once, here at the edge; an invalid argument returns a status and
 * never crashes or writes out of bounds.
 *
 * The BLAS/CBLAS-compatible entry points (sgemm_, dgemm_, cblas_sgemm,
 * cblas_dgemm) are declared in gemmkit_cblas.h. GF(2^8) and Reed-Solomon
 * (gemmkit_gf256.h) and the horizontal x vertical model (gemmkit_hxv.h)
 * have headers of their own, included at the end of this one.
 */
#ifndef GEMMKIT_H
#define GEMMKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define GK_API
#else
#define GK_API __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------------ */
/* Version                                                                   */
/* ------------------------------------------------------------------------ */

#define GK_VERSION_MAJOR 0
#define GK_VERSION_MINOR 1
#define GK_VERSION_PATCH 0
/** The version as one number: major * 10000 + minor * 100 + patch. */
#define GK_VERSION (GK_VERSION_MAJOR * 10000 + GK_VERSION_MINOR * 100 + GK_VERSION_PATCH)

/**
 * @return the version of the library that is linked, as GK_VERSION; compare
 *         it with the GK_VERSION of the header you compiled against.
 */
GK_API int gk_version(void);

/** @return the version of the linked library as "major.minor.patch". */
GK_API const char *gk_version_string(void);

/* ------------------------------------------------------------------------ */
/* Status                                                                    */
/* ------------------------------------------------------------------------ */

typedef enum gk_status {
	GK_OK = 0,
	GK_ERR_INVALID_VALUE = -1,  /**< an enum argument is not one of its values */
	GK_ERR_NEGATIVE_SIZE = -2,  /**< m, n or k is negative */
	GK_ERR_BAD_LD = -3,         /**< a leading dimension is smaller than the matrix needs */
	GK_ERR_NULL_POINTER = -4,   /**< a pointer that must be read or written is NULL */
	GK_ERR_OVERFLOW = -5,       /**< a size product does not fit in int64_t / size_t */
	GK_ERR_NO_MEMORY = -6,      /**< an allocation failed */
	GK_ERR_UNKNOWN_ALGO = -7,   /**< no algorithm has the given name */
	GK_ERR_UNSUPPORTED = -8,    /**< the algorithm or backend does not handle these arguments */
	GK_ERR_NO_GPU = -9,         /**< built without CUDA, or no CUDA device is present */
	GK_ERR_CUDA = -10,          /**< a CUDA call failed */
	GK_ERR_IO = -11,            /**< a file could not be read or written */
	GK_ERR_FORMAT = -12,        /**< a file's contents are not in the expected format */
	GK_ERR_SINGULAR = -13,      /**< a matrix that must be inverted is singular */
	GK_ERR_INTERNAL = -14       /**< a bug in gemmkit: please report it */
} gk_status;

/**
 * @return a short, static English description of a status; an unknown value
 *         gives "unknown gk_status". Never NULL.
 */
GK_API const char *gk_strerror(gk_status status);

/**
 * @return a description of the last error that a gemmkit function returned
 *         on the calling thread, naming the argument at fault (for example
 *         "gk_sgemm: lda = 3 < 5"); "" when no error has occurred. The
 *         pointer stays valid until the next gemmkit call on this thread.
 */
GK_API const char *gk_last_error(void);

/* ------------------------------------------------------------------------ */
/* GEMM                                                                      */
/* ------------------------------------------------------------------------ */

/** Storage order; the values are those of CBLAS. */
typedef enum gk_layout {
	GK_ROW_MAJOR = 101,
	GK_COL_MAJOR = 102
} gk_layout;

/** op(X) = X, X^T, or X^T (real data: conjugate transpose = transpose). */
typedef enum gk_trans {
	GK_NO_TRANS = 111,
	GK_TRANS = 112,
	GK_CONJ_TRANS = 113
} gk_trans;

/** Where a product is computed. */
typedef enum gk_backend {
	GK_BACKEND_AUTO = 0, /**< the algorithm's own, or the best for the call */
	GK_BACKEND_CPU = 1,
	GK_BACKEND_CUDA = 2
} gk_backend;

/**
 * C = alpha * op(A) * op(B) + beta * C, single precision.
 *
 * op(A) is m x k, op(B) is k x n, C is m x n, all stored in `layout`.
 * With GK_ROW_MAJOR, element (i, j) of a matrix X with leading dimension ldx
 * is x[i * ldx + j]; with GK_COL_MAJOR it is x[i + j * ldx].
 *
 * BLAS semantics: beta = 0 means C is not read (NaN or Inf in C does not reach
 * the result); alpha = 0 or k = 0 means A and B are not read (and may be
 * NULL); m = 0 or n = 0 returns GK_OK at once, touching nothing.
 *
 * @param layout GK_ROW_MAJOR or GK_COL_MAJOR.
 * @param ta, tb GK_NO_TRANS, GK_TRANS or GK_CONJ_TRANS.
 * @param m, n, k sizes, >= 0.
 * @param lda >= max(1, number of columns of A as stored) for row-major,
 *            >= max(1, number of rows of A as stored) for column-major.
 *            Likewise ldb and ldc.
 * Without a context the product runs on the CPU. Through gk_sgemm_ex with
 * a context whose backend is GK_BACKEND_CUDA (or whose algorithm is a
 * cuda.* one) it runs on the GPU from host pointers (gk_context_set_backend).
 *
 * @return GK_OK, or GK_ERR_INVALID_VALUE, GK_ERR_NEGATIVE_SIZE,
 *         GK_ERR_BAD_LD, GK_ERR_NULL_POINTER, GK_ERR_OVERFLOW,
 *         GK_ERR_NO_MEMORY; C is untouched when an error is returned for an
 *         argument. On the GPU also GK_ERR_NO_GPU, GK_ERR_CUDA, and
 *         GK_ERR_UNSUPPORTED when the context's device budget holds no tiles
 *         (products larger than the device stream through it in tiles).
 */
GK_API gk_status gk_sgemm(gk_layout layout, gk_trans ta, gk_trans tb,
                          int64_t m, int64_t n, int64_t k,
                          float alpha, const float *a, int64_t lda,
                          const float *b, int64_t ldb,
                          float beta, float *c, int64_t ldc);

/** As gk_sgemm, double precision. */
GK_API gk_status gk_dgemm(gk_layout layout, gk_trans ta, gk_trans tb,
                          int64_t m, int64_t n, int64_t k,
                          double alpha, const double *a, int64_t lda,
                          const double *b, int64_t ldb,
                          double beta, double *c, int64_t ldc);

/* ------------------------------------------------------------------------ */
/* Contexts: the algorithm, backend and thread count of a call               */
/* ------------------------------------------------------------------------ */

/**
 * A context holds the choices a call is made with. It is cheap, holds no
 * threads, and may be shared by threads as long as none changes it. Calls
 * without a context (gk_sgemm, gk_dgemm) use the defaults: algorithm "auto",
 * GK_BACKEND_AUTO, and the default thread count.
 */
typedef struct gk_context gk_context;

/**
 * Create a context with the defaults.
 * @param out receives the new context; *out is NULL on failure.
 * @return GK_OK, GK_ERR_NULL_POINTER or GK_ERR_NO_MEMORY.
 */
GK_API gk_status gk_context_create(gk_context **out);

/** Destroy a context; NULL is ignored. */
GK_API void gk_context_destroy(gk_context *ctx);

/**
 * Choose the algorithm by name: "auto" or one of the names gk_algo_get lists
 * (for example "cpu.plain", "cpu.ikj"). An algorithm of another backend than
 * the context's (when that is not GK_BACKEND_AUTO) is refused when the call is
 * made, with GK_ERR_UNSUPPORTED.
 * @return GK_OK, GK_ERR_NULL_POINTER, or GK_ERR_UNKNOWN_ALGO (the context is
 *         then unchanged).
 */
GK_API gk_status gk_context_set_algo(gk_context *ctx, const char *name);

/** @return the context's algorithm name ("auto" by default); NULL if ctx is NULL. */
GK_API const char *gk_context_algo(const gk_context *ctx);

/**
 * Choose the backend. GK_BACKEND_AUTO (the default) runs "auto" on the CPU
 * and a named algorithm on its own backend; GK_BACKEND_CPU and
 * GK_BACKEND_CUDA keep "auto" on that backend and refuse an algorithm of
 * the other one. With GK_BACKEND_CUDA, gk_sgemm_ex / gk_dgemm_ex take host
 * pointers, copy the operands to the context's device through pinned
 * staging buffers, and copy C back before returning; gk_sgemm_device /
 * gk_dgemm_device take device pointers.
 * @return GK_OK, GK_ERR_NULL_POINTER or GK_ERR_INVALID_VALUE.
 */
GK_API gk_status gk_context_set_backend(gk_context *ctx, gk_backend backend);

/**
 * Choose the CUDA device of the context's GPU calls: 0 <= device < the
 * number of devices, or -1 (the default) for the calling thread's current
 * device (cudaGetDevice). A call made with it makes the device current for
 * its duration and restores the caller's current device before returning.
 * A device that is not present is reported by the call (GK_ERR_INVALID_VALUE).
 * @return GK_OK, GK_ERR_NULL_POINTER, or GK_ERR_INVALID_VALUE for device < -1.
 */
GK_API gk_status gk_context_set_device(gk_context *ctx, int device);

/** @return the context's CUDA device (-1: the current one); -1 if ctx is NULL. */
GK_API int gk_context_device(const gk_context *ctx);

/**
 * Choose the CUDA stream (a cudaStream_t of the context's device, passed as
 * void *) on which the device-pointer calls are queued; NULL (the default)
 * is the legacy default stream. The host-pointer calls use it too, and
 * synchronize it before returning. gemmkit never destroys it.
 * @return GK_OK or GK_ERR_NULL_POINTER.
 */
GK_API gk_status gk_context_set_stream(gk_context *ctx, void *stream);

/** @return the context's CUDA stream (NULL: the default stream, or ctx NULL). */
GK_API void *gk_context_stream(const gk_context *ctx);

/**
 * Limit the device memory that a host-pointer GPU call (gk_sgemm_ex /
 * gk_dgemm_ex on the CUDA backend) takes, in bytes; 0 (the default) means
 * what the device has free less a margin (2% of its memory, at least
 * 512 MiB). Operands larger than the budget stream through the device in
 * tiles (docs/CUDA_HOSTMEM.md); a budget too small for the smallest tiles
 * makes the call return GK_ERR_UNSUPPORTED. A budget above what is free is
 * lowered to it.
 * @return GK_OK or GK_ERR_NULL_POINTER.
 */
GK_API gk_status gk_context_set_device_budget(gk_context *ctx, size_t bytes);

/** @return the context's device-memory budget (0: the default); 0 if ctx is NULL. */
GK_API size_t gk_context_device_budget(const gk_context *ctx);

/** The most entries a context's device list holds. */
#define GK_MAX_DEVICES 64

/**
 * Choose the CUDA devices that a host-pointer call (gk_sgemm_ex /
 * gk_dgemm_ex on the CUDA backend) shares its work among: `count` device
 * ordinals (0 <= d < the number of devices; a device listed twice runs two
 * workers, each with its own streams and budget). The tiles of C are dealt
 * out dynamically: a device that finishes early takes more. count = 0
 * restores the default: the context's device when gk_context_set_device
 * named one, else every visible device (CUDA_VISIBLE_DEVICES applies).
 * The budget (gk_context_set_device_budget) applies to each device. With
 * GK_FLAG_DETERMINISTIC the result is bit-identical for any device list
 * and any schedule (docs/CUDA_MULTI.md). Device-pointer calls use
 * gk_context_device alone. A device that is not present is reported by
 * the call (GK_ERR_INVALID_VALUE).
 * @return GK_OK, GK_ERR_NULL_POINTER (devices NULL with count > 0), or
 *         GK_ERR_INVALID_VALUE (count < 0 or > GK_MAX_DEVICES, an ordinal < 0).
 */
GK_API gk_status gk_context_set_devices(gk_context *ctx, const int *devices, int count);

/**
 * The context's device list: copies up to `cap` entries into `out` (may be
 * NULL when cap is 0).
 * @return the number of entries (0: the default set), 0 if ctx is NULL.
 */
GK_API int gk_context_devices(const gk_context *ctx, int *out, int cap);

/**
 * Set the number of CPU threads for calls made with this context; 0 (the
 * default) means the default count: GK_NUM_THREADS from the environment,
 * else OMP_NUM_THREADS, else the number of processors the process may run
 * on (no more than a container's CPU quota). Inside a caller's
 * OpenMP parallel region the default is 1 thread (no oversubscription); an
 * explicit count is obeyed there too.
 * @return GK_OK, GK_ERR_NULL_POINTER, or GK_ERR_INVALID_VALUE for n < 0.
 */
GK_API gk_status gk_context_set_threads(gk_context *ctx, int n);

/**
 * Flags of a context, as bits.
 *
 * GK_FLAG_DETERMINISTIC: the result has the same bits whatever the thread
 * count (without it, results are reproducible run to run for a fixed
 * thread count only). It may cost speed where the work is split along K.
 *
 * GK_FLAG_ALLOW_STRASSEN: "auto" may use Strassen's algorithm where it is
 * faster. It changes the rounding: its error bound is larger than the
 * classical one (docs/ARCHITECTURE.md states it).
 */
#define GK_FLAG_DETERMINISTIC 1u
#define GK_FLAG_ALLOW_STRASSEN 2u

/**
 * Set the context's flags (GK_FLAG_*; 0 by default).
 * @return GK_OK, GK_ERR_NULL_POINTER, or GK_ERR_INVALID_VALUE for an unknown bit.
 */
GK_API gk_status gk_context_set_flags(gk_context *ctx, unsigned flags);

/** @return the context's flags; 0 if ctx is NULL. */
GK_API unsigned gk_context_flags(const gk_context *ctx);

/**
 * The arithmetic of single-precision products on the GPU
 * (docs/PRECISION.md gives each mode's error bound and measured error).
 *
 * GK_PRECISION_STRICT: IEEE FP32 multiply-adds (cuda.sgemm); the error of a
 * classical FP32 product, |C - C_exact| <= K u |A| |B| with u = 2^-24.
 *
 * GK_PRECISION_ACCURATE: FP32-accurate on tensor cores (cuda.sgemm_3xtf32):
 * each operand split into a big and a small TF32 part, three products;
 * bound (K + 12) u |A| |B| elementwise (the parts' representation error is
 * at most 3 u_t^2 = 12 u relative, u_t = 2^-11 the unit roundoff of TF32).
 *
 * GK_PRECISION_TF32: TF32 tensor cores, one product (cuda.sgemm_tf32):
 * operands rounded to 10-bit mantissas, bound (2 u_t + K u) |A| |B|, a
 * relative error near 1e-4 to 1e-3 whatever K: lower precision, fastest.
 *
 * GK_PRECISION_DEFAULT (a new context's): the mode named by the environment
 * variable GK_PRECISION ("strict", "accurate" or "tf32", read at the first
 * call that needs it), else strict. The mode chooses what "auto" runs for
 * float on the CUDA backend; a named algorithm runs as named. The CPU
 * computes every mode in strict arithmetic, and double precision is always
 * FP64 (cuda.dgemm's FP64 tensor cores round as FP64 FMA).
 */
typedef enum gk_precision {
	GK_PRECISION_DEFAULT = 0,
	GK_PRECISION_STRICT = 1,
	GK_PRECISION_ACCURATE = 2,
	GK_PRECISION_TF32 = 3
} gk_precision;

/** Set the context's precision mode. @return GK_OK, GK_ERR_NULL_POINTER or GK_ERR_INVALID_VALUE. */
GK_API gk_status gk_context_set_precision(gk_context *ctx, gk_precision precision);

/** @return the context's precision mode as set (GK_PRECISION_DEFAULT if ctx is NULL). */
GK_API gk_precision gk_context_precision(const gk_context *ctx);

/**
 * @return the mode a call made with ctx (NULL: no context) runs in:
 *         GK_PRECISION_DEFAULT resolved through GK_PRECISION, never
 *         GK_PRECISION_DEFAULT itself.
 */
GK_API gk_precision gk_precision_effective(const gk_context *ctx);

/** @return "strict", "accurate", "tf32" or "default"; NULL for a value that is not a mode. */
GK_API const char *gk_precision_name(gk_precision precision);

/**
 * Parse a mode's name ("default", "strict", "accurate", "tf32").
 * @return GK_OK, GK_ERR_NULL_POINTER, or GK_ERR_INVALID_VALUE (*out unchanged).
 */
GK_API gk_status gk_precision_parse(const char *name, gk_precision *out);

/** As gk_sgemm, with the choices of ctx (NULL: the defaults). */
GK_API gk_status gk_sgemm_ex(const gk_context *ctx, gk_layout layout,
                             gk_trans ta, gk_trans tb,
                             int64_t m, int64_t n, int64_t k,
                             float alpha, const float *a, int64_t lda,
                             const float *b, int64_t ldb,
                             float beta, float *c, int64_t ldc);

/** As gk_dgemm, with the choices of ctx (NULL: the defaults). */
GK_API gk_status gk_dgemm_ex(const gk_context *ctx, gk_layout layout,
                             gk_trans ta, gk_trans tb,
                             int64_t m, int64_t n, int64_t k,
                             double alpha, const double *a, int64_t lda,
                             const double *b, int64_t ldb,
                             double beta, double *c, int64_t ldc);

/* ------------------------------------------------------------------------ */
/* GEMM on operands in GPU memory                                            */
/* ------------------------------------------------------------------------ */

/**
 * C = alpha * op(A) * op(B) + beta * C, single precision, with a, b and c
 * pointing to memory of the context's CUDA device (cudaMalloc). The
 * arguments and their meaning are those of gk_sgemm; the checks are made on
 * the host, so nothing is queued when one fails. The product is queued on
 * the context's stream and the call returns without waiting for it:
 * synchronize the stream (or the device) before reading C on the host.
 * BLAS semantics as gk_sgemm (beta = 0 does not read C; alpha = 0 or k = 0
 * does not read A or B).
 *
 * The algorithm is the context's if it names a cuda.* one, else "auto" for
 * the GPU (cuda.sgemm); a cpu.* algorithm is refused (GK_ERR_UNSUPPORTED).
 * A kernel fault is reported by a later CUDA call on the stream, as with
 * any asynchronous CUDA library.
 * @return GK_OK; the argument errors of gk_sgemm; GK_ERR_NO_GPU (built
 *         without CUDA, or no device); GK_ERR_INVALID_VALUE (the context's
 *         device is not present); GK_ERR_NO_MEMORY (device workspace);
 *         GK_ERR_CUDA (any other CUDA error; gk_last_error() names it).
 */
GK_API gk_status gk_sgemm_device(const gk_context *ctx, gk_layout layout,
                                 gk_trans ta, gk_trans tb,
                                 int64_t m, int64_t n, int64_t k,
                                 float alpha, const float *a, int64_t lda,
                                 const float *b, int64_t ldb,
                                 float beta, float *c, int64_t ldc);

/** As gk_sgemm_device, double precision ("auto": cuda.dgemm). */
GK_API gk_status gk_dgemm_device(const gk_context *ctx, gk_layout layout,
                                 gk_trans ta, gk_trans tb,
                                 int64_t m, int64_t n, int64_t k,
                                 double alpha, const double *a, int64_t lda,
                                 const double *b, int64_t ldb,
                                 double beta, double *c, int64_t ldc);

/* ------------------------------------------------------------------------ */
/* Algorithms and information                                                */
/* ------------------------------------------------------------------------ */

/** Data types an algorithm handles, as bits. */
#define GK_DTYPE_F32 1u
#define GK_DTYPE_F64 2u

typedef struct gk_algo_info {
	const char *name;        /**< "cpu.plain", ...: what gk_context_set_algo takes */
	const char *description; /**< one line */
	gk_backend backend;      /**< GK_BACKEND_CPU or GK_BACKEND_CUDA */
	unsigned dtypes;         /**< GK_DTYPE_F32 | GK_DTYPE_F64 */
	int threaded;            /**< 1 when it uses several CPU threads */
	int available;           /**< 1 when it can run on this machine now */
	gk_precision precision;  /**< the arithmetic of its float products (GK_PRECISION_STRICT
	                              but for the tensor-core ones); its error bound */
} gk_algo_info;

/** @return the number of algorithms gemmkit has (available here or not). */
GK_API int gk_algo_count(void);

/**
 * Describe algorithm i, 0 <= i < gk_algo_count().
 * @return GK_OK, GK_ERR_NULL_POINTER, or GK_ERR_INVALID_VALUE for i out of range.
 */
GK_API gk_status gk_algo_get(int i, gk_algo_info *out);

/** What gemmkit found on this machine. */
typedef struct gk_info {
	char cpu_name[64];        /**< the processor's brand string */
	char cpu_features[256];   /**< space-separated: "sse2 avx2 fma avx512f ..." */
	char cpu_arch[32];        /**< the kernel set chosen: "avx512", "avx2", "generic" */
	int max_threads;          /**< the default thread count outside a parallel region */
	int cuda_built;           /**< 1 when the library was built with CUDA */
	int gpu_count;            /**< CUDA devices usable now (0 without CUDA) */
	char gpu_names[4][96];    /**< the names of the first four devices */
	size_t l1d_bytes, l2_bytes, l3_bytes; /**< data cache sizes, 0 when unknown */
} gk_info;

/**
 * Fill *info with what gemmkit found on this machine.
 * @return GK_OK or GK_ERR_NULL_POINTER.
 */
GK_API gk_status gk_get_info(gk_info *info);

/**
 * @return the name of the CPU kernel set in use ("avx512", "avx2",
 *         "generic"). It is chosen once, at first use, from CPUID and XGETBV;
 *         the environment variable GK_ARCH forces one (a set the CPU cannot
 *         run is refused: the best supported one is used and a warning is
 *         printed to stderr). GK_ARCH_DEBUG=1 logs the choice to stderr.
 */
GK_API const char *gk_arch_name(void);

#ifdef __cplusplus
}
#endif

/* The rest of the API, by subject. */
#include "gemmkit_gf256.h"
#include "gemmkit_hxv.h"

#endif /* GEMMKIT_H */
