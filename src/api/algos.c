/*
 * algos.c - the registry of GEMM algorithms, and what "auto" picks.
 *
 * Each backend keeps its own rows: src/gemm/algos_cpu.c for the CPU,
 * src/cuda/algos_cuda.c for CUDA (listed even when CUDA is not built, as
 * unavailable). This file numbers them, CPU rows first, and answers the
 * queries. The tests and `gemmkit bench` pick algorithms up by name.
 */
#include <stdatomic.h>
#include <string.h>
#include "gk_internal.h"

#define N_ALGOS (gk_algos_cpu_count + gk_algos_cuda_count)

int gk_algo_table_size(void)
{
	return N_ALGOS;
}

const gk_algo *gk_algo_table_entry(int i)
{
	if (i < 0 || i >= N_ALGOS)
		return NULL;
	return i < gk_algos_cpu_count ? &gk_algos_cpu[i] : &gk_algos_cuda[i - gk_algos_cpu_count];
}

const gk_algo *gk_algo_find(const char *name)
{
	for (int i = 0; i < N_ALGOS; i++) {
		const gk_algo *al = gk_algo_table_entry(i);
		if (strcmp(al->name, name) == 0)
			return al;
	}
	return NULL;
}

/* On the CPU the blocked driver serves every shape: it sizes its blocks
 * and its thread count to the problem. On the GPU the production kernels
 * choose their tiles (and split-K) by shape themselves: for float the
 * precision mode names the kernel (strict: cuda.sgemm, accurate:
 * cuda.sgemm_3xtf32, tf32: cuda.sgemm_tf32), cuda.dgemm for double (the
 * mode does not apply: precision is an already resolved mode, never
 * GK_PRECISION_DEFAULT). GK_BACKEND_AUTO stays on the CPU: a GPU is used
 * only when the caller asks for it. */
const gk_algo *gk_algo_auto(int dtype_bits, int64_t m, int64_t n, int64_t k, gk_backend backend,
                            unsigned flags, gk_precision precision)
{
	if (backend == GK_BACKEND_CUDA) {
		/* HXV: m, n tiny and k large: the streaming product (docs/CUDA_HXV.md). */
		if (m <= GK_HXV_AUTO_MN && n <= GK_HXV_AUTO_MN && k >= GK_HXV_AUTO_K)
			return gk_algo_find("cuda.hxv");
		if (dtype_bits == GK_DTYPE_F64)
			return gk_algo_find("cuda.dgemm");
		if (precision == GK_PRECISION_ACCURATE)
			return gk_algo_find("cuda.sgemm_3xtf32");
		if (precision == GK_PRECISION_TF32)
			return gk_algo_find("cuda.sgemm_tf32");
		return gk_algo_find("cuda.sgemm");
	}
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
	const gk_algo *al = gk_algo_table_entry(i);
	out->name = al->name;
	out->description = al->description;
	out->backend = al->backend;
	out->dtypes = (gk_algo_has_type(al, GK_DTYPE_F32) ? GK_DTYPE_F32 : 0u) |
	              (gk_algo_has_type(al, GK_DTYPE_F64) ? GK_DTYPE_F64 : 0u);
	out->threaded = al->threaded;
	out->available = al->available ? al->available() : 1;
	out->precision = al->precision != GK_PRECISION_DEFAULT ? al->precision : GK_PRECISION_STRICT;
	return GK_OK;
}
