/*
 * cmd_bench.c - `gemmkit bench`: GFLOPS of gemmkit's GEMM algorithms and of
 * the reference libraries (OpenBLAS, BLIS) over a list of sizes or shapes,
 * and the machine's floating-point peak that they are measured against.
 *
 * A run is a suite (--suite): a preset of contenders, sizes, shapes,
 * precisions, thread counts and cap, which the other options override. The
 * GEMM suites measure the multiply-add peak first (bench_peak.c), for "% of
 * peak"; the peak suite measures only that; gf256 is bench_gf256.c.
 *
 * Every cell (thread count x precision x shape) goes the same way:
 *   1. A contender whose time, predicted from its previous cell by the flop
 *      ratio, is over the cap is not run ("x"), nor at any larger size.
 *   2. One run of each contender is checked against a reference result
 *      (OpenBLAS if present, else BLIS, else gemmkit "auto"): a wrong
 *      result is "ERR" and makes the exit status 1.
 *   3. Warm-up, then timed rounds, each a batch of calls sized to about
 *      30 ms. With one thread they are interleaved across the contenders
 *      (each round runs every contender once, starting with a different one
 *      each round), so that a machine that drifts (clock, thermal,
 *      neighbours) slows every contender alike. With several threads each
 *      contender runs its rounds in a row after a pause, so that no thread
 *      pool still spinning after its own calls takes cores from another's.
 *   4. The median over rounds is the time; GFLOPS = 2 m n k / time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "bench_refs.h"
#include "cli_util.h"
#include "commands.h"
#include "gemmkit.h"

#define CMD "bench"
#define MAX_SHAPES 64
#define MAX_CONTENDERS 48
#define MAX_TCOUNTS 8             /* thread counts in one run */
#define MAX_PEAKS (MAX_TCOUNTS + 2) /* ... plus 1 and all processors */

/* Time budgets, in seconds: normal run, then --quick. */
#define ROUND_S 0.03         /* one batch of calls of one contender */
#define BUDGET_S 0.6         /* timed part per contender and cell */
#define WARMUP_S 0.02        /* warm-up per contender and cell, for fast calls */
#define QUICK_ROUND_S 0.002
#define QUICK_BUDGET_S 0.01
#define QUICK_WARMUP_S 0.001
#define WARMUP_MAX_RUN_S 0.25 /* a run slower than this needs no warm-up beyond the check */
#define SINGLE_REP_S 5.0     /* a run slower than this is timed once */
#define MIN_REPS 3
/* With several threads, the pause before each contender's rounds, in which
 * the thread pool of the previous one stops spinning and goes to sleep
 * (OpenBLAS's workers spin for 2^28 cycles, about 0.1 s). */
#define SETTLE_S 0.2
#define MAX_AUTO_REPS 50
/* The peak: runs of PEAK_S seconds, median of PEAK_REPS. */
#define PEAK_S 0.2
#define PEAK_REPS 5
#define QUICK_PEAK_S 0.01
#define QUICK_PEAK_REPS 3

/* Verification: ||C - Cref||_F <= ERR_C * k * eps * ||A||_F ||B||_F, the
 * worst-case bound of a K-term dot product (twice: C and Cref both carry
 * rounding error), and, because that bound grows loose for long k,
 * ||C - Cref||_F <= ERR_GROSS * ||Cref||_F, which random data in [-1, 1]
 * meets by orders of magnitude yet catches a result that is plainly wrong. */
#define ERR_C 4.0
#define ERR_GROSS 1e-2

enum { KIND_OURS, KIND_REF };
enum { ST_NONE = 0, ST_OK, ST_CAP, ST_FAIL, ST_SKIP };

typedef struct {
	int64_t m, n, k;
} bench_shape;

typedef struct {
	int status;
	double median_s; /* NaN when not timed */
	double gflops;   /* NaN when not timed */
	double err;      /* normwise error vs the reference; NaN when not checked */
	double err64;    /* SGEMM with --suite strassen: vs the product in double; else NaN */
} bench_result;

typedef struct {
	char id[64];    /* what --algos takes: "cpu.ikj", "auto", "openblas-best" */
	char name[160]; /* table column */
	int kind;
	int shown;      /* chosen by the user: timed and reported */
	unsigned dtypes;
	gk_context *ctx;
	bench_ref ref;
	/* The cap, per precision: the last measured time, and the smallest flop
	 * count known to be over the cap. */
	double last_s[2], last_flops[2], cap_flops[2];
	/* Scratch of the cell in progress. */
	int active;
	double t_est;
	int64_t batch;
	int reps;
	double *times;
} bench_contender;

/*
 * A suite: the defaults of a run. Its runtime is an estimate for an idle
 * machine with 2 cores of about 100 SGEMM GFLOPS each (from the cell costs
 * of bench_cell and the speed of each contender), and grows with the number
 * of gemmkit algorithms registered.
 */
typedef struct {
	const char *name;
	const char *what;    /* for --help */
	const char *runtime; /* for --help */
	const char *algos;
	const char *sizes;   /* --sizes syntax */
	const char *shapes;  /* --shapes syntax, or NULL */
	const char *dtype;
	const char *threads; /* --threads syntax; NULL: 1 and every processor */
	double cap;
	int times_table;     /* also a table of times per contender and size */
	int err_table;       /* also a table of errors, SGEMM against a product in double */
} bench_suite;

#define POW2_SIZES "16,32,64,128,256,512,1024,2048,4096"

static const bench_suite suites[] = {
	{"default", "every CPU algorithm and auto vs OpenBLAS and BLIS (as installed and\n"
	            "with the best kernel); SGEMM, N = 16 ... 4096, 1 thread, cap 10 s",
	 "4-6 min", "ours,refs", POW2_SIZES, NULL, "s", "1", 10, 0, 0},
	{"ladder", "the CPU ladder: every CPU algorithm and auto vs OpenBLAS as installed;\n"
	           "SGEMM, N = 16 ... 8192, threads 1 and 2, cap 10 s; GFLOPS and times",
	 "8-12 min", "ours,openblas", POW2_SIZES ",8192", NULL, "s", "1,2", 10, 1, 0},
	{"cpu", "production: auto and cpu.blocked vs OpenBLAS and BLIS, each as installed\n"
	        "and with its best kernel (shown even when that is the installed one);\n"
	        "SGEMM and DGEMM, N = 16 ... 8192 and 4096x4096x64, 64x4096x4096, 8x8x1e7,\n"
	        "1000x1000x1000, 1023x1025x1027; threads 1 and 2, cap 30 s",
	 "17-25 min", "auto,cpu.blocked,openblas,openblas-best,blis,blis-best", POW2_SIZES ",8192",
	 "4096x4096x64,64x4096x4096,8x8x1e7,1000x1000x1000,1023x1025x1027", "both", "1,2", 30, 0, 0},
	{"strassen", "auto and cpu.blocked vs every algorithm named *strassen*; SGEMM,\n"
	             "N = 1024, 1536, 2048, 3072, 4096, 6144, 8192, threads 1 and 2, cap 30 s;\n"
	             "GFLOPS counted as 2*N^3 / time for all, and the error of each against the\n"
	             "product computed in double precision",
	 "5-8 min", "auto,cpu.blocked,strassen", "1024,1536,2048,3072,4096,6144,8192", NULL, "s", "1,2", 30, 0,
	 1},
	{"peak", "the multiply-add peak alone: float and double, each vector instruction\n"
	         "set the CPU has (AVX-512, AVX2, SSE2), 1 thread and all processors;\n"
	         "only --threads, --reps, --out and --quick apply",
	 "15 s", NULL, NULL, NULL, NULL, NULL, 0, 0, 0},
};
#define N_SUITES ((int)(sizeof suites / sizeof suites[0]))

static const bench_suite *find_suite(const char *name)
{
	if (strcmp(name, "gemm") == 0) /* its name before there were suites */
		name = "default";
	for (int i = 0; i < N_SUITES; i++)
		if (strcmp(suites[i].name, name) == 0)
			return &suites[i];
	return NULL;
}

typedef struct {
	const bench_suite *suite;
	bench_shape shapes[MAX_SHAPES];
	int nshapes;
	int all_square;
	int dtype[2]; /* [0]: SGEMM, [1]: DGEMM */
	int threads[MAX_TCOUNTS];
	int nthreads;
	double cap;
	int64_t reps; /* 0: by time */
	uint64_t seed;
	const char *out;
	const char *algos;
	int quick, plot, list;
	int times_table, err_table;
} bench_opts;

typedef struct {
	bench_opts o;
	bench_contender c[MAX_CONTENDERS];
	int nc;
	bench_result *res; /* [thread count][dtype][shape][contender] */
	int done, total;
	int failed;
	int verifier_used[MAX_CONTENDERS];
	/* The multiply-add peak per precision, for each thread count measured. */
	bench_peak peak[2][MAX_PEAKS];
	int npeak;
	int ti; /* the thread count in progress: o.threads[ti] */
} bench_state;

static bench_result *result_at(bench_state *st, int ti, int dt, int si, int ci)
{
	return &st->res[(((size_t)ti * 2 + (size_t)dt) * MAX_SHAPES + (size_t)si) * MAX_CONTENDERS + (size_t)ci];
}

/* The peak measured for this precision and thread count; NULL when none. */
static const bench_peak *peak_for(const bench_state *st, int dt, int threads)
{
	for (int i = 0; i < st->npeak; i++)
		if (st->peak[dt][i].threads == threads && st->peak[dt][i].gflops > 0)
			return &st->peak[dt][i];
	return NULL;
}

static double pct_of_peak(const bench_state *st, int dt, int threads, double gflops)
{
	const bench_peak *p = peak_for(st, dt, threads);
	return p && isfinite(gflops) ? 100.0 * gflops / p->gflops : NAN;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: gemmkit bench [--suite NAME] [options]\n"
	        "\n"
	        "Times gemmkit's CPU algorithms and the reference libraries (OpenBLAS and BLIS,\n"
	        "each as installed and, on CPUs with AVX-512F, with its AVX-512 kernels) on\n"
	        "row-major C = A*B. Each result is checked first; with 1 thread, timed runs are\n"
	        "interleaved across contenders (with several, each contender runs in a row after\n"
	        "a pause); the median is reported as GFLOPS = 2*m*n*k / time, and as a percentage\n"
	        "of the machine's multiply-add peak, measured at the start of the run.\n"
	        "\n"
	        "suites (--suite NAME; the options below override a suite's settings; the times\n"
	        "are estimates for an idle machine with 2 cores):\n");
	for (int i = 0; i < N_SUITES; i++) {
		fprintf(f, "  %-9s (%s)%s\n    ", suites[i].name, suites[i].runtime,
		        !strcmp(suites[i].name, "default") ? ", what plain `gemmkit bench` runs:" : "");
		for (const char *p = suites[i].what; *p; p++) {
			fputc(*p, f);
			if (*p == '\n')
				fputs("    ", f);
		}
		fputc('\n', f);
	}
	fprintf(f,
	        "  gf256     (30 s)\n"
	        "    Reed-Solomon encode and decode vs ISA-L; see gemmkit bench --suite gf256 --help\n"
	        "\n"
	        "options:\n"
	        "  --sizes N,N,...     square sizes, run in increasing order (default suite:\n"
	        "                      16,32,64,128,256,512,1024,2048,4096)\n"
	        "  --shapes MxNxK,...  shapes m x n x k, in the order given (e.g. 4096x4096x64,8x8x1e7);\n"
	        "                      may be combined with --sizes. Either replaces all the suite's\n"
	        "                      sizes and shapes\n"
	        "  --algos A,B,...     contenders (default suite: ours,refs):\n"
	        "                        gemmkit algorithm names (see --list), auto,\n"
	        "                        openblas, openblas-best, blis, blis-best,\n"
	        "                        ours (every CPU algorithm and auto), refs (every reference found),\n"
	        "                        strassen (every algorithm whose name contains \"strassen\")\n"
	        "  --dtype s|d|both    SGEMM, DGEMM or both (default: s)\n"
	        "  --threads N,N,...   thread counts for gemmkit and the references, each a table of\n"
	        "                      its own (default: 1; at most %d counts)\n"
	        "  --cap SECONDS       a contender predicted or measured over this per run is shown\n"
	        "                      as \"x\" and not run at larger sizes (default: 10)\n"
	        "  --reps N            timed rounds per contender and size (default: enough for about\n"
	        "                      0.6 s, at least 3; 1 for a run over 5 s); --suite peak: runs\n"
	        "                      per measurement (default 5)\n"
	        "  --seed N            seed of the random inputs (default: 1)\n"
	        "  --out DIR           where results.md, results.csv, meta.txt and the plots go\n"
	        "                      (default: gemmkit-bench-results)\n"
	        "  --quick             sizes 16,32,64 and very short timing, for smoke tests\n"
	        "  --no-plot           do not run gnuplot\n"
	        "  --list              list the contenders of the run, and exit\n"
	        "  -h, --help          this help\n"
	        "\n"
	        "The table goes to stdout, progress to stderr. Exit status: 0 all results correct,\n"
	        "1 a result was wrong (\"ERR\") or a file could not be written, 2 bad options.\n",
	        MAX_TCOUNTS);
}

static int parse_shape(const char *s, bench_shape *out)
{
	char buf[128];
	if (strlen(s) >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%s", s);
	int64_t v[3];
	char *p = buf;
	for (int i = 0; i < 3; i++) {
		char *x = strchr(p, 'x');
		if ((x == NULL) != (i == 2))
			return -1;
		if (x)
			*x = '\0';
		if (cli_parse_i64(p, 1, INT64_MAX, &v[i]) != 0)
			return -1;
		p = x ? x + 1 : p;
	}
	out->m = v[0], out->n = v[1], out->k = v[2];
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int parse_sizes(const char *val, int64_t *sizes, int *nsizes)
{
	*nsizes = cli_parse_i64_list(val, 1, INT64_C(1) << 31, sizes, MAX_SHAPES);
	if (*nsizes < 1) {
		cli_error(CMD, "--sizes \"%s\": expected up to %d comma-separated sizes in [1, 2^31]", val, MAX_SHAPES);
		return 2;
	}
	return 0;
}

static int parse_threads(const char *val, bench_opts *o)
{
	int64_t t[MAX_TCOUNTS];
	int n = cli_parse_i64_list(val, 1, 1024, t, MAX_TCOUNTS);
	if (n < 1) {
		cli_error(CMD, "--threads \"%s\": expected up to %d comma-separated whole numbers in [1, 1024]",
		          val, MAX_TCOUNTS);
		return 2;
	}
	o->nthreads = 0;
	for (int i = 0; i < n; i++) {
		int dup = 0;
		for (int j = 0; j < o->nthreads; j++)
			dup |= o->threads[j] == (int)t[i];
		if (!dup)
			o->threads[o->nthreads++] = (int)t[i];
	}
	return 0;
}

static int parse_dtype(const char *val, bench_opts *o)
{
	o->dtype[0] = !strcmp(val, "s") || !strcmp(val, "both");
	o->dtype[1] = !strcmp(val, "d") || !strcmp(val, "both");
	if (!o->dtype[0] && !o->dtype[1]) {
		cli_error(CMD, "--dtype \"%s\": expected s, d or both", val);
		return 2;
	}
	return 0;
}

/* Append --shapes syntax to o->shapes. */
static int parse_shapes(const char *shapes, bench_opts *o)
{
	const char *p = shapes;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char one[128];
		if (len == 0 || len >= sizeof one || o->nshapes >= MAX_SHAPES) {
			cli_error(CMD, "--shapes \"%s\": expected up to %d comma-separated MxNxK shapes", shapes,
			          MAX_SHAPES);
			return 2;
		}
		memcpy(one, p, len);
		one[len] = '\0';
		bench_shape s;
		if (parse_shape(one, &s) != 0) {
			cli_error(CMD, "--shapes: \"%s\" is not MxNxK with whole numbers >= 1 "
			          "(e.g. 4096x4096x64 or 8x8x1e7)", one);
			return 2;
		}
		o->shapes[o->nshapes++] = s;
		if (s.m != s.n || s.n != s.k)
			o->all_square = 0;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

/* The suite named on the command line (the last --suite), or NULL after a
 * message when there is no such suite; gf256 never reaches here. */
static const bench_suite *suite_of(int argc, char **argv)
{
	const char *name = "default";
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--suite=", 8))
			name = argv[i] + 8;
		else if (!strcmp(argv[i], "--suite") && i + 1 < argc)
			name = argv[++i];
		else if (!strcmp(argv[i], "--sizes") || !strcmp(argv[i], "--shapes") || !strcmp(argv[i], "--algos") ||
		         !strcmp(argv[i], "--dtype") || !strcmp(argv[i], "--threads") || !strcmp(argv[i], "--cap") ||
		         !strcmp(argv[i], "--reps") || !strcmp(argv[i], "--seed") || !strcmp(argv[i], "--out"))
			i++; /* a value, even one that looks like --suite */
	}
	const bench_suite *s = find_suite(name);
	if (s == NULL) {
		fprintf(stderr, "gemmkit bench: --suite \"%s\": expected one of", name);
		for (int i = 0; i < N_SUITES; i++)
			fprintf(stderr, " %s", suites[i].name);
		fprintf(stderr, " gf256\n");
	}
	return s;
}

/* Returns 0, -1 after --help, or 2 after printing what is wrong. */
static int parse_options(int argc, char **argv, bench_opts *o)
{
	static const int64_t quick_sizes[] = {16, 32, 64};
	memset(o, 0, sizeof *o);
	o->suite = suite_of(argc, argv);
	if (o->suite == NULL)
		return 2;
	const bench_suite *su = o->suite;
	const int peak_only = !strcmp(su->name, "peak");
	o->dtype[0] = 1;
	o->seed = 1;
	o->out = "gemmkit-bench-results";
	o->plot = 1;
	o->cap = su->cap > 0 ? su->cap : 10;
	o->algos = su->algos ? su->algos : "ours,refs";
	o->times_table = su->times_table;
	o->err_table = su->err_table;
	if (su->dtype && parse_dtype(su->dtype, o) != 0)
		return 2;
	if (su->threads) {
		if (parse_threads(su->threads, o) != 0)
			return 2;
	} else {
		long np = sysconf(_SC_NPROCESSORS_ONLN);
		o->threads[0] = 1;
		o->nthreads = 1;
		if (np > 1)
			o->threads[o->nthreads++] = np > 1024 ? 1024 : (int)np;
	}
	int64_t sizes[MAX_SHAPES];
	int nsizes = 0, user_sizes = 0;
	const char *shapes = NULL;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = NULL;
		char name[32];
		const char *eq = strchr(arg, '=');
		if (strncmp(arg, "--", 2) == 0 && eq && (size_t)(eq - arg) < sizeof name) {
			memcpy(name, arg, (size_t)(eq - arg));
			name[eq - arg] = '\0';
			val = eq + 1;
		} else {
			snprintf(name, sizeof name, "%s", arg);
		}
		int takes = !strcmp(name, "--sizes") || !strcmp(name, "--shapes") || !strcmp(name, "--algos") ||
		            !strcmp(name, "--dtype") || !strcmp(name, "--threads") || !strcmp(name, "--cap") ||
		            !strcmp(name, "--reps") || !strcmp(name, "--seed") || !strcmp(name, "--out") ||
		            !strcmp(name, "--suite");
		if (takes && val == NULL) {
			if (i + 1 >= argc) {
				cli_error(CMD, "%s needs a value (see gemmkit bench --help)", name);
				return 2;
			}
			val = argv[++i];
		} else if (!takes && val != NULL) {
			cli_error(CMD, "%s takes no value (see gemmkit bench --help)", name);
			return 2;
		}
		if (peak_only && (!strcmp(name, "--sizes") || !strcmp(name, "--shapes") || !strcmp(name, "--algos") ||
		                  !strcmp(name, "--dtype") || !strcmp(name, "--cap") || !strcmp(name, "--seed") ||
		                  !strcmp(name, "--list"))) {
			cli_error(CMD, "%s does not apply to --suite peak (see gemmkit bench --help)", name);
			return 2;
		}
		int64_t v;
		if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
			usage(stdout);
			return -1;
		} else if (!strcmp(name, "--sizes")) {
			if (parse_sizes(val, sizes, &nsizes) != 0)
				return 2;
			user_sizes = 1;
		} else if (!strcmp(name, "--shapes")) {
			shapes = val;
		} else if (!strcmp(name, "--algos")) {
			if (*val == '\0') {
				cli_error(CMD, "--algos needs at least one name (see gemmkit bench --list)");
				return 2;
			}
			o->algos = val;
		} else if (!strcmp(name, "--dtype")) {
			if (parse_dtype(val, o) != 0)
				return 2;
		} else if (!strcmp(name, "--threads")) {
			if (parse_threads(val, o) != 0)
				return 2;
		} else if (!strcmp(name, "--cap")) {
			if (cli_parse_double(val, &o->cap) != 0 || !(o->cap > 0)) {
				cli_error(CMD, "--cap \"%s\": expected a number of seconds > 0", val);
				return 2;
			}
		} else if (!strcmp(name, "--reps")) {
			if (cli_parse_i64(val, 1, 1000000, &o->reps) != 0) {
				cli_error(CMD, "--reps \"%s\": expected a whole number in [1, 1000000]", val);
				return 2;
			}
		} else if (!strcmp(name, "--seed")) {
			if (cli_parse_i64(val, 0, INT64_MAX, &v) != 0) {
				cli_error(CMD, "--seed \"%s\": expected a whole number >= 0", val);
				return 2;
			}
			o->seed = (uint64_t)v;
		} else if (!strcmp(name, "--out")) {
			if (*val == '\0') {
				cli_error(CMD, "--out needs a directory name");
				return 2;
			}
			o->out = val;
		} else if (!strcmp(name, "--suite")) {
			/* Read by suite_of before this loop. */
		} else if (!strcmp(name, "--quick")) {
			o->quick = 1;
		} else if (!strcmp(name, "--no-plot")) {
			o->plot = 0;
		} else if (!strcmp(name, "--list")) {
			o->list = 1;
		} else {
			cli_error(CMD, "unknown option \"%s\" (see gemmkit bench --help)", arg);
			return 2;
		}
	}
	if (peak_only)
		return 0;
	/* Sizes or shapes of the command line replace both of the suite's. */
	if (!user_sizes && shapes == NULL) {
		if (o->quick) {
			nsizes = 3;
			memcpy(sizes, quick_sizes, sizeof quick_sizes);
		} else {
			if (parse_sizes(su->sizes, sizes, &nsizes) != 0)
				return 2;
			shapes = su->shapes;
		}
	}
	/* Increasing sizes make the cap's prediction (from the previous size) work. */
	qsort(sizes, (size_t)nsizes, sizeof *sizes, cmp_i64);
	o->all_square = 1;
	for (int i = 0; i < nsizes; i++) {
		if (i > 0 && sizes[i] == sizes[i - 1])
			continue;
		o->shapes[o->nshapes++] = (bench_shape){sizes[i], sizes[i], sizes[i]};
	}
	if (shapes && parse_shapes(shapes, o) != 0)
		return 2;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Contenders                                                                */
/* ------------------------------------------------------------------------ */

static bench_contender *find_contender(bench_state *st, const char *id)
{
	for (int i = 0; i < st->nc; i++)
		if (strcmp(st->c[i].id, id) == 0)
			return &st->c[i];
	return NULL;
}

static int add_ours(bench_state *st, const char *id, unsigned dtypes, int shown)
{
	bench_contender *c = find_contender(st, id);
	if (c) {
		c->shown |= shown;
		return 0;
	}
	if (st->nc >= MAX_CONTENDERS) {
		cli_error(CMD, "too many contenders (at most %d)", MAX_CONTENDERS);
		return 2;
	}
	c = &st->c[st->nc];
	memset(c, 0, sizeof *c);
	snprintf(c->id, sizeof c->id, "%s", id);
	snprintf(c->name, sizeof c->name, "%s", strcmp(id, "auto") == 0 ? "gemmkit auto" : id);
	c->kind = KIND_OURS;
	c->shown = shown;
	c->dtypes = dtypes;
	gk_status s = gk_context_create(&c->ctx);
	if (s == GK_OK)
		s = gk_context_set_algo(c->ctx, id);
	if (s == GK_OK)
		s = gk_context_set_threads(c->ctx, st->o.threads[0]);
	/* "auto" competes on the CPU here, against CPU libraries. */
	if (s == GK_OK && strcmp(id, "auto") == 0)
		s = gk_context_set_backend(c->ctx, GK_BACKEND_CPU);
	if (s != GK_OK) {
		cli_error(CMD, "cannot set up %s: %s", id, gk_last_error()[0] ? gk_last_error() : gk_strerror(s));
		gk_context_destroy(c->ctx);
		return 1;
	}
	st->nc++;
	return 0;
}

/* The references chosen, as flags indexed like bench_ref_ids. */
typedef struct {
	int want[BENCH_REF_COUNT];
	int forced[BENCH_REF_COUNT];
} ref_choice;

/* Expand --algos: gemmkit algorithms are added now, references noted. */
static int choose(bench_state *st, ref_choice *rc)
{
	memset(rc, 0, sizeof *rc);
	const char *p = st->o.algos;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char tok[64];
		if (len == 0 || len >= sizeof tok) {
			cli_error(CMD, "--algos \"%s\": expected comma-separated names", st->o.algos);
			return 2;
		}
		memcpy(tok, p, len);
		tok[len] = '\0';
		int known = 0, rc_ = 0;
		if (!strcmp(tok, "ours")) {
			known = 1;
			for (int i = 0; i < gk_algo_count() && rc_ == 0; i++) {
				gk_algo_info in;
				if (gk_algo_get(i, &in) != GK_OK || in.backend != GK_BACKEND_CPU)
					continue;
				if (!in.available) {
					fprintf(stderr, "gemmkit bench: %s is not available on this machine: skipped\n", in.name);
					continue;
				}
				rc_ = add_ours(st, in.name, in.dtypes, 1);
			}
			if (rc_ == 0)
				rc_ = add_ours(st, "auto", GK_DTYPE_F32 | GK_DTYPE_F64, 1);
		} else if (!strcmp(tok, "strassen")) {
			known = 1;
			int any = 0;
			for (int i = 0; i < gk_algo_count() && rc_ == 0; i++) {
				gk_algo_info in;
				if (gk_algo_get(i, &in) != GK_OK || in.backend != GK_BACKEND_CPU || !strstr(in.name, "strassen"))
					continue;
				any = 1;
				if (!in.available)
					fprintf(stderr, "gemmkit bench: %s is not available on this machine: skipped\n", in.name);
				else
					rc_ = add_ours(st, in.name, in.dtypes, 1);
			}
			if (!any)
				fprintf(stderr, "gemmkit bench: --algos strassen: no CPU algorithm of this gemmkit has "
				        "\"strassen\" in its name\n");
		} else if (!strcmp(tok, "refs")) {
			known = 1;
			for (int r = 0; r < BENCH_REF_COUNT; r++)
				rc->want[r] = 1;
		} else if (!strcmp(tok, "auto")) {
			known = 1;
			rc_ = add_ours(st, "auto", GK_DTYPE_F32 | GK_DTYPE_F64, 1);
		} else {
			for (int r = 0; r < BENCH_REF_COUNT; r++)
				if (!strcmp(tok, bench_ref_ids[r]))
					known = 1, rc->want[r] = 1, rc->forced[r] = 1;
			for (int i = 0; i < gk_algo_count() && !known; i++) {
				gk_algo_info in;
				if (gk_algo_get(i, &in) != GK_OK || strcmp(in.name, tok) != 0)
					continue;
				known = 1;
				if (!in.available)
					fprintf(stderr, "gemmkit bench: %s is not available on this machine: skipped\n", in.name);
				else
					rc_ = add_ours(st, in.name, in.dtypes, 1);
			}
		}
		if (rc_ != 0)
			return rc_;
		if (!known) {
			fprintf(stderr, "gemmkit bench: --algos: no contender is named \"%s\"; the names are:\n ", tok);
			for (int i = 0; i < gk_algo_count(); i++) {
				gk_algo_info in;
				if (gk_algo_get(i, &in) == GK_OK)
					fprintf(stderr, " %s", in.name);
			}
			fprintf(stderr, " auto");
			for (int r = 0; r < BENCH_REF_COUNT; r++)
				fprintf(stderr, " %s", bench_ref_ids[r]);
			fprintf(stderr, " ours refs strassen\n");
			return 2;
		}
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

/*
 * Load the references: the chosen ones, and OpenBLAS and BLIS as installed
 * even when not chosen, since they check the results. Best-kernel variants
 * first: their trial load forks, best done before other libraries start
 * threads.
 */
static int load_refs(bench_state *st, const ref_choice *rc)
{
	static const int order[BENCH_REF_COUNT] = {1, 3, 0, 2};
	for (int j = 0; j < BENCH_REF_COUNT; j++) {
		int r = order[j];
		int best = strstr(bench_ref_ids[r], "-best") != NULL;
		if (!rc->want[r] && best)
			continue;
		if (st->nc >= MAX_CONTENDERS)
			break;
		bench_contender *c = &st->c[st->nc];
		memset(c, 0, sizeof *c);
		char why[512];
		int got = bench_ref_load(bench_ref_ids[r], st->o.threads[0], rc->forced[r], &c->ref, why, sizeof why);
		if (got != BENCH_REF_LOADED) {
			/* A chosen reference that cannot run is worth a word (once per
			 * library when it is missing); a checker nobody chose is not. */
			int said_later = got == BENCH_REF_NOT_FOUND && best && rc->want[r - 1];
			if (rc->want[r] && !said_later)
				fprintf(stderr, "gemmkit bench: %s\n", why);
			continue;
		}
		snprintf(c->id, sizeof c->id, "%s", bench_ref_ids[r]);
		memcpy(c->name, c->ref.name, sizeof c->ref.name);
		c->kind = KIND_REF;
		c->shown = rc->want[r];
		c->dtypes = GK_DTYPE_F32 | GK_DTYPE_F64;
		st->nc++;
	}
	return 0;
}

/* Table order: gemmkit algorithms in registry order, auto, then references. */
static int contender_rank(const bench_contender *c)
{
	if (c->kind == KIND_REF)
		for (int r = 0; r < BENCH_REF_COUNT; r++)
			if (!strcmp(c->id, bench_ref_ids[r]))
				return 2000 + r;
	if (!strcmp(c->id, "auto"))
		return 1000;
	for (int i = 0; i < gk_algo_count(); i++) {
		gk_algo_info in;
		if (gk_algo_get(i, &in) == GK_OK && !strcmp(in.name, c->id))
			return i;
	}
	return 999;
}

static int cmp_contender(const void *a, const void *b)
{
	return contender_rank(a) - contender_rank(b);
}


/* Run the next cells with thread count o.threads[ti]: every contender and
 * checker gets it, and the cap starts afresh, since the times of the other
 * thread count predict nothing here. */
static void use_threads(bench_state *st, int ti)
{
	const int t = st->o.threads[ti];
	st->ti = ti;
	for (int ci = 0; ci < st->nc; ci++) {
		bench_contender *c = &st->c[ci];
		if (c->kind == KIND_REF)
			bench_ref_set_threads(&c->ref, t);
		else
			gk_context_set_threads(c->ctx, t);
		memset(c->last_s, 0, sizeof c->last_s);
		memset(c->last_flops, 0, sizeof c->last_flops);
		memset(c->cap_flops, 0, sizeof c->cap_flops);
	}
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */
/* ------------------------------------------------------------------------ */

#define RUN_TOO_BIG 1 /* the reference's integers cannot hold the sizes */

static int run_once(const bench_contender *c, int f64, const bench_shape *s,
                    const void *a, const void *b, void *out)
{
	if (c->kind == KIND_REF)
		return bench_ref_gemm(&c->ref, f64, s->m, s->n, s->k, a, b, out) == 0 ? 0 : RUN_TOO_BIG;
	if (f64)
		return gk_dgemm_ex(c->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k,
		                   1.0, a, s->k, b, s->n, 0.0, out, s->n);
	return gk_sgemm_ex(c->ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k,
	                   1.0f, a, s->k, b, s->n, 0.0f, out, s->n);
}

static double frob(int f64, const void *x, size_t n)
{
	double s = 0;
	if (f64)
		for (size_t i = 0; i < n; i++)
			s += ((const double *)x)[i] * ((const double *)x)[i];
	else
		for (size_t i = 0; i < n; i++)
			s += (double)((const float *)x)[i] * (double)((const float *)x)[i];
	return sqrt(s);
}

/* ||x - y||_F, x single and y double precision. */
static double frob_diff_f32_f64(const float *x, const double *y, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		double d = (double)x[i] - y[i];
		s += d * d;
	}
	return sqrt(s);
}

static double frob_diff(int f64, const void *x, const void *y, size_t n)
{
	double s = 0;
	if (f64)
		for (size_t i = 0; i < n; i++) {
			double d = ((const double *)x)[i] - ((const double *)y)[i];
			s += d * d;
		}
	else
		for (size_t i = 0; i < n; i++) {
			double d = (double)((const float *)x)[i] - (double)((const float *)y)[i];
			s += d * d;
		}
	return sqrt(s);
}

static void shape_label(const bench_shape *s, int square_style, char *buf, size_t len)
{
	if (square_style && s->m == s->n && s->n == s->k)
		snprintf(buf, len, "%lld", (long long)s->n);
	else
		snprintf(buf, len, "%lldx%lldx%lld", (long long)s->m, (long long)s->n, (long long)s->k);
}

static void progress(bench_state *st, int dt, const bench_shape *s, const bench_contender *c,
                     const char *what)
{
	char lab[96];
	shape_label(s, 1, lab, sizeof lab);
	char thr[32] = "";
	if (st->o.nthreads > 1)
		snprintf(thr, sizeof thr, " t=%d", st->o.threads[st->ti]);
	int width = snprintf(NULL, 0, "%d", st->total);
	st->done++;
	fprintf(stderr, "[%*d/%d] %s %s%s%s %s %s\n", width, st->done, st->total, dt ? "dgemm" : "sgemm",
	        s->m == s->n && s->n == s->k ? "n=" : "", lab, thr, c->id, what);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *alloc_matrix(int64_t rows, int64_t cols, size_t es)
{
	size_t bytes;
	if (__builtin_mul_overflow((size_t)rows, (size_t)cols, &bytes) ||
	    __builtin_mul_overflow(bytes, es, &bytes))
		return NULL;
	void *p = NULL;
	if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0)
		return NULL;
	return p;
}

static void pause_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Mark a contender over the cap at this flop count and all larger ones. */
static void over_cap(bench_contender *c, int dt, double flops)
{
	if (c->cap_flops[dt] == 0 || flops < c->cap_flops[dt])
		c->cap_flops[dt] = flops;
}

/* 1 when c is not to run at this cell because of the cap; `why` says so. */
static int capped(const bench_contender *c, int dt, double flops, double cap, char *why, size_t len)
{
	if (c->cap_flops[dt] > 0 && flops >= c->cap_flops[dt]) {
		snprintf(why, len, "x (over the %g s cap at a smaller size)", cap);
		return 1;
	}
	if (c->last_s[dt] > 0) {
		double pred = c->last_s[dt] * flops / c->last_flops[dt];
		if (pred > cap) {
			snprintf(why, len, "x (predicted %.3g s > cap %g s)", pred, cap);
			return 1;
		}
	}
	return 0;
}

/*
 * The product of the single-precision inputs a (m x k) and b (k x n)
 * computed in double precision, for the errors of --suite strassen: its own
 * error is some 2^-29 of theirs. Computed by the first checker that runs
 * (OpenBLAS, BLIS, gemmkit auto) with every processor. NULL when memory is
 * short or no checker can.
 */
static double *product_in_double(bench_state *st, const bench_shape *s, const float *a, const float *b)
{
	static const char *const who[] = {"openblas", "blis", "openblas-best", "blis-best", "auto"};
	const size_t mk = (size_t)s->m * (size_t)s->k, kn = (size_t)s->k * (size_t)s->n;
	double *a64 = alloc_matrix(s->m, s->k, sizeof(double)), *b64 = alloc_matrix(s->k, s->n, sizeof(double));
	double *c64 = alloc_matrix(s->m, s->n, sizeof(double));
	int done = 0;
	if (a64 && b64 && c64) {
		for (size_t i = 0; i < mk; i++)
			a64[i] = a[i];
		for (size_t i = 0; i < kn; i++)
			b64[i] = b[i];
		const int all = (int)sysconf(_SC_NPROCESSORS_ONLN), mine = st->o.threads[st->ti];
		for (size_t j = 0; j < sizeof who / sizeof who[0] && !done; j++) {
			bench_contender *c = find_contender(st, who[j]);
			if (c == NULL)
				continue;
			if (c->kind == KIND_REF)
				bench_ref_set_threads(&c->ref, all > 0 ? all : 1);
			else
				gk_context_set_threads(c->ctx, all > 0 ? all : 1);
			done = run_once(c, 1, s, a64, b64, c64) == 0;
			if (c->kind == KIND_REF)
				bench_ref_set_threads(&c->ref, mine);
			else
				gk_context_set_threads(c->ctx, mine);
		}
	}
	free(a64);
	free(b64);
	if (!done) {
		free(c64);
		return NULL;
	}
	return c64;
}

static void bench_cell(bench_state *st, int dt, int si)
{
	const bench_opts *o = &st->o;
	const bench_shape *s = &o->shapes[si];
	const int f64 = dt;
	const size_t es = f64 ? sizeof(double) : sizeof(float);
	const double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k;
	const unsigned dbit = f64 ? GK_DTYPE_F64 : GK_DTYPE_F32;
	char why[256];
	int nactive = 0;

	/* 1. Who runs. */
	for (int ci = 0; ci < st->nc; ci++) {
		bench_contender *c = &st->c[ci];
		bench_result *r = result_at(st, st->ti, dt, si, ci);
		*r = (bench_result){ST_NONE, NAN, NAN, NAN, NAN};
		c->active = 0;
		if (!(c->dtypes & dbit)) {
			r->status = ST_SKIP;
			if (c->shown)
				progress(st, dt, s, c, "- (does not handle this precision)");
		} else if (capped(c, dt, flops, o->cap, why, sizeof why)) {
			over_cap(c, dt, flops);
			r->status = ST_CAP;
			if (c->shown)
				progress(st, dt, s, c, why);
		} else {
			c->active = 1;
			nactive += c->shown;
		}
	}
	if (nactive == 0)
		return;

	size_t mn = (size_t)s->m * (size_t)s->n;
	void *a = alloc_matrix(s->m, s->k, es), *b = alloc_matrix(s->k, s->n, es);
	void *cref = alloc_matrix(s->m, s->n, es), *cbuf = alloc_matrix(s->m, s->n, es);
	if (!a || !b || !cref || !cbuf) {
		for (int ci = 0; ci < st->nc; ci++) {
			bench_contender *c = &st->c[ci];
			if (c->active) {
				result_at(st, st->ti, dt, si, ci)->status = ST_SKIP;
				if (c->shown)
					progress(st, dt, s, c, "- (not enough memory for the matrices)");
			}
		}
		goto out;
	}
	cli_rng rng;
	cli_rng_init(&rng, o->seed * 1000003u + (uint64_t)(dt * MAX_SHAPES + si));
	if (f64) {
		cli_fill_f64(a, (size_t)s->m * (size_t)s->k, &rng);
		cli_fill_f64(b, (size_t)s->k * (size_t)s->n, &rng);
	} else {
		cli_fill_f32(a, (size_t)s->m * (size_t)s->k, &rng);
		cli_fill_f32(b, (size_t)s->k * (size_t)s->n, &rng);
	}
	const double norm_ab = frob(f64, a, (size_t)s->m * (size_t)s->k) * frob(f64, b, (size_t)s->k * (size_t)s->n);
	const double eps = f64 ? DBL_EPSILON : FLT_EPSILON;
	const double bound = ERR_C * (double)s->k * eps;

	/* 2. The reference result: installed OpenBLAS, installed BLIS, their
	 * best-kernel variants, gemmkit auto, then anyone still running. Poison
	 * first: beta = 0, so an element left unwritten stays NaN and fails. */
	static const char *const checkers[] = {"openblas", "blis", "openblas-best", "blis-best", "auto"};
	int verifier = -1;
	double norm_cref = 0;
	for (int pass = 0; pass < 2 && verifier < 0; pass++) {
		int ncand = pass == 0 ? (int)(sizeof checkers / sizeof checkers[0]) : st->nc;
		for (int j = 0; j < ncand && verifier < 0; j++) {
			bench_contender *c = pass == 0 ? find_contender(st, checkers[j]) : &st->c[j];
			if (c == NULL || !c->active || (pass == 1 && !c->shown))
				continue;
			int ci = (int)(c - st->c);
			bench_result *r = result_at(st, st->ti, dt, si, ci);
			memset(cref, 0xff, mn * es);
			double t0 = cli_now();
			int rc = run_once(c, f64, s, a, b, cref);
			double t1 = cli_now() - t0;
			norm_cref = frob(f64, cref, mn);
			if (rc == 0 && isfinite(norm_cref)) {
				verifier = ci;
				c->t_est = t1 > 0 ? t1 : 1e-9;
				r->err = 0;
				/* A checker that is not timed still needs its cap. */
				c->last_s[dt] = c->t_est, c->last_flops[dt] = flops;
				if (!c->shown && c->t_est > o->cap)
					over_cap(c, dt, flops);
				break;
			}
			/* It cannot check the others; as a contender it is done. */
			c->active = 0;
			if (rc == RUN_TOO_BIG) {
				r->status = ST_SKIP;
				if (c->shown)
					progress(st, dt, s, c, "- (sizes too large for its integer type)");
			} else {
				r->status = ST_FAIL;
				if (c->shown) {
					st->failed = 1;
					snprintf(why, sizeof why, "ERR (%s)", rc ? gk_last_error() : "result has NaN or Inf");
					progress(st, dt, s, c, why);
				}
			}
		}
	}
	if (verifier < 0) {
		for (int ci = 0; ci < st->nc; ci++)
			if (st->c[ci].active && st->c[ci].shown) {
				result_at(st, st->ti, dt, si, ci)->status = ST_SKIP;
				progress(st, dt, s, &st->c[ci], "- (no reference result could be computed)");
			}
		goto out;
	}
	st->verifier_used[verifier] = 1;
	double *c64 = NULL;
	if (o->err_table && !f64) {
		c64 = product_in_double(st, s, a, b);
		if (c64)
			result_at(st, st->ti, dt, si, verifier)->err64 = frob_diff_f32_f64(cref, c64, mn) / norm_ab;
	}

	/* 3. Check every other contender once; that run also warms it up. */
	for (int ci = 0; ci < st->nc; ci++) {
		bench_contender *c = &st->c[ci];
		bench_result *r = result_at(st, st->ti, dt, si, ci);
		if (!c->active)
			continue;
		if (!c->shown) {
			c->active = 0; /* a checker only */
			continue;
		}
		if (ci != verifier) {
			memset(cbuf, 0xff, mn * es);
			double t0 = cli_now();
			int rc = run_once(c, f64, s, a, b, cbuf);
			double t1 = cli_now() - t0;
			if (rc != 0) {
				c->active = 0;
				r->status = rc == RUN_TOO_BIG ? ST_SKIP : ST_FAIL;
				if (rc == RUN_TOO_BIG) {
					progress(st, dt, s, c, "- (sizes too large for its integer type)");
				} else {
					st->failed = 1;
					snprintf(why, sizeof why, "ERR (%s: %s)", gk_strerror(rc), gk_last_error());
					progress(st, dt, s, c, why);
				}
				continue;
			}
			double diff = frob_diff(f64, cbuf, cref, mn);
			r->err = norm_ab > 0 ? diff / norm_ab : diff;
			if (!(r->err <= bound) || !(diff <= ERR_GROSS * norm_cref)) {
				c->active = 0;
				r->status = ST_FAIL;
				st->failed = 1;
				snprintf(why, sizeof why, "ERR (error %.3g vs %s; bound %.3g)", r->err,
				         st->c[verifier].id, bound);
				progress(st, dt, s, c, why);
				continue;
			}
			if (c64)
				r->err64 = frob_diff_f32_f64(cbuf, c64, mn) / norm_ab;
			c->t_est = t1 > 0 ? t1 : 1e-9;
		}
		if (c->t_est > o->cap) {
			c->active = 0;
			r->status = ST_CAP;
			over_cap(c, dt, flops);
			c->last_s[dt] = c->t_est, c->last_flops[dt] = flops;
			snprintf(why, sizeof why, "x (one run took %.3g s > cap %g s)", c->t_est, o->cap);
			progress(st, dt, s, c, why);
		}
	}

	free(c64);

	/* 4. Warm-up, batch sizes and rounds. */
	const double round_s = o->quick ? QUICK_ROUND_S : ROUND_S;
	const double budget_s = o->quick ? QUICK_BUDGET_S : BUDGET_S;
	const double warm_s = o->quick ? QUICK_WARMUP_S : WARMUP_S;
	int max_reps = 0;
	for (int ci = 0; ci < st->nc; ci++) {
		bench_contender *c = &st->c[ci];
		if (!c->active)
			continue;
		if (c->t_est < WARMUP_MAX_RUN_S) {
			int64_t nw = (int64_t)ceil(warm_s / c->t_est);
			if (nw < 1)
				nw = 1;
			double t0 = cli_now();
			for (int64_t w = 0; w < nw; w++)
				run_once(c, f64, s, a, b, cbuf);
			double tw = (cli_now() - t0) / (double)nw;
			c->t_est = tw > 0 ? tw : 1e-9;
		}
		c->batch = (int64_t)(round_s / c->t_est);
		if (c->batch < 1)
			c->batch = 1;
		if (o->reps > 0) {
			c->reps = (int)o->reps;
		} else if (c->t_est > SINGLE_REP_S) {
			c->reps = 1; /* the checked run was the warm-up */
		} else {
			double r = ceil(budget_s / ((double)c->batch * c->t_est));
			c->reps = r < MIN_REPS ? MIN_REPS : r > MAX_AUTO_REPS ? MAX_AUTO_REPS : (int)r;
		}
		c->times = malloc((size_t)c->reps * sizeof *c->times);
		if (c->times == NULL) {
			c->active = 0;
			result_at(st, st->ti, dt, si, ci)->status = ST_SKIP;
			progress(st, dt, s, c, "- (out of memory)");
			continue;
		}
		if (c->reps > max_reps)
			max_reps = c->reps;
	}

	/* 5. Timed rounds. With one thread, interleaved: each round runs every
	 * contender once, starting with the next one in turn. With several,
	 * interleaving would pit thread pools against each other: a pool that
	 * still spins after its call (OpenMP's, OpenBLAS's own) takes a core
	 * from the next contender's threads, which then wait at every barrier:
	 * 10 to 50 times slower on a 2-core machine. So each contender runs
	 * its rounds in a row, after a pause that lets the previous pool sleep,
	 * and one untimed call that wakes its own. */
	if (o->threads[st->ti] > 1) {
		for (int ci = 0; ci < st->nc; ci++) {
			bench_contender *c = &st->c[ci];
			if (!c->active)
				continue;
			pause_s(o->quick ? SETTLE_S / 10 : SETTLE_S);
			if (c->t_est < WARMUP_MAX_RUN_S)
				run_once(c, f64, s, a, b, cbuf);
			for (int round = 0; round < c->reps; round++) {
				double t0 = cli_now();
				for (int64_t i = 0; i < c->batch; i++)
					run_once(c, f64, s, a, b, cbuf);
				c->times[round] = (cli_now() - t0) / (double)c->batch;
			}
		}
		max_reps = 0;
	}
	for (int round = 0; round < max_reps; round++) {
		for (int j = 0; j < st->nc; j++) {
			bench_contender *c = &st->c[(j + round) % st->nc];
			if (!c->active || round >= c->reps)
				continue;
			double t0 = cli_now();
			for (int64_t i = 0; i < c->batch; i++)
				run_once(c, f64, s, a, b, cbuf);
			c->times[round] = (cli_now() - t0) / (double)c->batch;
		}
	}

	/* 6. Medians. */
	for (int ci = 0; ci < st->nc; ci++) {
		bench_contender *c = &st->c[ci];
		if (!c->active)
			continue;
		bench_result *r = result_at(st, st->ti, dt, si, ci);
		double med = median(c->times, c->reps);
		free(c->times);
		c->times = NULL;
		c->active = 0;
		r->median_s = med;
		r->gflops = med > 0 ? flops / med * 1e-9 : NAN;
		c->last_s[dt] = med, c->last_flops[dt] = flops;
		if (med > o->cap) {
			over_cap(c, dt, flops);
			r->status = ST_CAP;
			snprintf(why, sizeof why, "x (median %.3g s > cap %g s)", med, o->cap);
		} else {
			r->status = ST_OK;
			snprintf(why, sizeof why, "%.4g GFLOPS (%.3g s, %d x %lld runs)", r->gflops, med, c->reps,
			         (long long)c->batch);
		}
		progress(st, dt, s, c, why);
	}
out:
	free(a);
	free(b);
	free(cref);
	free(cbuf);
}

/* ------------------------------------------------------------------------ */
/* Reports                                                                   */
/* ------------------------------------------------------------------------ */

static void fmt_gflops(double g, char *buf, size_t len)
{
	if (g < 1)
		snprintf(buf, len, "%.3f", g);
	else if (g < 10)
		snprintf(buf, len, "%.2f", g);
	else
		snprintf(buf, len, "%.1f", g);
}

/* Milliseconds to 3 digits, seconds ("3.3s") from 1000 ms on, "<0.01"
 * below 0.01 ms (the GFLOPS table has those to more digits). */
static void fmt_time(double s, char *buf, size_t len)
{
	if (s >= 1.0)
		snprintf(buf, len, "%.3gs", s);
	else if (s >= 1e-5)
		snprintf(buf, len, "%.3g", s * 1e3);
	else
		snprintf(buf, len, "<0.01");
}

/* The best shown reference of a row; -1 when none has a time. */
static int best_ref(bench_state *st, int ti, int dt, int si)
{
	int best = -1;
	for (int ci = 0; ci < st->nc; ci++) {
		const bench_result *r = result_at(st, ti, dt, si, ci);
		if (st->c[ci].kind == KIND_REF && st->c[ci].shown && r->status == ST_OK &&
		    (best < 0 || r->gflops > result_at(st, ti, dt, si, best)->gflops))
			best = ci;
	}
	return best;
}

/* The gemmkit contender of the ratio and peak columns: auto if shown, else
 * the best of ours in that row (ours_best set). -1 when none. */
static int ours_for_ratio(bench_state *st, int ti, int dt, int si, int *ours_best)
{
	bench_contender *au = find_contender(st, "auto");
	*ours_best = !(au && au->shown);
	if (!*ours_best)
		return (int)(au - st->c);
	int best = -1;
	for (int ci = 0; ci < st->nc; ci++) {
		const bench_result *r = result_at(st, ti, dt, si, ci);
		if (st->c[ci].kind == KIND_OURS && st->c[ci].shown && r->status == ST_OK &&
		    (best < 0 || r->gflops > result_at(st, ti, dt, si, best)->gflops))
			best = ci;
	}
	return best;
}

/* "1, 2" */
static void put_thread_list(const bench_opts *o, FILE *f)
{
	for (int i = 0; i < o->nthreads; i++)
		fprintf(f, "%s%d", i ? ", " : "", o->threads[i]);
}

static void put_peak_line(bench_state *st, FILE *f)
{
	if (st->npeak == 0 || st->peak[0][0].gflops <= 0) {
		fprintf(f, "- Multiply-add peak: not measured\n");
		return;
	}
	const bench_peak *p0 = &st->peak[0][0];
	fprintf(f, "- Multiply-add peak (%s, %s; median of %d runs of %.2g s; GFLOPS): ", p0->isa, p0->how,
	        p0->reps, p0->run_s);
	for (int dt = 0; dt < 2; dt++) {
		fprintf(f, "%s%s", dt ? "; " : "", dt ? "double" : "float");
		for (int i = 0; i < st->npeak; i++) {
			const bench_peak *p = &st->peak[dt][i];
			char g[32];
			fmt_gflops(p->gflops, g, sizeof g);
			fprintf(f, "%s %d thread%s %s", i ? "," : "", p->threads, p->threads > 1 ? "s" : "", g);
			if (p->threads_run != p->threads)
				fprintf(f, " (ran on %d)", p->threads_run);
		}
	}
	fprintf(f, ". \"%% of peak\" = GFLOPS / this peak for the same precision and thread count.\n");
}

static void put_header(bench_state *st, FILE *f, const char *date, double wall)
{
	gk_info info;
	gk_get_info(&info);
	struct utsname u;
	memset(&u, 0, sizeof u);
	uname(&u);
	fprintf(f, "# gemmkit bench --suite %s\n\n", st->o.suite->name);
	fprintf(f, "- Machine: %s, %ld logical CPUs (%s %s %s)\n", info.cpu_name, sysconf(_SC_NPROCESSORS_ONLN),
	        u.sysname, u.release, u.machine);
	fprintf(f, "- Date: %s; total time %.0f s\n", date, wall);
	fprintf(f, "- gemmkit %s, CPU kernel set %s; threads: ", gk_version_string(), gk_arch_name());
	put_thread_list(&st->o, f);
	fputc('\n', f);
	fprintf(f, "- Row-major C = A*B (alpha 1, beta 0), inputs uniform in [-1, 1] (seed %llu). "
	           "GFLOPS = 2*m*n*k / median time of the timed rounds after warm-up (1 thread: rounds interleaved "
	           "across contenders; several: each contender's rounds in a row, after a %g s pause); "
	           "\"x\": over the %g s cap (predicted or measured), \"ERR\": wrong result, \"-\": not run.\n",
	        (unsigned long long)st->o.seed, SETTLE_S, st->o.cap);
	int strassen = 0;
	for (int ci = 0; ci < st->nc; ci++)
		strassen |= st->c[ci].shown && strstr(st->c[ci].id, "strassen") != NULL;
	if (strassen)
		fprintf(f, "- Strassen algorithms are scored by the same 2*m*n*k / time: an effective rate, "
		           "since they do fewer operations; it can exceed the peak.\n");
	put_peak_line(st, f);
	int any = 0;
	for (int ci = 0; ci < st->nc; ci++) {
		const bench_contender *c = &st->c[ci];
		if (c->kind == KIND_REF && (c->shown || st->verifier_used[ci])) {
			if (!any)
				fprintf(f, "- References:\n");
			any = 1;
			fprintf(f, "  - `%s`: %s; %s%s", c->id, c->name, c->ref.how,
			        c->shown ? "" : " (used only to check results)");
			if (c->ref.same_kernel)
				fprintf(f, ". Its best kernel set is the one it picks as installed (%s): this column "
				           "runs the same code as the installed library's", c->ref.kernel);
			fputc('\n', f);
		}
	}
	if (!any)
		fprintf(f, "- References: none found (install libopenblas-dev and libblis-dev)\n");
	fprintf(f, "- Results checked against:");
	int n = 0;
	for (int ci = 0; ci < st->nc; ci++)
		if (st->verifier_used[ci])
			fprintf(f, "%s %s", n++ ? "," : "", st->c[ci].name);
	fprintf(f, "%s (||C - Cref||_F / (||A||_F ||B||_F) <= %g k eps)\n", n ? "" : " nothing", ERR_C);
}

static void put_table(bench_state *st, FILE *f, int ti, int dt)
{
	const bench_opts *o = &st->o;
	const int threads = o->threads[ti];
	int nref = 0, nours = 0;
	for (int ci = 0; ci < st->nc; ci++)
		if (st->c[ci].shown) {
			if (st->c[ci].kind == KIND_REF)
				nref++;
			else
				nours++;
		}
	bench_contender *au = find_contender(st, "auto");
	const char *ours_name = au && au->shown ? "gemmkit auto" : "best gemmkit";
	int ratio_col = nref > 0 && nours > 0;
	int peak = peak_for(st, dt, threads) != NULL;
	fprintf(f, "\n## %s (GFLOPS, %d thread%s)\n\n", dt ? "DGEMM" : "SGEMM", threads, threads > 1 ? "s" : "");
	fprintf(f, "| %s |", o->all_square ? "n" : "m x n x k");
	for (int ci = 0; ci < st->nc; ci++)
		if (st->c[ci].shown)
			fprintf(f, " %s |", st->c[ci].name);
	if (ratio_col)
		fprintf(f, " %s / best reference |", ours_name);
	if (peak && nours)
		fprintf(f, " %s %% of peak |", ours_name);
	if (peak && nref)
		fprintf(f, " best reference %% of peak |");
	fprintf(f, "\n|---:|");
	for (int ci = 0; ci < st->nc; ci++)
		if (st->c[ci].shown)
			fprintf(f, "---:|");
	fprintf(f, "%s%s%s\n", ratio_col ? "---:|" : "", peak && nours ? "---:|" : "", peak && nref ? "---:|" : "");
	for (int si = 0; si < o->nshapes; si++) {
		char lab[96];
		shape_label(&o->shapes[si], o->all_square, lab, sizeof lab);
		fprintf(f, "| %s |", lab);
		for (int ci = 0; ci < st->nc; ci++) {
			if (!st->c[ci].shown)
				continue;
			const bench_result *r = result_at(st, ti, dt, si, ci);
			char g[32];
			switch (r->status) {
			case ST_OK: fmt_gflops(r->gflops, g, sizeof g); break;
			case ST_CAP: snprintf(g, sizeof g, "x"); break;
			case ST_FAIL: snprintf(g, sizeof g, "ERR"); break;
			default: snprintf(g, sizeof g, "-"); break;
			}
			fprintf(f, " %s |", g);
		}
		int ob, us = ours_for_ratio(st, ti, dt, si, &ob), br = best_ref(st, ti, dt, si);
		const bench_result *ru = us >= 0 ? result_at(st, ti, dt, si, us) : NULL;
		const bench_result *rb = br >= 0 ? result_at(st, ti, dt, si, br) : NULL;
		int us_ok = ru && ru->status == ST_OK;
		if (ratio_col) {
			if (us_ok && rb)
				fprintf(f, " %.2f (%s%s%s) |", ru->gflops / rb->gflops, ob ? st->c[us].id : "", ob ? " / " : "",
				        st->c[br].id);
			else
				fprintf(f, " - |");
		}
		if (peak && nours) {
			if (us_ok)
				fprintf(f, " %.1f%s%s%s |", pct_of_peak(st, dt, threads, ru->gflops), ob ? " (" : "",
				        ob ? st->c[us].id : "", ob ? ")" : "");
			else
				fprintf(f, " - |");
		}
		if (peak && nref) {
			if (rb)
				fprintf(f, " %.1f (%s) |", pct_of_peak(st, dt, threads, rb->gflops), st->c[br].id);
			else
				fprintf(f, " - |");
		}
		fputc('\n', f);
	}
}

/* The seed's table: one row per contender, one column per size, times. */
static void put_times_table(bench_state *st, FILE *f, int ti, int dt)
{
	const bench_opts *o = &st->o;
	const int threads = o->threads[ti];
	fprintf(f, "\n## %s times (%d thread%s): ms, or s from 1000 ms on; \"<0.01\": under 0.01 ms; \"x\": over the "
	        "%g s cap\n\n",
	        dt ? "DGEMM" : "SGEMM", threads, threads > 1 ? "s" : "", o->cap);
	fprintf(f, "| %s |", o->all_square ? "n" : "m x n x k");
	for (int si = 0; si < o->nshapes; si++) {
		char lab[96];
		shape_label(&o->shapes[si], o->all_square, lab, sizeof lab);
		fprintf(f, " %s |", lab);
	}
	fprintf(f, "\n|---|");
	for (int si = 0; si < o->nshapes; si++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (int ci = 0; ci < st->nc; ci++) {
		if (!st->c[ci].shown)
			continue;
		fprintf(f, "| %s |", st->c[ci].name);
		for (int si = 0; si < o->nshapes; si++) {
			const bench_result *r = result_at(st, ti, dt, si, ci);
			char t[32];
			switch (r->status) {
			case ST_OK: fmt_time(r->median_s, t, sizeof t); break;
			case ST_CAP: snprintf(t, sizeof t, "x"); break;
			case ST_FAIL: snprintf(t, sizeof t, "ERR"); break;
			default: snprintf(t, sizeof t, "-"); break;
			}
			fprintf(f, " %s |", t);
		}
		fputc('\n', f);
	}
}

/* Errors per contender and size: SGEMM against the product in double
 * precision, DGEMM against the checking library's result. */
static void put_err_table(bench_state *st, FILE *f, int ti, int dt)
{
	const bench_opts *o = &st->o;
	const int threads = o->threads[ti];
	fprintf(f, "\n## %s normwise error (%d thread%s): ", dt ? "DGEMM" : "SGEMM", threads, threads > 1 ? "s" : "");
	if (dt)
		fprintf(f, "||C - Cref||_F / (||A||_F ||B||_F), Cref = the checking library's result\n\n");
	else
		fprintf(f, "||C - C64||_F / (||A||_F ||B||_F), C64 = the same product computed in double precision\n\n");
	fprintf(f, "| %s |", o->all_square ? "n" : "m x n x k");
	for (int ci = 0; ci < st->nc; ci++)
		if (st->c[ci].shown)
			fprintf(f, " %s |", st->c[ci].name);
	fprintf(f, "\n|---:|");
	for (int ci = 0; ci < st->nc; ci++)
		if (st->c[ci].shown)
			fprintf(f, "---:|");
	fputc('\n', f);
	for (int si = 0; si < o->nshapes; si++) {
		char lab[96];
		shape_label(&o->shapes[si], o->all_square, lab, sizeof lab);
		fprintf(f, "| %s |", lab);
		for (int ci = 0; ci < st->nc; ci++) {
			if (!st->c[ci].shown)
				continue;
			const bench_result *r = result_at(st, ti, dt, si, ci);
			double e = dt ? r->err : r->err64;
			if (r->status == ST_FAIL)
				fprintf(f, " ERR |");
			else if (isfinite(e))
				fprintf(f, " %.2e |", e);
			else
				fprintf(f, " - |");
		}
		fputc('\n', f);
	}
}

static int write_csv(bench_state *st, const char *path)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return -1;
	static const char *const status_name[] = {"none", "ok", "cap", "fail", "skip"};
	fprintf(f, "dtype,m,n,k,threads,contender,median_s,gflops,err,status,ratio_to_best_ref,pct_peak,err_f64\n");
	for (int ti = 0; ti < st->o.nthreads; ti++) {
		const int threads = st->o.threads[ti];
		for (int dt = 0; dt < 2; dt++) {
			if (!st->o.dtype[dt])
				continue;
			for (int si = 0; si < st->o.nshapes; si++) {
				const bench_shape *s = &st->o.shapes[si];
				int br = best_ref(st, ti, dt, si);
				for (int ci = 0; ci < st->nc; ci++) {
					if (!st->c[ci].shown)
						continue;
					const bench_result *r = result_at(st, ti, dt, si, ci);
					fprintf(f, "%s,%lld,%lld,%lld,%d,%s,", dt ? "d" : "s", (long long)s->m, (long long)s->n,
					        (long long)s->k, threads, st->c[ci].id);
					if (isfinite(r->median_s))
						fprintf(f, "%.6e,%.4f", r->median_s, r->gflops);
					else
						fputc(',', f);
					fputc(',', f);
					if (isfinite(r->err))
						fprintf(f, "%.3e", r->err);
					else if (r->status == ST_FAIL)
						fprintf(f, "nan"); /* a NaN in C, or the call failed */
					fprintf(f, ",%s,", status_name[r->status]);
					if (r->status == ST_OK && br >= 0)
						fprintf(f, "%.4f", r->gflops / result_at(st, ti, dt, si, br)->gflops);
					fputc(',', f);
					double pct = r->status == ST_OK ? pct_of_peak(st, dt, threads, r->gflops) : NAN;
					if (isfinite(pct))
						fprintf(f, "%.2f", pct);
					fputc(',', f);
					if (isfinite(r->err64))
						fprintf(f, "%.3e", r->err64);
					fputc('\n', f);
				}
			}
		}
	}
	return fclose(f) == 0 ? 0 : -1;
}

static void put_quoted(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,=/:+") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* The part of meta.txt every suite shares: command line, machine, peak. */
static void put_meta_machine(bench_state *st, FILE *f, int argc, char **argv, const char *date, double wall)
{
	gk_info info;
	gk_get_info(&info);
	struct utsname u;
	memset(&u, 0, sizeof u);
	uname(&u);
	fprintf(f, "command: gemmkit");
	for (int i = 0; i < argc; i++) {
		fputc(' ', f);
		put_quoted(f, argv[i]);
	}
	fprintf(f, "\nsuite: %s\ndate: %s\nwall_time_s: %.1f\n", st->o.suite->name, date, wall);
	fprintf(f, "cpu: %s\nnproc: %ld\ncpu_features: %s\n", info.cpu_name, sysconf(_SC_NPROCESSORS_ONLN),
	        info.cpu_features);
	fprintf(f, "cache_l1d_bytes: %zu\ncache_l2_bytes: %zu\ncache_l3_bytes: %zu\n", info.l1d_bytes,
	        info.l2_bytes, info.l3_bytes);
	fprintf(f, "os: %s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
	fprintf(f, "gemmkit: %s\ngemmkit_cpu_kernels: %s\n", gk_version_string(), gk_arch_name());
	fprintf(f, "threads: ");
	for (int i = 0; i < st->o.nthreads; i++)
		fprintf(f, "%s%d", i ? "," : "", st->o.threads[i]);
	fputc('\n', f);
	for (int i = 0; i < st->npeak; i++)
		for (int dt = 0; dt < 2; dt++) {
			const bench_peak *p = &st->peak[dt][i];
			if (p->gflops <= 0)
				continue;
			fprintf(f, "peak_%s_%dt_gflops: %.2f (isa %s: %s; median of %d runs of %.3f s, min %.2f, max %.2f; "
			        "%d threads ran)\n", dt ? "f64" : "f32", p->threads, p->gflops, p->isa, p->how, p->reps,
			        p->run_s, p->gflops_min, p->gflops_max, p->threads_run);
		}
}

static int write_meta(bench_state *st, const char *path, int argc, char **argv, const char *date, double wall)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return -1;
	put_meta_machine(st, f, argc, argv, date, wall);
	fprintf(f, "cap_s: %g\nreps: %s\nseed: %llu\nquick: %d\n", st->o.cap, st->o.reps ? "fixed" : "by time",
	        (unsigned long long)st->o.seed, st->o.quick);
	if (st->o.reps)
		fprintf(f, "reps_fixed: %lld\n", (long long)st->o.reps);
	fprintf(f, "verification: ||C - Cref||_F / (||A||_F ||B||_F) <= %g * k * eps and "
	           "||C - Cref||_F <= %g * ||Cref||_F\n", ERR_C, ERR_GROSS);
	if (st->o.err_table)
		fprintf(f, "err_f64: SGEMM error against the product of the same inputs computed in double precision "
		           "by the first checker\n");
	for (int ci = 0; ci < st->nc; ci++) {
		const bench_contender *c = &st->c[ci];
		if (!c->shown && !st->verifier_used[ci])
			continue;
		fprintf(f, "contender %s: %s%s", c->id, c->name, c->shown ? "" : " (checker only)");
		if (c->kind == KIND_REF)
			fprintf(f, "; %s", c->ref.how);
		fputc('\n', f);
	}
	for (int ci = 0; ci < st->nc; ci++)
		if (st->verifier_used[ci])
			fprintf(f, "checked_against: %s\n", st->c[ci].id);
	return fclose(f) == 0 ? 0 : -1;
}

static void plot(bench_state *st, int ti, int dt, const char *date)
{
	const bench_opts *o = &st->o;
	const int threads = o->threads[ti];
	int ns = 0;
	const char *names[MAX_CONTENDERS];
	int dashed[MAX_CONTENDERS];
	double *y = malloc((size_t)MAX_CONTENDERS * MAX_SHAPES * sizeof *y);
	double x[MAX_SHAPES];
	char labs[MAX_SHAPES][96];
	const char *xl[MAX_SHAPES];
	if (y == NULL)
		return;
	for (int si = 0; si < o->nshapes; si++) {
		x[si] = (double)o->shapes[si].n;
		shape_label(&o->shapes[si], o->all_square, labs[si], sizeof labs[si]);
		xl[si] = labs[si];
	}
	for (int ci = 0; ci < st->nc; ci++) {
		if (!st->c[ci].shown)
			continue;
		names[ns] = st->c[ci].name;
		dashed[ns] = st->c[ci].kind == KIND_REF;
		for (int si = 0; si < o->nshapes; si++) {
			const bench_result *r = result_at(st, ti, dt, si, ci);
			y[(size_t)ns * (size_t)o->nshapes + (size_t)si] = r->status == ST_OK ? r->gflops : NAN;
		}
		ns++;
	}
	gk_info info;
	gk_get_info(&info);
	char title[256], base[32];
	snprintf(title, sizeof title, "%s, %d thread%s, row-major C = A*B: %s (%s)", dt ? "DGEMM" : "SGEMM",
	         threads, threads > 1 ? "s" : "", info.cpu_name, date);
	/* One thread count keeps the plain names; several get one plot each. */
	if (o->nthreads > 1)
		snprintf(base, sizeof base, "%s-%dt", dt ? "dgemm" : "sgemm", threads);
	else
		snprintf(base, sizeof base, "%s", dt ? "dgemm" : "sgemm");
	bench_plot(o->out, base, title, o->all_square ? "N (m = n = k)" : "m x n x k", o->all_square, o->nshapes, x,
	           xl, ns, names, dashed, y);
	free(y);
}

static int make_dirs(const char *path)
{
	char buf[4096];
	if (strlen(path) >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -1;
	struct stat sb;
	return stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode) ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* The peak                                                                  */
/* ------------------------------------------------------------------------ */

/*
 * Measure the multiply-add peak of `isa` in both precisions for each thread
 * count of the run, and for 1 thread and every processor, into st->peak.
 */
static void measure_peaks(bench_state *st, const char *isa)
{
	const bench_opts *o = &st->o;
	int want[MAX_PEAKS], nw = 0;
	long np = sysconf(_SC_NPROCESSORS_ONLN);
	int all = np < 1 ? 1 : np > 1024 ? 1024 : (int)np;
	want[nw++] = 1;
	for (int i = 0; i < o->nthreads; i++)
		want[nw++] = o->threads[i];
	want[nw++] = all;
	qsort(want, (size_t)nw, sizeof *want, cmp_int);
	const double run_s = o->quick ? QUICK_PEAK_S : PEAK_S;
	const int reps = o->quick ? QUICK_PEAK_REPS : PEAK_REPS;
	st->npeak = 0;
	for (int i = 0; i < nw; i++) {
		if (i > 0 && want[i] == want[i - 1])
			continue;
		for (int dt = 0; dt < 2; dt++)
			if (bench_peak_measure(isa, dt, want[i], run_s, reps, &st->peak[dt][st->npeak]) != 0)
				memset(&st->peak[dt][st->npeak], 0, sizeof st->peak[dt][st->npeak]);
		fprintf(stderr, "gemmkit bench: multiply-add peak (%s), %d thread%s: float %.1f GFLOPS, double %.1f GFLOPS\n",
		        isa, want[i], want[i] > 1 ? "s" : "", st->peak[0][st->npeak].gflops, st->peak[1][st->npeak].gflops);
		st->npeak++;
	}
}

/* `gemmkit bench --suite peak`: the peak of every instruction set the CPU
 * has, for each thread count; results.md, results.csv and meta.txt. */
static int run_peak_suite(bench_state *st, int argc, char **argv, const char *date, double t_start)
{
	const bench_opts *o = &st->o;
	const double run_s = o->quick ? QUICK_PEAK_S : PEAK_S;
	const int reps = o->reps > 0 ? (int)o->reps : o->quick ? QUICK_PEAK_REPS : PEAK_REPS;
	bench_peak res[BENCH_PEAK_ISA_COUNT][2][MAX_TCOUNTS];
	memset(res, 0, sizeof res);
	if (make_dirs(o->out) != 0) {
		cli_error(CMD, "cannot create the output directory %s (%s)", o->out, strerror(errno));
		return 1;
	}
	for (int is = 0; is < BENCH_PEAK_ISA_COUNT; is++) {
		const char *isa = bench_peak_isas[is];
		if (!bench_peak_isa_supported(isa)) {
			fprintf(stderr, "gemmkit bench: this CPU cannot run %s: skipped\n", isa);
			continue;
		}
		for (int ti = 0; ti < o->nthreads; ti++)
			for (int dt = 0; dt < 2; dt++) {
				bench_peak *p = &res[is][dt][ti];
				if (bench_peak_measure(isa, dt, o->threads[ti], run_s, reps, p) != 0) {
					fprintf(stderr, "gemmkit bench: %s %s on %d threads could not be measured\n", isa,
					        dt ? "double" : "float", o->threads[ti]);
					continue;
				}
				fprintf(stderr, "gemmkit bench: %s %s, %d thread%s: %.1f GFLOPS (min %.1f, max %.1f)\n", isa,
				        dt ? "double" : "float", o->threads[ti], o->threads[ti] > 1 ? "s" : "", p->gflops,
				        p->gflops_min, p->gflops_max);
			}
	}
	/* What the GEMM suites use: the widest set, for meta.txt. */
	const char *best = bench_peak_best_isa();
	for (int is = 0; is < BENCH_PEAK_ISA_COUNT; is++)
		if (!strcmp(bench_peak_isas[is], best))
			for (int ti = 0; ti < o->nthreads; ti++, st->npeak++)
				for (int dt = 0; dt < 2; dt++)
					st->peak[dt][st->npeak] = res[is][dt][ti];
	double wall = cli_now() - t_start;

	char *md = NULL;
	size_t md_len = 0;
	FILE *mf = open_memstream(&md, &md_len);
	if (mf == NULL) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	gk_info info;
	gk_get_info(&info);
	fprintf(mf, "# gemmkit bench --suite peak\n\n");
	fprintf(mf, "- Machine: %s, %ld logical CPUs\n", info.cpu_name, sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(mf, "- Date: %s; total time %.0f s\n", date, wall);
	fprintf(mf, "- Each thread runs its own loop of independent multiply-adds (acc = acc * x + y) on enough "
	            "accumulators to hide the latency of every unit; GFLOPS = 2 flops per lane and multiply-add "
	            "(1 per multiply or add for SSE2) / wall time; median of %d runs of about %.2g s (min - max "
	            "in brackets). The GEMM suites use the widest set (%s) as the peak.\n", reps, run_s, best);
	fprintf(mf, "\n## Multiply-add peak (GFLOPS)\n\n| instruction set | loop | threads | float | double |\n"
	            "|---|---|---:|---:|---:|\n");
	for (int is = 0; is < BENCH_PEAK_ISA_COUNT; is++)
		for (int ti = 0; ti < o->nthreads; ti++) {
			const bench_peak *p = res[is][0];
			if (p[ti].gflops <= 0 && res[is][1][ti].gflops <= 0)
				continue;
			fprintf(mf, "| %s | %s | %d |", bench_peak_isas[is], p[ti].how ? p[ti].how : res[is][1][ti].how,
			        o->threads[ti]);
			for (int dt = 0; dt < 2; dt++) {
				const bench_peak *q = &res[is][dt][ti];
				if (q->gflops > 0)
					fprintf(mf, " %.1f (%.1f - %.1f) |", q->gflops, q->gflops_min, q->gflops_max);
				else
					fprintf(mf, " - |");
			}
			fputc('\n', mf);
		}
	fclose(mf);
	fputs(md, stdout);
	fflush(stdout);

	int rc = 0;
	char path[4200];
	snprintf(path, sizeof path, "%s/results.md", o->out);
	FILE *f = fopen(path, "w");
	int wrote = f && fputs(md, f) >= 0;
	if (f && fclose(f) != 0)
		wrote = 0;
	free(md);
	if (!wrote) {
		cli_error(CMD, "cannot write %s (%s)", path, strerror(errno));
		rc = 1;
	}
	snprintf(path, sizeof path, "%s/results.csv", o->out);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "isa,dtype,threads,threads_run,gflops,gflops_min,gflops_max,reps,run_s\n");
		for (int is = 0; is < BENCH_PEAK_ISA_COUNT; is++)
			for (int ti = 0; ti < o->nthreads; ti++)
				for (int dt = 0; dt < 2; dt++) {
					const bench_peak *q = &res[is][dt][ti];
					if (q->gflops > 0)
						fprintf(f, "%s,%s,%d,%d,%.3f,%.3f,%.3f,%d,%.4f\n", q->isa, dt ? "d" : "s", q->threads,
						        q->threads_run, q->gflops, q->gflops_min, q->gflops_max, q->reps, q->run_s);
				}
	}
	if (f == NULL || fclose(f) != 0) {
		cli_error(CMD, "cannot write %s (%s)", path, strerror(errno));
		rc = 1;
	}
	snprintf(path, sizeof path, "%s/meta.txt", o->out);
	f = fopen(path, "w");
	if (f) {
		put_meta_machine(st, f, argc, argv, date, wall);
		fprintf(f, "quick: %d\n", o->quick);
	}
	if (f == NULL || fclose(f) != 0) {
		cli_error(CMD, "cannot write %s (%s)", path, strerror(errno));
		rc = 1;
	}
	fprintf(stderr, "gemmkit bench: done in %.0f s; results in %s/\n", cli_now() - t_start, o->out);
	return rc;
}

/* ------------------------------------------------------------------------ */
/* The command                                                               */
/* ------------------------------------------------------------------------ */

int gk_cmd_bench(int argc, char **argv)
{
	/* `--suite gf256`: the Reed-Solomon benchmark (bench_gf256.c). */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--suite=gf256") || (!strcmp(argv[i], "--suite") && i + 1 < argc &&
		                                          !strcmp(argv[i + 1], "gf256")))
			return gk_bench_gf256(argc, argv);
	bench_state *st = calloc(1, sizeof *st);
	if (st == NULL) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	int rc = parse_options(argc, argv, &st->o);
	if (rc != 0) {
		free(st);
		return rc < 0 ? 0 : rc;
	}
	const bench_opts *o = &st->o;
	double t_start = cli_now();
	char date[64];
	time_t now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&now));

	if (!strcmp(o->suite->name, "peak")) {
		rc = run_peak_suite(st, argc, argv, date, t_start);
		free(st);
		return rc;
	}

	ref_choice chosen;
	rc = choose(st, &chosen);
	if (rc == 0)
		rc = load_refs(st, &chosen);
	/* Checkers of last resort: gemmkit auto, even when not timed. */
	if (rc == 0 && find_contender(st, "auto") == NULL)
		rc = add_ours(st, "auto", GK_DTYPE_F32 | GK_DTYPE_F64, 0);
	if (rc != 0)
		goto done;
	qsort(st->c, (size_t)st->nc, sizeof st->c[0], cmp_contender);
	int nshown = 0;
	for (int ci = 0; ci < st->nc; ci++)
		nshown += st->c[ci].shown;

	if (o->list) {
		/* One line per contender: its --algos name, a tab, what it is. */
		for (int ci = 0; ci < st->nc; ci++) {
			const bench_contender *c = &st->c[ci];
			if (!c->shown)
				continue;
			if (c->kind == KIND_REF) {
				printf("%s\t%s; %s\n", c->id, c->name, c->ref.how);
				continue;
			}
			const char *desc = "the algorithm gemmkit picks for each call (CPU backend)";
			for (int i = 0; i < gk_algo_count(); i++) {
				gk_algo_info in;
				if (gk_algo_get(i, &in) == GK_OK && !strcmp(in.name, c->id))
					desc = in.description;
			}
			printf("%s\tgemmkit: %s\n", c->id, desc);
		}
		goto done;
	}
	if (nshown == 0) {
		cli_error(CMD, "no contender left to run");
		rc = 1;
		goto done;
	}
	if (make_dirs(o->out) != 0) {
		cli_error(CMD, "cannot create the output directory %s (%s)", o->out, strerror(errno));
		rc = 1;
		goto done;
	}
	st->res = calloc((size_t)o->nthreads * 2 * MAX_SHAPES * MAX_CONTENDERS, sizeof *st->res);
	if (st->res == NULL) {
		cli_error(CMD, "out of memory");
		rc = 1;
		goto done;
	}
	int ndt = o->dtype[0] + o->dtype[1];
	st->total = o->nthreads * ndt * o->nshapes * nshown;
	fprintf(stderr, "gemmkit bench --suite %s: %d contender%s x %d size%s x %d precision%s x %d thread count%s, "
	        "cap %g s; results go to %s/\n", o->suite->name, nshown, nshown > 1 ? "s" : "", o->nshapes,
	        o->nshapes > 1 ? "s" : "", ndt, ndt > 1 ? "s" : "", o->nthreads, o->nthreads > 1 ? "s" : "", o->cap,
	        o->out);
	/* After the references are loaded: their trial loads fork, which is
	 * best done before this process has OpenMP threads of its own; and
	 * after a pause, in which the threads they started go to sleep. */
	pause_s(SETTLE_S);
	measure_peaks(st, bench_peak_best_isa());
	for (int ti = 0; ti < o->nthreads; ti++) {
		use_threads(st, ti);
		for (int dt = 0; dt < 2; dt++)
			if (o->dtype[dt])
				for (int si = 0; si < o->nshapes; si++)
					bench_cell(st, dt, si);
	}
	double wall = cli_now() - t_start;

	char *md = NULL;
	size_t md_len = 0;
	FILE *mf = open_memstream(&md, &md_len);
	if (mf == NULL) {
		cli_error(CMD, "out of memory");
		rc = 1;
		goto done;
	}
	put_header(st, mf, date, wall);
	for (int dt = 0; dt < 2; dt++)
		for (int ti = 0; ti < o->nthreads && o->dtype[dt]; ti++) {
			put_table(st, mf, ti, dt);
			if (o->times_table)
				put_times_table(st, mf, ti, dt);
			if (o->err_table)
				put_err_table(st, mf, ti, dt);
		}
	fclose(mf);
	fputs(md, stdout);
	fflush(stdout);

	char path[4200];
	snprintf(path, sizeof path, "%s/results.md", o->out);
	FILE *f = fopen(path, "w");
	int wrote = f && fputs(md, f) >= 0;
	if (f && fclose(f) != 0)
		wrote = 0;
	free(md);
	if (!wrote) {
		cli_error(CMD, "cannot write %s (%s)", path, strerror(errno));
		rc = 1;
	}
	snprintf(path, sizeof path, "%s/results.csv", o->out);
	if (write_csv(st, path) != 0) {
		cli_error(CMD, "cannot write %s (%s)", path, strerror(errno));
		rc = 1;
	}
	snprintf(path, sizeof path, "%s/meta.txt", o->out);
	if (write_meta(st, path, argc, argv, date, wall) != 0) {
		cli_error(CMD, "cannot write %s (%s)", path, strerror(errno));
		rc = 1;
	}
	if (o->plot)
		for (int ti = 0; ti < o->nthreads; ti++)
			for (int dt = 0; dt < 2; dt++)
				if (o->dtype[dt])
					plot(st, ti, dt, date);
	fprintf(stderr, "gemmkit bench: done in %.0f s; results in %s/\n", cli_now() - t_start, o->out);
	if (st->failed) {
		fprintf(stderr, "gemmkit bench: some results were wrong (ERR above)\n");
		rc = 1;
	}
done:
	for (int ci = 0; ci < st->nc; ci++)
		if (st->c[ci].kind == KIND_OURS)
			gk_context_destroy(st->c[ci].ctx);
	free(st->res);
	free(st);
	return rc;
}
