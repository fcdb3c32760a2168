/*
 * bench_gf256.c - `gemmkit bench --suite gf256`: Reed-Solomon encode and
 * decode throughput of gemmkit against ISA-L (libisal.so.2, loaded at run
 * time; the benchmark runs without it and says so).
 *
 * Every case (code k+m, shard size, thread count) goes the same way:
 *   1. One coding matrix for both: gemmkit's Cauchy matrix (gk_rs_matrix_get),
 *      whose parity rows are also fed to ISA-L's ec_init_tables. Whether it
 *      equals ISA-L's own gf_gen_cauchy1_matrix is recorded in meta.txt.
 *   2. Check first: gemmkit's parity must equal ISA-L's byte for byte, and
 *      both decoders must give back the two lost data shards exactly. A
 *      failed check prints ERR, is not timed, and makes the exit status 1.
 *   3. Warm-up, then timed rounds, each a batch of calls of about ROUND_S;
 *      the median over rounds is the time of one call. With one thread the
 *      rounds are interleaved (gemmkit then ISA-L, then the other way
 *      round); with several, each side runs its rounds in a row after a
 *      pause (see time_pair).
 * Throughput is GB/s of data: k x shard bytes / time (10^9 bytes).
 *
 * Encode: gemmkit is gk_gf256_gemm_rows_ex (what gk_rs_encode runs) with a
 * context of T threads; ISA-L is ec_encode_data, its tables made once,
 * outside the timing (they depend on the code only).
 * Decode: data shards 0 and 1 lost, rebuilt from the first k survivors.
 * Both sides are timed with the inversion of the surviving k x k submatrix
 * included (gk_gf256_invert_matrix / gf_invert_matrix, plus ec_init_tables
 * for ISA-L), as for a new erasure pattern.
 * ISA-L is single-threaded: with T threads, T pthreads each run
 * ec_encode_data on 1/T of the columns (bytes) of every shard.
 */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli_util.h"
#include "commands.h"
#include "gemmkit.h"

#define CMD "bench --suite gf256"
#define MAX_CASES 32
#define MAX_THREADS 64
#define ROUND_S 0.02
#define QUICK_ROUND_S 0.002
#define DEFAULT_REPS 7
#define QUICK_REPS 3
#define LOST 2 /* data shards lost in the decode case */

static const char usage_text[] =
"usage: gemmkit bench --suite gf256 [options]\n"
"\n"
"Reed-Solomon encode and decode throughput (GB/s of data = k x shard bytes /\n"
"time) of gemmkit and of ISA-L's ec_encode_data (libisal.so.2, when installed),\n"
"median of timed rounds (interleaved with 1 thread; with more, each side in a\n"
"row after a pause, so that idle spinning workers do not steal cores).\n"
"gemmkit's parity is first checked byte for byte against ISA-L's (same Cauchy\n"
"matrix), and both decoders against the data.\n"
"Decode rebuilds 2 lost data shards and is timed with the matrix inversion.\n"
"\n"
"  --codes LIST      k+m codes (default 4+2,6+3,10+4,12+4,28+4)\n"
"  --sizes LIST      shard sizes in bytes, k/M suffixes (default 64k,1M)\n"
"  --threads LIST    thread counts (default 1,2); ISA-L gets T pthreads, each\n"
"                    coding 1/T of every shard\n"
"  --reps N          timed rounds per case (default 7; 3 with --quick)\n"
"  --seed N          seed of the random data (default 1)\n"
"  --out DIR         where results.md, results.csv, meta.txt and gf256.png go\n"
"                    (default gemmkit-bench-gf256)\n"
"  --no-plot         do not run gnuplot\n"
"  --quick           a short run for tests: 4+2 and 10+4, 64k, 1 thread\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 done, 1 a check failed or an output could not be written,\n"
"2 bad command line.\n";

/* ---- ISA-L, loaded at run time ----------------------------------------------- */

typedef struct isal_lib {
	void *handle;
	char path[PATH_MAX];
	void (*init_tables)(int k, int rows, unsigned char *a, unsigned char *gftbls);
	void (*encode)(int len, int k, int rows, unsigned char *gftbls, unsigned char **data,
	               unsigned char **coding);
	void (*gen_cauchy1)(unsigned char *a, int m, int k);
	int (*invert)(unsigned char *in, unsigned char *out, const int n);
} isal_lib;

/* The sanitizer runtimes refuse RTLD_DEEPBIND; ISA-L's symbols do not clash
 * with gemmkit's, so a sanitized build can do without it. */
#if defined(__SANITIZE_ADDRESS__)
#define GK_DEEPBIND 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GK_DEEPBIND 0
#endif
#endif
#ifndef GK_DEEPBIND
#define GK_DEEPBIND RTLD_DEEPBIND
#endif

static int isal_load(isal_lib *L, char *why, size_t why_len)
{
	static const char *const names[] = {"libisal.so.2", "libisal.so"};
	memset(L, 0, sizeof *L);
	char first_error[256] = "";
	for (size_t i = 0; i < sizeof names / sizeof names[0] && L->handle == NULL; i++) {
		/* DEEPBIND: the library's own calls must bind to its own symbols. */
		L->handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL | GK_DEEPBIND);
		if (L->handle == NULL && i == 0)
			snprintf(first_error, sizeof first_error, "%s", dlerror());
	}
	if (L->handle == NULL) {
		snprintf(why, why_len, "ISA-L not found (%s)", first_error);
		return -1;
	}
	*(void **)&L->init_tables = dlsym(L->handle, "ec_init_tables");
	*(void **)&L->encode = dlsym(L->handle, "ec_encode_data");
	*(void **)&L->gen_cauchy1 = dlsym(L->handle, "gf_gen_cauchy1_matrix");
	*(void **)&L->invert = dlsym(L->handle, "gf_invert_matrix");
	if (!L->init_tables || !L->encode || !L->gen_cauchy1 || !L->invert) {
		snprintf(why, why_len, "ISA-L found but lacks ec_init_tables / ec_encode_data / "
		                       "gf_gen_cauchy1_matrix / gf_invert_matrix");
		dlclose(L->handle);
		L->handle = NULL;
		return -1;
	}
	Dl_info di;
	if (dladdr(*(void **)&L->encode, &di) && di.dli_fname && realpath(di.dli_fname, L->path) == NULL)
		snprintf(L->path, sizeof L->path, "%s", di.dli_fname);
	return 0;
}

/* ---- a pool of T - 1 pthreads for ISA-L ------------------------------------------- */

/*
 * Workers spin for a while after each job, then sleep on a condition
 * variable: back-to-back calls (one timed batch) then pay no wake-up
 * latency, as OpenMP's workers pay none, and idle workers do not eat the
 * CPU while gemmkit's batch runs.
 */
#define POOL_SPINS 20000

typedef struct pool pool;
typedef void (*pool_fn)(void *arg, int part, int nparts);
typedef struct pool_worker {
	pool *p;
	int part;
	pthread_t tid;
} pool_worker;
struct pool {
	int n;
	_Atomic unsigned gen;   /* bumped for each job */
	_Atomic int pending;    /* workers still running the current job */
	_Atomic int quit;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pool_fn fn;
	void *arg;
	pool_worker w[MAX_THREADS];
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void *pool_main(void *a)
{
	pool_worker *w = a;
	pool *p = w->p;
	unsigned seen = 0;
	for (;;) {
		unsigned g;
		int spins = 0;
		while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen) {
			if (++spins < POOL_SPINS) {
				cpu_relax();
				continue;
			}
			pthread_mutex_lock(&p->mu);
			while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen)
				pthread_cond_wait(&p->cv, &p->mu);
			pthread_mutex_unlock(&p->mu);
			break;
		}
		seen = g;
		if (atomic_load(&p->quit))
			return NULL;
		p->fn(p->arg, w->part, p->n);
		atomic_fetch_sub_explicit(&p->pending, 1, memory_order_release);
	}
}

static void pool_kick(pool *p)
{
	pthread_mutex_lock(&p->mu);
	atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static int pool_init(pool *p, int n)
{
	memset(p, 0, sizeof *p);
	p->n = n;
	if (n == 1)
		return 0;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	for (int i = 1; i < n; i++) {
		p->w[i].p = p;
		p->w[i].part = i;
		if (pthread_create(&p->w[i].tid, NULL, pool_main, &p->w[i]) != 0)
			return -1; /* not recoverable in a benchmark: the caller exits */
	}
	return 0;
}

static void pool_run(pool *p, pool_fn fn, void *arg)
{
	if (p->n == 1) {
		fn(arg, 0, 1);
		return;
	}
	p->fn = fn;
	p->arg = arg;
	atomic_store_explicit(&p->pending, p->n - 1, memory_order_relaxed);
	pool_kick(p);
	fn(arg, 0, p->n);
	while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0)
		cpu_relax();
}

static void pool_free(pool *p)
{
	if (p->n == 1)
		return;
	atomic_store(&p->quit, 1);
	pool_kick(p);
	for (int i = 1; i < p->n; i++)
		pthread_join(p->w[i].tid, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
}

/* ---- one case ----------------------------------------------------------------------- */

typedef struct bench_case {
	int k, m;
	int64_t size;       /* bytes per shard */
	int threads;
	/* buffers */
	uint8_t *mat;        /* (k + m) x k, gemmkit's Cauchy matrix */
	uint8_t **shard;     /* k + m shards: data then parity (gemmkit's) */
	uint8_t **isal_par;  /* m parity shards from ISA-L */
	uint8_t **rebuilt;   /* LOST rebuilt data shards */
	const uint8_t **surv;/* the k survivors used by decode */
	int surv_rows[256];
	uint8_t *tables;     /* ISA-L tables of the parity rows: 32 x k x m */
	uint8_t *dec_tables; /* ISA-L tables of the decode rows: 32 x k x LOST */
	gk_context *ctx;
	pool pool;
	isal_lib *isal;
} bench_case;

/* ISA-L ec_encode_data on the columns [lo, hi) of `part`. */
typedef struct isal_job {
	isal_lib *L;
	int len, k, rows;
	uint8_t *tables;
	uint8_t *const *src;
	uint8_t *const *dst;
} isal_job;

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

static int run_ours_encode(bench_case *c)
{
	return gk_gf256_gemm_rows_ex(c->ctx, c->m, c->size, c->k, c->mat + (size_t)c->k * c->k, c->k,
	                             (const uint8_t *const *)c->shard, c->shard + c->k) == GK_OK ? 0 : -1;
}

static int run_isal_encode(bench_case *c)
{
	isal_job j = {c->isal, (int)c->size, c->k, c->m, c->tables, c->shard, c->isal_par};
	pool_run(&c->pool, isal_job_run, &j);
	return 0;
}

/* The decode matrix rows of the lost shards 0..LOST-1. */
static void surviving_submatrix(const bench_case *c, uint8_t *sub)
{
	for (int r = 0; r < c->k; r++)
		memcpy(sub + (size_t)r * c->k, c->mat + (size_t)c->surv_rows[r] * c->k, (size_t)c->k);
}

static int run_ours_decode(bench_case *c)
{
	uint8_t sub[256 * 256], inv[256 * 256];
	surviving_submatrix(c, sub);
	if (gk_gf256_invert_matrix(c->k, sub, inv) != GK_OK)
		return -1;
	/* The lost shards are 0 .. LOST-1: the first LOST rows of the inverse. */
	return gk_gf256_gemm_rows_ex(c->ctx, LOST, c->size, c->k, inv, c->k, c->surv, c->rebuilt) == GK_OK
	       ? 0 : -1;
}

static int run_isal_decode(bench_case *c)
{
	uint8_t sub[256 * 256], inv[256 * 256];
	surviving_submatrix(c, sub);
	if (c->isal->invert(sub, inv, c->k) != 0)
		return -1;
	c->isal->init_tables(c->k, LOST, inv, c->dec_tables);
	isal_job j = {c->isal, (int)c->size, c->k, LOST, c->dec_tables, (uint8_t *const *)c->surv, c->rebuilt};
	pool_run(&c->pool, isal_job_run, &j);
	return 0;
}

typedef int (*runner)(bench_case *);

/* Seconds per call over a batch of `iters` calls. */
static double time_batch(runner fn, bench_case *c, int64_t iters)
{
	double t0 = cli_now();
	for (int64_t i = 0; i < iters; i++)
		fn(c);
	return (cli_now() - t0) / (double)iters;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median seconds per call of fns[0] and fns[1] (NULL: not run) over timed rounds:
 * interleaved with one thread, in a row for each side with several. */
static void time_pair(runner fns[2], bench_case *c, int reps, double round_s, double out[2])
{
	int64_t iters[2] = {1, 1};
	for (int f = 0; f < 2; f++) {
		if (fns[f] == NULL)
			continue;
		fns[f](c); /* warm-up: first touch, tables, thread start */
		double t = time_batch(fns[f], c, 1);
		iters[f] = t > 0 ? (int64_t)(round_s / t) + 1 : 1000;
		time_batch(fns[f], c, iters[f] / 4 + 1);
	}
	double *t[2] = {calloc((size_t)reps, sizeof(double)), calloc((size_t)reps, sizeof(double))};
	if (c->threads == 1) {
		for (int r = 0; r < reps; r++)
			for (int o = 0; o < 2; o++) {
				int f = (r & 1) ? 1 - o : o;
				if (fns[f] != NULL)
					t[f][r] = time_batch(fns[f], c, iters[f]);
			}
	} else {
		/* With several threads, one side's idle workers (OpenMP's, the pool's)
		 * still spin for a while after each call and would take a core from
		 * the other side: each side runs all its rounds in a row, after a
		 * pause that lets the other's workers fall asleep. */
		for (int f = 0; f < 2; f++) {
			if (fns[f] == NULL)
				continue;
			const struct timespec pause = {0, 200 * 1000 * 1000};
			nanosleep(&pause, NULL);
			fns[f](c);
			for (int r = 0; r < reps; r++)
				t[f][r] = time_batch(fns[f], c, iters[f]);
		}
	}
	for (int f = 0; f < 2; f++) {
		qsort(t[f], (size_t)reps, sizeof(double), cmp_double);
		out[f] = fns[f] ? (reps % 2 ? t[f][reps / 2] : 0.5 * (t[f][reps / 2 - 1] + t[f][reps / 2])) : NAN;
		free(t[f]);
	}
}

/* ---- options -------------------------------------------------------------------------- */

typedef struct gf_opts {
	int codes[MAX_CASES][2], ncodes;
	int64_t sizes[MAX_CASES];
	int nsizes;
	int64_t threads[MAX_CASES];
	int nthreads;
	int reps, quick, plot;
	uint64_t seed;
	const char *out;
} gf_opts;

static int parse_codes(const char *s, gf_opts *o)
{
	o->ncodes = 0;
	const char *p = s;
	while (*p) {
		char *end;
		long k = strtol(p, &end, 10);
		if (end == p || *end != '+')
			return -1;
		p = end + 1;
		long m = strtol(p, &end, 10);
		if (end == p || k < 1 || m < 1 || k + m > 256 || o->ncodes >= MAX_CASES)
			return -1;
		if (m < LOST || k < LOST)
			return -1; /* the decode case loses LOST data shards */
		o->codes[o->ncodes][0] = (int)k;
		o->codes[o->ncodes][1] = (int)m;
		o->ncodes++;
		p = end;
		if (*p == ',')
			p++;
		else if (*p != '\0')
			return -1;
	}
	return o->ncodes > 0 ? 0 : -1;
}

/* 0: parsed; 1: help printed; 2: bad command line. */
static int parse_gf_options(int argc, char **argv, gf_opts *o)
{
	memset(o, 0, sizeof *o);
	o->plot = 1;
	o->seed = 1;
	o->out = "gemmkit-bench-gf256";
	const char *codes = "4+2,6+3,10+4,12+4,28+4", *sizes = "64k,1M", *threads = "1,2";
	int64_t reps = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char name[32];
		const char *eq = strchr(a, '=');
		if (strncmp(a, "--", 2) == 0 && eq && (size_t)(eq - a) < sizeof name) {
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = '\0';
			val = eq + 1;
		} else {
			snprintf(name, sizeof name, "%s", a);
		}
		int takes = !strcmp(name, "--suite") || !strcmp(name, "--codes") || !strcmp(name, "--sizes") ||
		            !strcmp(name, "--threads") || !strcmp(name, "--reps") || !strcmp(name, "--seed") ||
		            !strcmp(name, "--out");
		if (takes && val == NULL) {
			if (i + 1 >= argc) {
				cli_error(CMD, "%s needs a value (see --help)", name);
				return 2;
			}
			val = argv[++i];
		} else if (!takes && val != NULL) {
			cli_error(CMD, "%s takes no value (see --help)", name);
			return 2;
		}
		int64_t v;
		if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
			fputs(usage_text, stdout);
			return 1;
		} else if (!strcmp(name, "--suite")) {
			if (strcmp(val, "gf256") != 0) {
				cli_error(CMD, "--suite \"%s\": this is the gf256 suite", val);
				return 2;
			}
		} else if (!strcmp(name, "--codes")) {
			codes = val;
		} else if (!strcmp(name, "--sizes")) {
			sizes = val;
		} else if (!strcmp(name, "--threads")) {
			threads = val;
		} else if (!strcmp(name, "--reps")) {
			if (cli_parse_i64(val, 1, 1000, &reps) != 0) {
				cli_error(CMD, "--reps \"%s\": expected a whole number in [1, 1000]", val);
				return 2;
			}
		} else if (!strcmp(name, "--seed")) {
			if (cli_parse_i64(val, 0, INT64_MAX, &v) != 0) {
				cli_error(CMD, "--seed \"%s\": expected a whole number >= 0", val);
				return 2;
			}
			o->seed = (uint64_t)v;
		} else if (!strcmp(name, "--out")) {
			o->out = val;
		} else if (!strcmp(name, "--no-plot")) {
			o->plot = 0;
		} else if (!strcmp(name, "--quick")) {
			o->quick = 1;
		} else {
			cli_error(CMD, "unknown option \"%s\" (see gemmkit bench --suite gf256 --help)", a);
			return 2;
		}
	}
	if (o->quick) {
		int explicit_codes = 0, explicit_sizes = 0, explicit_threads = 0;
		for (int i = 1; i < argc; i++) {
			explicit_codes |= !strncmp(argv[i], "--codes", 7);
			explicit_sizes |= !strncmp(argv[i], "--sizes", 7);
			explicit_threads |= !strncmp(argv[i], "--threads", 9);
		}
		if (!explicit_codes)
			codes = "4+2,10+4";
		if (!explicit_sizes)
			sizes = "64k";
		if (!explicit_threads)
			threads = "1";
	}
	if (parse_codes(codes, o) != 0) {
		cli_error(CMD, "--codes \"%s\": expected k+m,... with k, m >= %d and k + m <= 256", codes, LOST);
		return 2;
	}
	o->nsizes = cli_parse_i64_list(sizes, 64, INT64_C(1) << 30, o->sizes, MAX_CASES);
	if (o->nsizes < 1) {
		cli_error(CMD, "--sizes \"%s\": expected shard sizes in [64, 1G]", sizes);
		return 2;
	}
	o->nthreads = cli_parse_i64_list(threads, 1, MAX_THREADS, o->threads, MAX_CASES);
	if (o->nthreads < 1) {
		cli_error(CMD, "--threads \"%s\": expected thread counts in [1, %d]", threads, MAX_THREADS);
		return 2;
	}
	o->reps = reps ? (int)reps : o->quick ? QUICK_REPS : DEFAULT_REPS;
	return 0;
}

/* ---- output ------------------------------------------------------------------------------ */

typedef struct gf_result {
	int k, m, threads;
	int64_t size;
	const char *op;     /* "encode", "decode" */
	double ours, isal;  /* GB/s; NaN when not run */
	int verified;       /* 1 checked, 0 mismatch, -1 no ISA-L (self-check only) */
} gf_result;

static void size_label(int64_t s, char *buf, size_t n)
{
	if (s % (1 << 20) == 0)
		snprintf(buf, n, "%lld MiB", (long long)(s >> 20));
	else if (s % 1024 == 0)
		snprintf(buf, n, "%lld KiB", (long long)(s >> 10));
	else
		snprintf(buf, n, "%lld B", (long long)s);
}

static int make_dir(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0777) != 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -1;
	struct stat st;
	return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

static void fmt_gbs(double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, "%.2f", v);
}

static void write_table(FILE *f, const gf_result *r, int nr)
{
	fprintf(f, "| case | threads | op | gemmkit GB/s | ISA-L GB/s | ratio |\n");
	fprintf(f, "|---|---:|---|---:|---:|---:|\n");
	for (int i = 0; i < nr; i++) {
		char sz[32], a[32], b[32], ratio[32];
		size_label(r[i].size, sz, sizeof sz);
		fmt_gbs(r[i].ours, a, sizeof a);
		fmt_gbs(r[i].isal, b, sizeof b);
		if (r[i].verified == 0)
			snprintf(a, sizeof a, "ERR");
		if (isnan(r[i].ours) || isnan(r[i].isal) || r[i].verified == 0)
			snprintf(ratio, sizeof ratio, "-");
		else
			snprintf(ratio, sizeof ratio, "%.2f", r[i].ours / r[i].isal);
		fprintf(f, "| %d+%d, %s | %d | %s | %s | %s | %s |\n", r[i].k, r[i].m, sz, r[i].threads, r[i].op,
		        a, b, ratio);
	}
}

static int write_csv(const char *path, const gf_result *r, int nr)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fprintf(f, "op,k,m,shard_bytes,threads,gemmkit_gbs,isal_gbs,ratio,verified\n");
	for (int i = 0; i < nr; i++) {
		double ratio = r[i].ours / r[i].isal;
		fprintf(f, "%s,%d,%d,%lld,%d,%.4f,%.4f,%.4f,%s\n", r[i].op, r[i].k, r[i].m, (long long)r[i].size,
		        r[i].threads, r[i].ours, r[i].isal, ratio,
		        r[i].verified == 1 ? "isal" : r[i].verified < 0 ? "self" : "MISMATCH");
	}
	return fclose(f) == 0 ? 0 : -1;
}

/* A clustered bar chart: one panel per operation, a pair of bars per case. */
static int write_plot(const char *dir, const gf_result *r, int nr, const char *title)
{
	char dat[PATH_MAX], gp[PATH_MAX];
	snprintf(dat, sizeof dat, "%s/gf256.dat", dir);
	snprintf(gp, sizeof gp, "%s/gf256.gp", dir);
	FILE *f = fopen(dat, "w");
	if (f == NULL)
		return -1;
	static const char *const ops[2] = {"encode", "decode"};
	for (int o = 0; o < 2; o++) {
		fprintf(f, "# %s\ncase gemmkit ISA-L\n", ops[o]);
		for (int i = 0; i < nr; i++)
			if (!strcmp(r[i].op, ops[o])) {
				char sz[32];
				size_label(r[i].size, sz, sizeof sz);
				for (char *p = sz; *p; p++)
					if (*p == ' ')
						*p = '_';
				fprintf(f, "\"%d+%d %s %dT\" %.4f %.4f\n", r[i].k, r[i].m, sz, r[i].threads,
				        isnan(r[i].ours) ? 0.0 : r[i].ours, isnan(r[i].isal) ? 0.0 : r[i].isal);
			}
		fprintf(f, "\n\n");
	}
	fclose(f);
	f = fopen(gp, "w");
	if (f == NULL)
		return -1;
	fprintf(f,
	        "set terminal pngcairo size 1400,900 noenhanced font ',10'\n"
	        "set output '%s/gf256.png'\n"
	        "set multiplot layout 2,1 title \"%s\"\n"
	        "set style data histograms\nset style histogram clustered gap 1\n"
	        "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
	        "set ylabel 'GB/s of data'\nset grid ytics\nset key top left\nset yrange [0:*]\n"
	        "set xtics rotate by -30\n"
	        "set title 'encode'\n"
	        "plot '%s' index 0 using 2:xtic(1) title columnheader(2), '' index 0 using 3 title columnheader(3)\n"
	        "set title 'decode (2 lost data shards, inversion included)'\n"
	        "plot '%s' index 1 using 2:xtic(1) title columnheader(2), '' index 1 using 3 title columnheader(3)\n"
	        "unset multiplot\n",
	        dir, title, dat, dat);
	fclose(f);
	char cmd[3 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>&1", gp);
	if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
		fprintf(stderr, "gemmkit %s: gnuplot not found: no plot (the data is in %s)\n", CMD, dat);
		return -1;
	}
	if (system(cmd) != 0) {
		fprintf(stderr, "gemmkit %s: gnuplot failed on %s\n", CMD, gp);
		return -1;
	}
	return 0;
}

/* ---- the suite ------------------------------------------------------------------------------ */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void *alloc64(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) / 64 * 64);
	if (p == NULL) {
		cli_error(CMD, "out of memory (%zu bytes)", n);
		exit(1);
	}
	return p;
}

/* Run one (code, size, threads) case: append 2 results. Returns 0, or 1 when a check failed. */
static int run_case(const gf_opts *o, isal_lib *L, int k, int m, int64_t size, int threads,
                    gf_result *res, int *matrix_equal)
{
	bench_case c;
	memset(&c, 0, sizeof c);
	c.k = k;
	c.m = m;
	c.size = size;
	c.threads = threads;
	c.isal = L->handle ? L : NULL;
	int n = k + m, failed = 0;
	gk_rs *rs = NULL;
	if (gk_rs_create(&rs, k, m, GK_RS_CAUCHY) != GK_OK) {
		cli_error(CMD, "gk_rs_create(%d, %d) failed: %s", k, m, gk_last_error());
		return 1;
	}
	c.mat = alloc64((size_t)n * k);
	gk_rs_matrix_get(rs, c.mat);
	gk_rs_destroy(rs);
	c.shard = alloc64(sizeof(uint8_t *) * (size_t)n);
	c.isal_par = alloc64(sizeof(uint8_t *) * (size_t)m);
	c.rebuilt = alloc64(sizeof(uint8_t *) * LOST);
	c.surv = alloc64(sizeof(uint8_t *) * (size_t)k);
	uint64_t seed = o->seed ^ ((uint64_t)k << 40) ^ ((uint64_t)m << 32) ^ (uint64_t)size;
	for (int i = 0; i < n; i++) {
		c.shard[i] = alloc64((size_t)size);
		for (int64_t j = 0; j < size; j += 8) {
			uint64_t v = splitmix(&seed);
			memcpy(c.shard[i] + j, &v, (size_t)(size - j < 8 ? size - j : 8));
		}
	}
	for (int i = 0; i < m; i++)
		c.isal_par[i] = alloc64((size_t)size);
	for (int i = 0; i < LOST; i++)
		c.rebuilt[i] = alloc64((size_t)size);
	/* Survivors: the first k shards after the lost data shards 0..LOST-1. */
	for (int r = 0; r < k; r++) {
		c.surv_rows[r] = LOST + r;
		c.surv[r] = c.shard[LOST + r];
	}
	gk_context_create(&c.ctx);
	gk_context_set_threads(c.ctx, threads);
	if (pool_init(&c.pool, threads) != 0) {
		cli_error(CMD, "cannot start %d threads", threads);
		exit(1);
	}

	/* 1. Checks. */
	int enc_ok = run_ours_encode(&c) == 0;
	int verified = -1;
	if (c.isal) {
		c.tables = alloc64((size_t)32 * k * m);
		c.dec_tables = alloc64((size_t)32 * k * LOST);
		L->init_tables(k, m, c.mat + (size_t)k * k, c.tables);
		uint8_t *cauchy = alloc64((size_t)n * k);
		L->gen_cauchy1(cauchy, n, k);
		if (memcmp(cauchy, c.mat, (size_t)n * k) != 0)
			*matrix_equal = 0;
		free(cauchy);
		run_isal_encode(&c);
		for (int i = 0; i < m; i++)
			if (memcmp(c.isal_par[i], c.shard[k + i], (size_t)size) != 0)
				enc_ok = 0;
		verified = enc_ok;
	} else if (enc_ok) {
		/* Without ISA-L: parity against a scalar computation of a few columns. */
		for (int i = 0; i < m && enc_ok; i++)
			for (int64_t col = 0; col < size; col += 4093) {
				uint8_t acc = 0;
				for (int j = 0; j < k; j++)
					acc ^= gk_gf256_mul(c.mat[(size_t)(k + i) * k + j], c.shard[j][col]);
				if (acc != c.shard[k + i][col])
					enc_ok = 0;
			}
	}
	int dec_ok = 1;
	for (int pass = 0; pass < (c.isal ? 2 : 1); pass++) {
		for (int i = 0; i < LOST; i++)
			memset(c.rebuilt[i], 0xA5, (size_t)size);
		int rc = pass == 0 ? run_ours_decode(&c) : run_isal_decode(&c);
		for (int i = 0; i < LOST; i++)
			if (rc != 0 || memcmp(c.rebuilt[i], c.shard[i], (size_t)size) != 0)
				dec_ok = 0;
	}
	if (!enc_ok || !dec_ok) {
		cli_error(CMD, "%d+%d, %lld bytes, %d threads: %s check FAILED", k, m, (long long)size, threads,
		          !enc_ok ? "encode" : "decode");
		failed = 1;
	}

	/* 2. Timing. */
	double round_s = o->quick ? QUICK_ROUND_S : ROUND_S;
	double data = (double)k * (double)size;
	static const char *const ops[2] = {"encode", "decode"};
	for (int op = 0; op < 2; op++) {
		gf_result *r = &res[op];
		r->k = k;
		r->m = m;
		r->size = size;
		r->threads = threads;
		r->op = ops[op];
		r->verified = (op == 0 ? enc_ok : dec_ok) ? verified : 0;
		r->ours = r->isal = NAN;
		if (failed)
			continue;
		runner fns[2] = {op == 0 ? run_ours_encode : run_ours_decode,
		                 c.isal ? (op == 0 ? run_isal_encode : run_isal_decode) : NULL};
		double t[2];
		time_pair(fns, &c, o->reps, round_s, t);
		r->ours = data / t[0] / 1e9;
		r->isal = c.isal ? data / t[1] / 1e9 : NAN;
	}

	pool_free(&c.pool);
	gk_context_destroy(c.ctx);
	for (int i = 0; i < n; i++)
		free(c.shard[i]);
	for (int i = 0; i < m; i++)
		free(c.isal_par[i]);
	for (int i = 0; i < LOST; i++)
		free(c.rebuilt[i]);
	free(c.shard);
	free(c.isal_par);
	free(c.rebuilt);
	free(c.surv);
	free(c.mat);
	free(c.tables);
	free(c.dec_tables);
	return failed;
}

int gk_bench_gf256(int argc, char **argv)
{
	gf_opts o;
	int rc = parse_gf_options(argc, argv, &o);
	if (rc != 0)
		return rc == 1 ? 0 : 2;
	if (make_dir(o.out) != 0) {
		cli_error(CMD, "cannot create the directory %s: %s", o.out, strerror(errno));
		return 1;
	}
	isal_lib L;
	char why[512];
	if (isal_load(&L, why, sizeof why) != 0)
		fprintf(stderr, "gemmkit %s: %s: timing gemmkit alone\n", CMD, why);

	int ncases = o.ncodes * o.nsizes * o.nthreads;
	gf_result *res = calloc((size_t)ncases * 2, sizeof *res);
	if (res == NULL) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	int nr = 0, failed = 0, matrix_equal = 1;
	double t0 = cli_now();
	time_t now = time(NULL);
	char date[64];
	strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
	for (int ti = 0; ti < o.nthreads; ti++)
		for (int si = 0; si < o.nsizes; si++)
			for (int ci = 0; ci < o.ncodes; ci++) {
				failed |= run_case(&o, &L, o.codes[ci][0], o.codes[ci][1], o.sizes[si],
				                   (int)o.threads[ti], res + nr, &matrix_equal);
				nr += 2;
			}
	double wall = cli_now() - t0;

	gk_info info;
	gk_get_info(&info);
	printf("GF(2^8) Reed-Solomon, GB/s of data (k x shard bytes / time), median of %d rounds; %s\n\n",
	       o.reps, info.cpu_name);
	write_table(stdout, res, nr);
	if (!L.handle)
		printf("\nISA-L: not available (%s)\n", why);

	char path[PATH_MAX];
	int out_failed = 0;
	snprintf(path, sizeof path, "%s/results.md", o.out);
	FILE *f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f, "GF(2^8) Reed-Solomon on %s, %s: GB/s of data (k x shard bytes / time), "
		           "median of %d rounds (interleaved with 1 thread; each side in a row with more).\n\n",
		           info.cpu_name, date, o.reps);
		write_table(f, res, nr);
		out_failed |= fclose(f) != 0;
	} else {
		out_failed = 1;
	}
	snprintf(path, sizeof path, "%s/results.csv", o.out);
	out_failed |= write_csv(path, res, nr) != 0;
	snprintf(path, sizeof path, "%s/meta.txt", o.out);
	f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f, "command: gemmkit");
		for (int i = 0; i < argc; i++)
			fprintf(f, " %s", argv[i]);
		fprintf(f, "\ndate: %s\nwall_time_s: %.1f\n", date, wall);
		fprintf(f, "cpu: %s\nnproc: %ld\ncpu_features: %s\n", info.cpu_name,
		        sysconf(_SC_NPROCESSORS_ONLN), info.cpu_features);
		fprintf(f, "gemmkit: %s\ngemmkit_cpu_kernels: %s\n", gk_version_string(), gk_arch_name());
		if (L.handle)
			fprintf(f, "isal: %s (ec_encode_data, dlopen RTLD_LOCAL|RTLD_DEEPBIND)\n", L.path);
		else
			fprintf(f, "isal: not available: %s\n", why);
		fprintf(f, "matrix: gemmkit GK_RS_CAUCHY, used by both; %s ISA-L gf_gen_cauchy1_matrix\n",
		        !L.handle ? "not compared with" : matrix_equal ? "identical to" : "DIFFERENT from");
		fprintf(f, "reps: %d\nround_s: %g\nseed: %llu\nquick: %d\n", o.reps,
		        o.quick ? QUICK_ROUND_S : ROUND_S, (unsigned long long)o.seed, o.quick);
		fprintf(f, "throughput: GB/s = k * shard_bytes / seconds per call / 1e9\n"
		           "encode: gemmkit gk_gf256_gemm_rows_ex (context with T threads) vs ISA-L "
		           "ec_encode_data (tables made once, untimed)\n"
		           "decode: %d lost data shards rebuilt from the next k shards; timed with the "
		           "k x k inversion (gk_gf256_invert_matrix / gf_invert_matrix + ec_init_tables)\n"
		           "threads: ISA-L runs T pthreads, each on 1/T of every shard's bytes\n"
		           "verification: gemmkit parity == ISA-L parity byte for byte; both decodes == the "
		           "lost data (without ISA-L: parity against a scalar GF(2^8) dot product on sampled "
		           "columns)\n", LOST);
		out_failed |= fclose(f) != 0;
	} else {
		out_failed = 1;
	}
	int plotted = 0;
	if (o.plot) {
		char title[256];
		snprintf(title, sizeof title, "GF(2^8) Reed-Solomon, GB/s of data: %s (%s)", info.cpu_name, date);
		plotted = write_plot(o.out, res, nr, title) == 0;
	}
	if (out_failed)
		cli_error(CMD, "cannot write the results in %s", o.out);
	else
		printf("\nresults: %s/results.csv, results.md, meta.txt%s\n", o.out, plotted ? ", gf256.png" : "");
	if (L.handle)
		dlclose(L.handle);
	free(res);
	return failed || out_failed ? 1 : 0;
}
