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
 * cblas_dgemm) are declared in gemmkit_cblas.h.
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
 * else OMP_NUM_THREADS, else the number of processors. Inside a caller's
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


/* ------------------------------------------------------------------------ */
/* GF(2^8) matrix multiplication                                             */
/* ------------------------------------------------------------------------ */

/*
 * Arithmetic in GF(2^8) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D),
 * the field of ISA-L and most Reed-Solomon codes: addition is XOR. The
 * products run on the best kernels this CPU has (GFNI affine instructions,
 * AVX-512BW or AVX2 byte shuffles, portable C); results are the same on all
 * of them. docs/GF256.md describes the field, the kernels and the codes.
 */

/** @return a * b in GF(2^8). */
GK_API uint8_t gk_gf256_mul(uint8_t a, uint8_t b);

/** @return the multiplicative inverse of a; gk_gf256_inv(0) is 0. */
GK_API uint8_t gk_gf256_inv(uint8_t a);

/**
 * Invert the n x n matrix `in` (row-major, dense) over GF(2^8) into `out`,
 * by Gauss-Jordan elimination. 0 <= n <= 256 (n = 0 does nothing). in is not
 * changed; in and out may be the same buffer, but may not partly overlap.
 * @return GK_OK; GK_ERR_SINGULAR when `in` is singular (out is then
 *         unspecified); GK_ERR_NEGATIVE_SIZE, GK_ERR_UNSUPPORTED (n > 256),
 *         GK_ERR_NULL_POINTER or GK_ERR_NO_MEMORY (out untouched).
 */
GK_API gk_status gk_gf256_invert_matrix(int64_t n, const uint8_t *in, uint8_t *out);

/**
 * C = A * B over GF(2^8), row-major bytes: A is m x k (small: m, k <= 255),
 * B is k x n and C is m x n (n may be billions of bytes). Leading dimensions
 * are in bytes: lda >= max(1, k), ldb >= max(1, n), ldc >= max(1, n). No
 * alignment is needed. C must not overlap A or B. Runs on the default thread
 * count (see gk_context_set_threads) when n is large enough to give every
 * thread at least 1 MiB of rows to stream; small calls stay on one thread.
 * @return GK_OK; m = 0 or n = 0 does nothing (the pointers may be NULL);
 *         k = 0 sets C to zero (A and B are not read). Errors, with C
 *         untouched: GK_ERR_NEGATIVE_SIZE, GK_ERR_UNSUPPORTED (m or k > 255),
 *         GK_ERR_BAD_LD, GK_ERR_NULL_POINTER, GK_ERR_OVERFLOW (a matrix
 *         does not fit the address space), GK_ERR_NO_MEMORY.
 */
GK_API gk_status gk_gf256_gemm(int64_t m, int64_t n, int64_t k,
                               const uint8_t *a, int64_t lda,
                               const uint8_t *b, int64_t ldb,
                               uint8_t *c, int64_t ldc);

/**
 * As gk_gf256_gemm, with the rows of B and of C in separate buffers (as
 * erasure-code shards are): b_rows[0..k) and c_rows[0..m) each point to n
 * bytes; the pointers must be non-NULL (b_rows is not read when k = 0). A
 * row of C must not overlap any row of B.
 */
GK_API gk_status gk_gf256_gemm_rows(int64_t m, int64_t n, int64_t k,
                                    const uint8_t *a, int64_t lda,
                                    const uint8_t *const *b_rows,
                                    uint8_t *const *c_rows);

/**
 * As gk_gf256_gemm_rows, with the choices of ctx (NULL: the defaults): its
 * thread count, and its backend. With GK_BACKEND_CUDA the product runs on
 * the GPU (the context's device) from these host rows, in a pipeline of
 * column chunks whose copies overlap the kernel; rows in pinned memory
 * (cudaMallocHost, cudaHostRegister) are copied directly, others through
 * pinned staging buffers filled by the context's threads. Synchronous; the
 * same bytes as on the CPU. @return as gk_gf256_gemm_rows, or GK_ERR_NO_GPU,
 * GK_ERR_CUDA.
 */
GK_API gk_status gk_gf256_gemm_rows_ex(const gk_context *ctx, int64_t m, int64_t n, int64_t k,
                                       const uint8_t *a, int64_t lda,
                                       const uint8_t *const *b_rows,
                                       uint8_t *const *c_rows);

/* GF(2^8) on the GPU (docs/CUDA_GF256.md). gk_gf256_gemm_ex and
 * gk_gf256_gemm_rows_ex with a GK_BACKEND_CUDA context take host buffers;
 * gk_gf256_gemm_device takes device buffers and a kernel by name:
 *   "cuda.gf256" (or NULL, "auto"): the production kernel;
 *   "cuda.gf_naive", "cuda.gf_square", "cuda.gf_tiled", "cuda.gf_packed4",
 *   "cuda.gf_packed8": the kernels of the GF(2^8) ladder, for comparison.
 * The tiled and packed kernels take their tile sizes after a colon,
 * "cuda.gf_tiled:ROWSxCOLSxDEPTH" (rows and columns of C per block, COLS in
 * words for the packed ones; inputs per step; ROWS * COLS <= 1024). Every
 * kernel gives the bytes of gk_gf256_gemm, for any shape and alignment. */

/** As gk_gf256_gemm, with the choices of ctx as in gk_gf256_gemm_rows_ex. */
GK_API gk_status gk_gf256_gemm_ex(const gk_context *ctx, int64_t m, int64_t n, int64_t k,
                                  const uint8_t *a, int64_t lda, const uint8_t *b, int64_t ldb,
                                  uint8_t *c, int64_t ldc);

/**
 * C = A * B over GF(2^8) with B and C in device memory (A, m x k, in host
 * memory), on the context's device and stream (NULL ctx: the current device,
 * the legacy default stream), asynchronously, with the kernel named `algo`.
 * @return as gk_gf256_gemm, GK_ERR_UNKNOWN_ALGO, GK_ERR_INVALID_VALUE (tile
 *         sizes), GK_ERR_UNSUPPORTED (a GK_BACKEND_CPU context), GK_ERR_NO_GPU,
 *         GK_ERR_CUDA.
 */
GK_API gk_status gk_gf256_gemm_device(const gk_context *ctx, const char *algo, int64_t m,
                                      int64_t n, int64_t k, const uint8_t *a, int64_t lda,
                                      const uint8_t *b, int64_t ldb, uint8_t *c, int64_t ldc);

/** @return the number of GF(2^8) GPU kernels gk_gf256_gemm_device names. */
GK_API int gk_gf256_algo_count(void);
/** @return the name of GF(2^8) GPU kernel i ("cuda.gf256" first); NULL out of range. */
GK_API const char *gk_gf256_algo_name(int i);

/* ------------------------------------------------------------------------ */
/* Reed-Solomon erasure coding                                               */
/* ------------------------------------------------------------------------ */

/*
 * A systematic code over GF(2^8): k data shards and m parity shards, all of
 * the same length; any k of the k + m shards rebuild the others. The
 * (k + m) x k coding matrix has the identity on top (shards 0..k-1 are the
 * data) and parity row i below it. Parity is byte-identical to ISA-L's
 * ec_encode_data with the same matrix. Every call runs on the default thread
 * count (GK_NUM_THREADS, OMP_NUM_THREADS, or the number of processors) when
 * the shards are long enough; the _ex variants take a gk_context whose
 * thread count (gk_context_set_threads) is used instead, and whose backend
 * chooses where gk_rs_encode_ex and gk_rs_reconstruct_ex run: GK_BACKEND_AUTO
 * and GK_BACKEND_CPU on the CPU, GK_BACKEND_CUDA on the GPU from the same
 * host buffers, with the same bytes (gk_gf256_gemm_rows_ex). gk_rs_verify_ex
 * and gk_rs_update_ex refuse a CUDA context (GK_ERR_UNSUPPORTED). A gk_rs
 * is read-only after creation: threads may share it.
 */

/** How the coding matrix of a systematic code is built. */
typedef enum gk_rs_matrix {
	/** Identity on top of the Cauchy matrix 1 / (i ^ j), i in [k, k + m),
	 *  j in [0, k): ISA-L's gf_gen_cauchy1_matrix. MDS for every
	 *  k + m <= 256 (the default). */
	GK_RS_CAUCHY = 0,
	/** ISA-L's gf_gen_rs_matrix: identity on top of the rows 2^(i * j),
	 *  i in [0, m), j in [0, k), for byte-compatibility with data encoded by
	 *  ISA-L with it. It is MDS only for k <= 3, m <= 3, m = 4 with k <= 21,
	 *  k = 4 with m <= 21, and k = m = 5; gk_rs_create refuses every other
	 *  k, m with GK_ERR_UNSUPPORTED, since some k shards could not rebuild
	 *  the data. */
	GK_RS_VANDERMONDE_ISAL = 1
} gk_rs_matrix;

/** A systematic Reed-Solomon code with k data and m parity shards. */
typedef struct gk_rs gk_rs;

/**
 * Create a code: 1 <= k, 1 <= m, k + m <= 256.
 * @param out receives the code; *out is NULL on failure.
 * @return GK_OK, GK_ERR_NULL_POINTER, GK_ERR_INVALID_VALUE (k, m or kind out
 *         of range), GK_ERR_UNSUPPORTED (a Vandermonde code that would not be
 *         MDS) or GK_ERR_NO_MEMORY.
 */
GK_API gk_status gk_rs_create(gk_rs **out, int k, int m, gk_rs_matrix kind);

/** Destroy a code; NULL is ignored. */
GK_API void gk_rs_destroy(gk_rs *rs);

/**
 * Copy the (k + m) x k coding matrix, row-major, into out ((k + m) * k bytes).
 * @return GK_OK or GK_ERR_NULL_POINTER.
 */
GK_API gk_status gk_rs_matrix_get(const gk_rs *rs, uint8_t *out);

/**
 * Compute the m parity shards from the k data shards, each `len` bytes.
 * @param data k pointers (read); @param parity m pointers (written), none
 *        overlapping a data shard. No alignment is needed.
 * @return GK_OK (len = 0 writes nothing), GK_ERR_NULL_POINTER (rs, data,
 *         parity or one of their pointers), GK_ERR_NEGATIVE_SIZE.
 */
GK_API gk_status gk_rs_encode(const gk_rs *rs, int64_t len,
                              const uint8_t *const *data, uint8_t *const *parity);

/**
 * As gk_rs_encode, with the choices of ctx (NULL: the defaults): its thread
 * count, and its backend (GK_BACKEND_CUDA: on the GPU, the same parity).
 * @return as gk_rs_encode, or GK_ERR_NO_GPU, GK_ERR_CUDA (a CUDA context).
 */
GK_API gk_status gk_rs_encode_ex(const gk_context *ctx, const gk_rs *rs, int64_t len,
                                 const uint8_t *const *data, uint8_t *const *parity);

/**
 * Rebuild missing shards in place. shards[0..k+m) point to len-byte buffers;
 * present[i] != 0 marks shard i as intact, the others are rewritten. With
 * data_only != 0 only missing data shards are rebuilt (missing parity shards
 * are not touched and may be NULL). The first k present shards are read; the
 * buffers of other present shards are not touched and may be NULL.
 * @return GK_OK (nothing missing: nothing written); GK_ERR_SINGULAR when
 *         fewer than k shards are present (nothing is written then);
 *         GK_ERR_NULL_POINTER, GK_ERR_NEGATIVE_SIZE or GK_ERR_NO_MEMORY
 *         (nothing written either).
 */
GK_API gk_status gk_rs_reconstruct(const gk_rs *rs, int64_t len, uint8_t *const *shards,
                                   const uint8_t *present, int data_only);

/**
 * As gk_rs_reconstruct, with the choices of ctx (NULL: the defaults): its
 * thread count, and its backend (GK_BACKEND_CUDA: the missing shards are
 * rebuilt on the GPU, the same bytes).
 * @return as gk_rs_reconstruct, or GK_ERR_NO_GPU, GK_ERR_CUDA (a CUDA
 *         context).
 */
GK_API gk_status gk_rs_reconstruct_ex(const gk_context *ctx, const gk_rs *rs, int64_t len,
                                      uint8_t *const *shards, const uint8_t *present,
                                      int data_only);

/**
 * Check that the parity shards match the data shards: shards[0..k+m), each
 * len bytes, are only read.
 * @param ok set to 1 when they all match, else 0 (also 0 on an error).
 * @return GK_OK, GK_ERR_NULL_POINTER, GK_ERR_NEGATIVE_SIZE or
 *         GK_ERR_NO_MEMORY.
 */
GK_API gk_status gk_rs_verify(const gk_rs *rs, int64_t len, const uint8_t *const *shards,
                              int *ok);

/**
 * As gk_rs_verify, with the choices of ctx (NULL: the defaults): its thread
 * count, and its backend, which must not be GK_BACKEND_CUDA.
 * @return as gk_rs_verify, or GK_ERR_UNSUPPORTED (a CUDA context; *ok is 0).
 */
GK_API gk_status gk_rs_verify_ex(const gk_context *ctx, const gk_rs *rs, int64_t len,
                                 const uint8_t *const *shards, int *ok);

/**
 * Bring the parity up to date after data shard `index` (0 <= index < k)
 * changed from old_data to new_data (both len bytes), without reading the
 * other data shards: parity[i] ^= M[k+i][index] * (old ^ new). The parity
 * shards must not overlap old_data or new_data.
 * @return GK_OK, GK_ERR_INVALID_VALUE (index), GK_ERR_NULL_POINTER,
 *         GK_ERR_NEGATIVE_SIZE or GK_ERR_NO_MEMORY (parity untouched).
 */
GK_API gk_status gk_rs_update(const gk_rs *rs, int64_t len, int index,
                              const uint8_t *old_data, const uint8_t *new_data,
                              uint8_t *const *parity);

/**
 * As gk_rs_update, with the choices of ctx (NULL: the defaults): its thread
 * count, and its backend, which must not be GK_BACKEND_CUDA.
 * @return as gk_rs_update, or GK_ERR_UNSUPPORTED (a CUDA context; parity
 *         untouched).
 */
GK_API gk_status gk_rs_update_ex(const gk_context *ctx, const gk_rs *rs, int64_t len,
                                 int index, const uint8_t *old_data, const uint8_t *new_data,
                                 uint8_t *const *parity);

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

#endif /* GEMMKIT_H */
