/*
 * busy.c - `gemmkit bench --suite cpu-busy`: gemmkit's CPU GEMM on several
 * threads when the machine is not its own, on the measurement engine.
 *
 * For each thread count T > 1 of the run (the suite's: 2), precision and
 * size, every contender is measured in the same process and run:
 *   gemmkit-1t, gemmkit: gemmkit on 1 and T threads, alone;
 *   gemmkit-alt-openblas, gemmkit-alt-blis: gemmkit on T threads, each call
 *     followed by one of OpenBLAS or BLIS (T threads, as installed:
 *     OpenBLAS's pthreads, BLIS's OpenMP), gemmkit's calls timed;
 *     openblas-alt-gemmkit, blis-alt-gemmkit the other way round; openblas,
 *     blis: the references alone;
 *   gemmkit-busy, gemmkit-1t-busy, openblas-busy, blis-busy: beside a busy
 *     process, a child that spins on one core. These four are a second
 *     engine cell of the same inputs, and the child runs (SIGCONT) for the
 *     whole of it: their checked calls, warm-up, pauses and timed rounds,
 *     so that whatever a library learns about the machine it learns beside
 *     the busy process, as in a real program. It is stopped (SIGSTOP) for
 *     the other contenders' cell.
 * Every contender's first call is checked against the long double product
 * (tools/common/gemm_check.h: normwise error <= 8 (k + 2) u) before it is
 * timed; the untimed partner of an alternating pair writes elsewhere.
 * A reference that is not installed is left out with a message.
 *
 * The report gives GFLOPS and the ratios the targets name: gemmkit on T
 * threads beside the busy process against its own 1-thread speed, idle and
 * beside the same process (target >= 1), and alternating with each library
 * against its own idle T-thread speed (target >= 0.9).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli_util.h"
#include "engine.h"
#include "gemm.h"
#include "gemm_check.h"
#include "gemmkit.h"
#include "refs.h"
#include "report.h"
#include "suite.h"

#define CMD "bench"
#define BUSY_FACTOR 8.0 /* the check's bound: 8 (k + 2) u, as the GEMM suites */

enum { SIDE_GK, SIDE_OPENBLAS, SIDE_BLIS, NSIDES };
enum { MODE_ALONE, MODE_ALT, MODE_BUSY };

typedef struct busy_run busy_run;

/* One contender: whose calls are timed, on how many threads, and how. */
typedef struct {
	int side, partner; /* partner: SIDE_* called between the timed calls, or -1 */
	int mode, one;     /* one: on 1 thread instead of T */
	busy_run *r;
	double acc;        /* seconds of timed calls in the batch in progress */
} busy_side;

#define BUSY_MAX 12
static const struct {
	const char *id, *what;
	int side, partner, mode, one;
} busy_rows[BUSY_MAX] = {
	{"gemmkit-1t", "gemmkit, 1 thread", SIDE_GK, -1, MODE_ALONE, 1},
	{"gemmkit", "gemmkit, T threads", SIDE_GK, -1, MODE_ALONE, 0},
	{"gemmkit-alt-openblas", "gemmkit, T threads, each call followed by an OpenBLAS call", SIDE_GK, SIDE_OPENBLAS,
	 MODE_ALT, 0},
	{"gemmkit-alt-blis", "gemmkit, T threads, each call followed by a BLIS call", SIDE_GK, SIDE_BLIS, MODE_ALT, 0},
	{"gemmkit-busy", "gemmkit, T threads, beside the busy process", SIDE_GK, -1, MODE_BUSY, 0},
	{"gemmkit-1t-busy", "gemmkit, 1 thread, beside the busy process", SIDE_GK, -1, MODE_BUSY, 1},
	{"openblas", "OpenBLAS, T threads", SIDE_OPENBLAS, -1, MODE_ALONE, 0},
	{"openblas-alt-gemmkit", "OpenBLAS, T threads, each call followed by a gemmkit call", SIDE_OPENBLAS, SIDE_GK,
	 MODE_ALT, 0},
	{"openblas-busy", "OpenBLAS, T threads, beside the busy process", SIDE_OPENBLAS, -1, MODE_BUSY, 0},
	{"blis", "BLIS, T threads", SIDE_BLIS, -1, MODE_ALONE, 0},
	{"blis-alt-gemmkit", "BLIS, T threads, each call followed by a gemmkit call", SIDE_BLIS, SIDE_GK, MODE_ALT, 0},
	{"blis-busy", "BLIS, T threads, beside the busy process", SIDE_BLIS, -1, MODE_BUSY, 0},
};
enum { R_GK1, R_GK, R_GK_OB, R_GK_BLIS, R_GK_BUSY, R_GK1_BUSY, R_OB, R_OB_GK, R_OB_BUSY, R_BLIS, R_BLIS_GK,
       R_BLIS_BUSY };

struct busy_run {
	const bench_opts *o;
	gk_context *ctx1, *ctxt;     /* gemmkit on 1 and on T threads */
	bench_ref ref[NSIDES];       /* [SIDE_OPENBLAS], [SIDE_BLIS] */
	int have[NSIDES];
	pid_t child;                 /* the busy process, stopped between batches */
	_Atomic unsigned long *beat; /* it counts here, in shared memory */
	bench_contender c[BUSY_MAX];
	busy_side sd[BUSY_MAX];
	int nc;
	bench_result *res;           /* [thread count][precision][size][row] */
};

typedef struct {
	busy_run *r;
	int dt;
	const bench_shape *s;
	void *a, *b, *out, *other;
	long double *ref;
	double bound;
} busy_cell;

static bench_result *result_of(busy_run *r, int ti, int dt, int si, int row)
{
	return &r->res[(((size_t)ti * 2 + (size_t)dt) * BENCH_MAX_SHAPES + (size_t)si) * BUSY_MAX + (size_t)row];
}

/* ---- the busy process ----------------------------------------------------- */

static int child_start(busy_run *r)
{
	r->beat = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r->beat == MAP_FAILED) {
		r->beat = NULL;
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	r->child = fork();
	if (r->child < 0)
		return -1;
	if (r->child == 0) {
		/* Spin on one core until killed; a sign of life now and then. */
		for (unsigned long i = 0;; i++)
			if ((i & 0xfffff) == 0)
				atomic_store_explicit(r->beat, i, memory_order_relaxed);
	}
	kill(r->child, SIGSTOP);
	int st;
	while (waitpid(r->child, &st, WUNTRACED) < 0 && errno == EINTR)
		;
	return 0;
}

/* Let the child run, and wait until it does (at most 0.1 s). */
static void child_go(busy_run *r)
{
	const unsigned long b0 = atomic_load(r->beat);
	kill(r->child, SIGCONT);
	for (double t0 = bench_now(); atomic_load(r->beat) == b0 && bench_now() - t0 < 0.1;)
		bench_pause(50e-6);
}

static void child_stop(busy_run *r)
{
	kill(r->child, SIGSTOP);
	int st;
	while (waitpid(r->child, &st, WUNTRACED) < 0 && errno == EINTR)
		;
}

static void child_end(busy_run *r)
{
	if (r->child > 0) {
		kill(r->child, SIGKILL);
		while (waitpid(r->child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (r->beat != NULL)
		munmap((void *)r->beat, 4096);
}

/* ---- the contenders ------------------------------------------------------- */

/* One call of side on x's inputs into out: 0, or -1 (the reason in why). */
static int call(busy_run *r, int side, int one, const busy_cell *x, void *out, char *why, size_t len)
{
	const bench_shape *s = x->s;
	if (side != SIDE_GK) {
		if (bench_ref_gemm(&r->ref[side], x->dt, s->m, s->n, s->k, x->a, x->b, out) == 0)
			return 0;
		snprintf(why, len, "sizes too large for its integer type");
		return -1;
	}
	gk_context *ctx = one ? r->ctx1 : r->ctxt;
	const gk_status st =
		x->dt ? gk_dgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k, 1.0, x->a, s->k, x->b,
		                    s->n, 0.0, out, s->n)
		      : gk_sgemm_ex(ctx, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k, 1.0f, x->a, s->k,
		                    x->b, s->n, 0.0f, out, s->n);
	if (st == GK_OK)
		return 0;
	snprintf(why, len, "%s: %s", gk_strerror(st), gk_last_error());
	return -1;
}

static int side_prepare(bench_contender *c, void *cell)
{
	busy_side *sd = c->self;
	(void)cell;
	if (sd->mode == MODE_BUSY && sd->r->child <= 0) {
		snprintf(c->why, sizeof c->why, "no busy process (fork failed)");
		return BENCH_UNAVAILABLE;
	}
	return 0;
}

static int side_run(bench_contender *c, void *cell)
{
	busy_side *sd = c->self;
	busy_cell *x = cell;
	const double t0 = bench_now();
	if (call(sd->r, sd->side, sd->one, x, x->out, c->why, sizeof c->why) != 0)
		return BENCH_FAIL;
	sd->acc += bench_now() - t0;
	if (sd->partner >= 0 && call(sd->r, sd->partner, 0, x, x->other, c->why, sizeof c->why) != 0)
		return BENCH_FAIL;
	return 0;
}

/* The contender times its own calls: only the timed side's. */
static void side_timer_start(bench_contender *c, void *cell)
{
	busy_side *sd = c->self;
	(void)cell;
	sd->acc = 0;
}

static double side_timer_stop(bench_contender *c, void *cell)
{
	busy_side *sd = c->self;
	(void)cell;
	return sd->acc;
}

static const bench_ops side_ops = {side_prepare, side_run, NULL, side_timer_start, side_timer_stop, NULL};

/* ---- the cell: inputs, reference, check ----------------------------------- */

static void cell_free(busy_cell *x)
{
	free(x->a);
	free(x->b);
	free(x->out);
	free(x->other);
	free(x->ref);
	x->a = x->b = x->out = x->other = NULL;
	x->ref = NULL;
}

/* Before each contender's rounds: A, B and both outputs mapped (engine.h). */
static void cell_touch(void *data)
{
	const busy_cell *x = data;
	bench_gemm_touch(x->dt, x->s, x->a, x->b, x->out);
	bench_touch_pages(x->other, (size_t)x->s->m * (size_t)x->s->n * (x->dt ? sizeof(double) : sizeof(float)));
}

static int cell_setup(void *data, char *why, size_t len)
{
	busy_cell *x = data;
	if (x->a != NULL)
		return 0; /* made for the other cell */
	const bench_shape *s = x->s;
	const size_t es = x->dt ? sizeof(double) : sizeof(float);
	const size_t mk = (size_t)s->m * (size_t)s->k, kn = (size_t)s->k * (size_t)s->n, mn = (size_t)s->m * (size_t)s->n;
	x->a = malloc(mk * es);
	x->b = malloc(kn * es);
	x->out = malloc(mn * es);
	x->other = malloc(mn * es);
	x->ref = malloc(mn * sizeof(long double));
	if (!x->a || !x->b || !x->out || !x->other || !x->ref) {
		cell_free(x);
		snprintf(why, len, "not enough memory for the matrices");
		return -1;
	}
	bench_gemm_fill(x->dt, s, x->r->o->seed * 1000003u + (uint64_t)(x->dt * BENCH_MAX_SHAPES) + (uint64_t)s->n, x->a,
	                x->b);
	const unsigned dtype = x->dt ? GK_DTYPE_F64 : GK_DTYPE_F32;
	gkc_ref_gemm(dtype, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n, s->k, 1.0, x->a, s->k, x->b, s->n, 0.0,
	             NULL, s->n, NULL, s->m, x->ref);
	x->bound = gkc_gemm_bound(dtype, s->k, BUSY_FACTOR);
	return 0;
}

static void cell_poison(void *data, bench_contender *c)
{
	(void)c;
	busy_cell *x = data;
	bench_gemm_poison(x->dt, x->s, x->out);
}

static int cell_check(void *data, bench_contender *c, double *err, char *why, size_t len)
{
	(void)c;
	busy_cell *x = data;
	const bench_shape *s = x->s;
	*err = gkc_gemm_error(x->dt ? GK_DTYPE_F64 : GK_DTYPE_F32, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, s->m, s->n,
	                      s->k, 1.0, x->a, s->k, x->b, s->n, 0.0, NULL, x->out, s->n, NULL, s->m, x->ref);
	if (*err <= x->bound)
		return 0;
	snprintf(why, len, "error %.3g against the product in long double; bound %.3g", *err, x->bound);
	return -1;
}

/* The busy contenders' cell: the inputs (if the other cell did not make
 * them), then the busy process runs until the cell's end. */
static int busy_setup(void *data, char *why, size_t len)
{
	busy_cell *x = data;
	if (cell_setup(data, why, len) != 0)
		return -1;
	if (x->r->child > 0)
		child_go(x->r); /* else the contenders say why they do not run */
	return 0;
}

static void busy_teardown(void *data)
{
	busy_cell *x = data;
	if (x->r->child > 0)
		child_stop(x->r);
}

/* ---- the run ---------------------------------------------------------------- */

static void load_refs(busy_run *r, int t)
{
	static const char *const ids[NSIDES] = {NULL, "openblas", "blis"};
	char why[512];
	for (int side = SIDE_OPENBLAS; side < NSIDES; side++) {
		if (bench_ref_load(ids[side], t, 0, &r->ref[side], why, sizeof why) == BENCH_REF_LOADED)
			r->have[side] = 1;
		else
			fprintf(stderr, "gemmkit bench: %s (its rows are left out)\n", why);
	}
}

/* The contenders whose libraries are here. */
static void choose(busy_run *r)
{
	r->have[SIDE_GK] = 1;
	for (int i = 0; i < BUSY_MAX; i++) {
		busy_side *sd = &r->sd[i];
		*sd = (busy_side){busy_rows[i].side, busy_rows[i].partner, busy_rows[i].mode, busy_rows[i].one, r, 0};
		bench_contender *c = &r->c[i];
		memset(c, 0, sizeof *c);
		snprintf(c->id, sizeof c->id, "%s", busy_rows[i].id);
		snprintf(c->name, sizeof c->name, "%s", busy_rows[i].what);
		c->units = BENCH_GFLOPS;
		c->ops = &side_ops;
		c->self = sd;
	}
	r->nc = BUSY_MAX;
}

/* Whether row i runs here. */
static int row_here(const busy_run *r, int i)
{
	return r->have[busy_rows[i].side] && (busy_rows[i].partner < 0 || r->have[busy_rows[i].partner]);
}

static void fmt_rate(const bench_result *q, char *buf, size_t len)
{
	if (q->status == BENCH_OK)
		bench_fmt_rate(q->rate, buf, len);
	else
		snprintf(buf, len, "%s", q->status == BENCH_NONE ? "-" : bench_status_mark(q->status));
}

/* ours / ref and whether it meets target: "1.05 ok", "0.62 MISS (-31%)". */
static void fmt_target(const bench_result *ours, const bench_result *ref, double target, char *buf, size_t len)
{
	if (ours->status != BENCH_OK || ref->status != BENCH_OK || !(ref->rate > 0)) {
		snprintf(buf, len, "-");
		return;
	}
	const double q = ours->rate / ref->rate;
	if (q >= target)
		snprintf(buf, len, "%.2f ok", q);
	else
		snprintf(buf, len, "%.2f MISS (%.0f%% short)", q, 100 * (target - q) / target);
}

static double loadavg(void)
{
	double l = NAN;
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = NAN;
		fclose(f);
	}
	return l;
}

static void report(busy_run *r, bench_report *rep, const int *tcounts, int nt, double load0, double load1)
{
	const bench_opts *o = r->o;
	FILE *mf = rep->md;
	char a[32], b[32];
	bench_md_header(rep, mf);
	fprintf(mf, "\n- Load average (1 min) before the run %.2f, after %.2f\n", load0, load1);
	for (int side = SIDE_OPENBLAS; side < NSIDES; side++)
		if (r->have[side])
			fprintf(mf, "- %s: %s\n", r->ref[side].name, r->ref[side].how);
	fprintf(mf, "- Square row-major GEMM, alpha 1, beta 0; median of the timed batches; X-alt-Y: X's calls timed, "
	            "each followed by a call of Y in the same process; X-busy: beside a process spinning on one core "
	            "(running through the checked calls, warm-up, pauses and timed rounds of the X-busy contenders, "
	            "stopped for the others)\n");
	for (int ti = 0; ti < nt; ti++)
		for (int dt = 0; dt < 2; dt++) {
			if (!o->dtype[dt])
				continue;
			fprintf(mf, "\n## %s, T = %d threads (GFLOPS)\n\n| N |", dt ? "DGEMM" : "SGEMM", tcounts[ti]);
			for (int i = 0; i < BUSY_MAX; i++)
				if (row_here(r, i))
					fprintf(mf, " %s |", busy_rows[i].id);
			fprintf(mf, "\n|---:|");
			for (int i = 0; i < BUSY_MAX; i++)
				if (row_here(r, i))
					fprintf(mf, "---:|");
			fputc('\n', mf);
			for (int si = 0; si < o->nshapes; si++) {
				fprintf(mf, "| %lld |", (long long)o->shapes[si].n);
				for (int i = 0; i < BUSY_MAX; i++)
					if (row_here(r, i)) {
						fmt_rate(result_of(r, ti, dt, si, i), a, sizeof a);
						fprintf(mf, " %s |", a);
					}
				fputc('\n', mf);
			}
			fprintf(mf, "\n%s, T = %d: the targets\n\n| N | gemmkit-busy / gemmkit-1t (>= 1) | gemmkit-busy / "
			        "gemmkit-1t-busy (>= 1) | gemmkit-busy / "
			        "gemmkit | gemmkit-alt-openblas / gemmkit (>= 0.9) | gemmkit-alt-blis / gemmkit (>= 0.9) | "
			        "openblas-alt-gemmkit / openblas | blis-alt-gemmkit / blis |\n|---:|---|---|---|---|---|---|---|\n", dt ? "DGEMM" : "SGEMM", tcounts[ti]);
			for (int si = 0; si < o->nshapes; si++) {
				fprintf(mf, "| %lld |", (long long)o->shapes[si].n);
				const bench_result *gk = result_of(r, ti, dt, si, R_GK);
				fmt_target(result_of(r, ti, dt, si, R_GK_BUSY), result_of(r, ti, dt, si, R_GK1), 1.0, a, sizeof a);
				fmt_target(result_of(r, ti, dt, si, R_GK_BUSY), result_of(r, ti, dt, si, R_GK1_BUSY), 1.0, b,
				           sizeof b);
				fprintf(mf, " %s | %s |", a, b);
				fmt_target(result_of(r, ti, dt, si, R_GK_BUSY), gk, 0, a, sizeof a);
				fprintf(mf, " %s |", a);
				fmt_target(result_of(r, ti, dt, si, R_GK_OB), gk, 0.9, a, sizeof a);
				fmt_target(result_of(r, ti, dt, si, R_GK_BLIS), gk, 0.9, b, sizeof b);
				fprintf(mf, " %s | %s |", a, b);
				fmt_target(result_of(r, ti, dt, si, R_OB_GK), result_of(r, ti, dt, si, R_OB), 0, a, sizeof a);
				fmt_target(result_of(r, ti, dt, si, R_BLIS_GK), result_of(r, ti, dt, si, R_BLIS), 0, b, sizeof b);
				fprintf(mf, " %s | %s |\n", a, b);
			}
		}
	bench_report_finish(rep);
	FILE *f = bench_report_open(rep, "results.csv");
	if (f) {
		fprintf(f, "dtype,n,threads,contender,status,gflops,median_s,min_s,max_s,reps,batch,err\n");
		for (int ti = 0; ti < nt; ti++)
			for (int dt = 0; dt < 2; dt++)
				for (int si = 0; si < o->nshapes && o->dtype[dt]; si++)
					for (int i = 0; i < BUSY_MAX; i++) {
						const bench_result *q = result_of(r, ti, dt, si, i);
						if (!row_here(r, i))
							continue;
						fprintf(f, "%s,%lld,%d,%s,%s,%.3f,%.6g,%.6g,%.6g,%d,%lld,%.3g\n", dt ? "d" : "s",
						        (long long)o->shapes[si].n, busy_rows[i].one ? 1 : tcounts[ti], busy_rows[i].id,
						        q->status == BENCH_OK ? "ok" : bench_status_mark(q->status), q->rate, q->median_s,
						        q->min_s, q->max_s, q->reps, (long long)q->batch, q->err);
					}
		bench_report_close(rep, f, "results.csv");
	}
	f = bench_report_open(rep, "meta.txt");
	if (f) {
		bench_meta_machine(rep, f);
		fprintf(f, "loadavg_before: %.2f\nloadavg_after: %.2f\n", load0, load1);
		for (int side = SIDE_OPENBLAS; side < NSIDES; side++)
			if (r->have[side])
				fprintf(f, "%s: %s; %s\n", r->ref[side].id, r->ref[side].name, r->ref[side].how);
		for (int i = 0; i < BUSY_MAX; i++)
			fprintf(f, "contender %s: %s%s\n", busy_rows[i].id, busy_rows[i].what, row_here(r, i) ? "" : " (not run)");
		fprintf(f, "quick: %d\nreps: %lld\nseed: %llu\n", o->quick, (long long)o->reps, (unsigned long long)o->seed);
		bench_report_close(rep, f, "meta.txt");
	}
}

int bench_run_busy(const bench_opts *o)
{
	int tcounts[BENCH_MAX_TCOUNTS], nt = 0;
	for (int i = 0; i < o->nthreads; i++)
		if (o->threads[i] > 1)
			tcounts[nt++] = o->threads[i];
	if (nt == 0) {
		cli_error(CMD, "--suite cpu-busy needs a thread count above 1 (--threads)");
		return 2;
	}
	busy_run *r = calloc(1, sizeof *r);
	if (r == NULL || (r->res = calloc((size_t)nt * 2 * BENCH_MAX_SHAPES * BUSY_MAX, sizeof *r->res)) == NULL) {
		free(r);
		cli_error(CMD, "out of memory");
		return 1;
	}
	r->o = o;
	int rc = 1;
	if (gk_context_create(&r->ctx1) != GK_OK || gk_context_create(&r->ctxt) != GK_OK ||
	    gk_context_set_threads(r->ctx1, 1) != GK_OK) {
		cli_error(CMD, "cannot make a gemmkit context: %s", gk_last_error());
		goto done;
	}
	const double load0 = loadavg();
	/* References first (their trial loads fork), then the busy process,
	 * before gemmkit or a reference has started threads. */
	load_refs(r, tcounts[0]);
	if (child_start(r) != 0)
		fprintf(stderr, "gemmkit bench: cannot start the busy process (%s): its rows are left out\n",
		        strerror(errno));
	choose(r);
	bench_report rep;
	if (bench_report_begin(&rep, o->out, o->suite->name, o->argc, o->argv) != 0)
		goto done;
	bench_engine eng;
	bench_engine_init(&eng, o->quick);
	eng.cap = o->cap;
	eng.reps = o->reps;
	const int ndt = o->dtype[0] + o->dtype[1];
	int nrun = 0;
	for (int i = 0; i < BUSY_MAX; i++)
		nrun += row_here(r, i);
	eng.total = nt * ndt * o->nshapes * nrun;
	fprintf(stderr, "gemmkit bench --suite %s: %d contenders x %d sizes x %d precision%s x %d thread count%s; "
	        "results go to %s/\n", o->suite->name, nrun, o->nshapes, ndt, ndt > 1 ? "s" : "", nt, nt > 1 ? "s" : "",
	        o->out);
	bench_pause(BENCH_SETTLE_S);
	for (int ti = 0; ti < nt; ti++) {
		gk_context_set_threads(r->ctxt, tcounts[ti]);
		for (int side = SIDE_OPENBLAS; side < NSIDES; side++)
			if (r->have[side])
				bench_ref_set_threads(&r->ref[side], tcounts[ti]);
		for (int dt = 0; dt < 2; dt++)
			for (int si = 0; si < o->nshapes && o->dtype[dt]; si++) {
				const bench_shape *s = &o->shapes[si];
				busy_cell x = {.r = r, .dt = dt, .s = s};
				/* Two cells of the same inputs: the machine idle, then busy. */
				for (int busy = 0; busy < 2; busy++) {
					bench_cell cell;
					memset(&cell, 0, sizeof cell);
					snprintf(cell.label, sizeof cell.label, "%s %lldx%lldx%lld T=%d%s", dt ? "dgemm" : "sgemm",
					         (long long)s->m, (long long)s->n, (long long)s->k, tcounts[ti], busy ? " busy" : "");
					cell.series = dt;
					cell.work = 2.0 * (double)s->m * (double)s->n * (double)s->k;
					cell.threads = tcounts[ti];
					cell.data = &x;
					cell.setup = busy ? busy_setup : cell_setup;
					cell.before_check = cell_poison;
					cell.check = cell_check;
					cell.before_rounds = cell_touch;
					cell.teardown = busy ? busy_teardown : NULL;
					bench_contender cs[BUSY_MAX];
					bench_result res[BUSY_MAX];
					int map[BUSY_MAX], n = 0;
					for (int i = 0; i < BUSY_MAX; i++)
						if (row_here(r, i) && (busy_rows[i].mode == MODE_BUSY) == busy) {
							map[n] = i;
							cs[n++] = r->c[i];
						}
					if (n > 0)
						bench_run_cell(&eng, cs, n, &cell, res);
					for (int j = 0; j < n; j++) {
						r->c[map[j]] = cs[j];
						*result_of(r, ti, dt, si, map[j]) = res[j];
					}
				}
				cell_free(&x);
			}
	}
	report(r, &rep, tcounts, nt, load0, loadavg());
	fprintf(stderr, "gemmkit bench: done in %.0f s; results in %s/\n", bench_report_wall(&rep), o->out);
	rc = rep.failed || eng.failed;
	if (eng.failed)
		fprintf(stderr, "gemmkit bench: some results were wrong (ERR above)\n");
done:
	child_end(r);
	gk_context_destroy(r->ctx1);
	gk_context_destroy(r->ctxt);
	free(r->res);
	free(r);
	return rc;
}
