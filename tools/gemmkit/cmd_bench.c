/*
 * cmd_bench.c - `gemmkit bench`: its options and the dispatch to a suite.
 *
 * A run is a suite (--suite, bench/suites.c): a preset of contenders, sizes,
 * shapes, precisions, thread counts and cap, which the options override.
 * Every suite runs on the one measurement engine (bench/engine.h) and writes
 * through the one report writer (bench/report.h):
 *   GEMM suites (default, ladder, cpu, strassen)   bench/gemm*.c
 *   peak                                           bench/suite_peak.c
 *   gf256 (Reed-Solomon against ISA-L)             bench/gf256*.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/engine.h"
#include "bench/gpu_gf256.h"
#include "bench/gpu_multi.h"
#include "bench/suite.h"
#include "cli_util.h"
#include "commands.h"

#define CMD "bench"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: gemmkit bench [--suite NAME] [options]\n"
	        "\n"
	        "Times gemmkit's CPU algorithms and the reference libraries (OpenBLAS and BLIS,\n"
	        "each as installed and, on CPUs with AVX-512F, with its AVX-512 kernels, or\n"
	        "its AVX2 ones when GK_ARCH=avx2 forces gemmkit's AVX2 set) on\n"
	        "row-major C = A*B. Each result is checked first; with 1 thread, timed runs are\n"
	        "interleaved across contenders (with several, each contender runs its rounds in\n"
	        "a row after a pause, in three passes over the contenders), each round after\n"
	        "an untimed read of one byte per page of A, B and C; the median is\n"
	        "reported as GFLOPS = 2*m*n*k / time, and as a percentage\n"
	        "of the machine's multiply-add peak, measured at the start of the run. The\n"
	        "ratio to the fastest reference is of the medians; with 1 thread also round by\n"
	        "round (the median of the ratios of the same round's times).\n"
	        "\n"
	        "suites (--suite NAME; the options below override a suite's settings; the times\n"
	        "are estimates for an idle machine with 2 cores):\n");
	for (int i = 0; i < bench_nsuites; i++) {
		const bench_suite *s = &bench_suites[i];
		fprintf(f, "  %-9s (%s)%s\n    ", s->name, s->runtime,
		        !strcmp(s->name, "default") ? ", what plain `gemmkit bench` runs:" : "");
		for (const char *p = s->what; *p; p++) {
			fputc(*p, f);
			if (*p == '\n')
				fputs("    ", f);
		}
		fputc('\n', f);
	}
	fprintf(f,
	        "\n"
	        "options:\n"
	        "  --sizes N,N,...     square sizes, run in increasing order (default suite:\n"
	        "                      16,32,64,128,256,512,1024,2048,4096); gf256: shard bytes\n"
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
	        "                      per measurement (default 5); gf256: rounds (default 7)\n"
	        "  --seed N            seed of the random inputs (default: 1)\n"
	        "  --offset N          place A, B and C N bytes past a 4 KiB page, N in [0, 4095]\n"
	        "                      (default: on a 64-byte boundary; malloc gives large blocks\n"
	        "                      16 bytes past a page); suites default, ladder, cpu,\n"
	        "                      strassen, gpu, gpu-precision, gpu-ladder, gpu-seed001\n"
	        "  --out DIR           where results.md, results.csv, meta.txt and the plots go\n"
	        "                      (default: gemmkit-bench-results)\n"
	        "  --quick             sizes 16,32,64 and very short timing, for smoke tests\n"
	        "  --no-plot           do not run gnuplot\n"
	        "  --list              list the contenders of the run, and exit\n"
	        "  -h, --help          this help\n"
	        "\n"
	        "A GEMM cell whose matrices, or a gf256 case whose shards, need more memory than is\n"
	        "available (MemAvailable, or GK_MEM_AVAILABLE=size|off) is \"-\", with the figures.\n"
	        "The table goes to stdout, progress to stderr. Exit status: 0 all results correct,\n"
	        "1 a result was wrong (\"ERR\") or a file could not be written, 2 bad options.\n",
	        BENCH_MAX_TCOUNTS);
}

static void usage_gf256(FILE *f)
{
	fputs("usage: gemmkit bench --suite gf256 [options]\n"
	      "\n"
	      "Reed-Solomon encode and decode throughput (GB/s of data = k x shard bytes /\n"
	      "time) of gemmkit and of ISA-L's ec_encode_data (libisal.so.2, when installed),\n"
	      "median of timed rounds (interleaved with 1 thread; with more, each side in a\n"
	      "row after a pause, so that idle spinning workers do not steal cores). With\n"
	      "1 thread the ratio is also given round by round: the median of the ratios of\n"
	      "the two sides' times in the same round.\n"
	      "Both sides use gemmkit's Cauchy matrix; every result is first checked byte for\n"
	      "byte: parity against a scalar GF(2^8) computation, decodes against the data.\n"
	      "Decode rebuilds 2 lost data shards, call after call with one erasure pattern:\n"
	      "the inverse is made once (gemmkit keeps it from its first call; ISA-L's\n"
	      "decode tables are made before the timing).\n"
	      "\n"
	      "  --codes LIST      k+m codes (default 4+2,6+3,10+4,12+4,28+4)\n"
	      "  --sizes LIST      shard sizes in bytes, k/M suffixes (default 64k,1M)\n"
	      "  --threads LIST    thread counts (default 1,2); ISA-L gets T pthreads, each\n"
	      "                    coding 1/T of every shard\n"
	      "  --algos LIST      gemmkit, isal (default both)\n"
	      "  --reps N          timed rounds per case (default 7; 3 with --quick)\n"
	      "  --seed N          seed of the random data (default 1)\n"
	      "  --out DIR         where results.md, results.csv, meta.txt and gf256.png go\n"
	      "                    (default gemmkit-bench-gf256)\n"
	      "  --no-plot         do not run gnuplot\n"
	      "  --list            list the contenders, and exit\n"
	      "  --quick           a short run for tests: 4+2 and 10+4, 64k, 1 thread\n"
	      "  -h, --help        this text\n"
	      "\n"
	      "Exit status: 0 done, 1 a check failed or an output could not be written,\n"
	      "2 bad command line.\n", f);
}

static const char *const valued[] = {"--sizes", "--shapes", "--algos", "--dtype", "--threads", "--cap",
                                     "--reps", "--seed", "--out", "--suite", "--codes", "--offset", NULL};

static int takes_value(const char *name)
{
	for (int i = 0; valued[i]; i++)
		if (!strcmp(name, valued[i]))
			return 1;
	return 0;
}

/* The suite named on the command line (the last --suite), or NULL after a
 * message. */
static const bench_suite *suite_of(int argc, char **argv)
{
	const char *name = "default";
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--suite=", 8))
			name = argv[i] + 8;
		else if (!strcmp(argv[i], "--suite") && i + 1 < argc)
			name = argv[++i];
		else if (takes_value(argv[i]))
			i++; /* a value, even one that looks like --suite */
	}
	const bench_suite *s = bench_find_suite(name);
	if (s == NULL) {
		fprintf(stderr, "gemmkit bench: --suite \"%s\": expected one of", name);
		for (int i = 0; i < bench_nsuites; i++)
			fprintf(stderr, " %s", bench_suites[i].name);
		fputc('\n', stderr);
	}
	return s;
}

/* Does option `name` apply to a suite of this kind? */
static int applies(const char *name, int kind)
{
	static const char *const gemm_only[] = {"--shapes", "--dtype", "--cap", "--offset", NULL};
	static const char *const not_peak[] = {"--sizes", "--shapes", "--algos", "--dtype", "--cap", "--seed",
	                                       "--list", "--codes", "--offset", NULL};
	if (kind == BENCH_KIND_PEAK) {
		for (int i = 0; not_peak[i]; i++)
			if (!strcmp(name, not_peak[i]))
				return 0;
		return 1;
	}
	if (kind == BENCH_KIND_GF256) {
		for (int i = 0; gemm_only[i]; i++)
			if (!strcmp(name, gemm_only[i]))
				return 0;
		return 1;
	}
	if (kind != BENCH_KIND_GEMM && !strcmp(name, "--offset"))
		return 0;
	return strcmp(name, "--codes") != 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int parse_threads(const char *val, bench_opts *o)
{
	int64_t t[BENCH_MAX_TCOUNTS];
	int n = cli_parse_i64_list(val, 1, 1024, t, BENCH_MAX_TCOUNTS);
	if (n < 1) {
		cli_error(CMD, "--threads \"%s\": expected up to %d comma-separated whole numbers in [1, 1024]", val,
		          BENCH_MAX_TCOUNTS);
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
	for (const char *p = shapes;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char one[128], *x1 = NULL, *x2 = NULL;
		int64_t v[3];
		if (len == 0 || len >= sizeof one || o->nshapes >= BENCH_MAX_SHAPES) {
			cli_error(CMD, "--shapes \"%s\": expected up to %d comma-separated MxNxK shapes", shapes,
			          BENCH_MAX_SHAPES);
			return 2;
		}
		memcpy(one, p, len);
		one[len] = '\0';
		x1 = strchr(one, 'x');
		x2 = x1 ? strchr(x1 + 1, 'x') : NULL;
		if (x2)
			*x1 = *x2 = '\0';
		if (!x2 || strchr(x2 + 1, 'x') || cli_parse_i64(one, 1, INT64_MAX, &v[0]) != 0 ||
		    cli_parse_i64(x1 + 1, 1, INT64_MAX, &v[1]) != 0 || cli_parse_i64(x2 + 1, 1, INT64_MAX, &v[2]) != 0) {
			memcpy(one, p, len);
			cli_error(CMD, "--shapes: \"%s\" is not MxNxK with whole numbers >= 1 (e.g. 4096x4096x64 or 8x8x1e7)",
			          one);
			return 2;
		}
		o->shapes[o->nshapes++] = (bench_shape){v[0], v[1], v[2]};
		if (v[0] != v[1] || v[1] != v[2])
			o->all_square = 0;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

/* gf256: "k+m,..." */
static int parse_codes(const char *s, bench_opts *o)
{
	o->ncodes = 0;
	for (const char *p = s; *p;) {
		char *end;
		long k = strtol(p, &end, 10);
		if (end == p || *end != '+')
			return -1;
		p = end + 1;
		long m = strtol(p, &end, 10);
		/* The decode case loses 2 data shards: k, m >= 2. */
		if (end == p || k < 2 || m < 2 || k + m > 256 || o->ncodes >= BENCH_MAX_CODES)
			return -1;
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

/* The sizes (GEMM: square sizes, increasing; gf256: shard bytes). */
static int parse_sizes(const char *val, bench_opts *o, int gf, int64_t *sizes, int *n)
{
	*n = cli_parse_i64_list(val, gf ? 64 : 1, gf ? INT64_C(1) << 30 : INT64_C(1) << 31, sizes, BENCH_MAX_SHAPES);
	if (*n < 1) {
		if (gf)
			cli_error(CMD, "--sizes \"%s\": expected shard sizes in [64, 1G]", val);
		else
			cli_error(CMD, "--sizes \"%s\": expected up to %d comma-separated sizes in [1, 2^31]", val,
			          BENCH_MAX_SHAPES);
		return 2;
	}
	(void)o;
	return 0;
}

/* Returns 0, -1 after --help, or 2 after printing what is wrong. */
static int parse_options(int argc, char **argv, bench_opts *o)
{
	memset(o, 0, sizeof *o);
	o->argc = argc, o->argv = argv;
	if ((o->suite = suite_of(argc, argv)) == NULL)
		return 2;
	const bench_suite *su = o->suite;
	const int kind = su->kind, gf = kind == BENCH_KIND_GF256;
	o->dtype[0] = 1;
	o->seed = 1;
	o->offset = -1;
	o->out = su->out;
	o->plot = 1;
	o->cap = su->cap > 0 ? su->cap : 10;
	o->algos = su->algos ? su->algos : "ours,refs";
	o->times_table = su->times_table;
	o->err_table = su->err_table;
	if (su->dtype && parse_dtype(su->dtype, o) != 0)
		return 2;
	const char *sizes = NULL, *shapes = NULL, *threads = NULL, *codes = NULL;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq = strchr(arg, '=');
		char name[32];
		if (!strncmp(arg, "--", 2) && eq && (size_t)(eq - arg) < sizeof name) {
			memcpy(name, arg, (size_t)(eq - arg));
			name[eq - arg] = '\0';
			val = eq + 1;
		} else {
			snprintf(name, sizeof name, "%s", arg);
		}
		int takes = takes_value(name);
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
		if ((takes || !strcmp(name, "--list")) && !applies(name, kind)) {
			cli_error(CMD, "%s does not apply to --suite %s (see gemmkit bench --help)", name, su->name);
			return 2;
		}
		int64_t v;
		if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
			if (gf)
				usage_gf256(stdout);
			else if (kind == BENCH_KIND_MULTI)
				bench_multi_usage(stdout);
			else
				usage(stdout);
			return -1;
		} else if (!strcmp(name, "--sizes")) {
			sizes = val;
		} else if (!strcmp(name, "--shapes")) {
			shapes = val;
		} else if (!strcmp(name, "--codes")) {
			codes = val;
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
			threads = val;
			if (parse_threads(val, o) != 0)
				return 2;
		} else if (!strcmp(name, "--cap")) {
			if (cli_parse_double(val, &o->cap) != 0 || !(o->cap > 0)) {
				cli_error(CMD, "--cap \"%s\": expected a number of seconds > 0", val);
				return 2;
			}
		} else if (!strcmp(name, "--reps")) {
			if (cli_parse_i64(val, 1, gf ? 1000 : 1000000, &o->reps) != 0) {
				cli_error(CMD, "--reps \"%s\": expected a whole number in [1, %d]", val, gf ? 1000 : 1000000);
				return 2;
			}
		} else if (!strcmp(name, "--seed")) {
			if (cli_parse_i64(val, 0, INT64_MAX, &v) != 0) {
				cli_error(CMD, "--seed \"%s\": expected a whole number >= 0", val);
				return 2;
			}
			o->seed = (uint64_t)v;
		} else if (!strcmp(name, "--offset")) {
			if (cli_parse_i64(val, 0, 4095, &v) != 0) {
				cli_error(CMD, "--offset \"%s\": expected a whole number of bytes in [0, 4095]", val);
				return 2;
			}
			o->offset = v;
		} else if (!strcmp(name, "--out")) {
			if (*val == '\0') {
				cli_error(CMD, "--out needs a directory name");
				return 2;
			}
			o->out = val;
		} else if (!strcmp(name, "--suite")) {
			/* Read by suite_of. */
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
	if (threads == NULL) {
		const char *t = o->quick && su->quick_threads ? su->quick_threads : su->threads;
		if (t) {
			if (parse_threads(t, o) != 0)
				return 2;
		} else {
			long np = sysconf(_SC_NPROCESSORS_ONLN);
			o->threads[0] = 1;
			o->nthreads = 1;
			if (np > 1)
				o->threads[o->nthreads++] = np > 1024 ? 1024 : (int)np;
		}
	}
	if (kind == BENCH_KIND_PEAK)
		return 0;
	int64_t sz[BENCH_MAX_SHAPES];
	int nsz = 0;
	if (gf) {
		if (codes == NULL)
			codes = o->quick ? su->quick_codes : su->codes;
		if (parse_codes(codes, o) != 0) {
			cli_error(CMD, "--codes \"%s\": expected k+m,... with k, m >= 2 and k + m <= 256", codes);
			return 2;
		}
		if (parse_sizes(sizes ? sizes : o->quick ? su->quick_sizes : su->sizes, o, 1, o->gf_sizes, &o->ngf_sizes))
			return 2;
		return 0;
	}
	/* Sizes or shapes of the command line replace both of the suite's. */
	if (sizes == NULL && shapes == NULL) {
		sizes = o->quick ? su->quick_sizes : su->sizes;
		shapes = o->quick ? NULL : su->shapes;
	}
	if (sizes && parse_sizes(sizes, o, 0, sz, &nsz) != 0)
		return 2;
	/* Increasing sizes make the cap's prediction (from the previous size) work. */
	qsort(sz, (size_t)nsz, sizeof *sz, cmp_i64);
	o->all_square = 1;
	for (int i = 0; i < nsz; i++)
		if (i == 0 || sz[i] != sz[i - 1])
			o->shapes[o->nshapes++] = (bench_shape){sz[i], sz[i], sz[i]};
	if (shapes && parse_shapes(shapes, o) != 0)
		return 2;
	return 0;
}

int gk_cmd_bench(int argc, char **argv)
{
	bench_opts *o = calloc(1, sizeof *o);
	if (o == NULL) {
		cli_error(CMD, "out of memory");
		return 1;
	}
	int rc = parse_options(argc, argv, o);
	if (rc == 0) {
		switch (o->suite->kind) {
		case BENCH_KIND_PEAK: rc = bench_run_peak(o); break;
		case BENCH_KIND_GF256:
			/* gpu-gf256 shares the options of gf256 and has its own runner */
			rc = strncmp(o->suite->name, "gpu-", 4) == 0 ? bench_run_gpu_gf256(o) : bench_run_gf256(o);
			break;
		case BENCH_KIND_HOSTMEM: rc = bench_run_hostmem(o); break;
		case BENCH_KIND_HXV: rc = bench_run_hxv(o); break;
		case BENCH_KIND_MULTI: rc = bench_run_multi(o); break;
		case BENCH_KIND_BUSY: rc = bench_run_busy(o); break;
		default: rc = bench_run_gemm(o); break;
		}
	}
	free(o);
	return rc < 0 ? 0 : rc;
}
