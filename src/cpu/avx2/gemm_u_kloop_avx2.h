/*
 * gemm_u_kloop_avx2.h - the k loop of the AVX2 unpacked GEMM kernels
 * (gemm_u_f32_avx2_6x16.c, gemm_u_f64_avx2_6x8.c), written once for both
 * precisions. GK_U_KLOOP() is pasted into their tile(), where MV, NV, k, a,
 * a8, rs_a, cs_a, b, rs_b and acc are in scope; the including file defines
 * first
 *   GK_U_T              the element type
 *   GK_U_V              its vector type
 *   GK_U_BCAST(p)       a vector of the element at p
 *   GK_U_FMA(x, y, z)   x * y + z, fused
 *   GK_U_LOADB(p, v)    vector v of the row of B at p
 * and NR and VW (its enum).
 */
#ifndef GK_GEMM_U_KLOOP_AVX2_H
#define GK_GEMM_U_KLOOP_AVX2_H

/* Rows of A requested ahead (below): lines ahead, least depth of a call,
 * least row stride in bytes. */
#define GK_U_PF_LINES 2
#define GK_U_PF_MIN_K 256
#define GK_U_PF_MIN_STRIDE ((int64_t)4 << 20)

/* One step of k: the row of B at b times the column of A at a (rows 8 and
 * on at a8), into the accumulators; the same row's line of the next NR
 * columns requested (kernel_api.h). */
#define GK_U_STEP()                                                                    \
	do {                                                                           \
		_mm_prefetch((const char *)(b + NR), _MM_HINT_T0);                     \
		GK_U_V bv[2];                                                          \
		_Pragma("GCC unroll 2") for (int v = 0; v < NV; v++) bv[v] =           \
			GK_U_LOADB(b + VW * v, v);                                     \
		_Pragma("GCC unroll 12") for (int i = 0; i < MV; i++)                  \
		{                                                                      \
			const GK_U_V ai = GK_U_BCAST(i < 8 ? a + i * rs_a : a8 + (i - 8) * rs_a); \
			_Pragma("GCC unroll 2") for (int v = 0; v < NV; v++)           \
				acc[i * NV + v] = GK_U_FMA(ai, bv[v], acc[i * NV + v]); \
		}                                                                      \
	} while (0)

/*
 * The k loop. A by rows, its rows GK_U_PF_MIN_STRIDE or more apart (A
 * takes more than the caches hold: few rows and a very long k, read once
 * from memory), and a call of GK_U_PF_MIN_K steps or more: the loop looks
 * too few steps ahead to keep the rows' next lines in flight, so each
 * row's line GK_U_PF_LINES lines on is requested once per line used (one
 * thread of a Zen 5 core: SGEMM 8 x 8 x 1e7 1.27x, 16 x 16 x 2e6 1.06x,
 * two threads 1.17x and 1.04x; DGEMM 16 x 16 x 2e6 1.14x). Products whose A
 * may be in L2 or L3 do without: requests from k = 256 alone cost
 * 64 x 64 x 256 and 8 x 8 x 1e5 1.5-2%. The same steps in the same order
 * either way: the same bits.
 */
#define GK_U_KLOOP()                                                                   \
	do {                                                                           \
		const int64_t line_ = 64 / (int64_t)sizeof(GK_U_T);                    \
		if (cs_a == 1 && k >= GK_U_PF_MIN_K &&                                  \
		    rs_a >= GK_U_PF_MIN_STRIDE / (int64_t)sizeof(GK_U_T)) {            \
			int64_t l = 0;                                                 \
			for (; l + line_ <= k; l += line_) {                           \
				if (l + line_ * (GK_U_PF_LINES + 1) <= k)              \
					_Pragma("GCC unroll 12") for (int i = 0; i < MV; i++) \
						_mm_prefetch((const char *)((i < 8 ? a + i * rs_a \
						                                   : a8 + (i - 8) * rs_a) + \
						                            line_ * GK_U_PF_LINES), \
						             _MM_HINT_T0);                     \
				_Pragma("GCC unroll 1") for (int q = 0; q < line_;     \
				                             q++, a += cs_a, a8 += cs_a, b += rs_b) \
					GK_U_STEP();                                   \
			}                                                              \
			for (; l < k; l++, a += cs_a, a8 += cs_a, b += rs_b)           \
				GK_U_STEP();                                           \
		} else {                                                               \
			_Pragma("GCC unroll 4") for (int64_t l = 0; l < k;             \
			                             l++, a += cs_a, a8 += cs_a, b += rs_b) \
				GK_U_STEP();                                           \
		}                                                                      \
	} while (0)

#endif
