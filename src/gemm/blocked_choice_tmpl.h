/*
 * blocked_choice_tmpl.h - the entry point of the blocked driver
 * (blocked_tmpl.h, included at its end for each precision): the way a
 * product takes (1 to 5, from its shape), the threads it runs on, and the
 * direct calls of the smallest ones.
 */

/* ---- the choice -------------------------------------------------------- */

/* Whether a product of few rows (m <= GK_BLOCKED_SKINNY, B by rows) is
 * better packed because of B's row stride: its rows a multiple of
 * ALIAS_BYTES apart, n and k at least SKINNY_ALIAS_MIN, the unpacked
 * kernel's sliver one cache line wide and more than one tile of rows
 * reading it (blocked.h). Read where they lie, the kc lines of a sliver
 * then share one set of L1 and a few of L2, and each tile of rows after
 * the first fetches the sliver from L3 again. */
static inline int GK_FN(skinny_aliases)(const GK_ARGS *p)
{
	return p->n >= GK_BLOCKED_SKINNY_ALIAS_MIN && p->k >= GK_BLOCKED_SKINNY_ALIAS_MIN &&
	       GK_FN(b_rows_apart)(p, GK_BLOCKED_ALIAS_BYTES) &&
	       p->kern->GK_UNR * (int64_t)sizeof(GK_T) <= 64 && p->m > p->kern->GK_UMR;
}

/* Ways 1 to 4 for p on nt threads; GK_ERR_NO_MEMORY when the way's
 * workspace cannot be had (before anything is written). */
static gk_status GK_FN(ways)(const GK_ARGS *p, int nt, int64_t kc)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	const int det = (p->flags & GK_FLAG_DETERMINISTIC) != 0;
	const int skinny = m <= GK_BLOCKED_SKINNY && n <= GK_BLOCKED_SKINNY;
	if (skinny) {
		/* Way 2: the depth in groups. With the flag the groups depend on k
		 * alone (at most GK_BLOCKED_GROUPS of at least GK_BLOCKED_GROUP_MIN
		 * kc blocks), whatever the thread count, one thread included;
		 * without it, one group per thread. */
		const int64_t gmin = GK_BLOCKED_GROUP_MIN * kc;
		int64_t gsize = 0;
		if (det && k >= 2 * gmin) {
			const int64_t g = (k + GK_BLOCKED_GROUPS - 1) / GK_BLOCKED_GROUPS;
			gsize = g < gmin ? gmin : (g + kc - 1) / kc * kc;
		} else if (!det && nt > 1 && k >= 2 * gmin) {
			const int64_t t = k / gmin < nt ? k / gmin : nt;
			gsize = ((k + t - 1) / t + kc - 1) / kc * kc;
		}
		if (gsize > 0 && gsize < k)
			return GK_FN(ksplit)(p, nt, kc, (k + gsize - 1) / gsize, gsize);
	}
	/* Way 1: small or skinny. */
	if (skinny || GK_FN(small)(p, nt))
		return GK_FN(unpacked)(p, nt, kc);
	/* Way 3: shapes that are really matrix-vector products stream their
	 * operands once, unpacked: a row or two of C against rows of B (axpy
	 * along them), or a few columns of C (dot products with rows of A);
	 * a tile of the unpacked kernel would hold one or two FMA chains. */
	if (m <= GK_BLOCKED_AXPY_ROWS && p->cs_b == 1)
		return GK_FN(axpy_path)(p, nt);
	if (n <= GK_BLOCKED_DOT_COLS && p->cs_a == 1)
		return GK_FN(dot_path)(p, nt);
	/* Way 1 again for thin products, whatever their other sides: few
	 * columns (A read once, B's columns in cache across its rows) or few
	 * rows. Packing would copy a whole operand to use it a few times. (Few
	 * rows of a wide B by columns would need all of a kc block of B
	 * repacked at once: packed, by pieces, then.) */
	if (n <= GK_FN(thin_cols)(p->kern) ||
	    (m <= GK_BLOCKED_SKINNY && p->cs_b == 1 && !GK_FN(skinny_aliases)(p)))
		return GK_FN(unpacked)(p, nt, kc);
	return GK_FN(packed)(p, nt);
}

/* ---- 6. deep products: the depth among the threads --------------------- */

/*
 * The threads p goes way 6 on, of nt, or 0 where it does not: a small C
 * (at most GK_BLOCKED_DEEP_C_BYTES), k at least GK_BLOCKED_DEEP_RATIO times
 * m + n and GK_BLOCKED_DEEP_KC kc blocks per group for two threads at
 * least, past the skinny sizes (way 2), without GK_FLAG_DETERMINISTIC.
 * There the other ways cut C into a few pieces for the threads, each of
 * which packs all of A or of B again from memory (100 x 100 x 1e5 SGEMM on
 * 2 threads of a Zen 5 guest: 1.0-1.6x one thread; on 16 threads, 7
 * slivers of columns for 16 threads). The groups
 * follow the thread count, and so do the bits (as way 2's): the same bits
 * on every thread count would cut one thread's product into groups too
 * (16 groups: 0.82-0.97x on one thread).
 */
static inline int GK_FN(deep)(const GK_ARGS *p, int nt, int64_t kc)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	if (nt < 2 || (p->flags & GK_FLAG_DETERMINISTIC) != 0 ||
	    (m <= GK_BLOCKED_SKINNY && n <= GK_BLOCKED_SKINNY) ||
	    m * n * (int64_t)sizeof(GK_T) > GK_BLOCKED_DEEP_C_BYTES ||
	    k < GK_BLOCKED_DEEP_RATIO * (m + n))
		return 0;
	/* Down to half the threads asked where k has too few kc blocks for
	 * all: 60 x 70 x 40000 DGEMM on 16 threads of a Xeon ran 7.3x faster
	 * on 13 groups than the other ways on 16 threads; 100 x 40 x 12000
	 * on 3 groups 0.56-0.71x as fast. */
	const int64_t fit = k / (GK_BLOCKED_DEEP_KC * kc);
	return fit < 2 || 2 * fit < nt ? 0 : fit < nt ? (int)fit : nt;
}

/* Way 6: one group of the depth per thread, each a product of its own (whichever of ways 1-4 it takes on one thread) into
 * a buffer of its own, one task each, summed in group order (ksum): the
 * bits depend on the thread count, never on which thread ran a group. */
typedef struct {
	const GK_ARGS *p;
	int64_t kc, gsize, mn_pad;
	GK_T *ws;
} GK_FN(deepjob);

static void GK_FN(deep_task)(void *arg, int64_t g, int slot)
{
	const GK_FN(deepjob) *x = arg;
	(void)slot;
	GK_ARGS q = *x->p;
	const int64_t k0 = g * x->gsize, k1 = GK_FN(min)(q.k, k0 + x->gsize);
	q.a += k0 * q.cs_a;
	q.b += k0 * q.rs_b;
	q.k = k1 - k0;
	q.c = x->ws + g * x->mn_pad;
	q.rs_c = q.n;
	q.alpha = (GK_T)1;
	q.beta = (GK_T)0;
	q.threads = 1;
	if (GK_FN(ways)(&q, 1, x->kc) != GK_OK)
		GK_FN(no_workspace)(&q, x->kc);
}

/* GK_ERR_NO_MEMORY (nothing written) when the buffers cannot be had. */
static gk_status GK_FN(deep_split)(const GK_ARGS *p, int nt, int64_t kc)
{
	const int64_t mn = p->m * p->n, k = p->k;
	int64_t groups = nt;
	const int64_t gsize = ((k + groups - 1) / groups + kc - 1) / kc * kc;
	groups = (k + gsize - 1) / gsize;
	const int64_t q = GK_PACK_ALIGN / (int64_t)sizeof(GK_T);
	const int64_t mn_pad = (mn + q - 1) / q * q;
	/* Not the calling thread's workspace: the groups' own products use
	 * it. */
	GK_T *ws = gk_aligned_alloc((size_t)(mn_pad * groups), sizeof(GK_T));
	if (ws == NULL)
		return GK_ERR_NO_MEMORY;
	GK_FN(deepjob) x = {p, kc, gsize, mn_pad, ws};
	gk_pool_run(&(gk_job){.run = GK_FN(deep_task), .arg = &x, .tasks = groups, .threads = nt,
	                      .work = (double)mn * (double)k});
	GK_FN(ksum)(p, ws, mn_pad, groups);
	gk_aligned_free(ws);
	return GK_OK;
}

/*
 * The last columns of a small product (way 1, not skinny) past the whole
 * vectors of the unpacked tiles, fewer than half a vector, where the dot
 * tiles take that many columns at this depth (GK_FN(dotway) for them
 * alone): how many (0: none). From half a vector on, row pairs and masked
 * tiles use most of each vector, and the split measured neutral (DGEMM
 * 36^3 0.96-0.99x, SGEMM 76^3 0.98-1.01x on Zen 5). In the
 * unpacked tiles they fill a part of a vector per row, or of a quad of
 * rows, and cost far more than their share: SGEMM 65^3 on a Zen 5 core
 * spent 14% of its time on its last column (1.5% of the work), and the
 * same product as two calls, 64 columns and 1, ran 1.11x faster than one
 * (66^3 1.11x, 100^3 1.04x; DGEMM 33^3 1.05x, 34^3 1.09x:
 * bench/results/2026-11-30-zen5-dotrest/). The columns before them keep
 * their bits; these take the dot tiles' (GK_GEMM_DOT=0: the tiles' own).
 * Only past the widest unpacked tile: a C at most that wide may take the
 * direct calls (GK_FN(direct_try), and gemmkit's entry), whose bits a
 * named "cpu.blocked" call must give too. Small on one thread (a product
 * small on one thread is small on any number): the split, and so the bits,
 * do not depend on the thread count.
 */
static inline int64_t GK_FN(dot_rest)(const GK_ARGS *p)
{
	/* The cheap tests first: most products pay no division here. */
	const int64_t vw = p->kern->GK_UVW;
	if (p->n <= p->kern->GK_UNR || p->kern->GK_DKR == NULL || vw <= 0)
		return 0;
	const int64_t r = p->n % vw;
	if (r == 0 || 2 * r >= vw || (p->m <= GK_BLOCKED_SKINNY && p->n <= GK_BLOCKED_SKINNY) ||
	    !GK_FN(small)(p, 1))
		return 0;
	GK_ARGS q = *p;
	q.n = r;
	return GK_FN(dotway)(&q) ? r : 0;
}

/* The product on nt threads, depth blocks of kc; way 6 on dn threads
 * where dn > 1 (GK_FN(deep)). */
static gk_status GK_FN(run)(const GK_ARGS *p, int nt, int64_t kc, int dn)
{
	const int64_t k = p->k;
	/* Way 5 first: its limits leave no depth that way 2 would split. */
	if (GK_FN(dotway)(p)) {
		const gk_status st = GK_FN(dot_tiles)(p, nt);
		return st == GK_OK ? st : GK_FN(no_workspace)(p, kc);
	}
	const int64_t rest = dn > 1 ? 0 : GK_FN(dot_rest)(p);
	if (rest > 0) {
		/* The whole vectors, then the rest in dot tiles on the calling
		 * thread (a few columns: a second hand-over to the pool cost
		 * more than they take, SGEMM 130^3 on 2 threads 0.87x); each
		 * part writes its own columns of C only. */
		GK_ARGS w = *p, q = *p;
		w.n = p->n - rest;
		q.n = rest;
		q.b = p->b + w.n * p->cs_b;
		q.c = p->c + w.n;
		gk_status st = GK_FN(run)(&w, nt, kc, 0);
		if (st != GK_OK)
			return st;
		st = GK_FN(dot_tiles)(&q, 1);
		return st == GK_OK ? st : GK_FN(no_workspace)(&q, kc);
	}
	if (nt == 1 && k <= kc && GK_FN(direct_ok)(p))
		return GK_FN(direct)(p, GK_FN(urows)(p->kern, p->n, k));
	if (dn > 1 && GK_FN(deep_split)(p, dn, kc) == GK_OK)
		return GK_OK;
	const gk_status st = GK_FN(ways)(p, nt, kc);
	return st == GK_OK ? st : GK_FN(no_workspace)(p, kc);
}

gk_status GK_FN_BLOCKED_CHOOSE(const GK_ARGS *p)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	const int64_t mr = p->kern->GK_MR, nr = p->kern->GK_NR;
	const int64_t kc = gk_gemm_kc(sizeof(GK_T), mr, nr, m, n, k);
	/* Never more threads than the work keeps busy; up to 2^31
	 * multiply-adds, one thread where that measured faster (near that
	 * bound, or while another program takes a core: src/core/adapt.c).
	 * Not for ways 2 (skinny) and 6 (deep), whose groups follow the count. */
	int nt = gk_gemm_threads(p->threads, (double)m, (double)n, (double)k);
	const int dn = GK_FN(deep)(p, nt, kc);
	gk_adapt pr = GK_ADAPT_INIT;
	if (nt > 1 && !(m <= GK_BLOCKED_SKINNY && n <= GK_BLOCKED_SKINNY) && dn == 0)
		nt = gk_adapt_begin(sizeof(GK_T) == sizeof(double) ? GK_ADAPT_F64 : GK_ADAPT_F32,
		                    (double)m * (double)n * (double)k, 2 * GK_BLOCKED_MIN_WORK, nt, &pr);
	const gk_status st = GK_FN(run)(p, nt, kc, dn);
	gk_adapt_end(&pr);
	return st;
}

gk_status GK_FN_BLOCKED(const GK_ARGS *p)
{
	/* The smallest products go straight to their calls, before the choices
	 * (6% of a 16 x 16 x 16 SGEMM); gemmkit's entry makes them itself
	 * (src/api/gemm_entry.h) and calls GK_FN_BLOCKED_CHOOSE. */
	if (GK_FN(direct_try)(p))
		return GK_OK;
	return GK_FN_BLOCKED_CHOOSE(p);
}
