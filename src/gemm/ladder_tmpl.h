/*
 * ladder_tmpl.h - the first rungs of the CPU ladder, written once for both
 * precisions. ladder_f32.c and ladder_f64.c include it after naming the type
 * (GK_T), the argument struct (GK_ARGS), the kernel slots and the function
 * names, so each function's real name stands in one of those two files.
 *
 * Every rung takes the canonical problem of gk_internal.h (C row-major,
 * A and B with any strides, alpha != 0, m, n, k > 0) and writes every element
 * of C exactly once per pass.
 */

/* C := beta * C over m rows of n; beta = 0 writes zeros without reading C. */
void GK_FN_SCALE(int64_t m, int64_t n, GK_T beta, GK_T *c, int64_t rs_c)
{
	if (beta == (GK_T)1)
		return;
	for (int64_t i = 0; i < m; i++) {
		GK_T *ci = c + i * rs_c;
		if (beta == (GK_T)0)
			for (int64_t j = 0; j < n; j++)
				ci[j] = 0;
		else
			for (int64_t j = 0; j < n; j++)
				ci[j] *= beta;
	}
}

/* Rung 1, "cpu.plain": the textbook i-j-k loop, one dot product per element;
 * B is walked down a column, so its accesses stride through memory. */
gk_status GK_FN_PLAIN(const GK_ARGS *p)
{
	for (int64_t i = 0; i < p->m; i++) {
		for (int64_t j = 0; j < p->n; j++) {
			const GK_T *ai = p->a + i * p->rs_a;
			const GK_T *bj = p->b + j * p->cs_b;
			GK_T acc = 0;
			for (int64_t l = 0; l < p->k; l++)
				acc += ai[l * p->cs_a] * bj[l * p->rs_b];
			GK_T *cij = p->c + i * p->rs_c + j;
			*cij = p->beta == (GK_T)0 ? p->alpha * acc : p->alpha * acc + p->beta * *cij;
		}
	}
	return GK_OK;
}

/* Copy the m x k matrix x (strides rs, cs) into dst, row-major and dense. */
static void GK_FN_PACK_ROWS(int64_t m, int64_t k, const GK_T *x, int64_t rs, int64_t cs, GK_T *dst)
{
	for (int64_t i = 0; i < m; i++)
		for (int64_t l = 0; l < k; l++)
			dst[i * k + l] = x[i * rs + l * cs];
}

/* Rung 2, "cpu.trans": B transposed into a dense copy first, so that every
 * element is a dot product of two contiguous rows (a SIMD kernel). A is copied
 * too when its rows are not contiguous. */
gk_status GK_FN_TRANS(const GK_ARGS *p)
{
	const int64_t m = p->m, n = p->n, k = p->k;
	GK_T *bt = gk_aligned_alloc((size_t)n * (size_t)k, sizeof(GK_T));
	if (bt == NULL)
		return gk_set_error(GK_ERR_NO_MEMORY, "cpu.trans: no memory for B^T (%lld x %lld)",
		                    (long long)n, (long long)k);
	/* B^T is n x k: element (j, l) = B(l, j). */
	GK_FN_PACK_ROWS(n, k, p->b, p->cs_b, p->rs_b, bt);
	const GK_T *a = p->a;
	int64_t rs_a = p->rs_a;
	GK_T *apack = NULL;
	if (p->cs_a != 1) {
		apack = gk_aligned_alloc((size_t)m * (size_t)k, sizeof(GK_T));
		if (apack == NULL) {
			gk_aligned_free(bt);
			return gk_set_error(GK_ERR_NO_MEMORY, "cpu.trans: no memory for A (%lld x %lld)",
			                    (long long)m, (long long)k);
		}
		GK_FN_PACK_ROWS(m, k, p->a, p->rs_a, p->cs_a, apack);
		a = apack;
		rs_a = k;
	}
	for (int64_t i = 0; i < m; i++) {
		GK_T *ci = p->c + i * p->rs_c;
		for (int64_t j = 0; j < n; j++) {
			GK_T acc = p->kern->GK_DOT(k, a + i * rs_a, bt + j * k);
			ci[j] = p->beta == (GK_T)0 ? p->alpha * acc : p->alpha * acc + p->beta * ci[j];
		}
	}
	gk_aligned_free(apack);
	gk_aligned_free(bt);
	return GK_OK;
}

/* Rows [i0, i1) of the i-k-j product: C(i,:) = beta C(i,:) + sum_l alpha A(i,l) B(l,:).
 * The inner loop runs along a row of B and of C: a SIMD axpy when B's rows
 * are contiguous, a strided loop otherwise. */
static void GK_FN_IKJ_ROWS(const GK_ARGS *p, int64_t i0, int64_t i1)
{
	for (int64_t i = i0; i < i1; i++) {
		GK_T *ci = p->c + i * p->rs_c;
		GK_FN_SCALE(1, p->n, p->beta, ci, p->rs_c);
		for (int64_t l = 0; l < p->k; l++) {
			const GK_T ail = p->alpha * p->a[i * p->rs_a + l * p->cs_a];
			const GK_T *bl = p->b + l * p->rs_b;
			if (p->cs_b == 1) {
				p->kern->GK_AXPY(p->n, ail, bl, ci);
			} else {
				for (int64_t j = 0; j < p->n; j++)
					ci[j] += ail * bl[j * p->cs_b];
			}
		}
	}
}

/* Rung 3, "cpu.ikj": the loops reordered to i-k-j, one thread. */
gk_status GK_FN_IKJ(const GK_ARGS *p)
{
	GK_FN_IKJ_ROWS(p, 0, p->m);
	return GK_OK;
}

/* Rung 4, "cpu.ikj_omp": i-k-j with the rows of C shared among threads. */
gk_status GK_FN_IKJ_OMP(const GK_ARGS *p)
{
	const int64_t m = p->m;
	const int nt = p->threads;
#pragma omp parallel num_threads(nt) if (nt > 1 && m > 1)
	{
		const int64_t t = omp_get_thread_num(), nth = omp_get_num_threads();
		const int64_t i0 = m * t / nth, i1 = m * (t + 1) / nth;
		GK_FN_IKJ_ROWS(p, i0, i1);
	}
	return GK_OK;
}
