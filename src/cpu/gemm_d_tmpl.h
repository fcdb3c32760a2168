/*
 * gemm_d_tmpl.h - the dot tile of R x C (k along the vector), its strips
 * down the rows, the exported entry and the pack of Bt; the technique of
 * avx512/gemm_d_avx512.c and avx2/gemm_d_avx2.c, each of which includes
 * this once per element type with the macros below defined (all undefined
 * at the end of this file).
 *
 * T (the element), V (its vector), W (the lanes of V), VM (a mask of W lanes)
 * and V_MASK(n) (the mask of the first n), R1 to R5 (the tile's rows for 1
 * to 5 columns), PFX(name) (the type's name for a function of this file), ENTRY
 * and PACK (the names of the exported tile entry and pack); V_ZERO,
 * V_LOADU(p), V_MASKZ_LOADU(m, p), V_MASK_RANGE(lo, hi) (the mask of lanes lo
 * to hi - 1), V_FMA(x, y, z); VI, V_ROT_IDX(off) and V_ROT(v, idx) (lane q
 * of the result: lane q + off modulo W of v); RED2(v0, v1) and
 * RED4(v0, v1, v2, v3) (the type's fixed reduction trees: lane j the sum of
 * the lanes of vj) and their result types S2 and S4 with, on S2, S2_MUL,
 * S2_FMA, S2_MASKZ_LOADU, S2_MASK_STOREU and S2_OF(x) (the S2 of an S4
 * holding alpha or beta), on S4, S4_SET1, S4_MUL, S4_FMA, S4_MASKZ_LOADU and
 * S4_MASK_STOREU (masks: the bits of the columns); GROUP_C (the width of
 * tile whose rows are summed four at a time, 0: none) and GROUP2 (1: the
 * rows of 8 x 2 tiles summed eight at a time, with LANES4(v0, v1, v2, v3),
 * V_CAST128(x), V_INSERT128(v, x, i), V_LANE128(v, i), PAIRS_LOAD(p0, p1)
 * and PAIRS_STORE(p0, p1, x)) and GROUP_LANES(v) (a row's sums per 128-bit lane, the first
 * steps of the type's tree) with V_ADD, V_MUL, V_SET1, V_SHUF128(x, y, i),
 * V_FROM128(p), V_INS128(v, p, i) (128 bits from p into lane i) and
 * STORE128(p, v, i) (lane i of v to p);
 * ROWS(b, rs_b, r0, cm, full) and
 * STORE_COLS(z0, z1, z2, z3, o, kp, w) (the pack's load of rows of B into
 * vectors and store of them as columns, W rows a step).
 */

/* What the includer compiles: with ENTRY6_ONLY defined, the entry of the
 * tiles 6 wide (ENTRY6, where R6 is defined); with OFF_ONLY, the entry of
 * the tiles of off > 0 (ENTRY_OFF, every width); else the exported entry
 * ENTRY (which sends those to ENTRY6 and ENTRY_OFF) and the tiles of off = 0
 * up to 5 wide, and PACK. Each in a file of its own: the tiles of off = 0 up
 * to 5 wide ran 3-11% slower beside the others in one file (Zen 5, SGEMM
 * 64 x 4 x 64 to 128 x 8 x 128, call by call), their code the same but for
 * its placement. */
#if defined(ENTRY6_ONLY) || (defined(OFF_ONLY) && defined(R6))
#define DC_MAX 6
#else
#define DC_MAX 5
#endif
#ifdef OFF_ONLY
#define SHIFTED 1
#else
#define SHIFTED 0
#endif

#ifndef GROUP2
#define GROUP2 0
#endif

#if GROUP_C > 0 || GROUP2
/* The last steps of the type's tree for four vectors of sums per 128-bit
 * lane (the first steps: GROUP_LANES, LANES4): lane q of the result the sum
 * of u_q's 128-bit lanes, 0 + 2 and 1 + 3, then those two (the last steps
 * of RED2 / RED4). */
GK_AI V PFX(lanes_rows)(V u0, V u1, V u2, V u3)
{
	const V w01 = V_ADD(V_SHUF128(u0, u1, _MM_SHUFFLE(1, 0, 1, 0)),
	                    V_SHUF128(u0, u1, _MM_SHUFFLE(3, 2, 3, 2)));
	const V w23 = V_ADD(V_SHUF128(u2, u3, _MM_SHUFFLE(1, 0, 1, 0)),
	                    V_SHUF128(u2, u3, _MM_SHUFFLE(3, 2, 3, 2)));
	return V_ADD(V_SHUF128(w01, w23, _MM_SHUFFLE(2, 0, 2, 0)),
	             V_SHUF128(w01, w23, _MM_SHUFFLE(3, 1, 3, 1)));
}
#endif

/* Four rows of a tile GROUP_C wide (v[q][j]: row q, column j), each summed
 * by the type's tree: GROUP_LANES gives a row's sums per 128-bit lane, then
 * the lanes are added for the four rows at once, row q in 128-bit lane q.
 * Times alpha when scale, plus beta C by one multiply-add when acc_c,
 * stored. */
#if GROUP_C > 0
GK_AI void PFX(rows4_store)(const V (*v)[DC_MAX], T *c, int64_t rs_c, T alpha, T beta, int scale,
                            int acc_c)
{
	V s = PFX(lanes_rows)(GROUP_LANES(v[0]), GROUP_LANES(v[1]), GROUP_LANES(v[2]),
	                      GROUP_LANES(v[3]));
	if (scale)
		s = V_MUL(s, V_SET1(alpha));
	if (acc_c) {
		V cv = V_FROM128(c);
		cv = V_INS128(cv, c + rs_c, 1);
		cv = V_INS128(cv, c + 2 * rs_c, 2);
		cv = V_INS128(cv, c + 3 * rs_c, 3);
		s = V_FMA(V_SET1(beta), cv, s);
	}
	STORE128(c, s, 0);
	STORE128(c + rs_c, s, 1);
	STORE128(c + 2 * rs_c, s, 2);
	STORE128(c + 3 * rs_c, s, 3);
}
#endif

/* Eight rows of a tile 2 wide, where GROUP2: rows 2q and 2q + 1 summed
 * together per 128-bit lane (LANES4 of their four vectors: the first steps
 * of the tree, lane j the same sum as RED2's), then as rows4_store, rows 2q
 * and 2q + 1 in 128-bit lane q. Times alpha when scale, plus beta C by one
 * multiply-add when acc_c, stored (PAIRS_LOAD, PAIRS_STORE: two elements
 * of two rows). */
#if GROUP2
GK_AI void PFX(rows8x2_store)(const V (*v)[DC_MAX], T *c, int64_t rs_c, T alpha, T beta,
                              int scale, int acc_c)
{
	V s = PFX(lanes_rows)(LANES4(v[0][0], v[0][1], v[1][0], v[1][1]),
	                      LANES4(v[2][0], v[2][1], v[3][0], v[3][1]),
	                      LANES4(v[4][0], v[4][1], v[5][0], v[5][1]),
	                      LANES4(v[6][0], v[6][1], v[7][0], v[7][1]));
	if (scale)
		s = V_MUL(s, V_SET1(alpha));
	if (acc_c) {
		V cv = V_CAST128(PAIRS_LOAD(c, c + rs_c));
		_Pragma("GCC unroll 3") for (int q = 1; q < 4; q++)
			cv = V_INSERT128(cv, PAIRS_LOAD(c + 2 * q * rs_c, c + (2 * q + 1) * rs_c), q);
		s = V_FMA(V_SET1(beta), cv, s);
	}
	PAIRS_STORE(c, c + rs_c, V_LANE128(s, 0));
	_Pragma("GCC unroll 3") for (int q = 1; q < 4; q++)
		PAIRS_STORE(c + 2 * q * rs_c, c + (2 * q + 1) * rs_c, V_LANE128(s, q));
}
#endif

/* One tile of R x C, both constants after inlining; scale: alpha is not 1,
 * acc: beta is not 0. */
GK_AI void PFX(tile)(const int R, const int C, int64_t k, T alpha, const T *a, int64_t rs_a,
                     const T *bt, int64_t rs_bt, T beta, T *c, int64_t rs_c, int scale,
                     int acc_c, int pf, const int shifted, int64_t off)
{
	V acc[8][DC_MAX];
	_Pragma("GCC unroll 8") for (int r = 0; r < R; r++)
		_Pragma("GCC unroll 6") for (int j = 0; j < C; j++)
			acc[r][j] = V_ZERO;
	/* shifted (off > 0): position l holds A(i, l - off) and Bt(j, l - off),
	 * the rows read from off elements before them, in whole vectors
	 * (aligned ones), the first off lanes masked. */
	if (shifted) {
		a -= off;
		bt -= off;
		k += off;
	}
	int64_t l = 0;
	/* Lanes m of positions l to l + W of A's rows and Bt's. */
#define MSTEP(m)                                                                           \
	do {                                                                               \
		V bv[DC_MAX];                                                              \
		_Pragma("GCC unroll 6") for (int j = 0; j < C; j++)                        \
			bv[j] = V_MASKZ_LOADU(m, bt + j * rs_bt + l);                      \
		_Pragma("GCC unroll 8") for (int r = 0; r < R; r++) {                      \
			const V av = V_MASKZ_LOADU(m, a + r * rs_a + l);                   \
			_Pragma("GCC unroll 6") for (int j = 0; j < C; j++)                \
				acc[r][j] = V_FMA(av, bv[j], acc[r][j]);                   \
		}                                                                          \
	} while (0)
	if (shifted) {
		MSTEP(V_MASK_RANGE(off, k < W ? k : W));
		l = W;
	}
	/* A's rows, each read once, fetched PF_BYTES ahead when asked. */
#define STEP(pf)                                                                           \
	do {                                                                               \
		V bv[DC_MAX];                                                              \
		_Pragma("GCC unroll 6") for (int j = 0; j < C; j++)                        \
			bv[j] = V_LOADU(bt + j * rs_bt + l);                               \
		_Pragma("GCC unroll 8") for (int r = 0; r < R; r++) {                      \
			if (pf)                                                            \
				_mm_prefetch((const char *)(a + r * rs_a + l) + PF_BYTES, _MM_HINT_T0); \
			V av = V_LOADU(a + r * rs_a + l);                                  \
			/* In a register: the compiler would load it again as an   \
			 * operand of each multiply-add. */                                \
			if (C > 1)                                                         \
				__asm__("" : "+v"(av));                                    \
			_Pragma("GCC unroll 6") for (int j = 0; j < C; j++)                \
				acc[r][j] = V_FMA(av, bv[j], acc[r][j]);                   \
		}                                                                          \
	} while (0)
	if (pf)
		for (; l + W <= k; l += W)
			STEP(1);
	for (; l + W <= k; l += W)
		STEP(0);
#undef STEP
	if (l < k)
		MSTEP(V_MASK(k - l));
#undef MSTEP
	/* Lane q holds the terms of l - off = q - off modulo W: each put back in
	 * lane q - off, as with off = 0, before the sums. */
	if (shifted) {
		const VI rot = V_ROT_IDX(off);
		_Pragma("GCC unroll 8") for (int r = 0; r < R; r++)
			_Pragma("GCC unroll 6") for (int j = 0; j < C; j++)
				acc[r][j] = V_ROT(acc[r][j], rot);
	}
	/* A tile GROUP_C wide: rows by four (rows4_store); 8 x 2: rows by eight
	 * (rows8x2_store). */
	int r0 = 0;
#if GROUP_C > 0
	if (C == GROUP_C)
		_Pragma("GCC unroll 2") for (; r0 + 4 <= R; r0 += 4)
			PFX(rows4_store)(acc + r0, c + r0 * rs_c, rs_c, alpha, beta, scale, acc_c);
#endif
#if GROUP2
	if (C == 2 && R == 8) {
		PFX(rows8x2_store)(acc, c, rs_c, alpha, beta, scale, acc_c);
		r0 = 8;
	}
#endif
	/* Each other row's sums of up to 4 columns by the type's tree, times
	 * alpha when scale, plus beta C by one multiply-add when acc_c. */
	const S4 va = S4_SET1(alpha), vb = S4_SET1(beta);
	const V z = V_ZERO;
	_Pragma("GCC unroll 8") for (int r = r0; r < R; r++)
		_Pragma("GCC unroll 2") for (int h = 0; h < C; h += 4) {
			const int w = C - h < 4 ? C - h : 4;
			const unsigned cm = (1u << w) - 1;
			if (w <= 2) {
				S2 s = RED2(acc[r][h], w > 1 ? acc[r][h + 1] : z);
				if (scale)
					s = S2_MUL(s, S2_OF(va));
				if (acc_c)
					s = S2_FMA(S2_OF(vb), S2_MASKZ_LOADU(cm, c + r * rs_c + h), s);
				S2_MASK_STOREU(c + r * rs_c + h, cm, s);
				continue;
			}
			S4 s = RED4(acc[r][h], acc[r][h + 1], acc[r][h + 2], w > 3 ? acc[r][h + 3] : z);
			if (scale)
				s = S4_MUL(s, va);
			if (acc_c)
				s = S4_FMA(vb, S4_MASKZ_LOADU(cm, c + r * rs_c + h), s);
			S4_MASK_STOREU(c + r * rs_c + h, cm, s);
		}
}

/* Tiles of R x C down the mv rows, R (at most 8) the most that C leaves
 * registers for (R * C accumulators, R + C vectors loaded a step), then one
 * tile of the rows left. */
#define REST(R, C, n)                                                                      \
	case n:                                                                            \
		if ((R) > (n))                                                             \
			PFX(tile)((R) > (n) ? (n) : 1, C, k, alpha, a, rs_a, bt, rs_bt, beta, c, \
			          rs_c, scale, acc_c, pf, SHIFTED, off);                       \
		break;
#define STRIP(R, C)                                                                        \
	do {                                                                               \
		int64_t i = 0;                                                             \
		for (; i + (R) <= mv; i += (R))                                            \
			PFX(tile)(R, C, k, alpha, a + i * rs_a, rs_a, bt, rs_bt, beta,       \
			          c + i * rs_c, rs_c, scale, acc_c, pf, SHIFTED, off);         \
		a += i * rs_a;                                                             \
		c += i * rs_c;                                                             \
		switch (mv - i) {                                                          \
			REST(R, C, 1) REST(R, C, 2) REST(R, C, 3) REST(R, C, 4)               \
			REST(R, C, 5) REST(R, C, 6) REST(R, C, 7)                             \
		default:                                                                   \
			break;                                                             \
		}                                                                          \
	} while (0)

/* The switch's cases of C 1 to 5 wide. */
#define WIDTHS_1_TO_5                                                                      \
	case 1: STRIP(R1, 1); return;                                                      \
	case 2: STRIP(R2, 2); return;                                                      \
	case 3: STRIP(R3, 3); return;                                                      \
	case 4: STRIP(R4, 4); return;                                                      \
	case 5: STRIP(R5, 5); return;

#if defined(ENTRY6_ONLY)
void ENTRY6(int64_t mv, int64_t nv, int64_t k, T alpha, const T *restrict a, int64_t rs_a,
            const T *restrict bt, int64_t rs_bt, T beta, T *restrict c, int64_t rs_c, int pf)
{
	const int scale = alpha != (T)1, acc_c = beta != (T)0;
	const int64_t off = 0;
	if (nv == 6)
		STRIP(R6, 6);
}
#elif defined(OFF_ONLY)
void ENTRY_OFF(int64_t mv, int64_t nv, int64_t k, T alpha, const T *restrict a, int64_t rs_a,
               const T *restrict bt, int64_t rs_bt, T beta, T *restrict c, int64_t rs_c,
               int pf, int64_t off)
{
	const int scale = alpha != (T)1, acc_c = beta != (T)0;
	switch (nv) {
		WIDTHS_1_TO_5
#ifdef R6
	case 6: STRIP(R6, 6); return;
#endif
	default: return;
	}
}
#else
#ifdef R6
void ENTRY6(int64_t mv, int64_t nv, int64_t k, T alpha, const T *restrict a, int64_t rs_a,
            const T *restrict bt, int64_t rs_bt, T beta, T *restrict c, int64_t rs_c, int pf);
#endif
void ENTRY_OFF(int64_t mv, int64_t nv, int64_t k, T alpha, const T *restrict a, int64_t rs_a,
               const T *restrict bt, int64_t rs_bt, T beta, T *restrict c, int64_t rs_c,
               int pf, int64_t off);

/* The tiles of off = 0 up to 5 wide, in a function of their own (the
 * entry's calls of the others changed their code where they were in it). */
static __attribute__((noinline)) void PFX(entry5)(int64_t mv, int64_t nv, int64_t k, T alpha,
                                                  const T *restrict a, int64_t rs_a,
                                                  const T *restrict bt, int64_t rs_bt, T beta,
                                                  T *restrict c, int64_t rs_c, int pf)
{
	const int scale = alpha != (T)1, acc_c = beta != (T)0;
	const int64_t off = 0;
	switch (nv) {
		WIDTHS_1_TO_5
	default: return;
	}
}

void ENTRY(int64_t mv, int64_t nv, int64_t k, T alpha, const T *restrict a, int64_t rs_a,
           const T *restrict bt, int64_t rs_bt, T beta, T *restrict c, int64_t rs_c, int pf,
           int64_t off)
{
	if (off > 0) {
		ENTRY_OFF(mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, c, rs_c, pf, off);
		return;
	}
#ifdef R6
	if (nv == 6) {
		ENTRY6(mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, c, rs_c, pf);
		return;
	}
#endif
	PFX(entry5)(mv, nv, k, alpha, a, rs_a, bt, rs_bt, beta, c, rs_c, pf);
}

void PACK(int64_t k, int64_t n, const T *restrict b, int64_t rs_b, T *restrict bt, int64_t kp)
{
	for (int64_t j0 = 0; j0 < n; j0 += 4) {
		const int64_t w = n - j0 < 4 ? n - j0 : 4;
		const unsigned cm = (1u << w) - 1;
		const T *bj = b + j0;
		T *o = bt + j0 * kp;
		int64_t l = 0;
		if (w == 4)
			for (; l + W <= k; l += W)
				STORE_COLS(ROWS(bj, rs_b, l, cm, 1), ROWS(bj, rs_b, l + 1, cm, 1),
				           ROWS(bj, rs_b, l + 2, cm, 1), ROWS(bj, rs_b, l + 3, cm, 1),
				           o + l, kp, 4);
		else
			for (; l + W <= k; l += W)
				STORE_COLS(ROWS(bj, rs_b, l, cm, 0), ROWS(bj, rs_b, l + 1, cm, 0),
				           ROWS(bj, rs_b, l + 2, cm, 0), ROWS(bj, rs_b, l + 3, cm, 0),
				           o + l, kp, w);
		if (l < k) {
			/* The last rows through a zeroed block of W: Bt is zero from k
			 * to the next multiple of W. */
			T tmp[W * 4] __attribute__((aligned(64))) = {0};
			for (int64_t r = l; r < k; r++)
				for (int64_t j = 0; j < w; j++)
					tmp[(r - l) * 4 + j] = bj[r * rs_b + j];
			STORE_COLS(ROWS(tmp, 4, 0, 0xf, 1), ROWS(tmp, 4, 1, 0xf, 1),
			           ROWS(tmp, 4, 2, 0xf, 1), ROWS(tmp, 4, 3, 0xf, 1), o + l, kp, w);
		}
	}
}

#endif /* ENTRY6_ONLY, OFF_ONLY */

#undef REST
#undef STRIP
#undef WIDTHS_1_TO_5
#undef SHIFTED
/* The type's parameters: the includer defines them anew for the next one. */
#undef T
#undef V
#undef W
#undef VM
#undef V_MASK
#undef R1
#undef R2
#undef R3
#undef R4
#undef R5
#undef R6
#undef DC_MAX
#undef ENTRY6
#undef ENTRY_OFF
#undef S2
#undef S4
#undef S2_OF
#undef S2_MUL
#undef S2_FMA
#undef S2_MASKZ_LOADU
#undef S2_MASK_STOREU
#undef S4_SET1
#undef S4_MUL
#undef S4_FMA
#undef S4_MASKZ_LOADU
#undef S4_MASK_STOREU
#undef PFX
#undef ENTRY
#undef PACK
#undef V_ZERO
#undef V_LOADU
#undef V_MASKZ_LOADU
#undef V_MASK_RANGE
#undef VI
#undef V_ROT_IDX
#undef V_ROT
#undef V_FMA
#undef RED2
#undef RED4
#undef ROWS
#undef STORE_COLS
#undef GROUP_C
#undef GROUP2
#undef GROUP_LANES
#undef V_ADD
#undef V_MUL
#undef V_SET1
#undef V_SHUF128
#undef V_INS128
#undef V_FROM128
#undef STORE128
#undef LANES4
#undef V_CAST128
#undef V_INSERT128
#undef V_LANE128
#undef PAIRS_LOAD
#undef PAIRS_STORE
