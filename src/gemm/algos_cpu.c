/*
 * algos_cpu.c - the CPU rows of the algorithm registry (src/api/algos.c
 * merges the backends' rows): the seed ladder, the blocked driver and
 * Strassen. Adding a CPU algorithm: write it in src/gemm/, declare it in
 * gk_internal.h, add a row here.
 */
#include "gk_internal.h"

const gk_algo gk_algos_cpu[] = {
	{"cpu.plain", "seed rung 1: textbook i-j-k triple loop", GK_BACKEND_CPU, 0,
	 gk_sgemm_plain, gk_dgemm_plain, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.trans", "seed rung 2: B transposed first, rows dotted with SIMD", GK_BACKEND_CPU, 0,
	 gk_sgemm_trans, gk_dgemm_trans, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.ikj", "seed rung 3: loops reordered i-k-j, SIMD axpy along rows", GK_BACKEND_CPU, 0,
	 gk_sgemm_ikj, gk_dgemm_ikj, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.ikj_omp", "seed rung 4: i-k-j with rows of C shared among OpenMP threads", GK_BACKEND_CPU, 1,
	 gk_sgemm_ikj_omp, gk_dgemm_ikj_omp, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.block64", "seed rung 5: 64x64 blocks copied into tiles (16-byte aligned, as plain "
	 "arrays), i-k-j SIMD axpy inside, OpenMP over block rows", GK_BACKEND_CPU, 1,
	 gk_sgemm_block64, gk_dgemm_block64, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.block64_aligned", "seed rung 6: rung 5 with 64-byte aligned tiles", GK_BACKEND_CPU, 1,
	 gk_sgemm_block64_aligned, gk_dgemm_block64_aligned, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.unroll_2x4", "seed rung 7: rung 6 with a 2x4xN unrolled tile kernel (2 rows of A x "
	 "4 steps of k, SIMD along N)", GK_BACKEND_CPU, 1,
	 gk_sgemm_unroll_2x4, gk_dgemm_unroll_2x4, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.avx2_3x32", "seed rung 8: 3x32 register tile (3x16 in double) for the 16 ymm of "
	 "AVX2; portable C of the same shape on CPUs without AVX2", GK_BACKEND_CPU, 1,
	 gk_sgemm_regtile_3x32, gk_dgemm_regtile_3x16, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.avx512_6x64", "seed rung 9: 6x64 register tile (6x32 in double) for the 32 zmm of "
	 "AVX-512; portable C of the same shape on CPUs without AVX-512", GK_BACKEND_CPU, 1,
	 gk_sgemm_regtile_6x64, gk_dgemm_regtile_6x32, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.strassen_seed", "seed rung 10: Strassen, 7 products, one workspace, odd sizes "
	 "peeled; recurses while min(m,n,k) >= 2 x cut-off (512, GK_STRASSEN_CUTOFF), "
	 "cpu.blocked below", GK_BACKEND_CPU, 1, gk_sgemm_strassen, gk_dgemm_strassen, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.blocked", "Goto/BLIS five loops: packed panels, cache blocking, SIMD microkernels, OpenMP",
	 GK_BACKEND_CPU, 1, gk_sgemm_blocked, gk_dgemm_blocked, NULL, NULL, NULL, GK_PRECISION_STRICT},
	{"cpu.strassen", "Strassen, 1 or 2 levels by size, sums folded into packing and "
	 "products into C (ABC Strassen), no temporaries; cpu.blocked below its threshold",
	 GK_BACKEND_CPU, 1, gk_sgemm_strassen_abc, gk_dgemm_strassen_abc, NULL, NULL, NULL, GK_PRECISION_STRICT},
};
const int gk_algos_cpu_count = (int)(sizeof gk_algos_cpu / sizeof gk_algos_cpu[0]);
