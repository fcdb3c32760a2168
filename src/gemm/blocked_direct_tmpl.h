/*
 * blocked_direct_tmpl.h - the direct calls of the blocked driver's smallest
 * products, and the tests of shape they depend on, written once for both
 * precisions through the GK_* names (blocked_names_f32.h / _f64.h).
 * Included by blocked_tmpl.h, for the driver, and by blocked_direct.h, so
 * that gemmkit's entry (src/api/gemm_entry.h) makes the same direct calls
 * inline, before building the driver's arguments: with a call to
 * gk_sgemm_blocked in between, the layers took half of an 8 x 8 x 8 SGEMM.
 */

/* ---- tests of shape ----------------------------------------------------- */

/* Whether B's rows are contiguous and lie a multiple of q bytes apart. */
static inline int GK_FN(b_rows_apart)(const GK_ARGS *p, int64_t q)
{
	return p->cs_b == 1 && p->rs_b > 0 && p->rs_b * (int64_t)sizeof(GK_T) % q == 0;
}

/* Whether a small product is better packed because of B's row stride
 * (blocked.h, GK_BLOCKED_ALIAS_*): its rows, read where they lie, a
 * multiple of ALIAS_BYTES apart (or of ALIAS_NEAR_BYTES, for larger
 * products), and m, n and k past the sizes for which packing does not pay.
 * From the shape and strides alone. */
static inline int GK_FN(b_aliases)(const GK_ARGS *p)
{
	if (p->m <= GK_BLOCKED_ALIAS_MIN || p->n <= GK_BLOCKED_ALIAS_MIN ||
	    p->k < GK_BLOCKED_ALIAS_DEPTH)
		return 0;
	if (GK_FN(b_rows_apart)(p, GK_BLOCKED_ALIAS_BYTES))
		return 1;
	return GK_FN(b_rows_apart)(p, GK_BLOCKED_ALIAS_NEAR_BYTES) &&
	       p->m > GK_BLOCKED_ALIAS_NEAR_MIN && p->n > GK_BLOCKED_ALIAS_NEAR_MIN &&
	       p->k > GK_BLOCKED_ALIAS_NEAR_MIN;
}

/* Whether p, on nt threads, is one of the small products of way 1
 * (blocked.h, GK_BLOCKED_SMALL_DIM): the kernel table's cube bounds the
 * work of each thread. On many threads the packed way does worse than
 * way 1 at these sizes: on 16 threads of a Xeon, SGEMM 480^3 packed ran
 * at 0.24 of unpacked, DGEMM 400^3 at 0.74, when the threads sharing a
 * block of A each packed it (on 8, DGEMM 400^3 1.11x, 500^3 1.28x:
 * bench/results/2026-11-29-h200-ctest-e/threads16.log); with the rows cut
 * by the thread count (GK_FN(packed)), still 0.62-0.72 for DGEMM 200^3-400^3
 * and 0.71-0.90 for SGEMM 480^3-500^3 on 16 threads
 * (bench/results/2026-11-29-h200-split/cube16.log). */
static inline int GK_FN(small)(const GK_ARGS *p, int nt)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	const double cube = (double)p->kern->GK_UCUBE[p->cs_a != 1 && p->cs_b == 1];
	return m <= GK_BLOCKED_SMALL_DIM && n <= GK_BLOCKED_SMALL_DIM && k <= GK_BLOCKED_SMALL_DIM &&
	       (double)m * (double)n * (double)k <= cube * cube * cube * nt && !GK_FN(b_aliases)(p);
}

/* Whether p goes way 3 (matrix-vector shapes past the small ones). */
static inline int GK_FN(way3)(const GK_ARGS *p)
{
	const int64_t m = p->m, n = p->n;
	/* (One thread: the shapes of way 3 within 512 a side, m n k at most
	 * 3 x 512 x 512, are below every table's cube anyway.) */
	if ((m <= GK_BLOCKED_SKINNY && n <= GK_BLOCKED_SKINNY) || GK_FN(small)(p, 1))
		return 0;
	return (m <= GK_BLOCKED_AXPY_ROWS && p->cs_b == 1) || (n <= GK_BLOCKED_DOT_COLS && p->cs_a == 1);
}

/* Whether p goes way 5: the table has dot tiles and sends a C n wide to
 * them from a depth k (gemm_d_*_min_k), A is by rows, B by rows or by
 * columns, m and k within the limits of blocked.h. From the shape and
 * strides alone. */
static inline int GK_FN(dotway)(const GK_ARGS *p)
{
	const gk_kernels *kn = p->kern;
	return kn->GK_DKR != NULL && p->n <= GK_GEMM_D_COLS && kn->GK_DMINK[p->n] > 0 &&
	       p->k >= kn->GK_DMINK[p->n] && p->k <= GK_BLOCKED_DOT_MAX_K && p->cs_a == 1 &&
	       (p->rs_b == 1 || p->cs_b == 1) && p->m >= GK_BLOCKED_DOT_MIN_ROWS;
}

/* ---- the unpacked tiles ------------------------------------------------ */

/* The rows of the unpacked kernel's tiles nv wide and k deep: the most it
 * takes (kernel_api.h), from a table kept per thread for the last kernel
 * set, so that a run of tiny products does not redo the rule's divisions
 * every call; at most GK_GEMM_U_MAX_ROWS from GK_BLOCKED_ULONG_K on. */
static inline int64_t GK_FN(urows)(const gk_kernels *kn, int64_t nv, int64_t k)
{
	static _Thread_local struct {
		const gk_kernels *kn;
		int64_t vw, rows[GK_BLOCKED_UVECS + 1];
	} last;
	if (last.kn != kn) {
		const int64_t vw = kn->GK_UVW, nvec = kn->GK_UNR / vw;
		for (int64_t v = 1; v <= GK_BLOCKED_UVECS; v++)
			last.rows[v] = v <= nvec ? gk_gemm_u_rows(kn->GK_UMR, kn->GK_UNR, vw, v * vw) : 0;
		last.vw = vw;
		last.kn = kn;
	}
	int64_t v = 1;
	for (int64_t w = last.vw; w < nv; w += last.vw)
		v++;
	const int64_t r = last.rows[v];
	/* Row pairs of 16 rows have 8 accumulators, the least that covers the
	 * FMA latency, quads 4: they keep all their rows (kn->gemm_u_grouped). */
	if (kn->gemm_u_grouped > 0 && kn->gemm_u_grouped * nv <= last.vw)
		return r;
	return k >= GK_BLOCKED_ULONG_K && r > GK_GEMM_U_MAX_ROWS ? GK_GEMM_U_MAX_ROWS : r;
}

/* The most columns of a thin C, which the unpacked kernels take whatever m
 * and k (the table's, or GK_BLOCKED_THIN_COLS). */
static inline int64_t GK_FN(thin_cols)(const gk_kernels *kn)
{
	return kn->GK_UTHIN > 0 ? kn->GK_UTHIN : GK_BLOCKED_THIN_COLS;
}

/* rows cut into as few tiles of at most lim rows as possible, of nearly
 * equal height: nblk tiles, the first extra of them base + 1 rows tall.
 * 14 rows by 6 go as 5 + 5 + 4, not 6 + 6 + 2, whose two accumulator
 * chains per vector would wait on the FMA latency. */
typedef struct {
	int64_t nblk, base, extra;
} GK_FN(rowplan);

static inline void GK_FN(rowplan_init)(GK_FN(rowplan) *rp, int64_t rows, int64_t lim)
{
	if (rows <= lim) {
		rp->nblk = 1;
		rp->base = rows;
		rp->extra = 0;
		return;
	}
	if (rows <= 4 * lim) {
		/* Two to four tiles, a small product's rows: divisions by
		 * constants, which the compiler turns into multiplications. Two
		 * divisions by variables took 5% of a 16 x 16 x 16 DGEMM. */
		rp->nblk = rows <= 2 * lim ? 2 : rows <= 3 * lim ? 3 : 4;
		rp->base = rp->nblk == 2 ? rows / 2 : rp->nblk == 3 ? rows / 3 : rows / 4;
	} else {
		rp->nblk = (rows + lim - 1) / lim;
		rp->base = rows / rp->nblk;
	}
	rp->extra = rows - rp->base * rp->nblk;
}

/* The tiles of rp, nv columns wide, one under the other: one call of the
 * table's column kernel where it has one, else one call per tile. */
static inline void GK_FN(ucol1)(const gk_kernels *kn, const GK_FN(rowplan) *rp, int64_t nv,
                                int64_t k, GK_T alpha, const GK_T *a, int64_t rs_a, int64_t cs_a,
                                const GK_T *b, int64_t rs_b, GK_T beta, GK_T *c, int64_t rs_c)
{
	if (rp->nblk > 1 && kn->GK_UKR_UC != NULL) {
		kn->GK_UKR_UC(rp->nblk, rp->base, rp->extra, nv, k, alpha, a, rs_a, cs_a, b, rs_b, beta,
		              c, rs_c);
		return;
	}
	for (int64_t ib = 0; ib < rp->nblk; ib++) {
		const int64_t mv = rp->base + (ib < rp->extra);
		kn->GK_UKR_U(mv, nv, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c);
		a += mv * rs_a;
		c += mv * rs_c;
	}
}

/* The columns of a column of tiles nv wide past its whole vectors that go
 * to tiles of their own, or 0: where the table computes tiles of at most
 * half a vector as row pairs and quads (kn->gemm_u_grouped 2), those
 * columns, if at most half a vector, so that the wide tiles do not carry a
 * vector of mostly masked lanes in every row. Only with more than two whole
 * vectors and at least GK_BLOCKED_USPLIT_MIN_ROWS rows: a second column of
 * tiles over few rows costs more than it saves (SGEMM 18^3-24^3
 * 0.61-0.76x, DGEMM 17^3-25^3 0.76-0.94x). On a Zen 5 core, one thread,
 * SGEMM 97^3-101^3 1.01-1.04x, 116^3-244^3 1.01-1.03x, DGEMM 82^3-115^3
 * 1.00-1.01x; with quads only (Intel) an Intel Xeon measured 0.94-1.04x,
 * so not there (bench/results/2026-11-30-zen5-usplit/). The sums of each
 * element of C are the same either way. */
static inline int64_t GK_FN(usplit)(const gk_kernels *kn, int64_t rows, int64_t nv)
{
	/* The cheap tests first: a small product's tiles pay no division. */
	const int64_t vw = kn->GK_UVW;
	if (kn->gemm_u_grouped != 2 || rows < GK_BLOCKED_USPLIT_MIN_ROWS || nv <= 2 * vw)
		return 0;
	const int64_t q = nv % vw;
	return 2 * q <= vw ? q : 0;
}

/* ucol1 over the rows of rp, nv columns wide, its last usplit columns in
 * tiles of their own (their row plan from the same rows). */
static inline void GK_FN(ucol)(const gk_kernels *kn, const GK_FN(rowplan) *rp, int64_t nv,
                               int64_t k, GK_T alpha, const GK_T *a, int64_t rs_a, int64_t cs_a,
                               const GK_T *b, int64_t rs_b, GK_T beta, GK_T *c, int64_t rs_c)
{
	const int64_t rows = rp->nblk * rp->base + rp->extra;
	const int64_t q = GK_FN(usplit)(kn, rows, nv);
	if (q == 0) {
		GK_FN(ucol1)(kn, rp, nv, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c);
		return;
	}
	const int64_t w = nv - q;
	GK_FN(rowplan) rw, rq;
	GK_FN(rowplan_init)(&rw, rows, GK_FN(urows)(kn, w, k));
	GK_FN(rowplan_init)(&rq, rows, GK_FN(urows)(kn, q, k));
	GK_FN(ucol1)(kn, &rw, w, k, alpha, a, rs_a, cs_a, b, rs_b, beta, c, rs_c);
	GK_FN(ucol1)(kn, &rq, q, k, alpha, a, rs_a, cs_a, b + w, rs_b, beta, c + w, rs_c);
}

/* ---- the direct calls --------------------------------------------------- */

/* All of C one column of tiles of the unpacked kernel, k one block, one
 * thread: the calls straight away. At 16 x 16 x 16 the loops of way 1
 * around them cost a sixth. Not for a product that goes way 3 on more
 * threads (its sums run in another order there, and the bits must not
 * depend on the count), nor way 5. */
static inline int GK_FN(direct_ok)(const GK_ARGS *p)
{
	return p->cs_b == 1 && p->n <= p->kern->GK_UNR && !GK_FN(dotway)(p) && !GK_FN(way3)(p);
}

/* The calls, in tiles of at most `rows` rows. */
static inline __attribute__((always_inline)) gk_status GK_FN(direct)(const GK_ARGS *p,
                                                                     int64_t rows)
{
	GK_FN(rowplan) rp;
	GK_FN(rowplan_init)(&rp, p->m, rows);
	GK_FN(ucol)(p->kern, &rp, p->n, p->k, p->alpha, p->a, p->rs_a, p->cs_a, p->b, p->rs_b, p->beta,
	            p->c, p->rs_c);
	return GK_OK;
}

/* The elements of B that direct_bcols packs on its stack, at most: 16 KiB,
 * k x n up to 64 x 64 floats or 64 x 32 doubles (the widest unpacked tiles
 * at GK_BLOCKED_DIRECT_K). */
#define GK_DIRECT_BCOLS_ELEMS ((int64_t)(16384 / sizeof(GK_T)))

static inline __attribute__((always_inline)) int GK_FN(direct_try)(const GK_ARGS *p);

/*
 * A small product (direct_try) whose B's rows are not contiguous (B by
 * columns: an op(B) = B^T of a row-major B, an op(A) = A^T of a column-major
 * call): way 1 would pack B into slivers NU wide in a workspace; here its
 * k x n elements go into one sliver n wide on the stack, rows contiguous,
 * and the calls are those of direct_try, with the same operations for every
 * element of C (the unpacked kernel reads B's rows at any stride). 0 where
 * B does not fit. Not inline: the buffer stays off the other calls' stack.
 * Row-major 4 x 4 x 4 SGEMM with B transposed took 4 times as long as
 * without through way 1; column-major 'T','N' and 'T','T' calls from 4^3 to
 * 16^3 now run 1.5-2.6x as fast as through way 1, at 32^3 1.0-1.4x
 * (bench/results/2026-11-29-emr-blas-entry/transposes_ratios.txt).
 */
static __attribute__((noinline)) int GK_FN(direct_bcols)(const GK_ARGS *p)
{
	if (p->k * p->n > GK_DIRECT_BCOLS_ELEMS)
		return 0;
	GK_T buf[GK_DIRECT_BCOLS_ELEMS] __attribute__((aligned(64)));
	/* X = B^T, n x k: element (j, l) at b[j * cs_b + l * rs_b]. */
	GK_FN_PACK(p->kern, p->n, p->k, p->b, p->cs_b, p->rs_b, p->n, buf, p->n * p->k);
	GK_ARGS q = *p;
	q.b = buf;
	q.rs_b = p->n;
	q.cs_b = 1;
	return GK_FN(direct_try)(&q);
}

/*
 * The direct calls of a product asked on one thread whose C is one column of
 * unpacked tiles and whose k is within every kc (gk_gemm_direct_k), where
 * gk_gemm_threads gives one thread and no rule a shallower kc: 1 once done,
 * 0 where the driver's choices are needed. Where m and n are within the
 * small shapes that way 3 leaves, and m is below the rows way 5 takes or n
 * wider than its tiles, direct_ok's tests are answered without their work.
 * The rows of a tile are urows's answer below GK_BLOCKED_ULONG_K, where no
 * cap applies, without its table (whose thread-local lookups took 4% of a
 * 1 x 1 x 1 SGEMM); a C of one tile is one call, without a division.
 * gemmkit's entry calls this first (src/api/gemm_entry.h), inline: with
 * those tests, the driver's arguments built and a call of the driver in
 * between, the layers took half of an 8 x 8 x 8 SGEMM; this way 1 x 1 x 1
 * to 8 x 8 x 8 run 1.25-1.65x as fast
 * (bench/results/2026-11-29-emr-blas-entry/tiny_path.log).
 */
static inline __attribute__((always_inline)) int GK_FN(direct_try)(const GK_ARGS *p)
{
	const gk_kernels *kn = p->kern;
	if (p->threads != 1 ||
	    p->k > atomic_load_explicit(&gk_gemm_direct_k, memory_order_relaxed) ||
	    p->n > kn->GK_UNR)
		return 0;
	const int small = p->m <= GK_BLOCKED_SKINNY && p->n <= GK_BLOCKED_SKINNY &&
	                  (p->m < GK_BLOCKED_DOT_MIN_ROWS || p->n > GK_GEMM_D_COLS);
	if (p->cs_b != 1)
		return small && GK_FN(direct_bcols)(p);
	if (!small && (GK_FN(dotway)(p) || GK_FN(way3)(p)))
		return 0;
	const int vw = kn->GK_UVW;
	int nvec = 1;
	for (int w = vw; w < p->n; w += vw)
		nvec++;
	const int64_t lim = nvec == 1   ? GK_GEMM_U_MAX_ROWS_1V
	                    : nvec == 2 ? GK_GEMM_U_MAX_ROWS_2V
	                                : GK_GEMM_U_MAX_ROWS;
	/* The tile's MU x NU elements (NU a whole number of vectors,
	 * kernel_api.h) against mv rows of nvec vectors: no division (an idiv
	 * took a quarter of a 1 x 1 x 1 SGEMM through sgemm_). */
	const int64_t elems = (int64_t)kn->GK_UMR * kn->GK_UNR, row = (int64_t)nvec * vw;
	if (p->m <= lim && p->m * row <= elems)
		kn->GK_UKR_U(p->m, p->n, p->k, p->alpha, p->a, p->rs_a, p->cs_a, p->b, p->rs_b,
		             p->beta, p->c, p->rs_c);
	else
		GK_FN(direct)(p, elems / row < lim ? elems / row : lim);
	return 1;
}
