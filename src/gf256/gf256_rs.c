/*
 * gf256_rs.c - systematic Reed-Solomon erasure codes over GF(2^8).
 *
 * The (k + m) x k coding matrix has the identity on top, so the first k
 * shards are the data; parity row i is row k + i. Encoding is the GF(2^8)
 * product of the m parity rows with the k data shards. Any k intact shards
 * determine the data when every k x k submatrix of the coding matrix is
 * invertible (the code is MDS): reconstruction inverts the rows of the k
 * shards used, and one product rebuilds every missing shard at once.
 *
 * Both matrices are those of ISA-L, so parity is byte-identical to
 * ec_encode_data's with the same matrix:
 * - GK_RS_CAUCHY: gf_gen_cauchy1_matrix, row i >= k, column j: 1 / (i ^ j).
 *   With x_i = i and y_j = j distinct, every square submatrix of a Cauchy
 *   matrix is invertible, so the code is MDS for every k + m <= 256.
 * - GK_RS_VANDERMONDE_ISAL: gf_gen_rs_matrix, parity row i, column j:
 *   2^(i * j). Not MDS in general (generalized Vandermonde minors vanish);
 *   vandermonde_is_mds() lists the (k, m) for which it is.
 *
 * Every operation has an _ex form taking a gk_context (its thread count; its
 * backend: encode and reconstruct run on the GPU with GK_BACKEND_CUDA, through
 * the pipeline of src/cuda/gf256/gf_pipeline.cu, verify and update refuse
 * it); the plain forms are those with no context.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "gf256_internal.h"
#include "gk_context.h"
#include "../cuda/gf256/gf256_cuda.h"

/*
 * The decoding of one erasure pattern: the shards read and those rebuilt,
 * the rows that rebuild them (the inverse of the rows read, times the
 * coding matrix), and those rows expanded for the kernels. A gk_rs keeps
 * the last one: rebuilding a lost disk reconstructs stripe after stripe
 * with the same pattern, and each call after the first skips the inversion
 * and the expansion (a few hundred nanoseconds for 4+2, a microsecond for
 * 10+4: 5-10% of a call on 64 KiB shards).
 */
typedef struct rs_decoder {
	int nmiss;
	uint8_t src_idx[256], miss_idx[256]; /* k shards read, nmiss rebuilt */
	uint8_t *a;                          /* nmiss x k */
	gk_gf256_plan plan;                  /* a expanded; coef NULL until the CPU needs it */
} rs_decoder;

struct gk_rs {
	int k, m;
	gk_rs_matrix kind;
	uint8_t *matrix;    /* (k + m) x k, row-major */
	gk_gf256_plan enc;  /* the m parity rows, expanded for the kernels */
	/* The last decoder, or NULL. A call takes it out (atomic exchange) and
	 * puts its own back when the slot is empty, so each decoder is used by
	 * one thread at a time and a gk_rs stays shareable between threads. */
	_Atomic(rs_decoder *) dec;
};

/* Bytes of parity one thread of gk_rs_verify recomputes at a time. */
#define GK_RS_VERIFY_CHUNK (32 * 1024)

/*
 * Whether every square submatrix of the m x k parity part of ISA-L's
 * Vandermonde matrix is invertible, found by exhaustive search over all
 * square submatrices (tests/test_rs.c checks the boundary cases again):
 * always for k <= 3 or m <= 3; for m = 4 up to k = 21 (columns 0, 10, 21 of
 * parity rows 0, 1, 3 are singular); for k = 4 up to m = 21; and k = m = 5
 * (k = 6 or m = 6 already has a singular 3 x 3 minor). Nothing else.
 */
static int vandermonde_is_mds(int k, int m)
{
	return k <= 3 || m <= 3 || (m == 4 && k <= 21) || (k == 4 && m <= 21) ||
	       (k == 5 && m == 5);
}

gk_status gk_rs_create(gk_rs **out, int k, int m, gk_rs_matrix kind)
{
	static const char fn[] = "gk_rs_create";
	GK_RETURN_IF(out == NULL, GK_ERR_NULL_POINTER, "%s: out is NULL", fn);
	*out = NULL;
	GK_RETURN_IF(k < 1 || m < 1 || k > 256 - m, GK_ERR_INVALID_VALUE,
	             "%s: k = %d, m = %d: need k >= 1, m >= 1, k + m <= 256", fn, k, m);
	GK_RETURN_IF(kind != GK_RS_CAUCHY && kind != GK_RS_VANDERMONDE_ISAL, GK_ERR_INVALID_VALUE,
	             "%s: kind = %d is not a gk_rs_matrix", fn, (int)kind);
	GK_RETURN_IF(kind == GK_RS_VANDERMONDE_ISAL && !vandermonde_is_mds(k, m),
	             GK_ERR_UNSUPPORTED,
	             "%s: the ISA-L Vandermonde matrix is not MDS for k = %d, m = %d "
	             "(use GK_RS_CAUCHY)", fn, k, m);

	gk_rs *rs = calloc(1, sizeof *rs);
	uint8_t *mat = malloc((size_t)(k + m) * (size_t)k);
	if (rs == NULL || mat == NULL) {
		free(rs);
		free(mat);
		return gk_set_error(GK_ERR_NO_MEMORY, "%s: no memory", fn);
	}
	rs->k = k;
	rs->m = m;
	rs->kind = kind;
	rs->matrix = mat;
	memset(mat, 0, (size_t)(k + m) * (size_t)k);
	for (int i = 0; i < k; i++)
		mat[i * k + i] = 1;
	if (kind == GK_RS_CAUCHY) {
		for (int i = k; i < k + m; i++)
			for (int j = 0; j < k; j++)
				mat[i * k + j] = gk_gf256_inv((uint8_t)(i ^ j));
	} else {
		uint8_t gen = 1; /* 2^(i - k) for parity row i */
		for (int i = k; i < k + m; i++) {
			uint8_t p = 1;
			for (int j = 0; j < k; j++) {
				mat[i * k + j] = p;
				p = gk_gf256_mul(p, gen);
			}
			gen = gk_gf256_mul(gen, 2);
		}
	}
	gk_status st = gk_gf256_plan_init(&rs->enc, NULL, -1, m, k, mat + (size_t)k * k, k);
	if (st != GK_OK) {
		free(mat);
		free(rs);
		return st;
	}
	*out = rs;
	return GK_OK;
}

static void rs_decoder_free(rs_decoder *d)
{
	if (d == NULL)
		return;
	gk_gf256_plan_free(&d->plan);
	free(d->a);
	free(d);
}

void gk_rs_destroy(gk_rs *rs)
{
	if (rs == NULL)
		return;
	rs_decoder_free(atomic_load(&rs->dec));
	gk_gf256_plan_free(&rs->enc);
	free(rs->matrix);
	free(rs);
}

gk_status gk_rs_matrix_get(const gk_rs *rs, uint8_t *out)
{
	GK_RETURN_IF(rs == NULL, GK_ERR_NULL_POINTER, "gk_rs_matrix_get: rs is NULL");
	GK_RETURN_IF(out == NULL, GK_ERR_NULL_POINTER, "gk_rs_matrix_get: out is NULL");
	memcpy(out, rs->matrix, (size_t)(rs->k + rs->m) * (size_t)rs->k);
	return GK_OK;
}

/* rs, len and the n pointers of v must be usable. */
static gk_status check_ptrs(const char *fn, const char *name, const void *const *v, int n)
{
	GK_RETURN_IF(v == NULL, GK_ERR_NULL_POINTER, "%s: %s is NULL", fn, name);
	for (int i = 0; i < n; i++)
		GK_RETURN_IF(v[i] == NULL, GK_ERR_NULL_POINTER, "%s: %s[%d] is NULL", fn, name, i);
	return GK_OK;
}

static gk_status check_rs_len(const char *fn, const gk_rs *rs, int64_t len)
{
	GK_RETURN_IF(rs == NULL, GK_ERR_NULL_POINTER, "%s: rs is NULL", fn);
	GK_RETURN_IF(len < 0, GK_ERR_NEGATIVE_SIZE, "%s: len = %lld < 0", fn, (long long)len);
	return GK_OK;
}

/*
 * The thread count of a call made with ctx (NULL: the default count), and
 * whether it runs on the GPU (*cuda: a context with GK_BACKEND_CUDA, taken
 * by encode and reconstruct; the other operations refuse it).
 */
static gk_status rs_threads(const char *fn, const gk_context *ctx, int *threads, int *cuda)
{
	*threads = 1;
	const int want = ctx != NULL && ctx->backend == GK_BACKEND_CUDA;
	GK_RETURN_IF(want && cuda == NULL, GK_ERR_UNSUPPORTED,
	             "%s: runs on the CPU only; use a context with GK_BACKEND_CPU or "
	             "GK_BACKEND_AUTO", fn);
	if (cuda != NULL)
		*cuda = want;
	*threads = gk_resolve_threads(ctx != NULL ? ctx->threads : 0);
	return GK_OK;
}

static gk_status rs_encode(const char *fn, const gk_context *ctx, const gk_rs *rs, int64_t len,
                           const uint8_t *const *data, uint8_t *const *parity)
{
	int threads, cuda;
	GK_FORWARD(check_rs_len(fn, rs, len));
	GK_FORWARD(rs_threads(fn, ctx, &threads, &cuda));
	GK_FORWARD(check_ptrs(fn, "data", (const void *const *)data, rs->k));
	GK_FORWARD(check_ptrs(fn, "parity", (const void *const *)parity, rs->m));
	if (len > 0 && cuda)
		return gk_gf256_cuda_host_run(ctx->device, threads, rs->m, len, rs->k,
		                              rs->matrix + (size_t)rs->k * rs->k, rs->k, data, parity);
	if (len > 0)
		gk_gf256_plan_run(&rs->enc, len, data, parity, 0, threads);
	return GK_OK;
}

gk_status gk_rs_encode(const gk_rs *rs, int64_t len, const uint8_t *const *data,
                       uint8_t *const *parity)
{
	return rs_encode("gk_rs_encode", NULL, rs, len, data, parity);
}

gk_status gk_rs_encode_ex(const gk_context *ctx, const gk_rs *rs, int64_t len,
                          const uint8_t *const *data, uint8_t *const *parity)
{
	return rs_encode("gk_rs_encode_ex", ctx, rs, len, data, parity);
}

/* Whether dec rebuilds shards miss_idx[0..nmiss) from src_idx[0..k). */
static int rs_decoder_fits(const rs_decoder *dec, int k, int nmiss, const int *src_idx,
                           const int *miss_idx)
{
	if (dec->nmiss != nmiss)
		return 0;
	for (int i = 0; i < k; i++)
		if (dec->src_idx[i] != src_idx[i])
			return 0;
	for (int i = 0; i < nmiss; i++)
		if (dec->miss_idx[i] != miss_idx[i])
			return 0;
	return 1;
}

/* The decoder that rebuilds shards miss_idx[0..nmiss) from the k shards
 * src_idx[0..k): GK_ERR_SINGULAR when their rows are (a Vandermonde code
 * that is not MDS), GK_ERR_NO_MEMORY. */
static gk_status rs_decoder_make(const char *fn, const gk_rs *rs, int nmiss, const int *src_idx,
                                 const int *miss_idx, rs_decoder **out)
{
	const int k = rs->k;
	/* D = S^-1, S the rows of the shards used: data = D * sources. A missing
	 * data shard t is row t of D; a missing parity shard t is M[t] * D. */
	const size_t kk = (size_t)k * (size_t)k;
	uint8_t *s = malloc(kk), *d = malloc(kk);
	rs_decoder *dec = calloc(1, sizeof *dec);
	uint8_t *a = malloc((size_t)nmiss * (size_t)k);
	gk_status st = GK_OK;
	if (s == NULL || d == NULL || dec == NULL || a == NULL) {
		st = gk_set_error(GK_ERR_NO_MEMORY, "%s: no memory", fn);
		goto done;
	}
	for (int i = 0; i < k; i++)
		memcpy(s + (size_t)i * k, rs->matrix + (size_t)src_idx[i] * k, (size_t)k);
	st = gk_gf256_invert_matrix(k, s, d);
	if (st != GK_OK) {
		if (st == GK_ERR_SINGULAR)
			gk_set_error(st, "%s: the rows of the shards present are singular", fn);
		goto done;
	}
	for (int r = 0; r < nmiss; r++) {
		const int t = miss_idx[r];
		uint8_t *row = a + (size_t)r * k;
		if (t < k) {
			memcpy(row, d + (size_t)t * k, (size_t)k);
			continue;
		}
		const uint8_t *mt = rs->matrix + (size_t)t * k;
		for (int j = 0; j < k; j++) {
			uint8_t v = 0;
			for (int l = 0; l < k; l++)
				v ^= gk_gf256_mul(mt[l], d[(size_t)l * k + j]);
			row[j] = v;
		}
	}
	dec->nmiss = nmiss;
	for (int i = 0; i < k; i++)
		dec->src_idx[i] = (uint8_t)src_idx[i];
	for (int i = 0; i < nmiss; i++)
		dec->miss_idx[i] = (uint8_t)miss_idx[i];
	dec->a = a;
	*out = dec;
	dec = NULL;
	a = NULL;
done:
	free(s);
	free(d);
	free(a);
	free(dec);
	return st;
}

static gk_status rs_reconstruct(const char *fn, const gk_context *ctx, const gk_rs *rs,
                                int64_t len, uint8_t *const *shards, const uint8_t *present,
                                int data_only)
{
	int threads, cuda;
	GK_FORWARD(check_rs_len(fn, rs, len));
	GK_FORWARD(rs_threads(fn, ctx, &threads, &cuda));
	GK_RETURN_IF(shards == NULL, GK_ERR_NULL_POINTER, "%s: shards is NULL", fn);
	GK_RETURN_IF(present == NULL, GK_ERR_NULL_POINTER, "%s: present is NULL", fn);
	const int k = rs->k, n = rs->k + rs->m;
	int src_idx[256], miss_idx[256], nsrc = 0, nmiss = 0, npresent = 0;
	for (int i = 0; i < n; i++) {
		if (present[i]) {
			if (nsrc < k)
				src_idx[nsrc++] = i;
			npresent++;
		} else if (i < k || !data_only) {
			miss_idx[nmiss++] = i;
		}
	}
	GK_RETURN_IF(npresent < k, GK_ERR_SINGULAR,
	             "%s: %d shards present, %d needed", fn, npresent, k);
	if (nmiss == 0)
		return GK_OK;
	for (int i = 0; i < nsrc; i++)
		GK_RETURN_IF(shards[src_idx[i]] == NULL, GK_ERR_NULL_POINTER,
		             "%s: shards[%d] is NULL", fn, src_idx[i]);
	for (int i = 0; i < nmiss; i++)
		GK_RETURN_IF(shards[miss_idx[i]] == NULL, GK_ERR_NULL_POINTER,
		             "%s: shards[%d] is NULL", fn, miss_idx[i]);

	/* The last call's decoder when the pattern is the same, else a new one. */
	gk_rs *keep = (gk_rs *)rs; /* only its decoder slot changes */
	rs_decoder *dec = atomic_exchange_explicit(&keep->dec, NULL, memory_order_acquire);
	if (dec != NULL && !rs_decoder_fits(dec, k, nmiss, src_idx, miss_idx)) {
		rs_decoder_free(dec);
		dec = NULL;
	}
	if (dec == NULL)
		GK_FORWARD(rs_decoder_make(fn, rs, nmiss, src_idx, miss_idx, &dec));
	gk_status st = GK_OK;
	if (len > 0) {
		const uint8_t *src[256];
		uint8_t *dst[256];
		for (int i = 0; i < k; i++)
			src[i] = shards[src_idx[i]];
		for (int i = 0; i < nmiss; i++)
			dst[i] = shards[miss_idx[i]];
		if (cuda) {
			st = gk_gf256_cuda_host_run(ctx->device, threads, nmiss, len, k, dec->a, k, src,
			                            dst);
		} else {
			if (dec->plan.coef == NULL)
				st = gk_gf256_plan_init(&dec->plan, NULL, -1, nmiss, k, dec->a, k);
			if (st == GK_OK)
				gk_gf256_plan_run(&dec->plan, len, src, dst, 0, threads);
		}
	}
	rs_decoder *none = NULL;
	if (!atomic_compare_exchange_strong_explicit(&keep->dec, &none, dec, memory_order_release,
	                                             memory_order_relaxed))
		rs_decoder_free(dec); /* another call put its decoder back first */
	return st;
}

gk_status gk_rs_reconstruct(const gk_rs *rs, int64_t len, uint8_t *const *shards,
                            const uint8_t *present, int data_only)
{
	return rs_reconstruct("gk_rs_reconstruct", NULL, rs, len, shards, present, data_only);
}

gk_status gk_rs_reconstruct_ex(const gk_context *ctx, const gk_rs *rs, int64_t len,
                               uint8_t *const *shards, const uint8_t *present, int data_only)
{
	return rs_reconstruct("gk_rs_reconstruct_ex", ctx, rs, len, shards, present, data_only);
}

static gk_status rs_verify(const char *fn, const gk_context *ctx, const gk_rs *rs, int64_t len,
                           const uint8_t *const *shards, int *ok)
{
	int threads;
	if (ok != NULL)
		*ok = 0;
	GK_FORWARD(check_rs_len(fn, rs, len));
	GK_FORWARD(rs_threads(fn, ctx, &threads, NULL));
	GK_RETURN_IF(ok == NULL, GK_ERR_NULL_POINTER, "%s: ok is NULL", fn);
	GK_FORWARD(check_ptrs(fn, "shards", (const void *const *)shards, rs->k + rs->m));
	const int k = rs->k, m = rs->m;
	const int64_t nchunks = (len + GK_RS_VERIFY_CHUNK - 1) / GK_RS_VERIFY_CHUNK;
	const int t = gk_gf256_threads_for(m, k, len, threads);
	uint8_t *scratch = gk_aligned_alloc((size_t)t * (size_t)m, GK_RS_VERIFY_CHUNK);
	GK_RETURN_IF(scratch == NULL, GK_ERR_NO_MEMORY, "%s: no memory", fn);
	int bad = 0;
#pragma omp parallel num_threads(t) reduction(| : bad)
	{
		const uint8_t *src[256];
		uint8_t *dst[256];
		uint8_t *mine = scratch + (size_t)omp_get_thread_num() * (size_t)m * GK_RS_VERIFY_CHUNK;
		for (int r = 0; r < m; r++)
			dst[r] = mine + (size_t)r * GK_RS_VERIFY_CHUNK;
#pragma omp for schedule(static)
		for (int64_t c = 0; c < nchunks; c++) {
			const int64_t off = c * GK_RS_VERIFY_CHUNK;
			const int64_t w = len - off < GK_RS_VERIFY_CHUNK ? len - off : GK_RS_VERIFY_CHUNK;
			if (bad)
				continue;
			for (int j = 0; j < k; j++)
				src[j] = shards[j] + off;
			gk_gf256_plan_range(&rs->enc, src, dst, 0, w, 0);
			for (int r = 0; r < m && !bad; r++)
				bad = memcmp(dst[r], shards[k + r] + off, (size_t)w) != 0;
		}
	}
	gk_aligned_free(scratch);
	*ok = !bad;
	return GK_OK;
}

gk_status gk_rs_verify(const gk_rs *rs, int64_t len, const uint8_t *const *shards, int *ok)
{
	return rs_verify("gk_rs_verify", NULL, rs, len, shards, ok);
}

gk_status gk_rs_verify_ex(const gk_context *ctx, const gk_rs *rs, int64_t len,
                          const uint8_t *const *shards, int *ok)
{
	return rs_verify("gk_rs_verify_ex", ctx, rs, len, shards, ok);
}

static gk_status rs_update(const char *fn, const gk_context *ctx, const gk_rs *rs, int64_t len,
                           int index, const uint8_t *old_data, const uint8_t *new_data,
                           uint8_t *const *parity)
{
	int threads;
	GK_FORWARD(check_rs_len(fn, rs, len));
	GK_FORWARD(rs_threads(fn, ctx, &threads, NULL));
	GK_RETURN_IF(index < 0 || index >= rs->k, GK_ERR_INVALID_VALUE,
	             "%s: index = %d is not in [0, %d)", fn, index, rs->k);
	GK_RETURN_IF(old_data == NULL, GK_ERR_NULL_POINTER, "%s: old_data is NULL", fn);
	GK_RETURN_IF(new_data == NULL, GK_ERR_NULL_POINTER, "%s: new_data is NULL", fn);
	GK_FORWARD(check_ptrs(fn, "parity", (const void *const *)parity, rs->m));
	if (len == 0)
		return GK_OK;
	/* parity[i] ^= c_i * old ^ c_i * new: a 2-input product accumulated into
	 * the parity, which needs no buffer for old ^ new. */
	const int m = rs->m;
	uint8_t a[2 * 255];
	for (int i = 0; i < m; i++)
		a[2 * i] = a[2 * i + 1] = rs->matrix[(size_t)(rs->k + i) * rs->k + index];
	const uint8_t *src[2] = {old_data, new_data};
	gk_gf256_plan p;
	GK_FORWARD(gk_gf256_plan_init(&p, NULL, -1, m, 2, a, 2));
	gk_gf256_plan_run(&p, len, src, parity, 1, threads);
	gk_gf256_plan_free(&p);
	return GK_OK;
}

gk_status gk_rs_update(const gk_rs *rs, int64_t len, int index, const uint8_t *old_data,
                       const uint8_t *new_data, uint8_t *const *parity)
{
	return rs_update("gk_rs_update", NULL, rs, len, index, old_data, new_data, parity);
}

gk_status gk_rs_update_ex(const gk_context *ctx, const gk_rs *rs, int64_t len, int index,
                          const uint8_t *old_data, const uint8_t *new_data,
                          uint8_t *const *parity)
{
	return rs_update("gk_rs_update_ex", ctx, rs, len, index, old_data, new_data, parity);
}
