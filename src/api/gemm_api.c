/*
 * gemm_api.c - the edge of gk_sgemm / gk_dgemm: every argument is checked
 * here, once; the trivial cases are done here; the rest is put in canonical
 * form (gk_internal.h) and handed to the chosen algorithm.
 */
#include <stdint.h>
#include "gemm_entry.h"

/* Check that a rows x cols matrix with leading dimension ld fits in memory:
 * its last element's byte offset must fit in a ptrdiff_t. */
static int extent_ok(int64_t rows, int64_t cols, int64_t ld, int row_major, size_t esize)
{
	if (rows == 0 || cols == 0)
		return 1;
	int64_t outer = row_major ? rows : cols, inner = row_major ? cols : rows, span, bytes;
	if (__builtin_mul_overflow(outer - 1, ld, &span) ||
	    __builtin_add_overflow(span, inner, &span) ||
	    __builtin_mul_overflow(span, (int64_t)esize, &bytes) || bytes > PTRDIFF_MAX)
		return 0;
	return 1;
}

static gk_status check_ld(const char *fn, const char *name, int64_t ld, int64_t rows, int64_t cols,
                          int row_major)
{
	int64_t need = row_major ? cols : rows;
	if (need < 1)
		need = 1;
	GK_RETURN_IF(ld < need, GK_ERR_BAD_LD, "%s: %s = %lld < %lld", fn, name, (long long)ld,
	             (long long)need);
	return GK_OK;
}

/* Check every argument; on success fill *cn with the canonical problem and
 * set *read_ab to whether A and B are needed. */
static gk_status check_and_canon(const char *fn, gk_layout layout, gk_trans ta, gk_trans tb,
                                 int64_t m, int64_t n, int64_t k, int alpha_zero,
                                 const void *a, int64_t lda, const void *b, int64_t ldb,
                                 void *c, int64_t ldc, size_t esize, canon *cn, int *read_ab)
{
	GK_RETURN_IF(layout != GK_ROW_MAJOR && layout != GK_COL_MAJOR, GK_ERR_INVALID_VALUE,
	             "%s: layout = %d is not GK_ROW_MAJOR or GK_COL_MAJOR", fn, (int)layout);
	GK_RETURN_IF(ta != GK_NO_TRANS && ta != GK_TRANS && ta != GK_CONJ_TRANS, GK_ERR_INVALID_VALUE,
	             "%s: ta = %d is not a gk_trans", fn, (int)ta);
	GK_RETURN_IF(tb != GK_NO_TRANS && tb != GK_TRANS && tb != GK_CONJ_TRANS, GK_ERR_INVALID_VALUE,
	             "%s: tb = %d is not a gk_trans", fn, (int)tb);
	GK_RETURN_IF(m < 0, GK_ERR_NEGATIVE_SIZE, "%s: m = %lld < 0", fn, (long long)m);
	GK_RETURN_IF(n < 0, GK_ERR_NEGATIVE_SIZE, "%s: n = %lld < 0", fn, (long long)n);
	GK_RETURN_IF(k < 0, GK_ERR_NEGATIVE_SIZE, "%s: k = %lld < 0", fn, (long long)k);
	const int rm = layout == GK_ROW_MAJOR;
	/* A and B as stored: (ra x ca) and (rb x cb). */
	const int64_t ra = is_trans(ta) ? k : m, ca = is_trans(ta) ? m : k;
	const int64_t rb = is_trans(tb) ? n : k, cb = is_trans(tb) ? k : n;
	GK_FORWARD(check_ld(fn, "lda", lda, ra, ca, rm));
	GK_FORWARD(check_ld(fn, "ldb", ldb, rb, cb, rm));
	GK_FORWARD(check_ld(fn, "ldc", ldc, m, n, rm));

	*read_ab = m > 0 && n > 0 && k > 0 && !alpha_zero;
	if (m > 0 && n > 0) {
		GK_RETURN_IF(c == NULL, GK_ERR_NULL_POINTER, "%s: c is NULL", fn);
		GK_RETURN_IF(!extent_ok(m, n, ldc, rm, esize), GK_ERR_OVERFLOW,
		             "%s: C (%lld x %lld, ldc = %lld) overflows the address space", fn,
		             (long long)m, (long long)n, (long long)ldc);
	}
	if (*read_ab) {
		GK_RETURN_IF(a == NULL, GK_ERR_NULL_POINTER, "%s: a is NULL", fn);
		GK_RETURN_IF(b == NULL, GK_ERR_NULL_POINTER, "%s: b is NULL", fn);
		GK_RETURN_IF(!extent_ok(ra, ca, lda, rm, esize), GK_ERR_OVERFLOW,
		             "%s: A (%lld x %lld, lda = %lld) overflows the address space", fn,
		             (long long)ra, (long long)ca, (long long)lda);
		GK_RETURN_IF(!extent_ok(rb, cb, ldb, rm, esize), GK_ERR_OVERFLOW,
		             "%s: B (%lld x %lld, ldb = %lld) overflows the address space", fn,
		             (long long)rb, (long long)cb, (long long)ldb);
	}

	canon_form(rm, ta, tb, m, n, k, a, lda, b, ldb, c, ldc, cn);
	return GK_OK;
}

/* The algorithm a call runs with, or an error status. */
static gk_status choose_algo(const char *fn, const gk_context *ctx, int dtype_bits,
                             const canon *cn, const gk_algo **out)
{
	const gk_backend backend = ctx ? ctx->backend : GK_BACKEND_AUTO;
	const gk_algo *al = ctx ? ctx->algo : NULL;
	if (al == NULL) {
		al = gk_algo_auto(dtype_bits, cn->m, cn->n, cn->k, backend, ctx ? ctx->flags : 0u,
		                  gk_precision_effective(ctx));
		GK_RETURN_IF(backend == GK_BACKEND_CUDA && !gk_cuda_built(), GK_ERR_NO_GPU,
		             "%s: the CUDA backend was chosen, but gemmkit was built without CUDA", fn);
		GK_RETURN_IF(backend == GK_BACKEND_CUDA && !gk_cuda_available(), GK_ERR_NO_GPU,
		             "%s: the CUDA backend was chosen, but no CUDA device is present", fn);
		GK_RETURN_IF(al == NULL, GK_ERR_UNSUPPORTED,
		             "%s: no algorithm of the chosen backend handles this call", fn);
	}
	GK_RETURN_IF(backend != GK_BACKEND_AUTO && al->backend != backend, GK_ERR_UNSUPPORTED,
	             "%s: algorithm %s does not run on the chosen backend", fn, al->name);
	GK_RETURN_IF(!gk_algo_has_type(al, (unsigned)dtype_bits), GK_ERR_UNSUPPORTED, "%s: algorithm %s does not handle this data type", fn, al->name);
	GK_RETURN_IF(al->available != NULL && !al->available() && al->backend == GK_BACKEND_CUDA,
	             GK_ERR_NO_GPU, "%s: algorithm %s needs a CUDA device: %s", fn, al->name,
	             gk_cuda_built() ? "none is present" : "gemmkit was built without CUDA");
	GK_RETURN_IF(al->available != NULL && !al->available(), GK_ERR_UNSUPPORTED,
	             "%s: algorithm %s cannot run on this machine", fn, al->name);
	*out = al;
	return GK_OK;
}

/* How a host-pointer call on the CUDA backend runs, from the context. */
static gk_cuda_host_opts host_opts(const gk_context *ctx)
{
	gk_cuda_host_opts o = {-1, NULL, 0, 0, NULL, 0u, 0};
	if (ctx != NULL) {
		o.device = ctx->device;
		o.stream = ctx->stream;
		o.budget = ctx->device_budget;
		o.ndevices = ctx->ndevices;
		o.devices = ctx->devices;
		o.flags = ctx->flags;
		o.threads = ctx->threads;
	}
	return o;
}

/* The general path of gk_sgemm / gk_sgemm_ex (gemm_entry.h): every call
 * that the fast path does not take. */
gk_status gk_sgemm_general(const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb,
                           int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                           int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                           int64_t ldc)
{
	static const char fn[] = "gk_sgemm";
	canon cn;
	int read_ab;
	GK_FORWARD(check_and_canon(fn, layout, ta, tb, m, n, k, alpha == 0.0f, a, lda, b, ldb, c, ldc,
	                           sizeof(float), &cn, &read_ab));
	if (m == 0 || n == 0)
		return GK_OK;
	if (!read_ab) {
		gk_scale_rows_f32(cn.m, cn.n, beta, cn.c, cn.rs_c);
		return GK_OK;
	}
	const gk_algo *al;
	GK_FORWARD(choose_algo(fn, ctx, GK_DTYPE_F32, &cn, &al));
#if defined(GK_HAVE_CUDA)
	/* HXV: cuda.hxv streams k through the GPU with a driver of its own
	 * (src/cuda/hxv/host.cu, docs/CUDA_HXV.md). */
	if (al->backend == GK_BACKEND_CUDA && al->dev_sgemm == gk_cuda_sgemm_hxv)
		return gk_cuda_sgemm_hxv_host(ctx ? ctx->device : -1, ctx ? ctx->stream : NULL, cn.m,
		                              cn.n, cn.k, alpha, cn.a, cn.rs_a, cn.cs_a, cn.b, cn.rs_b,
		                              cn.cs_b, beta, cn.c, cn.rs_c);
#endif
	if (al->backend == GK_BACKEND_CUDA)
	{
		const gk_cuda_host_opts ho = host_opts(ctx);
		return gk_cuda_sgemm_host_run(al->dev_sgemm, &ho, cn.m, cn.n, cn.k, alpha, cn.a,
		                              cn.rs_a, cn.cs_a, cn.b, cn.rs_b, cn.cs_b, beta, cn.c,
		                              cn.rs_c);
	}
	const gk_sgemm_args p = {
		cn.m, cn.n, cn.k, alpha, beta, cn.a, cn.rs_a, cn.cs_a, cn.b, cn.rs_b, cn.cs_b,
		cn.c, cn.rs_c, gk_resolve_threads(ctx ? ctx->threads : 0), ctx ? ctx->flags : 0u,
		gk_kernels_active(),
	};
	return al->sgemm(&p);
}

gk_status gk_sgemm_ex(const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb,
                      int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
                      const float *b, int64_t ldb, float beta, float *c, int64_t ldc)
{
	return gk_sgemm_entry(ctx, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* The general path of gk_dgemm / gk_dgemm_ex (gemm_entry.h): every call
 * that the fast path does not take. */
gk_status gk_dgemm_general(const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb,
                           int64_t m, int64_t n, int64_t k, double alpha, const double *a,
                           int64_t lda, const double *b, int64_t ldb, double beta, double *c,
                           int64_t ldc)
{
	static const char fn[] = "gk_dgemm";
	canon cn;
	int read_ab;
	GK_FORWARD(check_and_canon(fn, layout, ta, tb, m, n, k, alpha == 0.0, a, lda, b, ldb, c, ldc,
	                           sizeof(double), &cn, &read_ab));
	if (m == 0 || n == 0)
		return GK_OK;
	if (!read_ab) {
		gk_scale_rows_f64(cn.m, cn.n, beta, cn.c, cn.rs_c);
		return GK_OK;
	}
	const gk_algo *al;
	GK_FORWARD(choose_algo(fn, ctx, GK_DTYPE_F64, &cn, &al));
#if defined(GK_HAVE_CUDA)
	/* HXV: cuda.hxv streams k through the GPU with a driver of its own
	 * (src/cuda/hxv/host.cu, docs/CUDA_HXV.md). */
	if (al->backend == GK_BACKEND_CUDA && al->dev_dgemm == gk_cuda_dgemm_hxv)
		return gk_cuda_dgemm_hxv_host(ctx ? ctx->device : -1, ctx ? ctx->stream : NULL, cn.m,
		                              cn.n, cn.k, alpha, cn.a, cn.rs_a, cn.cs_a, cn.b, cn.rs_b,
		                              cn.cs_b, beta, cn.c, cn.rs_c);
#endif
	if (al->backend == GK_BACKEND_CUDA)
	{
		const gk_cuda_host_opts ho = host_opts(ctx);
		return gk_cuda_dgemm_host_run(al->dev_dgemm, &ho, cn.m, cn.n, cn.k, alpha, cn.a,
		                              cn.rs_a, cn.cs_a, cn.b, cn.rs_b, cn.cs_b, beta, cn.c,
		                              cn.rs_c);
	}
	const gk_dgemm_args p = {
		cn.m, cn.n, cn.k, alpha, beta, cn.a, cn.rs_a, cn.cs_a, cn.b, cn.rs_b, cn.cs_b,
		cn.c, cn.rs_c, gk_resolve_threads(ctx ? ctx->threads : 0), ctx ? ctx->flags : 0u,
		gk_kernels_active(),
	};
	return al->dgemm(&p);
}

gk_status gk_dgemm_ex(const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb,
                      int64_t m, int64_t n, int64_t k, double alpha, const double *a, int64_t lda,
                      const double *b, int64_t ldb, double beta, double *c, int64_t ldc)
{
	return gk_dgemm_entry(ctx, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

gk_status gk_sgemm(gk_layout layout, gk_trans ta, gk_trans tb, int64_t m, int64_t n, int64_t k,
                   float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                   float beta, float *c, int64_t ldc)
{
	return gk_sgemm_entry(NULL, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

gk_status gk_dgemm(gk_layout layout, gk_trans ta, gk_trans tb, int64_t m, int64_t n, int64_t k,
                   double alpha, const double *a, int64_t lda, const double *b, int64_t ldb,
                   double beta, double *c, int64_t ldc)
{
	return gk_dgemm_entry(NULL, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/*
 * The device-pointer calls: the same checks and canonical form as the host
 * calls (nothing is dereferenced on the host), a cuda.* algorithm, and the
 * CUDA device driver, which does the trivial cases on the device too.
 */
static gk_status choose_device_algo(const char *fn, const gk_context *ctx, unsigned dtype,
                                    const canon *cn, const gk_algo **out)
{
	GK_RETURN_IF(ctx != NULL && ctx->backend == GK_BACKEND_CPU, GK_ERR_UNSUPPORTED,
	             "%s: the context's backend is the CPU; device pointers need the CUDA backend", fn);
	const gk_algo *al = ctx ? ctx->algo : NULL;
	if (al == NULL)
		al = gk_algo_auto((int)dtype, cn->m, cn->n, cn->k, GK_BACKEND_CUDA, ctx ? ctx->flags : 0u,
		                  gk_precision_effective(ctx));
	GK_RETURN_IF(!gk_cuda_built(), GK_ERR_NO_GPU, "%s: gemmkit was built without CUDA", fn);
	GK_RETURN_IF(al != NULL && al->backend != GK_BACKEND_CUDA, GK_ERR_UNSUPPORTED,
	             "%s: algorithm %s runs on the CPU; device pointers need a cuda.* algorithm", fn,
	             al->name);
	GK_RETURN_IF(!gk_cuda_available(), GK_ERR_NO_GPU, "%s: no CUDA device is present", fn);
	GK_RETURN_IF(al == NULL, GK_ERR_UNSUPPORTED, "%s: no CUDA algorithm handles this call", fn);
	GK_RETURN_IF(!gk_algo_has_type(al, dtype), GK_ERR_UNSUPPORTED,
	             "%s: algorithm %s does not handle this data type", fn, al->name);
	*out = al;
	return GK_OK;
}

gk_status gk_sgemm_device(const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb,
                          int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                          int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                          int64_t ldc)
{
	static const char fn[] = "gk_sgemm_device";
	canon cn;
	int read_ab;
	const gk_algo *al;
	gk_clear_error();
	GK_FORWARD(check_and_canon(fn, layout, ta, tb, m, n, k, alpha == 0.0f, a, lda, b, ldb, c, ldc,
	                           sizeof(float), &cn, &read_ab));
	if (m == 0 || n == 0)
		return GK_OK;
	GK_FORWARD(choose_device_algo(fn, ctx, GK_DTYPE_F32, &cn, &al));
	return gk_cuda_sgemm_device_run(al->dev_sgemm, ctx ? ctx->device : -1, ctx ? ctx->stream : NULL,
	                                cn.m, cn.n, read_ab ? cn.k : 0, alpha, cn.a, cn.rs_a, cn.cs_a,
	                                cn.b, cn.rs_b, cn.cs_b, beta, cn.c, cn.rs_c);
}

gk_status gk_dgemm_device(const gk_context *ctx, gk_layout layout, gk_trans ta, gk_trans tb,
                          int64_t m, int64_t n, int64_t k, double alpha, const double *a,
                          int64_t lda, const double *b, int64_t ldb, double beta, double *c,
                          int64_t ldc)
{
	static const char fn[] = "gk_dgemm_device";
	canon cn;
	int read_ab;
	const gk_algo *al;
	gk_clear_error();
	GK_FORWARD(check_and_canon(fn, layout, ta, tb, m, n, k, alpha == 0.0, a, lda, b, ldb, c, ldc,
	                           sizeof(double), &cn, &read_ab));
	if (m == 0 || n == 0)
		return GK_OK;
	GK_FORWARD(choose_device_algo(fn, ctx, GK_DTYPE_F64, &cn, &al));
	return gk_cuda_dgemm_device_run(al->dev_dgemm, ctx ? ctx->device : -1, ctx ? ctx->stream : NULL,
	                                cn.m, cn.n, read_ab ? cn.k : 0, alpha, cn.a, cn.rs_a, cn.cs_a,
	                                cn.b, cn.rs_b, cn.cs_b, beta, cn.c, cn.rs_c);
}
