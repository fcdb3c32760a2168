/*
 * algos.c - the registry of GEMM algorithms, and what "auto" picks.
 *
 * Adding an algorithm: write it (src/gemm/ or src/cuda/), declare it in
 * gk_internal.h, add a row here. The tests and `gemmkit bench` pick it up
 * from the registry by name.
 */
#include <stdatomic.h>
#include <string.h>
#include "gk_internal.h"

static const gk_algo table[] = {
	{"cpu.plain", "seed rung 1: textbook i-j-k triple loop", GK_BACKEND_CPU, 0,
	 gk_sgemm_plain, gk_dgemm_plain, NULL},
	{"cpu.trans", "seed rung 2: B transposed first, rows dotted with SIMD", GK_BACKEND_CPU, 0,
	 gk_sgemm_trans, gk_dgemm_trans, NULL},
	{"cpu.ikj", "seed rung 3: loops reordered i-k-j, SIMD axpy along rows", GK_BACKEND_CPU, 0,
	 gk_sgemm_ikj, gk_dgemm_ikj, NULL},
	{"cpu.ikj_omp", "seed rung 4: i-k-j with rows of C shared among OpenMP threads", GK_BACKEND_CPU, 1,
	 gk_sgemm_ikj_omp, gk_dgemm_ikj_omp, NULL},
	{"cpu.block64", "seed rung 5: 64x64 blocks copied into tiles (16-byte aligned, as plain "
	 "arrays), i-k-j SIMD axpy inside, OpenMP over block rows", GK_BACKEND_CPU, 1,
	 gk_sgemm_block64, gk_dgemm_block64, NULL},
	{"cpu.block64_aligned", "seed rung 6: rung 5 with 64-byte aligned tiles", GK_BACKEND_CPU, 1,
	 gk_sgemm_block64_aligned, gk_dgemm_block64_aligned, NULL},
	{"cpu.unroll_2x4", "seed rung 7: rung 6 with a 2x4xN unrolled tile kernel (2 rows of A x "
	 "4 steps of k, SIMD along N)", GK_BACKEND_CPU, 1,
	 gk_sgemm_unroll_2x4, gk_dgemm_unroll_2x4, NULL},
	{"cpu.avx2_3x32", "seed rung 8: 3x32 register tile (3x16 in double) for the 16 ymm of "
	 "AVX2; portable C of the same shape on CPUs without AVX2", GK_BACKEND_CPU, 1,
	 gk_sgemm_regtile_3x32, gk_dgemm_regtile_3x16, NULL},
	{"cpu.avx512_6x64", "seed rung 9: 6x64 register tile (6x32 in double) for the 32 zmm of "
	 "AVX-512; portable C of the same shape on CPUs without AVX-512", GK_BACKEND_CPU, 1,
	 gk_sgemm_regtile_6x64, gk_dgemm_regtile_6x32, NULL},
	{"cpu.strassen_seed", "seed rung 10: Strassen, 7 products, one workspace, odd sizes "
	 "peeled; recurses while min(m,n,k) >= 2 x cut-off (512, GK_STRASSEN_CUTOFF), "
	 "cpu.blocked below", GK_BACKEND_CPU, 1, gk_sgemm_strassen, gk_dgemm_strassen, NULL},
	{"cpu.blocked", "Goto/BLIS five loops: packed panels, cache blocking, SIMD microkernels, OpenMP",
	 GK_BACKEND_CPU, 1, gk_sgemm_blocked, gk_dgemm_blocked, NULL},
	{"cpu.strassen", "Strassen, 1 or 2 levels by size, sums folded into packing and "
	 "products into C (ABC Strassen), no temporaries; cpu.blocked below its threshold",
	 GK_BACKEND_CPU, 1, gk_sgemm_strassen_abc, gk_dgemm_strassen_abc, NULL},
};
#define N_ALGOS ((int)(sizeof table / sizeof table[0]))

int gk_algo_table_size(void)
{
	return N_ALGOS;
}

const gk_algo *gk_algo_table_entry(int i)
{
	return i >= 0 && i < N_ALGOS ? &table[i] : NULL;
}

const gk_algo *gk_algo_find(const char *name)
{
	for (int i = 0; i < N_ALGOS; i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

/* On the CPU the blocked driver serves every shape: it sizes its blocks
 * and its thread count to the problem. No GPU algorithm is registered yet,
 * so GK_BACKEND_CUDA has nothing to pick. */
const gk_algo *gk_algo_auto(int dtype_bits, int64_t m, int64_t n, int64_t k, gk_backend backend,
                            unsigned flags)
{
	(void)dtype_bits; (void)m; (void)n; (void)k; (void)flags;
	if (backend == GK_BACKEND_CUDA)
		return NULL;
	/* Strassen only when the caller accepts its weaker error bound and every
	 * side is past the measured threshold (docs/ARCHITECTURE.md, "Strassen"). */
	if ((flags & GK_FLAG_ALLOW_STRASSEN) && gk_strassen_abc_levels((unsigned)dtype_bits, m, n, k) > 0)
		return gk_algo_find("cpu.strassen");
	/* Found by name once: the search costs a tenth of a 16 x 16 x 16 product. */
	static _Atomic(const gk_algo *) blocked;
	const gk_algo *al = atomic_load_explicit(&blocked, memory_order_relaxed);
	if (al == NULL) {
		al = gk_algo_find("cpu.blocked");
		atomic_store_explicit(&blocked, al, memory_order_relaxed);
	}
	return al;
}

int gk_algo_count(void)
{
	return N_ALGOS;
}

gk_status gk_algo_get(int i, gk_algo_info *out)
{
	GK_RETURN_IF(out == NULL, GK_ERR_NULL_POINTER, "gk_algo_get: out is NULL");
	GK_RETURN_IF(i < 0 || i >= N_ALGOS, GK_ERR_INVALID_VALUE,
	             "gk_algo_get: i = %d is not in [0, %d)", i, N_ALGOS);
	const gk_algo *al = &table[i];
	out->name = al->name;
	out->description = al->description;
	out->backend = al->backend;
	out->dtypes = (al->sgemm ? GK_DTYPE_F32 : 0u) | (al->dgemm ? GK_DTYPE_F64 : 0u);
	out->threaded = al->threaded;
	out->available = al->available ? al->available() : 1;
	return GK_OK;
}
