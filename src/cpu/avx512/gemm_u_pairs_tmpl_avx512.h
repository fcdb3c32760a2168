/*
 * gemm_u_pairs_tmpl_avx512.h - the unpacked GEMM tile of at most PW columns
 * with G rows of C in each 512-bit vector (G = 2: row pairs, PW half a
 * vector; G = 4: row quads, PW a quarter); the technique of
 * gemm_u_pairs_avx512.c, which includes this once per element type and G
 * with the macros below defined.
 *
 * Type: T, V (512-bit), LINE (elements of a cache line), V_ZERO, V_SET1,
 * V_FMA, V_MUL, V_PERM(idx, v): kept after this file. Group size (undefined
 * at its end): H (PW elements: one row's part), G, PW, PFX(name), and the
 * operations V_PART(v, g) (the H of lane group g), V_LO (group 0),
 * V_BCAST_H (an H into every group), V_ROWS(i0, l) (entries l of rows i0 ..
 * i0 + G - 1, each broadcast into its group, from memory), V_JOIN(i0, l)
 * (entries l .. l + PW - 1 of rows i0 .. i0 + G - 1 loaded into groups 0 ..
 * G - 1), IDX(q) (the permute that broadcasts entry q of each group into
 * that group); H_ZERO, H_SET1, H_FMA, H_MUL, H_LOADU, H_MASKZ_LOADU,
 * H_MASK_STOREU.
 */

/* Entry l of row i of A: rows 8 and on from a second base, a8, eight rows
 * on, so that sixteen rows need the offsets of eight. */
#define ROWP(i) ((i) < 8 ? a + (i) * rs_a : a8 + ((i) - 8) * rs_a)

/* Row l of B in every group of a vector; the columns past the tile (when it
 * is narrower than PW) are read as zeros, never from memory. */
static inline __attribute__((always_inline)) V PFX(b_row)(const T *restrict b, int full, __mmask8 mh)
{
	return full ? V_BCAST_H(H_LOADU(b)) : V_BCAST_H(H_MASKZ_LOADU(mh, b));
}

/* One step l of k for the groups from p0 on (entries of A broadcast from
 * memory), and the rows past the last whole group. */
static inline __attribute__((always_inline)) void
PFX(step_bcast)(const int MV, int p0, const T *restrict a, const T *restrict a8, int64_t rs_a,
                int64_t l, V bl, V *acc, H *acch)
{
	const int NG = MV / G;
#pragma GCC unroll 8
	for (int p = p0; p < NG; p++)
		acc[p] = V_FMA(V_ROWS(G * p, l), bl, acc[p]);
#pragma GCC unroll 4
	for (int i = NG * G; i < MV; i++)
		acch[i - NG * G] = H_FMA(H_SET1(ROWP(i)[l]), V_LO(bl), acch[i - NG * G]);
}

/* The steps of k: blocks of PW steps (the first NPERM groups by permutes;
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
				t[p] = V_JOIN(G * p, l);
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
 * The tile of MV rows (a constant after inlining, G <= MV <= 16). ROWA: A
 * by rows (cs_a == 1), where groups take their entries of A by permutes of
 * G x PW entries loaded once per PW steps, which spares the load ports: for
 * pairs the first half of them (the other half broadcast from memory,
 * which spares the shuffle units: half and half measured fastest), for
 * quads all (four broadcasts, three of them merged, cost more than a
 * permute); else every group broadcasts from memory.
 */
static inline __attribute__((always_inline)) void
PFX(tile)(const int MV, const int ROWA, int64_t k, T alpha, const T *restrict a, int64_t rs_a,
          int64_t cs_a, const T *restrict b, int64_t rs_b, T beta, T *restrict c, int64_t rs_c,
          __mmask8 mh)
{
	const int NG = MV / G, NPERM = !ROWA ? 0 : G == 2 ? (NG + 1) / 2 : NG;
	const T *restrict a8 = MV > 8 ? a + 8 * rs_a : a;
	if (ROWA)
		cs_a = 1;
	V acc[8];
	H acch[G];
#pragma GCC unroll 8
	for (int p = 0; p < NG; p++)
		acc[p] = V_ZERO;
#pragma GCC unroll 4
	for (int i = NG * G; i < MV; i++)
		acch[i - NG * G] = H_ZERO;
	if (mh == (__mmask8)((1u << PW) - 1))
		PFX(steps)(MV, NPERM, 1, k, a, a8, rs_a, cs_a, b, rs_b, mh, acc, acch);
	else
		PFX(steps)(MV, NPERM, 0, k, a, a8, rs_a, cs_a, b, rs_b, mh, acc, acch);
	/* Row by row as the one-row tiles of the 6 x NR kernel: times alpha
	 * (the same product lane by lane on 512 bits), plus beta C. */
	const V va = V_SET1(alpha);
	const H vb = H_SET1(beta);
#pragma GCC unroll 16
	for (int i = 0; i < MV; i++) {
		H r;
		if (i >= NG * G) {
			r = alpha == (T)1 ? acch[i - NG * G] : H_MUL(V_LO(va), acch[i - NG * G]);
		} else {
			const V v = alpha == (T)1 ? acc[i / G] : V_MUL(va, acc[i / G]);
			r = V_PART(v, i % G);
		}
		T *ci = c + i * rs_c;
		if (beta != (T)0)
			r = H_FMA(vb, H_MASKZ_LOADU(mh, ci), r);
		H_MASK_STOREU(ci, mh, r);
	}
}

#undef ROWP
/* The group size's parameters: the includer defines them anew for the
 * next one (the type's stay). */
#undef H
#undef G
#undef PW
#undef PFX
#undef V_LO
#undef V_PART
#undef V_BCAST_H
#undef V_ROWS
#undef V_JOIN
#undef IDX
#undef H_ZERO
#undef H_SET1
#undef H_FMA
#undef H_MUL
#undef H_LOADU
#undef H_MASKZ_LOADU
#undef H_MASK_STOREU
