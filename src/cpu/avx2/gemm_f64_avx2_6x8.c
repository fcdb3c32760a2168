/*
 * gemm_f64_avx2_6x8.c - the AVX2 DGEMM microkernel, 6 x 8, for a small L2.
 * Where the blocked driver walks C along its rows for any panel (an L2 of
 * 512 KiB or less), the B panel streams past an A sliver held in L1, and
 * 8 columns read 64 bytes of B a step where the 4 x 12 tile reads 96: the
 * AVX2 table takes this kernel there and the 4 x 12 one elsewhere
 * (table_avx2.c).
 *
 *   void gk_gemm_f64_avx2_6x8(int64_t k, double alpha, const double *a,
 *                            const double *b, double beta, double *c, int64_t rs_c);
 *
 * C(6 x 8) := beta * C + alpha * Apanel * Bpanel, the contract of
 * gk_gemm_f64_fn (kernel_api.h): a[l * 6 + i], b[l * 8 + j], c[i * rs_c + j];
 * beta == 0 does not read C. Needs AVX2 and FMA. Panels 32-byte aligned run
 * fastest; any double alignment is correct.
 *
 * Register budget (16 ymm): C is 6 rows x 2 vectors = 12 accumulators
 * (ymm0-11), a row of the B sliver takes
 * ymm12-13 and the broadcast A entries ymm14-15: all 16. Per step of k: 12
 * FMAs against 2 vector loads and 6 broadcasts; 12 independent chains cover
 * the FMA latency of two pipes.
 *
 * The kernel is written in assembly, from zeroing the accumulators to
 * updating C: with all 16 registers taken, the compiler (gcc 12) spilled
 * an accumulator inside the loop and copied registers around, which cost
 * several percent. The A sliver
 * streams from L2 and the B sliver stays in L1 across the A slivers of a
 * block; the hardware prefetchers follow both.
 *
 * gk_gemm_pf_f64_avx2_6x8 is the same kernel (the same bits) that also requests a
 * list of cache lines into L2, a few per step of four, spread over its k
 * loop (gk_gemm_pf_*_fn in kernel_api.h): the driver hands it the rows of
 * the next piece of B in the own-columns way (64 x 4096 x 4096, forced on
 * an AVX-512 Xeon: +9% SGEMM, +7% DGEMM against requests made before each
 * call).
 *
 * The arithmetic is the same as the unpacked kernel's
 * (gemm_u_f64_avx2_6x8.c): each element one FMA chain in the order of k,
 * then alpha, then beta; the same bits.
 */
#include "kernel_api.h"
#include "kernels_avx2.h"

enum { MR = GK_GEMM_F64_AVX2_6X8_MR, NR = GK_GEMM_F64_AVX2_6X8_NR };

/* One step of k, A at a + oa bytes and B at b + ob bytes. */
#define STEP(oa, ob)                                                  \
	"vmovupd " #ob "(%[b]), %%ymm12\n\t"                          \
	"vmovupd " #ob "+32(%[b]), %%ymm13\n\t"                       \
	"vbroadcastsd " #oa "(%[a]), %%ymm14\n\t"                     \
	"vbroadcastsd " #oa "+8(%[a]), %%ymm15\n\t"                   \
	"vfmadd231pd %%ymm12, %%ymm14, %%ymm0\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm14, %%ymm1\n\t"                    \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm2\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm3\n\t"                    \
	"vbroadcastsd " #oa "+16(%[a]), %%ymm14\n\t"                  \
	"vbroadcastsd " #oa "+24(%[a]), %%ymm15\n\t"                  \
	"vfmadd231pd %%ymm12, %%ymm14, %%ymm4\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm14, %%ymm5\n\t"                    \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm6\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm7\n\t"                    \
	"vbroadcastsd " #oa "+32(%[a]), %%ymm14\n\t"                  \
	"vbroadcastsd " #oa "+40(%[a]), %%ymm15\n\t"                  \
	"vfmadd231pd %%ymm12, %%ymm14, %%ymm8\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm14, %%ymm9\n\t"                    \
	"vfmadd231pd %%ymm12, %%ymm15, %%ymm10\n\t"                    \
	"vfmadd231pd %%ymm13, %%ymm15, %%ymm11\n\t"

#define KT double
#define KS "pd"
#define KBC "vbroadcastsd"
#define KUC "vucomisd"
#define KOFF 48, 64, 96, 128, 144, 192, 192, 256
#define KUPDATE GK_AVX2_C_UPDATE
#define KFN gk_gemm_f64_avx2_6x8
#define KFN_PF gk_gemm_pf_f64_avx2_6x8
#include "gemm_packed_tmpl_avx2.h"
