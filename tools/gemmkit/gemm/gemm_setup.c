/*
 * gemm_setup.c - the product `gemmkit gemm` computes: its sizes from the
 * command line, the input files or random draws; A, B and C0 from the files
 * (converted to the call's dtype and layout) or from a seeded random stream;
 * C allocated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli_util.h"
#include "gemm_cmd.h"

/* One size (0 = M, 1 = N, 2 = K) as the files and the command line give
 * it; they must agree. 0 when neither gives it. */
static int settle_size(const gemm_opts *o, const npy_matrix in[3], int which, int64_t *out)
{
	static const char *const names[3] = {"M", "N", "K"};
	int64_t v = o->nsizes ? o->size[which] : 0;
	const char *from = o->nsizes ? "the command line" : NULL;
	for (int x = 0; x < 3; x++) {
		if (o->in[x] == NULL)
			continue;
		int64_t s = 0;
		if (x == 0 && which != 1) /* A: op(A) is M x K */
			s = (which == 0) == (o->ta == GK_NO_TRANS) ? in[0].rows : in[0].cols;
		else if (x == 1 && which != 0) /* B: op(B) is K x N */
			s = (which == 2) == (o->tb == GK_NO_TRANS) ? in[1].rows : in[1].cols;
		else if (x == 2 && which != 2) /* C is M x N */
			s = which == 0 ? in[2].rows : in[2].cols;
		if (s == 0)
			continue;
		if (v != 0 && s != v) {
			cli_error(GEMM_CMD, "%s = %lld from %s, but %s (shape (%lld, %lld)) gives %s = %lld",
			          names[which], (long long)v, from, o->in[x], (long long)in[x].rows,
			          (long long)in[x].cols, names[which], (long long)s);
			return 2;
		}
		v = s;
		from = o->in[x];
	}
	*out = v;
	return 0;
}

static int64_t ld_of(gk_layout layout, int64_t rows, int64_t cols)
{
	int64_t ld = layout == GK_ROW_MAJOR ? cols : rows;
	return ld > 0 ? ld : 1;
}

static void *alloc_elems(int64_t rows, int64_t cols, npy_dtype t, const char *what)
{
	size_t n, bytes;
	void *p = NULL;
	if (__builtin_mul_overflow((size_t)rows, (size_t)cols, &n) ||
	    __builtin_mul_overflow(n, (size_t)t, &bytes)) {
		cli_error(GEMM_CMD, "%s of %lld x %lld elements is too large", what, (long long)rows,
		          (long long)cols);
		return NULL;
	}
	if (posix_memalign(&p, 64, bytes > 0 ? bytes : 64) != 0) {
		cli_error(GEMM_CMD, "cannot allocate %zu bytes for %s", bytes, what);
		return NULL;
	}
	return p;
}

/* A rows x cols matrix: taken from the file in[x] when there is one, else
 * drawn from the stream. */
static void *input_or_random(npy_matrix *in, const char *file, int64_t rows, int64_t cols,
                             gemm_problem *p, const char *what, cli_rng *rng)
{
	if (file != NULL) {
		void *data = in->data;
		in->data = NULL;
		return data;
	}
	void *x = alloc_elems(rows, cols, p->dtype, what);
	if (x != NULL) {
		const size_t count = (size_t)rows * (size_t)cols;
		if (p->dtype == NPY_F64)
			cli_fill_f64(x, count, rng);
		else
			cli_fill_f32(x, count, rng);
		p->random_data = 1;
	}
	return x;
}

int gemm_setup(gemm_opts *o, npy_matrix in[3], gemm_problem *p)
{
	/* The sizes: command line and files must agree; what neither gives is
	 * drawn at random. The draws happen always, so one seed gives the same
	 * matrices whichever sizes were given. */
	if (!o->seed_set) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		o->seed = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^
		          ((uint64_t)getpid() << 32);
	}
	cli_rng rng;
	cli_rng_init(&rng, o->seed);
	int64_t sz[3];
	for (int w = 0; w < 3; w++) {
		double u = (cli_uniform(&rng) + 1) / 2;
		int64_t drawn = GEMM_RAND_MIN_SIZE +
		                (int64_t)(u * (GEMM_RAND_MAX_SIZE - GEMM_RAND_MIN_SIZE + 1));
		int rc = settle_size(o, in, w, &sz[w]);
		if (rc)
			return rc;
		if (sz[w] == 0) {
			sz[w] = drawn;
			p->random_sizes = 1;
		}
	}
	p->dtype = o->dtype;
	p->layout = o->layout;
	p->ta = o->ta;
	p->tb = o->tb;
	p->m = sz[0];
	p->n = sz[1];
	p->k = sz[2];
	/* The reference uses the alpha and beta the library was given. */
	p->alpha = o->dtype == NPY_F32 ? (double)(float)o->alpha : o->alpha;
	p->beta = o->dtype == NPY_F32 ? (double)(float)o->beta : o->beta;
	const int64_t ar = p->ta == GK_NO_TRANS ? p->m : p->k, ac = p->ta == GK_NO_TRANS ? p->k : p->m;
	const int64_t br = p->tb == GK_NO_TRANS ? p->k : p->n, bc = p->tb == GK_NO_TRANS ? p->n : p->k;
	p->lda = ld_of(p->layout, ar, ac);
	p->ldb = ld_of(p->layout, br, bc);
	p->ldc = ld_of(p->layout, p->m, p->n);

	/* Inputs of another dtype or order are converted to the call's. */
	for (int x = 0; x < 3; x++) {
		if (!o->in[x])
			continue;
		if (x == 2 && p->beta == 0) {
			fprintf(stderr, "gemmkit gemm: note: beta = 0, so %s is not used\n", o->in[x]);
			continue;
		}
		if (in[x].dtype != o->dtype)
			fprintf(stderr, "gemmkit gemm: note: %s holds %s; converted to %s%s\n", o->in[x],
			        npy_dtype_name(in[x].dtype), npy_dtype_name(o->dtype),
			        o->dtype == NPY_F32 ? " (use --dtype d to keep float64)" : "");
		char err[256];
		if (npy_convert(&in[x], o->dtype, p->layout == GK_COL_MAJOR, err, sizeof err) != 0) {
			cli_error(GEMM_CMD, "%s: %s", o->in[x], err);
			return 1;
		}
	}

	/* What is still to be allocated (matrices from files are in memory
	 * already), before any of it: a product too large for this machine's
	 * memory is refused here, not killed halfway through filling it. */
	{
		const double mn = (double)p->m * (double)p->n;
		const double fill = (o->in[0] ? 0.0 : (double)ar * (double)ac) +
		                    (o->in[1] ? 0.0 : (double)br * (double)bc) +
		                    (p->beta != 0 && !o->in[2] ? mn : 0.0);
		char why[160];
		if (cli_mem_fits((fill + mn) * (double)p->dtype, "A, B and C", why, sizeof why) != 0) {
			cli_error(GEMM_CMD, "%lld x %lld x %lld: %s", (long long)p->m, (long long)p->n,
			          (long long)p->k, why);
			return 1;
		}
		if (fill >= GEMM_NOTE_ELEMS)
			fprintf(stderr, "gemmkit gemm: filling %.3g million random elements...\n", fill / 1e6);
	}
	/* A, B and C0 in that order from the one stream, files taking their
	 * place. */
	p->a = input_or_random(&in[0], o->in[0], ar, ac, p, "A", &rng);
	if (p->a != NULL)
		p->b = input_or_random(&in[1], o->in[1], br, bc, p, "B", &rng);
	if (p->b != NULL)
		p->c = alloc_elems(p->m, p->n, p->dtype, "C");
	if (p->c != NULL && p->beta != 0)
		p->c0 = input_or_random(&in[2], o->in[2], p->m, p->n, p, "C0", &rng);
	if (!p->a || !p->b || !p->c || (p->beta != 0 && !p->c0))
		return 1;
	return 0;
}

void gemm_problem_free(gemm_problem *p)
{
	free(p->a);
	free(p->b);
	free(p->c);
	free(p->c0);
	memset(p, 0, sizeof *p);
}
