/*
 * gemm_f64_avx2_4x12.c - the AVX2 DGEMM microkernel, 4 x 12.
 *
 *   void gk_gemm_f64_avx2_4x12(int64_t k, double alpha, const double *a,
 *                             const double *b, double beta, double *c, int64_t rs_c);
 *
 * C(4 x 12) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f64_fn (kernel_api.h): a[l * 4 + i], b[l * 12 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX2 and FMA. Panels 32-byte aligned run
 * fastest; any double alignment is correct.
 *
 * Register budget (16 ymm): C is 4 rows x 3 vectors = 12 accumulators
 * (ymm0-11), a row of the B sliver takes ymm12-14 and the broadcast A
 * entry ymm15: all 16. Per step of k: 12 FMAs against 3 vector loads and
 * 4 broadcasts; 12 independent chains cover the FMA latency of two pipes.
 *
 * Why 4 x 12 and not 6 x 8 (the float kernel's shape): in the column walk
 * the B sliver stays in L1 and the A sliver streams from the block of A in
 * L2. 4 rows take 32 bytes of A a step of 12 FMAs where 6 rows take 48,
 * and 7 loads instead of 8. The kernel alone over a block of A and a
 * 2048-wide panel, alternated call by call on an Emerald Rapids core, ran
 * 1.03-1.06x as fast as the 6 x 8 one did
 * (bench/results/2026-11-29-emr-dgemm412/). The float kernel of this
 * shape (4 x 24) gained nothing over its 6 x 16 one there (0.93-1.00x):
 * its 24-wide B sliver takes most of L1. Where the driver walks C along
 * its rows instead (a small L2), B streams and A stays: the table takes
 * the 6 x 8 kernel there (table_avx2.c).
 *
 * The kernel is written in assembly, from zeroing the accumulators to
 * updating C: with all 16 registers taken, the compiler (gcc 12) spilled
 * an accumulator inside the loop and copied registers around.
 *
 * gk_gemm_pf_f64_avx2_4x12 is the same kernel (the same bits) that also
 * requests a list of cache lines into L2, a few per step of four, spread
 * over its k loop (gk_gemm_pf_*_fn in kernel_api.h).
 *
 * Each element of C is one FMA chain in the order of k, then alpha, then
 * beta: the arithmetic of the unpacked kernel (gemm_u_f64_avx2_6x8.c),
 * the same bits.
 */
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { MR = GK_GEMM_F64_AVX2_4X12_MR, NR = GK_GEMM_F64_AVX2_4X12_NR };

/* One step of k, A at a + oa bytes and B at b + ob bytes. */
#define STEP(oa, ob)                                                  \
	"vmovupd " #ob "(%[b]), %%ymm12\n\t"                          \
	"vmovupd " #ob "+32(%[b]), %%ymm13\n\t"                       \
	"vmovupd " #ob "+64(%[b]), %%ymm14\n\t"                       \
	"vbroadcastsd " #oa "(%[a]), %%ymm15\n\t"                     \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm0\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm1\n\t"                    \
	"vfmadd231pd %%ymm14, %%ymm15, %%ymm2\n\t"                    \
	"vbroadcastsd " #oa "+8(%[a]), %%ymm15\n\t"                   \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm3\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm4\n\t"                    \
	"vfmadd231pd %%ymm14, %%ymm15, %%ymm5\n\t"                    \
	"vbroadcastsd " #oa "+16(%[a]), %%ymm15\n\t"                  \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm6\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm7\n\t"                    \
	"vfmadd231pd %%ymm14, %%ymm15, %%ymm8\n\t"                    \
	"vbroadcastsd " #oa "+24(%[a]), %%ymm15\n\t"                  \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm9\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm10\n\t"                   \
	"vfmadd231pd %%ymm14, %%ymm15, %%ymm11\n\t"

#define KT double
#define KS "pd"
#define KBC "vbroadcastsd"
#define KUC "vucomisd"
#define KOFF 32, 96, 64, 192, 96, 288, 128, 384
#define KUPDATE GK_AVX2_C_UPDATE_4X3
#define KFN gk_gemm_f64_avx2_4x12
#define KFN_PF gk_gemm_pf_f64_avx2_4x12
#include "gemm_packed_tmpl_avx2.h"
