/*
 * gf256_gemm.c - C = A * B over GF(2^8) with A small (m, k <= 255) and the
 * rows of B and C long: the driver around the gf_dot kernels.
 *
 * A is expanded once per call into one coefficient per entry (a 32-byte
 * table, or an 8-byte affine matrix for the GFNI kernels), laid out tile by
 * tile in the order the kernel calls read them. A kernel computes up to 6
 * output rows in one pass over its inputs, so the driver peels the rows of C
 * six at a time (ISA-L's ec_encode_data), and gives a kernel at most 16
 * inputs (wider k goes in groups that accumulate). When that takes more
 * than one pass, the columns are cut into blocks that fit in L2 and every
 * pass runs over one block before the next block is touched: B and C then
 * stream from memory once. Threads (gemmkit's pool, pool.h) split the
 * columns, each taking at least GK_GF256_SPLIT_BYTES of rows to stream.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <omp.h>
#include "gf256_internal.h"
#include "gk_context.h"
#include "adapt.h"
#include "pool.h"
#include "../cuda/gf256/gf256_cuda.h"

/* Inputs one kernel call streams at most. Past a dozen or so concurrent
 * read streams the hardware prefetchers lose track and every stream slows
 * down (28 streams read at 2/3 the speed of 4 groups of 7 on one core), so a
 * wider k is cut into groups of about GK_GF256_GROUP inputs, the later
 * groups accumulating into the outputs. */
#define GK_GF256_MAX_STREAMS 16
#define GK_GF256_GROUP 10
/* One or two output rows (a decode of one or two lost shards) with a set
 * whose affine kernels ask for it (gf_affine_few_most, kernel_api.h): past
 * that many inputs, groups of about gf_affine_few_group. */
#define GK_GF256_FEW_ROWS 2
/* When a call takes several passes (row groups or input groups), the columns
 * are cut into blocks whose k input and m output rows fit in this many bytes
 * of L2, so every pass after the first reads from cache. */
#define GK_GF256_BLOCK_BYTES (512 * 1024)
#define GK_GF256_MIN_BLOCK 1024
#define GK_GF256_MAX_BLOCK (64 * 1024)
/* Rows at least this long, computed in one pass, are written with
 * non-temporal stores (kernel_api.h, GK_GF256_STREAM) on Intel CPUs: a whole
 * output row then passes L2 by anyway, and streaming it spares reading
 * every line of it before it is written. 1 MiB shards, one thread, on an
 * Intel Xeon (Emerald Rapids): 4+2 and 6+3 encode and decode 1.15-1.45x
 * with GFNI on 512- or 256-bit vectors, 10+4 and 12+4 1.00-1.20x; the
 * shuffle kernels, bound by their arithmetic, the same. On a Zen 3 core the
 * AVX2 shuffle kernel measured slower with them (docs/GF256.md), so other
 * vendors store normally. GK_GF256_STREAM=0 or 1 overrides the choice. */
#define GK_GF256_STREAM_MIN (256 * 1024)
/* Column ranges of threads start at multiples of this: no two threads write
 * the same cache line. */
#define GK_GF256_THREAD_ALIGN 64

static int gfni_allowed(void)
{
	static int cached = -1;
	return gk_env_on("GK_GFNI", &cached);
}

/* The L2 of a core, in bytes (512 KiB where the system does not say). */
static size_t l2_bytes(void)
{
	size_t l1, l2, l3;
	gk_cache_sizes(&l1, &l2, &l3);
	return l2 > 0 ? l2 : 512 * 1024;
}

/* Whether long single-pass rows are streamed (GK_GF256_STREAM_MIN). */
static int stream_wanted(void)
{
	static int cached = -1;
	return gk_env_switch("GK_GF256_STREAM", &cached, gk_cpu_intel);
}

const gk_gf256_dot_fn *gk_gf256_select(const gk_kernels *kern, int *affine)
{
	const uint64_t need = kern->gf_affine_requires;
	if (kern->gf_dot_affine[1] != NULL && (gk_cpu_features() & need) == need &&
	    gfni_allowed()) {
		*affine = 1;
		return kern->gf_dot_affine;
	}
	*affine = 0;
	return kern->gf_dot;
}

const char *gk_gf256_kernel_name(void)
{
	const gk_kernels *kern = gk_kernels_active();
	int affine;
	gk_gf256_select(kern, &affine);
	return affine && kern->gf_affine_name != NULL ? kern->gf_affine_name : kern->name;
}

/* Inputs per kernel call: k, or groups of about GK_GF256_GROUP when k is
 * wider than GK_GF256_MAX_STREAMS (for one or two rows with affine kernels
 * that ask for it, about their gf_affine_few_group past gf_affine_few_most). */
static int64_t choose_kg(const gk_kernels *kern, int affine, int64_t k, int64_t m)
{
	const int few = affine && m <= GK_GF256_FEW_ROWS && kern->gf_affine_few_most > 0 &&
	                kern->gf_affine_few_group > 0;
	const int64_t most = few ? kern->gf_affine_few_most : GK_GF256_MAX_STREAMS;
	const int64_t group = few ? kern->gf_affine_few_group : GK_GF256_GROUP;
	if (k <= most)
		return k;
	const int64_t groups = (k + group - 1) / group;
	return (k + groups - 1) / groups;
}

gk_status gk_gf256_plan_init(gk_gf256_plan *p, const gk_kernels *kern, int affine,
                             int64_t m, int64_t k, const uint8_t *a, int64_t lda)
{
	if (kern == NULL)
		kern = gk_kernels_active();
	int aff;
	if (affine < 0) {
		p->dot = gk_gf256_select(kern, &aff);
	} else {
		aff = affine && kern->gf_dot_affine[1] != NULL;
		p->dot = aff ? kern->gf_dot_affine : kern->gf_dot;
	}
	p->m = m;
	p->k = k;
	p->affine = aff;
	const size_t esize = aff ? GK_GF256_AFFINE_BYTES : GK_GF256_TBL_BYTES;
	p->coef = gk_aligned_alloc((size_t)(m * k), esize);
	GK_RETURN_IF(p->coef == NULL, GK_ERR_NO_MEMORY,
	             "gf256: no memory for %lld x %lld coefficient tables", (long long)m,
	             (long long)k);
	p->kg = choose_kg(kern, aff, k, m);
	/* Tile (row group r0 of R rows, input group j0 of G inputs) is R x G
	 * entries at entry r0 * k + R * j0, rows G entries apart: the layout the
	 * kernels read for one call. */
	for (int64_t r0 = 0; r0 < m; r0 += GK_GF256_MAX_ROWS) {
		const int64_t R = m - r0 < GK_GF256_MAX_ROWS ? m - r0 : GK_GF256_MAX_ROWS;
		for (int64_t j0 = 0; j0 < k; j0 += p->kg) {
			const int64_t G = k - j0 < p->kg ? k - j0 : p->kg;
			for (int64_t r = 0; r < R; r++)
				for (int64_t j = 0; j < G; j++) {
					const uint8_t c = a[(r0 + r) * lda + j0 + j];
					uint8_t *e = p->coef + (size_t)(r0 * k + R * j0 + r * G + j) * esize;
					if (aff) {
						const uint64_t q = gk_gf256_affine(c);
						memcpy(e, &q, sizeof q); /* little-endian, as the kernels load it */
					} else {
						gk_gf256_expand(c, e);
					}
				}
		}
	}
	return GK_OK;
}

void gk_gf256_plan_free(gk_gf256_plan *p)
{
	if (p != NULL) {
		gk_aligned_free(p->coef);
		p->coef = NULL;
	}
}

void gk_gf256_plan_range(const gk_gf256_plan *p, const uint8_t *const *src,
                         uint8_t *const *dst, int64_t off, int64_t len, int acc)
{
	const size_t esize = p->affine ? GK_GF256_AFFINE_BYTES : GK_GF256_TBL_BYTES;
	const int64_t m = p->m, k = p->k, kg = p->kg;
	int64_t block = len;
	if (kg < k || m > GK_GF256_MAX_ROWS) {
		block = GK_GF256_BLOCK_BYTES / (m + k) / 64 * 64;
		block = block < GK_GF256_MIN_BLOCK ? GK_GF256_MIN_BLOCK
		      : block > GK_GF256_MAX_BLOCK ? GK_GF256_MAX_BLOCK : block;
	}
	/* Written in one pass (no later pass reads it back) and long: the
	 * kernels store the output rows past the caches (GK_GF256_STREAM). */
	const int stream = block == len && !acc && len >= GK_GF256_STREAM_MIN && stream_wanted();
	/* Inputs more than L2 holds come from L3 or memory whatever the
	 * blocking: the kernels may request them ahead (28+4 on 64 KiB shards
	 * 1.07x, on 1 MiB shards 1.29x, with the AVX2 shuffles on a Zen 5 core). */
	const int far = (double)k * (double)len > (double)l2_bytes() ? GK_GF256_FAR : 0;
	for (int64_t c = 0; c < len; c += block) {
		const int64_t w = len - c < block ? len - c : block;
		for (int64_t r0 = 0; r0 < m; r0 += GK_GF256_MAX_ROWS) {
			const int64_t R = m - r0 < GK_GF256_MAX_ROWS ? m - r0 : GK_GF256_MAX_ROWS;
			for (int64_t j0 = 0; j0 < k; j0 += kg) {
				const int64_t G = k - j0 < kg ? k - j0 : kg;
				p->dot[R](w, G, p->coef + (size_t)(r0 * k + R * j0) * esize, src + j0,
				          dst + r0, off + c,
				          (acc || j0 > 0 ? GK_GF256_ACC : stream ? GK_GF256_STREAM : 0) | far);
			}
		}
	}
}

int gk_gf256_threads_for(int64_t m, int64_t k, int64_t n, int threads)
{
	if (threads <= 1)
		return 1;
	/* Bytes the call streams, saturated rather than overflowed. */
	int64_t bytes;
	if (__builtin_mul_overflow(m + k, n, &bytes))
		bytes = INT64_MAX;
	const int64_t by_size = bytes / GK_GF256_SPLIT_BYTES;
	const int64_t by_cols = n / GK_GF256_THREAD_ALIGN;
	int64_t t = threads;
	if (t > by_size)
		t = by_size;
	if (t > by_cols)
		t = by_cols;
	return t < 1 ? 1 : (int)t;
}

/* A split of the columns among threads: nchunks chunks of chunk columns (a
 * multiple of GK_GF256_THREAD_ALIGN), one per thread. */
typedef struct {
	const gk_gf256_plan *p;
	const uint8_t *const *src;
	uint8_t *const *dst;
	int64_t n, chunk, nchunks;
	int acc;
	_Atomic int32_t *taken; /* nchunks flags (gk_pool_take) */
} gf_split;

/* A task runs one chunk not yet taken: chunk `slot` first, so that from
 * one call to the next each thread reads and writes the columns it had
 * (still in its L2 when the shards are short), then the others from the
 * last down (those of a late, descheduled or missing worker). There are as
 * many tasks as chunks, and each takes one, so a task always finds one. */
static void gf_split_task(void *arg, int64_t t, int slot)
{
	const gf_split *x = arg;
	(void)t;
	int64_t c = slot < x->nchunks ? gk_pool_take(x->taken, slot, slot + 1) : -1;
	if (c < 0)
		c = gk_pool_take(x->taken, x->nchunks - 1, -1);
	if (c < 0)
		return; /* not reached */
	const int64_t start = c * x->chunk;
	gk_gf256_plan_range(x->p, x->src, x->dst, start,
	                    x->n - start < x->chunk ? x->n - start : x->chunk, x->acc);
}

void gk_gf256_plan_run(const gk_gf256_plan *p, int64_t n, const uint8_t *const *src,
                       uint8_t *const *dst, int acc, int threads)
{
	int t = gk_gf256_threads_for(p->m, p->k, n, threads);
	/* Near the bound of the rule, or while another program takes a core,
	 * the threads only where a run of calls measured them faster than the
	 * calling thread (src/core/adapt.c). */
	gk_adapt pr = GK_ADAPT_INIT;
	if (t > 1)
		t = gk_adapt_begin(GK_ADAPT_GF256, (double)(p->m + p->k) * (double)n,
		                   2.0 * GK_GF256_SPLIT_BYTES, t, &pr);
	if (t == 1) {
		gk_gf256_plan_range(p, src, dst, 0, n, acc);
		gk_adapt_end(&pr);
		return;
	}
	/* gemmkit's own workers (pool.h), as for GEMM: they wait for the next
	 * job spinning a little before they sleep, so that a run of calls on
	 * short rows (64 KiB shards) is split too. Whatever a late worker has
	 * not claimed, the others compute. */
	int64_t chunk = (n + t - 1) / t;
	chunk = (chunk + GK_GF256_THREAD_ALIGN - 1) / GK_GF256_THREAD_ALIGN * GK_GF256_THREAD_ALIGN;
	const int64_t nchunks = (n + chunk - 1) / chunk;
	_Atomic int32_t taken[GK_POOL_MAX_THREADS];
	for (int64_t c = 0; c < nchunks; c++)
		atomic_init(&taken[c], 0);
	gf_split x = {p, src, dst, n, chunk, nchunks, acc, taken};
	/* The work in multiply-adds of about the same time as GEMM's (the pool
	 * wakes sleeping workers only for jobs long enough to repay it): a
	 * byte product takes about what a float multiply-add does. */
	gk_pool_run(&(gk_job){.run = gf_split_task, .arg = &x, .tasks = nchunks, .threads = t,
	                      .work = (double)p->m * (double)p->k * (double)n});
	gk_adapt_end(&pr);
}

/* The CPU's part of the GPU pipeline (gf256_cuda.h): copy `rows` rows of
 * len bytes, cut into pieces of at least GK_GF256_COPY_PIECE over the
 * threads, so that gathering into and scattering from the pinned staging
 * buffers keeps up with the copy engines. */
#define GK_GF256_COPY_PIECE (1 << 20)
void gk_gf256_copy_rows(int64_t rows, uint8_t *const *to, const uint8_t *const *from,
                        int64_t len, int threads)
{
	int64_t per_row = len / GK_GF256_COPY_PIECE;
	if (per_row < 1)
		per_row = 1;
	if (threads < 1)
		threads = 1;
	if (per_row * rows > threads * 4)
		per_row = (threads * 4 + rows - 1) / rows;
	if (per_row < 1)
		per_row = 1;
	const int64_t piece = (len + per_row - 1) / per_row;
	const int64_t total = rows * per_row;
	const int t = total < threads ? (int)total : threads;
#pragma omp parallel for schedule(dynamic, 1) num_threads(t) if (t > 1)
	for (int64_t e = 0; e < total; e++) {
		const int64_t r = e / per_row, off = (e % per_row) * piece;
		if (off < len)
			memcpy(to[r] + off, from[r] + off, (size_t)(len - off < piece ? len - off : piece));
	}
}

/* ------------------------------------------------------------------------ */
/* The API edge                                                              */
/* ------------------------------------------------------------------------ */

static gk_status check_dims(const char *fn, int64_t m, int64_t n, int64_t k, int64_t lda)
{
	GK_RETURN_IF(m < 0, GK_ERR_NEGATIVE_SIZE, "%s: m = %lld < 0", fn, (long long)m);
	GK_RETURN_IF(n < 0, GK_ERR_NEGATIVE_SIZE, "%s: n = %lld < 0", fn, (long long)n);
	GK_RETURN_IF(k < 0, GK_ERR_NEGATIVE_SIZE, "%s: k = %lld < 0", fn, (long long)k);
	GK_RETURN_IF(m > GK_GF256_MAX_DIM, GK_ERR_UNSUPPORTED, "%s: m = %lld > %d", fn,
	             (long long)m, GK_GF256_MAX_DIM);
	GK_RETURN_IF(k > GK_GF256_MAX_DIM, GK_ERR_UNSUPPORTED, "%s: k = %lld > %d", fn,
	             (long long)k, GK_GF256_MAX_DIM);
	GK_RETURN_IF(lda < (k > 1 ? k : 1), GK_ERR_BAD_LD, "%s: lda = %lld < %lld", fn,
	             (long long)lda, (long long)(k > 1 ? k : 1));
	return GK_OK;
}

/* Does a rows x cols byte matrix with leading dimension ld fit the address
 * space? */
static int extent_ok(int64_t rows, int64_t cols, int64_t ld)
{
	int64_t span;
	if (rows == 0 || cols == 0)
		return 1;
	return !__builtin_mul_overflow(rows - 1, ld, &span) &&
	       !__builtin_add_overflow(span, cols, &span) && span <= PTRDIFF_MAX;
}

/* The checked core of every entry point: A is m x k, src k rows, dst m rows;
 * on the GPU (host rows, gf256_cuda.h's pipeline) when ctx asks for the
 * CUDA backend. */
static gk_status run_rows(const gk_context *ctx, int64_t m, int64_t n, int64_t k,
                          const uint8_t *a, int64_t lda, const uint8_t *const *src,
                          uint8_t *const *dst)
{
	const int threads = ctx != NULL ? ctx->threads : 0;
	if (k == 0) {
		for (int64_t i = 0; i < m; i++)
			memset(dst[i], 0, (size_t)n);
		return GK_OK;
	}
	if (ctx != NULL && ctx->backend == GK_BACKEND_CUDA)
		return gk_gf256_cuda_host_run(ctx->device, gk_resolve_threads(threads), m, n, k, a, lda,
		                              src, dst);
	gk_gf256_plan p;
	GK_FORWARD(gk_gf256_plan_init(&p, NULL, -1, m, k, a, lda));
	gk_gf256_plan_run(&p, n, src, dst, 0, gk_resolve_threads(threads));
	gk_gf256_plan_free(&p);
	return GK_OK;
}

static gk_status rows_common(const char *fn, const gk_context *ctx, int64_t m, int64_t n,
                             int64_t k, const uint8_t *a, int64_t lda, const uint8_t *const *b_rows,
                             uint8_t *const *c_rows)
{
	GK_FORWARD(check_dims(fn, m, n, k, lda));
	if (m == 0 || n == 0)
		return GK_OK;
	GK_RETURN_IF(c_rows == NULL, GK_ERR_NULL_POINTER, "%s: c_rows is NULL", fn);
	for (int64_t i = 0; i < m; i++)
		GK_RETURN_IF(c_rows[i] == NULL, GK_ERR_NULL_POINTER, "%s: c_rows[%lld] is NULL", fn,
		             (long long)i);
	if (k > 0) {
		GK_RETURN_IF(a == NULL, GK_ERR_NULL_POINTER, "%s: a is NULL", fn);
		GK_RETURN_IF(b_rows == NULL, GK_ERR_NULL_POINTER, "%s: b_rows is NULL", fn);
		for (int64_t j = 0; j < k; j++)
			GK_RETURN_IF(b_rows[j] == NULL, GK_ERR_NULL_POINTER,
			             "%s: b_rows[%lld] is NULL", fn, (long long)j);
	}
	return run_rows(ctx, m, n, k, a, lda, b_rows, c_rows);
}

gk_status gk_gf256_gemm_rows(int64_t m, int64_t n, int64_t k, const uint8_t *a, int64_t lda,
                             const uint8_t *const *b_rows, uint8_t *const *c_rows)
{
	return rows_common("gk_gf256_gemm_rows", NULL, m, n, k, a, lda, b_rows, c_rows);
}

gk_status gk_gf256_gemm_rows_ex(const gk_context *ctx, int64_t m, int64_t n, int64_t k,
                                const uint8_t *a, int64_t lda, const uint8_t *const *b_rows,
                                uint8_t *const *c_rows)
{
	return rows_common("gk_gf256_gemm_rows_ex", ctx, m, n, k, a, lda, b_rows, c_rows);
}

/* The checks of the strided forms: B k x n (ldb), C m x n (ldc). */
static gk_status check_strided(const char *fn, int64_t m, int64_t n, int64_t k, const uint8_t *a,
                               int64_t lda, const uint8_t *b, int64_t ldb, const uint8_t *c,
                               int64_t ldc)
{
	GK_FORWARD(check_dims(fn, m, n, k, lda));
	const int64_t need = n > 1 ? n : 1;
	GK_RETURN_IF(ldb < need, GK_ERR_BAD_LD, "%s: ldb = %lld < %lld", fn, (long long)ldb,
	             (long long)need);
	GK_RETURN_IF(ldc < need, GK_ERR_BAD_LD, "%s: ldc = %lld < %lld", fn, (long long)ldc,
	             (long long)need);
	if (m == 0 || n == 0)
		return GK_OK;
	GK_RETURN_IF(c == NULL, GK_ERR_NULL_POINTER, "%s: c is NULL", fn);
	GK_RETURN_IF(!extent_ok(m, n, ldc), GK_ERR_OVERFLOW,
	             "%s: C (%lld x %lld, ldc = %lld) overflows the address space", fn,
	             (long long)m, (long long)n, (long long)ldc);
	if (k > 0) {
		GK_RETURN_IF(a == NULL, GK_ERR_NULL_POINTER, "%s: a is NULL", fn);
		GK_RETURN_IF(b == NULL, GK_ERR_NULL_POINTER, "%s: b is NULL", fn);
		GK_RETURN_IF(!extent_ok(k, n, ldb), GK_ERR_OVERFLOW,
		             "%s: B (%lld x %lld, ldb = %lld) overflows the address space", fn,
		             (long long)k, (long long)n, (long long)ldb);
	}
	return GK_OK;
}

static gk_status strided_common(const char *fn, const gk_context *ctx, int64_t m, int64_t n,
                                int64_t k, const uint8_t *a, int64_t lda, const uint8_t *b,
                                int64_t ldb, uint8_t *c, int64_t ldc)
{
	GK_FORWARD(check_strided(fn, m, n, k, a, lda, b, ldb, c, ldc));
	if (m == 0 || n == 0)
		return GK_OK;
	const uint8_t *b_rows[GK_GF256_MAX_DIM];
	uint8_t *c_rows[GK_GF256_MAX_DIM];
	for (int64_t j = 0; j < k; j++)
		b_rows[j] = b + j * ldb;
	for (int64_t i = 0; i < m; i++)
		c_rows[i] = c + i * ldc;
	return run_rows(ctx, m, n, k, a, lda, b_rows, c_rows);
}

gk_status gk_gf256_gemm(int64_t m, int64_t n, int64_t k, const uint8_t *a, int64_t lda,
                        const uint8_t *b, int64_t ldb, uint8_t *c, int64_t ldc)
{
	return strided_common("gk_gf256_gemm", NULL, m, n, k, a, lda, b, ldb, c, ldc);
}

gk_status gk_gf256_gemm_ex(const gk_context *ctx, int64_t m, int64_t n, int64_t k,
                           const uint8_t *a, int64_t lda, const uint8_t *b, int64_t ldb,
                           uint8_t *c, int64_t ldc)
{
	return strided_common("gk_gf256_gemm_ex", ctx, m, n, k, a, lda, b, ldb, c, ldc);
}

/* ------------------------------------------------------------------------ */
/* The GPU kernels by name (gf256_cuda.h)                                   */
/* ------------------------------------------------------------------------ */

static const struct {
	const char *name;
	int kernel, tiles;
} gf_algos[] = {
	{"cuda.gf256", GK_GF_CUDA_PRODUCTION, 0},
	{"cuda.gf_naive", GK_GF_CUDA_NAIVE, 0},
	{"cuda.gf_square", GK_GF_CUDA_SQUARE, 0},
	{"cuda.gf_tiled", GK_GF_CUDA_TILED, 1},
	{"cuda.gf_packed4", GK_GF_CUDA_PACKED4, 1},
	{"cuda.gf_packed8", GK_GF_CUDA_PACKED8, 1},
};
#define GF_NALGOS ((int)(sizeof gf_algos / sizeof gf_algos[0]))

int gk_gf256_algo_count(void)
{
	return GF_NALGOS;
}

const char *gk_gf256_algo_name(int i)
{
	return i >= 0 && i < GF_NALGOS ? gf_algos[i].name : NULL;
}

/* "cuda.gf_tiled" or "cuda.gf_tiled:RxCxD": the kernel and its tiles. */
static gk_status parse_algo(const char *fn, const char *name, int *kernel, gk_gf_cuda_tiles *t)
{
	t->rows = t->cols = t->depth = 0;
	if (name == NULL || strcmp(name, "auto") == 0) {
		*kernel = GK_GF_CUDA_PRODUCTION;
		return GK_OK;
	}
	const char *colon = strchr(name, ':');
	const size_t len = colon != NULL ? (size_t)(colon - name) : strlen(name);
	for (int i = 0; i < GF_NALGOS; i++) {
		if (strlen(gf_algos[i].name) != len || strncmp(gf_algos[i].name, name, len) != 0)
			continue;
		*kernel = gf_algos[i].kernel;
		if (colon == NULL)
			return GK_OK;
		char end = 0;
		GK_RETURN_IF(!gf_algos[i].tiles ||
		             sscanf(colon + 1, "%dx%dx%d%c", &t->rows, &t->cols, &t->depth, &end) != 3 ||
		             t->rows < 1 || t->cols < 1 || t->depth < 1,
		             GK_ERR_INVALID_VALUE,
		             "%s: \"%s\": tile sizes are ROWSxCOLSxDEPTH, each >= 1, and only for "
		             "cuda.gf_tiled and cuda.gf_packed4/8", fn, name);
		return GK_OK;
	}
	return gk_set_error(GK_ERR_UNKNOWN_ALGO, "%s: no GF(2^8) GPU kernel is named \"%s\"", fn,
	                    name);
}

gk_status gk_gf256_gemm_device(const gk_context *ctx, const char *algo, int64_t m, int64_t n,
                               int64_t k, const uint8_t *a, int64_t lda, const uint8_t *b,
                               int64_t ldb, uint8_t *c, int64_t ldc)
{
	static const char fn[] = "gk_gf256_gemm_device";
	int kernel = GK_GF_CUDA_PRODUCTION;
	gk_gf_cuda_tiles t;
	GK_FORWARD(parse_algo(fn, algo, &kernel, &t));
	GK_FORWARD(check_strided(fn, m, n, k, a, lda, b, ldb, c, ldc));
	GK_RETURN_IF(ctx != NULL && ctx->backend == GK_BACKEND_CPU, GK_ERR_UNSUPPORTED,
	             "%s: the context asks for the CPU backend, the buffers are on the device", fn);
	if (m == 0 || n == 0)
		return GK_OK;
	const int device = ctx != NULL ? ctx->device : -1;
	void *stream = ctx != NULL ? ctx->stream : NULL;
	return gk_gf256_cuda_device_run(kernel, &t, device, stream, m, n, k, a, lda, b, ldb, c, ldc);
}
