/*
 * gemmkit_gf256.h - GF(2^8) matrix multiplication and Reed-Solomon erasure
 * coding, on the CPU and the GPU (docs/GF256.md, docs/CUDA_GF256.md).
 * Part of gemmkit's public API: included by gemmkit.h, which is all a
 * program needs to include.
 */
#ifndef GEMMKIT_GF256_H
#define GEMMKIT_GF256_H

#include "gemmkit.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/**
 * @return the CPU GF(2^8) kernels in use: "avx512+gfni", "avx2+gfni" (GFNI
 *         affine instructions), "avx512", "avx2" (byte shuffles) or
 *         "generic". They follow the CPU kernel set (gk_arch_name, GK_ARCH);
 *         GK_GFNI=0 turns the GFNI ones off.
 */
GK_API const char *gk_gf256_kernel_name(void);

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

#ifdef __cplusplus
}
#endif

#endif /* GEMMKIT_GF256_H */
