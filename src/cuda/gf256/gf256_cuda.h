/*
 * gf256_cuda.h - the seam between the GF(2^8) API edge (src/gf256/, plain C)
 * and its CUDA kernels (src/cuda/gf256/, CUDA C++), included by .c and .cu files.
 *
 * The product is C = A * B over GF(2^8) (polynomial 0x11D, the field of
 * src/gf256/gf256_field.c): A is m x k (1 <= m, k <= 255, row-major in host
 * memory, row i at a + i * lda), B is k x n and C m x n, bytes, row-major.
 *
 * Kernels (GK_GF_CUDA_*): the seed's ladder and the production kernel. Every
 * one is byte-exact against the CPU's gk_gf256_gemm for every m, n, k, leading
 * dimension and start address; the ones that read words or vectors fall back
 * to byte accesses where an address is not aligned to their width.
 *
 * A build without CUDA gets the two run functions from src/cuda/cuda_stub.c,
 * returning GK_ERR_NO_GPU.
 */
#ifndef GK_GF256_CUDA_H
#define GK_GF256_CUDA_H

#include <stdint.h>
#include "gemmkit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gk_gf_cuda_kernel {
	GK_GF_CUDA_NAIVE = 0,  /* gf_naive.cu: one thread per byte of C, A and B from global */
	GK_GF_CUDA_SQUARE,     /* gf_square.cu: 16 x 16 tiles of A and B in shared memory */
	GK_GF_CUDA_TILED,      /* gf_tiled.cu: run-time tile rows x cols x depth, dynamic smem */
	GK_GF_CUDA_PACKED4,    /* gf_packed.cu: as TILED, 4 bytes of B and C per 32-bit word */
	GK_GF_CUDA_PACKED8,    /* gf_packed.cu: as TILED, 8 bytes per 64-bit word */
	GK_GF_CUDA_PRODUCTION, /* gf_prmt.cu: 16/32 bytes per thread, byte-permute tables */
	GK_GF_CUDA_NKERNELS
} gk_gf_cuda_kernel;

/* Run-time tile sizes of the TILED and PACKED kernels (0: the default for the
 * shape): rows of C, columns of C (bytes for TILED, words for PACKED) and
 * depth (inputs) per block. rows * cols <= 1024 threads. */
typedef struct gk_gf_cuda_tiles {
	int rows, cols, depth;
} gk_gf_cuda_tiles;

/*
 * One product with B and C in device memory (a in host memory), on the
 * current device or `device` (>= 0), asynchronously on `stream` (NULL: the
 * legacy default stream); the coefficient data goes up stream-ordered and is
 * freed stream-ordered. m, n >= 1, k >= 0 (k = 0 writes zeros); the API edge
 * has checked the rest.
 */
gk_status gk_gf256_cuda_device_run(int kernel, const gk_gf_cuda_tiles *tiles, int device,
                                   void *stream, int64_t m, int64_t n, int64_t k,
                                   const uint8_t *a, int64_t lda, const uint8_t *b, int64_t ldb,
                                   uint8_t *c, int64_t ldc);

/*
 * The production kernel on host rows (src[j], dst[i]: n bytes each), in a
 * pipeline of column chunks: copies up, kernel and copies down of different
 * chunks overlap on several streams. Rows in pinned (or device) memory are
 * copied directly; others go through pinned staging buffers, filled and
 * emptied by `threads` CPU threads. Synchronous. m, n, k >= 1.
 */
gk_status gk_gf256_cuda_host_run(int device, int threads, int64_t m, int64_t n, int64_t k,
                                 const uint8_t *a, int64_t lda, const uint8_t *const *src,
                                 uint8_t *const *dst);

/* ---- Inside the CUDA backend ------------------------------------------ */

/* The launchers of the kernel files: asynchronous on `stream`, current
 * device. `da` is A on the device (m x k, row-major, lda = k) for the
 * ladder; `tab` the production tables (gf_prmt.cu) for the production
 * kernel. */
typedef struct gk_gf_cuda_args {
	int64_t m, n, k;
	const uint8_t *da;        /* ladder: A on the device, m x k */
	const void *tab;          /* production: tables, gk_gf_prmt_table_bytes(m, k) */
	const uint8_t *b; int64_t ldb;
	uint8_t *c; int64_t ldc;
	gk_gf_cuda_tiles tiles;
	void *stream;
	int sm_count;
} gk_gf_cuda_args;

gk_status gk_gf_cuda_naive(const gk_gf_cuda_args *p);
gk_status gk_gf_cuda_square(const gk_gf_cuda_args *p);
gk_status gk_gf_cuda_tiled(const gk_gf_cuda_args *p);
gk_status gk_gf_cuda_packed4(const gk_gf_cuda_args *p);
gk_status gk_gf_cuda_packed8(const gk_gf_cuda_args *p);
gk_status gk_gf_cuda_production(const gk_gf_cuda_args *p);

/* The production kernel's coefficient tables of A (m x k): their size in
 * bytes, and the host function that fills them (gf_prmt.cu). */
size_t gk_gf_prmt_table_bytes(int64_t m, int64_t k);
void gk_gf_prmt_build_table(int64_t m, int64_t k, const uint8_t *a, int64_t lda, void *out);

/* CPU side of the host pipeline (src/gf256/gf256_gemm.c): to[i][0..len) =
 * from[i][0..len) for i < rows, on up to `threads` threads. */
void gk_gf256_copy_rows(int64_t rows, uint8_t *const *to, const uint8_t *const *from,
                        int64_t len, int threads);

#ifdef __cplusplus
}
#endif

#endif /* GK_GF256_CUDA_H */
