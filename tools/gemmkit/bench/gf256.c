/*
 * gf256.c - `gemmkit bench --suite gf256`: Reed-Solomon encode and decode
 * throughput of gemmkit against ISA-L (libisal.so.2, loaded at run time;
 * the suite runs without it and says so), on the measurement engine.
 *
 * Every case (code k+m, shard size, thread count) is two cells, encode and
 * decode, with the same inputs:
 *   - One coding matrix for both: gemmkit's Cauchy matrix (gk_rs_matrix_get),
 *     whose parity rows are also fed to ISA-L's ec_init_tables. Whether it
 *     equals ISA-L's own gf_gen_cauchy1_matrix is recorded in meta.txt.
 *   - Check first: each side's parity must equal, byte for byte, the parity
 *     computed here one GF(2^8) product at a time (a table of
 *     gk_gf256_mul), and each decoder must give back the two lost data
 *     shards exactly. A failed check is ERR, is not timed, and makes the
 *     exit status 1.
 * Throughput is GB/s of data: k x shard bytes / time (10^9 bytes).
 *
 * Encode: gemmkit is gk_rs_encode_ex with a context of T threads; ISA-L is
 * ec_encode_data, its tables made once, outside the timing.
 * Decode: data shards 0 and 1 lost, rebuilt from the first k survivors,
 * call after call with the same erasure pattern, as in the rebuild of many
 * stripes: gemmkit gk_rs_reconstruct_ex (data shards only; the gk_rs keeps
 * the decoder of its last pattern, so only the first call inverts), ISA-L
 * ec_encode_data with the tables of the inverse (gf_invert_matrix +
 * ec_init_tables), made once per case before the timing.
 * ISA-L is single-threaded: with T threads, T pthreads (pool.c) each run
 * ec_encode_data on 1/T of the columns (bytes) of every shard.
 */
#define _GNU_SOURCE
#include "gf256.h"
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "gemmkit.h"
#include "pool.h"

#define CMD "bench"
#define GF_ROUND_S 0.02
#define GF_REPS 7
#define GF_QUICK_REPS 3

typedef struct gf_case {
	gf_run *g;
	int op, k, m, threads;
	int64_t size;
	gk_rs *rs;
	gk_context *ctx;
	uint8_t *mat;               /* (k + m) x k */
	uint8_t **shard;            /* k data shards, then the m reference parity shards */
	uint8_t **par[GF_NC];       /* each side's parity */
	uint8_t **rebuilt[GF_NC];   /* each side's rebuilt shards 0 .. GF_LOST-1 */
	uint8_t **ours_shards;      /* for gk_rs_reconstruct_ex: rebuilt, then the rest */
	uint8_t *present;
	uint8_t *tables, *dec_tables; /* ISA-L's */
	int dec_ok;                   /* dec_tables made (the survivors' rows inverted) */
	bench_pool pool;
	char refused[160];            /* not set up, and why (the memory it needs) */
} gf_case;

/* Cases of this many bytes of shards say so on stderr before their
 * scalar reference (seconds) starts. */
#define GF_NOTE_BYTES 2e9

static void *alloc64(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) / 64 * 64);
	if (p == NULL) {
		cli_error(CMD, "out of memory (%zu bytes)", n);
		exit(1);
	}
	return p;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* ---- the contenders -------------------------------------------------------- */

typedef struct isal_job {
	bench_isal *L;
	int len, k, rows;
	uint8_t *tables;
	uint8_t *const *src;
	uint8_t *const *dst;
} isal_job;

/* ISA-L on this part's columns of every shard. */
static void isal_job_run(void *a, int part, int nparts)
{
	const isal_job *j = a;
	/* Split on 64-byte boundaries so that no part starts mid-vector. */
	int64_t lo = (int64_t)j->len * part / nparts / 64 * 64;
	int64_t hi = part + 1 == nparts ? j->len : (int64_t)j->len * (part + 1) / nparts / 64 * 64;
	if (hi <= lo)
		return;
	unsigned char *src[256], *dst[256];
	for (int i = 0; i < j->k; i++)
		src[i] = j->src[i] + lo;
	for (int i = 0; i < j->rows; i++)
		dst[i] = j->dst[i] + lo;
	j->L->encode((int)(hi - lo), j->k, j->rows, j->tables, src, dst);
}

static int ours_run(bench_contender *c, void *cell)
{
	gf_case *x = cell;
	gk_status st = x->op == GF_ENCODE
	               ? gk_rs_encode_ex(x->ctx, x->rs, x->size, (const uint8_t *const *)x->shard, x->par[GF_OURS])
	               : gk_rs_reconstruct_ex(x->ctx, x->rs, x->size, x->ours_shards, x->present, 1);
	if (st == GK_OK)
		return 0;
	snprintf(c->why, sizeof c->why, "%s: %s", gk_strerror(st), gk_last_error());
	return BENCH_FAIL;
}

static int isal_run(bench_contender *c, void *cell)
{
	gf_case *x = cell;
	bench_isal *L = &x->g->isal;
	if (x->op == GF_ENCODE) {
		isal_job j = {L, (int)x->size, x->k, x->m, x->tables, x->shard, x->par[GF_ISAL]};
		bench_pool_run(&x->pool, isal_job_run, &j);
		return 0;
	}
	if (!x->dec_ok) {
		snprintf(c->why, sizeof c->why, "gf_invert_matrix found the survivors' matrix singular");
		return BENCH_FAIL;
	}
	isal_job j = {L, (int)x->size, x->k, GF_LOST, x->dec_tables, x->shard + GF_LOST, x->rebuilt[GF_ISAL]};
	bench_pool_run(&x->pool, isal_job_run, &j);
	return 0;
}

static const bench_ops ours_ops = {NULL, ours_run, NULL, NULL, NULL, NULL};
static const bench_ops isal_ops = {NULL, isal_run, NULL, NULL, NULL, NULL};

/* ---- the cells --------------------------------------------------------------- */

static int side_of(const gf_case *x, const bench_contender *c)
{
	return x->g->who[c - x->g->c];
}

static void poison(void *data, bench_contender *c)
{
	gf_case *x = data;
	int s = side_of(x, c);
	uint8_t **out = x->op == GF_ENCODE ? x->par[s] : x->rebuilt[s];
	for (int i = 0; i < (x->op == GF_ENCODE ? x->m : GF_LOST); i++)
		memset(out[i], 0xA5, (size_t)x->size);
}

static int check(void *data, bench_contender *c, double *err, char *why, size_t len)
{
	gf_case *x = data;
	int s = side_of(x, c);
	const int n = x->op == GF_ENCODE ? x->m : GF_LOST;
	for (int i = 0; i < n; i++) {
		const uint8_t *got = x->op == GF_ENCODE ? x->par[s][i] : x->rebuilt[s][i];
		const uint8_t *want = x->op == GF_ENCODE ? x->shard[x->k + i] : x->shard[i];
		for (int64_t b = 0; b < x->size; b++)
			if (got[b] != want[b]) {
				*err = 1;
				snprintf(why, len, "%s shard %d differs at byte %lld from the %s", x->op == GF_ENCODE ?
				         "parity" : "rebuilt", i, (long long)b, x->op == GF_ENCODE ?
				         "product computed one GF(2^8) multiplication at a time" : "lost data");
				return -1;
			}
	}
	*err = 0;
	return 0;
}

/* The reference parity, one GF(2^8) product at a time (a table of
 * gk_gf256_mul), on blocks of columns small enough for the caches, the
 * columns shared among the default number of threads: a case of 1 GiB
 * shards took minutes on one. */
#define GF_REF_BLOCK 16384

static uint8_t gf_mul_table[256][256];

typedef struct ref_job {
	const gf_case *x;
} ref_job;

static void reference_part(void *arg, int part, int nparts)
{
	const gf_case *x = ((const ref_job *)arg)->x;
	const int64_t lo = x->size * part / nparts / 64 * 64;
	const int64_t hi = part + 1 == nparts ? x->size : x->size * (part + 1) / nparts / 64 * 64;
	for (int64_t b0 = lo; b0 < hi; b0 += GF_REF_BLOCK) {
		const int64_t b1 = b0 + GF_REF_BLOCK < hi ? b0 + GF_REF_BLOCK : hi;
		for (int i = 0; i < x->m; i++) {
			uint8_t *p = x->shard[x->k + i];
			memset(p + b0, 0, (size_t)(b1 - b0));
			for (int j = 0; j < x->k; j++) {
				const uint8_t *row = gf_mul_table[x->mat[(size_t)(x->k + i) * x->k + j]], *d = x->shard[j];
				for (int64_t b = b0; b < b1; b++)
					p[b] ^= row[d[b]];
			}
		}
	}
}

static void reference_parity(gf_case *x)
{
	static int have;
	if (!have) {
		for (int a = 0; a < 256; a++)
			for (int b = 0; b < 256; b++)
				gf_mul_table[a][b] = gk_gf256_mul((uint8_t)a, (uint8_t)b);
		have = 1;
	}
	ref_job job = {x};
	gk_info info;
	int n = gk_get_info(&info) == GK_OK ? info.max_threads : 1;
	/* At least 64 KiB of columns a thread. */
	if ((int64_t)n > x->size / 65536)
		n = (int)(x->size / 65536);
	bench_pool pool;
	if (n <= 1 || bench_pool_init(&pool, n) != 0) {
		reference_part(&job, 0, 1);
		return;
	}
	bench_pool_run(&pool, reference_part, &job);
	bench_pool_free(&pool);
}

static uint8_t **alloc_shards(int n, int64_t size)
{
	uint8_t **s = alloc64(sizeof *s * (size_t)n);
	for (int i = 0; i < n; i++)
		s[i] = alloc64((size_t)size);
	return s;
}

static void free_shards(uint8_t **s, int n)
{
	for (int i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

static int case_init(gf_case *x, gf_run *g, int k, int m, int64_t size, int threads)
{
	memset(x, 0, sizeof *x);
	x->g = g, x->k = k, x->m = m, x->size = size, x->threads = threads;
	const int n = k + m;
	if (gk_rs_create(&x->rs, k, m, GK_RS_CAUCHY) != GK_OK) {
		cli_error(CMD, "gk_rs_create(%d, %d) failed: %s", k, m, gk_last_error());
		return -1;
	}
	x->mat = alloc64((size_t)n * k);
	gk_rs_matrix_get(x->rs, x->mat);
	if ((double)size * n >= GF_NOTE_BYTES)
		fprintf(stderr, "gemmkit bench: %d+%d, %lld-byte shards: filling them and computing the reference "
		        "parity...\n", k, m, (long long)size);
	x->shard = alloc_shards(n, size);
	uint64_t seed = g->o->seed ^ ((uint64_t)k << 40) ^ ((uint64_t)m << 32) ^ (uint64_t)size;
	for (int i = 0; i < k; i++)
		for (int64_t j = 0; j < size; j += 8) {
			uint64_t v = splitmix(&seed);
			memcpy(x->shard[i] + j, &v, (size_t)(size - j < 8 ? size - j : 8));
		}
	reference_parity(x);
	for (int s = 0; s < GF_NC; s++) {
		x->par[s] = alloc_shards(m, size);
		x->rebuilt[s] = alloc_shards(GF_LOST, size);
	}
	x->ours_shards = alloc64(sizeof(uint8_t *) * (size_t)n);
	x->present = alloc64((size_t)n);
	for (int i = 0; i < n; i++) {
		x->ours_shards[i] = i < GF_LOST ? x->rebuilt[GF_OURS][i] : x->shard[i];
		x->present[i] = i >= GF_LOST;
	}
	if (gk_context_create(&x->ctx) != GK_OK || gk_context_set_threads(x->ctx, threads) != GK_OK) {
		cli_error(CMD, "cannot make a context of %d threads: %s", threads, gk_last_error());
		return -1;
	}
	if (g->isal.handle) {
		x->tables = alloc64((size_t)32 * k * m);
		x->dec_tables = alloc64((size_t)32 * k * GF_LOST);
		g->isal.init_tables(k, m, x->mat + (size_t)k * k, x->tables);
		/* The decode tables, once per case as for a rebuild of many stripes
		 * with one erasure pattern: the survivors are shards GF_LOST ..
		 * GF_LOST + k - 1, the lost shards the first GF_LOST rows of the
		 * inverse of their rows. */
		uint8_t *sub = alloc64((size_t)k * k), *inv = alloc64((size_t)k * k);
		for (int r = 0; r < k; r++)
			memcpy(sub + (size_t)r * k, x->mat + (size_t)(GF_LOST + r) * k, (size_t)k);
		x->dec_ok = g->isal.invert(sub, inv, k) == 0;
		if (x->dec_ok)
			g->isal.init_tables(k, GF_LOST, inv, x->dec_tables);
		free(sub);
		free(inv);
		uint8_t *cauchy = alloc64((size_t)n * k);
		g->isal.gen_cauchy1(cauchy, n, k);
		if (memcmp(cauchy, x->mat, (size_t)n * k) != 0)
			g->matrix_equal = 0;
		free(cauchy);
		if (bench_pool_init(&x->pool, threads) != 0) {
			cli_error(CMD, "cannot start %d threads", threads);
			return -1;
		}
	}
	return 0;
}

static void case_free(gf_case *x)
{
	const int n = x->k + x->m;
	if (x->g->isal.handle)
		bench_pool_free(&x->pool);
	gk_context_destroy(x->ctx);
	gk_rs_destroy(x->rs);
	free_shards(x->shard, n);
	for (int s = 0; s < GF_NC; s++) {
		free_shards(x->par[s], x->m);
		free_shards(x->rebuilt[s], GF_LOST);
	}
	free(x->ours_shards);
	free(x->present);
	free(x->mat);
	free(x->tables);
	free(x->dec_tables);
}

/* The cell of a case that was not set up: every contender "-", with why. */
static int refused_setup(void *data, char *why, size_t len)
{
	const gf_case *x = data;
	snprintf(why, len, "%s", x->refused);
	return -1;
}

/* ---- the run ------------------------------------------------------------------ */

/* --algos: gemmkit, isal (ours and refs are other names for them). */
static int choose(gf_run *g)
{
	int want[GF_NC] = {0};
	const char *p = g->o->algos;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if ((len == 7 && !strncmp(p, "gemmkit", 7)) || (len == 4 && !strncmp(p, "ours", 4)))
			want[GF_OURS] = 1;
		else if ((len == 4 && !strncmp(p, "isal", 4)) || (len == 4 && !strncmp(p, "refs", 4)))
			want[GF_ISAL] = 1;
		else {
			cli_error(CMD, "--algos \"%s\": the gf256 contenders are gemmkit and isal", g->o->algos);
			return 2;
		}
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	if (want[GF_ISAL] && bench_isal_load(&g->isal, g->isal_why, sizeof g->isal_why) != 0) {
		fprintf(stderr, "gemmkit bench: %s: skipped\n", g->isal_why);
		want[GF_ISAL] = 0;
	}
	for (int s = 0; s < GF_NC; s++) {
		if (!want[s])
			continue;
		bench_contender *c = &g->c[g->nc];
		memset(c, 0, sizeof *c);
		snprintf(c->id, sizeof c->id, "%s", s == GF_OURS ? "gemmkit" : "isal");
		snprintf(c->name, sizeof c->name, "%s", s == GF_OURS ? "gemmkit" : "ISA-L");
		c->units = BENCH_GBS;
		c->ops = s == GF_OURS ? &ours_ops : &isal_ops;
		g->who[g->nc++] = s;
	}
	return 0;
}

int bench_run_gf256(const bench_opts *o)
{
	gf_run *g = calloc(1, sizeof *g);
	if (g == NULL) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	g->o = o;
	g->matrix_equal = 1;
	snprintf(g->isal_why, sizeof g->isal_why, "not asked for (--algos)");
	int rc = choose(g);
	if (rc == 0 && o->list) {
		for (int i = 0; i < g->nc; i++)
			printf("%s\t%s\n", g->c[i].id, g->who[i] == GF_OURS ? "gemmkit: gk_rs_encode_ex / gk_rs_reconstruct_ex"
			       : g->isal.path);
	} else if (rc == 0 && g->nc == 0) {
		cli_error(CMD, "no contender left to run");
		rc = 1;
	} else if (rc == 0) {
		bench_report rep;
		rc = bench_report_begin(&rep, o->out, o->suite->name, o->argc, o->argv);
		const int ncases = o->ncodes * o->ngf_sizes * o->nthreads;
		g->rows = calloc((size_t)ncases * 2, sizeof *g->rows);
		if (rc == 0 && g->rows == NULL) {
			cli_error(CMD, "out of memory");
			rc = 1;
		}
		if (rc == 0) {
			bench_engine_init(&g->eng, o->quick);
			g->eng.reps = o->reps ? o->reps : o->quick ? GF_QUICK_REPS : GF_REPS;
			g->eng.round_s = o->quick ? BENCH_QUICK_ROUND_S : GF_ROUND_S;
			g->eng.settle_s = BENCH_SETTLE_S;
			g->eng.cap = o->cap;
			g->eng.total = ncases * 2 * g->nc;
			for (int ti = 0; ti < o->nthreads && rc == 0; ti++)
				for (int si = 0; si < o->ngf_sizes && rc == 0; si++)
					for (int ci = 0; ci < o->ncodes && rc == 0; ci++) {
						gf_case x;
						const int k = o->codes[ci][0], m = o->codes[ci][1];
						/* The data, each side's parity and rebuilt shards,
						 * before any of them (see cli_mem_fits). */
						const double need = (double)o->gf_sizes[si] * (k + m + GF_NC * (m + GF_LOST));
						memset(&x, 0, sizeof x);
						if (cli_mem_fits(need, "the shards", x.refused, sizeof x.refused) != 0) {
							x.g = g, x.k = k, x.m = m, x.size = o->gf_sizes[si], x.threads = o->threads[ti];
						} else if (case_init(&x, g, k, m, o->gf_sizes[si], o->threads[ti]) != 0) {
							rc = 1;
						}
						for (int op = 0; op < 2 && rc == 0; op++) {
							gf_row *row = &g->rows[g->nrows++];
							*row = (gf_row){op, k, m, o->threads[ti], o->gf_sizes[si], {{0}}};
							x.op = op;
							bench_cell cell;
							memset(&cell, 0, sizeof cell);
							char sz[32];
							gf_size_label(x.size, sz, sizeof sz);
							snprintf(cell.label, sizeof cell.label, "%s %d+%d %s t=%d",
							         op == GF_ENCODE ? "encode" : "decode", k, m, sz, x.threads);
							cell.series = op;
							cell.work = (double)k * (double)x.size;
							cell.threads = x.threads;
							cell.data = &x;
							cell.setup = x.refused[0] ? refused_setup : NULL;
							cell.before_check = poison;
							cell.check = check;
							bench_result res[GF_NC];
							bench_run_cell(&g->eng, g->c, g->nc, &cell, res);
							for (int i = 0; i < g->nc; i++)
								row->r[g->who[i]] = res[i];
						}
						if (!x.refused[0])
							case_free(&x);
					}
			gf256_report(g, &rep);
			fprintf(stderr, "gemmkit bench: done in %.0f s; results in %s/\n", bench_report_wall(&rep), o->out);
			rc = rc || rep.failed || g->eng.failed;
		}
	}
	bench_isal_close(&g->isal);
	free(g->rows);
	free(g);
	return rc;
}
