/*
 * test_rs_threads.c - the Reed-Solomon calls with threads and state: the
 * _ex calls on contexts, and the decoder a gk_rs keeps from its last
 * reconstruction (matrices, patterns and argument errors: test_rs.c).
 *
 *  - the _ex calls: the same bytes with 1, 2 or 3 threads from a context as
 *    without one; a CUDA context is refused with GK_ERR_UNSUPPORTED and
 *    nothing written;
 *  - the decoder a gk_rs keeps from its last reconstruction: the same
 *    pattern again (with new data), another pattern, data_only changing the
 *    shards rebuilt, a refused call between two good ones, and four threads
 *    sharing one gk_rs, each cycling through patterns of its own.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "test_rs_util.h"

/* The _ex calls on a context: the thread count changes nothing in the
 * result; a CUDA context is refused before anything is written. */
static void test_contexts(tu_rng *rng)
{
	const int k = 10, m = 4, n = k + m;
	const int64_t len = (1 << 20) + 37; /* enough bytes for several threads */
	code c;
	if (!code_init(&c, GK_RS_CAUCHY, k, m, len, rng))
		return;
	uint8_t **par = xalloc(sizeof(uint8_t *) * (size_t)m);
	for (int p = 0; p < m; p++)
		par[p] = xalloc((size_t)len);
	const uint8_t *const *data = (const uint8_t *const *)c.orig;
	for (int t = 0; t <= 3; t++) {
		gk_context *ctx = NULL;
		if (t > 0) {
			TU_CHECK(gk_context_create(&ctx) == GK_OK, "context");
			TU_CHECK(gk_context_set_threads(ctx, t) == GK_OK, "set_threads %d", t);
		}
		for (int p = 0; p < m; p++)
			memset(par[p], 0xA5, (size_t)len);
		gk_status st = gk_rs_encode_ex(ctx, c.rs, len, data, par);
		int same = st == GK_OK;
		for (int p = 0; p < m && same; p++)
			same = memcmp(par[p], c.orig[k + p], (size_t)len) == 0;
		TU_CHECK(same, "encode_ex, %d threads (0: no context): st=%d or parity differs", t, st);

		uint8_t present[14];
		for (int i = 0; i < n; i++) {
			memcpy(c.work[i], c.orig[i], (size_t)len);
			present[i] = i != 1 && i != 4 && i != 7 && i != 12;
			if (!present[i])
				fill(c.work[i], (size_t)len, rng);
		}
		st = gk_rs_reconstruct_ex(ctx, c.rs, len, c.work, present, 0);
		same = st == GK_OK;
		for (int i = 0; i < n && same; i++)
			same = memcmp(c.work[i], c.orig[i], (size_t)len) == 0;
		TU_CHECK(same, "reconstruct_ex, %d threads: st=%d or shards differ", t, st);

		int ok = 0;
		st = gk_rs_verify_ex(ctx, c.rs, len, (const uint8_t *const *)c.orig, &ok);
		TU_CHECK(st == GK_OK && ok == 1, "verify_ex, %d threads: st=%d ok=%d", t, st, ok);

		/* Shard 3 changes: update_ex from the old parity gives the new one. */
		uint8_t *nd = xalloc((size_t)len);
		fill(nd, (size_t)len, rng);
		for (int p = 0; p < m; p++)
			memcpy(par[p], c.orig[k + p], (size_t)len);
		st = gk_rs_update_ex(ctx, c.rs, len, 3, c.orig[3], nd, par);
		memcpy(c.work[3], nd, (size_t)len);
		for (int i = 0; i < k; i++)
			if (i != 3)
				memcpy(c.work[i], c.orig[i], (size_t)len);
		gk_status st2 = gk_rs_encode(c.rs, len, (const uint8_t *const *)c.work, c.work + k);
		same = st == GK_OK && st2 == GK_OK;
		for (int p = 0; p < m && same; p++)
			same = memcmp(par[p], c.work[k + p], (size_t)len) == 0;
		TU_CHECK(same, "update_ex, %d threads: st=%d or parity differs from a re-encode", t, st);
		free(nd);
		gk_context_destroy(ctx);
	}

	/* A CUDA context: encode and reconstruct run on the GPU (test_cuda_gf256
	 * checks their bytes), or fail with GK_ERR_NO_GPU writing nothing;
	 * verify and update refuse it. */
	gk_context *cu = NULL;
	TU_CHECK(gk_context_create(&cu) == GK_OK && gk_context_set_backend(cu, GK_BACKEND_CUDA) == GK_OK,
	         "cuda context");
	for (int p = 0; p < m; p++)
		memset(par[p], 0x5A, (size_t)len);
	gk_status st = gk_rs_encode_ex(cu, c.rs, len, data, par);
	TU_CHECK(st == GK_OK || (st == GK_ERR_NO_GPU && strstr(gk_last_error(), "CUDA") != NULL),
	         "encode_ex on a CUDA context: st=%d (%s)", st, gk_last_error());
	const int no_gpu = st == GK_ERR_NO_GPU;
	int untouched = 1;
	for (int p = 0; p < m; p++)
		for (int64_t i = 0; i < len && untouched; i++)
			untouched = par[p][i] == 0x5A;
	TU_CHECK(untouched || !no_gpu, "encode_ex on a CUDA context wrote parity");
	for (int p = 0; p < m; p++)
		memset(par[p], 0x5A, (size_t)len);
	uint8_t present[14];
	for (int i = 0; i < n; i++) {
		present[i] = i != 0;
		memset(c.work[i], 0x5A, (size_t)len);
	}
	st = gk_rs_reconstruct_ex(cu, c.rs, len, c.work, present, 0);
	TU_CHECK(no_gpu ? st == GK_ERR_NO_GPU && c.work[0][0] == 0x5A && c.work[0][len - 1] == 0x5A
	                : st == GK_OK,
	         "reconstruct_ex on a CUDA context: st=%d", st);
	int ok = 7;
	st = gk_rs_verify_ex(cu, c.rs, len, (const uint8_t *const *)c.orig, &ok);
	TU_CHECK(st == GK_ERR_UNSUPPORTED && ok == 0, "verify_ex on a CUDA context: st=%d ok=%d", st,
	         ok);
	st = gk_rs_update_ex(cu, c.rs, len, 0, c.orig[0], c.orig[1], par);
	TU_CHECK(st == GK_ERR_UNSUPPORTED && par[0][0] == 0x5A, "update_ex on a CUDA context: st=%d",
	         st);
	TU_CHECK(gk_rs_encode_ex(cu, NULL, len, data, par) == GK_ERR_NULL_POINTER,
	         "encode_ex: rs NULL is checked first");
	gk_context_destroy(cu);
	for (int p = 0; p < m; p++)
		free(par[p]);
	free(par);
	code_free(&c);
}

/* Reconstruction after reconstruction on one gk_rs, which keeps the decoder
 * of its last pattern: every call must rebuild its own pattern's shards. */
static void test_decoder_reuse(tu_rng *rng)
{
	long before = tu_failed;
	for (int kind = GK_RS_CAUCHY; kind <= GK_RS_VANDERMONDE_ISAL; kind++) {
		const int k = kind == GK_RS_CAUCHY ? 10 : 5, m = kind == GK_RS_CAUCHY ? 4 : 5;
		code c;
		if (!code_init(&c, (gk_rs_matrix)kind, k, m, 4096 + 17, rng))
			continue;
		const int n = k + m;
		/* A = {0, 1}; B = {2, k}; C = {1, k + 1}, with a parity shard, so
		 * that data_only changes what is rebuilt; D = m - 1 parity shards
		 * and data shard 3; E = {1, k}: with data_only, the shard rebuilt
		 * is C's, from other shards. */
		uint8_t pat[5][256] = {{0}};
		pat[0][0] = pat[0][1] = 1;
		pat[1][2] = pat[1][k] = 1;
		pat[2][1] = pat[2][k + 1] = 1;
		for (int i = k; i < n - 1; i++)
			pat[3][i] = 1;
		pat[3][3] = 1;
		pat[4][1] = pat[4][k] = 1;
		static const int seq[][2] = {{0, 0}, {0, 0}, {1, 0}, {0, 0}, {2, 1}, {2, 0}, {2, 0},
		                             {2, 1}, {4, 1}, {2, 1}, {3, 0}, {1, 0}, {1, 0}, {0, 0}};
		for (size_t q = 0; q < sizeof seq / sizeof seq[0]; q++) {
			if (q == 6) { /* new data under the pattern of the call before */
				for (int i = 0; i < k; i++)
					fill(c.orig[i], (size_t)c.len, rng);
				TU_CHECK(gk_rs_encode(c.rs, c.len, (const uint8_t *const *)c.orig,
				                      c.orig + k) == GK_OK,
				         "re-encode");
			}
			TU_CHECK(try_pattern(&c, pat[seq[q][0]], seq[q][1], rng),
			         "%s %d+%d: call %zu (pattern %d, data_only %d) rebuilt wrong bytes",
			         kind_name((gk_rs_matrix)kind), k, m, q, seq[q][0], seq[q][1]);
		}
		/* Too few shards between two good calls: refused, nothing written. */
		uint8_t present[256];
		for (int i = 0; i < n; i++) {
			present[i] = i > m;
			memcpy(c.work[i], c.orig[i], (size_t)c.len);
		}
		memset(c.work[0], 0x5A, (size_t)c.len);
		TU_CHECK(gk_rs_reconstruct(c.rs, c.len, c.work, present, 0) == GK_ERR_SINGULAR,
		         "%d shards present: not refused", n - m - 1);
		TU_CHECK(c.work[0][0] == 0x5A && c.work[0][c.len - 1] == 0x5A,
		         "a refused reconstruction wrote shard 0");
		TU_CHECK(try_pattern(&c, pat[0], 0, rng), "pattern A after a refused call");
		code_free(&c);
	}
	TU_CHECK(tu_failed == before, "decoder reuse: %ld failures", tu_failed - before);
}

/* One thread of test_shared_decoder: its own shards, one shared gk_rs. */
typedef struct {
	const code *c;
	int id, bad;
	uint64_t seed;
} rs_sharer;

static void *rs_sharer_run(void *arg)
{
	rs_sharer *t = arg;
	const code *c = t->c;
	const int n = c->k + c->m;
	tu_rng rng;
	tu_rng_init(&rng, t->seed);
	uint8_t *work[256];
	for (int i = 0; i < n; i++)
		work[i] = xalloc((size_t)c->len);
	for (int q = 0; q < 60 && !t->bad; q++) {
		/* Patterns of this thread: two lost shards chosen by id and q, so
		 * that threads meet the same pattern and different ones. */
		const int a = (t->id + q / 3) % n, b = (a + 1 + (q % 3)) % n;
		uint8_t present[256];
		for (int i = 0; i < n; i++) {
			present[i] = i != a && i != b;
			if (present[i])
				memcpy(work[i], c->orig[i], (size_t)c->len);
			else
				fill(work[i], (size_t)c->len, &rng);
		}
		if (gk_rs_reconstruct(c->rs, c->len, work, present, 0) != GK_OK)
			t->bad = 1;
		for (int i = 0; i < n && !t->bad; i++)
			t->bad = memcmp(work[i], c->orig[i], (size_t)c->len) != 0;
	}
	for (int i = 0; i < n; i++)
		free(work[i]);
	return NULL;
}

static void test_shared_decoder(tu_rng *rng)
{
	enum { NT = 4 };
	code c;
	if (!code_init(&c, GK_RS_CAUCHY, 12, 4, 2048 + 5, rng))
		return;
	rs_sharer t[NT];
	pthread_t tid[NT];
	int started[NT];
	for (int i = 0; i < NT; i++) {
		t[i] = (rs_sharer){&c, i, 0, tu_next(rng)};
		started[i] = pthread_create(&tid[i], NULL, rs_sharer_run, &t[i]) == 0;
		if (!started[i])
			rs_sharer_run(&t[i]);
	}
	for (int i = 0; i < NT; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		TU_CHECK(!t[i].bad, "thread %d of %d sharing one gk_rs rebuilt wrong bytes", i, NT);
	}
	code_free(&c);
}

int main(void)
{
	tu_rng rng;
	tu_rng_init(&rng, tu_seed());
	gf_ref_init();
	test_contexts(&rng);
	test_decoder_reuse(&rng);
	test_shared_decoder(&rng);
	return tu_finish("test_rs_threads");
}
