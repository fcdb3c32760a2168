/*
 * gemm_u_pairs_tmpl_avx512.h - the unpacked GEMM tile of at most half a
 * vector of columns, two rows of C in each 512-bit vector (the technique of
 * gemm_u_pairs_avx512.c, which includes this once per element type with the
 * macros below defined).
 *
 * Type: T, V (512-bit), H (256-bit), PW (elements of H), PFX(name).
 * Operations: V_ZERO, V_SET1, V_FMA, V_MUL, V_JOIN(h_lo, h_hi), V_LO, V_HI,
 * V_BCAST_H (both halves from one H), V_PERM(idx, v), V_PAIR(x, p) (x in
 * the low half, *p broadcast into the high one), IDX(q) (the permute that
 * broadcasts entry q of each half into that half); H_ZERO, H_SET1, H_FMA,
 * H_MUL, H_LOADU, H_MASKZ_LOADU, H_MASK_STOREU.
 */

/* Entry l of row i of A: rows 8 and on from a second base, a8, eight rows
 * on, so that sixteen rows need the offsets of eight. */
#define ROWP(i) ((i) < 8 ? a + (i) * rs_a : a8 + ((i) - 8) * rs_a)

/* Row l of B in both halves of a vector; the columns past the tile (when
 * it is narrower than PW) are read as zeros, never from memory. */
static inline __attribute__((always_inline)) V PFX(b_row)(const T *restrict b, int full, __mmask8 mh)
{
	return full ? V_BCAST_H(H_LOADU(b)) : V_BCAST_H(H_MASKZ_LOADU(mh, b));
}

/* One step l of k for the pairs from p0 on (entries of A broadcast from
 * memory), and the odd last row. */
static inline __attribute__((always_inline)) void
PFX(step_bcast)(const int MV, int p0, const T *restrict a, const T *restrict a8, int64_t rs_a,
                int64_t l, V bl, V *acc, H *acch)
{
	const int NP = MV / 2;
#pragma GCC unroll 8
	for (int p = p0; p < NP; p++)
		acc[p] = V_FMA(V_PAIR(V_SET1(ROWP(2 * p)[l]), ROWP(2 * p + 1) + l), bl, acc[p]);
	if (MV & 1)
		*acch = H_FMA(H_SET1(ROWP(MV - 1)[l]), V_LO(bl), *acch);
}

/* The steps of k: blocks of PW steps (the first NPERM pairs by permutes;
 * A by rows), then one by one. FULL: the tile is PW columns wide, so B's
 * rows are broadcast straight from memory (a constant here: the caller
 * branches once, not at every step). */
static inline __attribute__((always_inline)) void
PFX(steps)(const int MV, const int NPERM, const int FULL, int64_t k, const T *restrict a,
           const T *restrict a8, int64_t rs_a, int64_t cs_a, const T *restrict b, int64_t rs_b,
           __mmask8 mh, V *acc, H *acch)
{
	int64_t l = 0;
	if (NPERM > 0) {
		const int pf = k >= PF_MIN_K;
		for (; l + PW <= k; l += PW) {
			/* A long k streams A from memory: each row's line PF_LINES
			 * lines on is requested once per line used. */
			if (pf && l % LINE == 0 && l + LINE * (PF_LINES + 1) <= k)
#pragma GCC unroll 16
				for (int i = 0; i < MV; i++)
					__builtin_prefetch(ROWP(i) + l + LINE * PF_LINES);
			V t[8];
#pragma GCC unroll 8
			for (int p = 0; p < NPERM; p++)
				t[p] = V_JOIN(H_LOADU(ROWP(2 * p) + l), H_LOADU(ROWP(2 * p + 1) + l));
#pragma GCC unroll 8
			for (int q = 0; q < PW; q++, b += rs_b) {
				const V bl = PFX(b_row)(b, FULL, mh);
#pragma GCC unroll 8
				for (int p = 0; p < NPERM; p++)
					acc[p] = V_FMA(V_PERM(IDX(q), t[p]), bl, acc[p]);
				PFX(step_bcast)(MV, NPERM, a, a8, rs_a, l + q, bl, acc, acch);
			}
		}
	}
#pragma GCC unroll 1
	for (; l < k; l++, b += rs_b)
		PFX(step_bcast)(MV, 0, a, a8, rs_a, l * cs_a, PFX(b_row)(b, FULL, mh), acc, acch);
}

/*
 * The tile of MV rows (a constant after inlining, 2 <= MV <= 16). ROWA: A
 * by rows (cs_a == 1), where the first half of the pairs take their entries
 * of A by permutes of 2 x PW entries loaded once per PW steps, which
 * spares the load ports (the other half broadcast from memory, which spares
 * the shuffle units: half and half measured fastest); else every pair
 * broadcasts from memory.
 */
static inline __attribute__((always_inline)) void
PFX(pairs)(const int MV, const int ROWA, int64_t k, T alpha, const T *restrict a, int64_t rs_a,
           int64_t cs_a, const T *restrict b, int64_t rs_b, T beta, T *restrict c, int64_t rs_c,
           __mmask8 mh)
{
	const int NP = MV / 2, NPERM = ROWA ? (NP + 1) / 2 : 0;
	const T *restrict a8 = MV > 8 ? a + 8 * rs_a : a;
	if (ROWA)
		cs_a = 1;
	V acc[8];
	H acch = H_ZERO;
#pragma GCC unroll 8
	for (int p = 0; p < NP; p++)
		acc[p] = V_ZERO;
	if (mh == (__mmask8)((1u << PW) - 1))
		PFX(steps)(MV, NPERM, 1, k, a, a8, rs_a, cs_a, b, rs_b, mh, acc, &acch);
	else
		PFX(steps)(MV, NPERM, 0, k, a, a8, rs_a, cs_a, b, rs_b, mh, acc, &acch);
	/* Row by row as the one-row tiles of the 6 x NR kernel: times alpha
	 * (the same product lane by lane on 512 bits), plus beta C. */
	const V va = V_SET1(alpha);
	const H vb = H_SET1(beta);
#pragma GCC unroll 16
	for (int i = 0; i < MV; i++) {
		H r;
		if (i == MV - 1 && (MV & 1)) {
			r = alpha == (T)1 ? acch : H_MUL(V_LO(va), acch);
		} else {
			const V v = alpha == (T)1 ? acc[i / 2] : V_MUL(va, acc[i / 2]);
			r = i % 2 ? V_HI(v) : V_LO(v);
		}
		T *ci = c + i * rs_c;
		if (beta != (T)0)
			r = H_FMA(vb, H_MASKZ_LOADU(mh, ci), r);
		H_MASK_STOREU(ci, mh, r);
	}
}

#undef ROWP
