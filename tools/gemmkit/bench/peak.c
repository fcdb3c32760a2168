/*
 * peak.c - the floating-point peak of the machine, for `gemmkit bench`:
 * GFLOPS of a loop that does nothing but independent multiply-adds, the
 * ceiling that a GEMM's "% of peak" is measured against.
 *
 * Each thread runs its own loop over NACC independent accumulators, every
 * one updated as acc = acc * x + y. A multiply-add unit takes a new operation
 * every cycle but delivers its result only after its latency (4 or 5 cycles
 * on current x86 cores), and there are up to two such units: a chain of
 * dependent operations would measure latency, not throughput, so the loop
 * needs at least latency x units independent chains (2 x 4 = 8, 2 x 5 = 10).
 * AVX-512 has 32 vector registers: 16 chains, with room to spare. AVX2 has
 * 16: 12 chains, plus x and y. SSE2 has no fused multiply-add: 7 chains of
 * multiplies and 7 of adds, each counted as one flop per lane.
 *
 * x and y come through volatile variables so that the compiler cannot fold
 * the arithmetic, and are chosen so that the accumulators settle near 1
 * (the fixed point of acc * x + y) instead of overflowing or going denormal,
 * which would slow some CPUs down. The sum of the accumulators is kept, so
 * that the loop is not dead code.
 *
 * The kernels are compiled for their instruction set with target attributes
 * and run only where __builtin_cpu_supports says the CPU and the OS allow.
 * A measurement is a contender of the measurement engine (engine.h): its
 * prepare calibrates the loop, its run is one loop on every thread of the
 * team, and the engine's median over `reps` runs is the peak.
 */
#include <immintrin.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gemmkit.h"
#include "engine.h"
#include "peak.h"

/* The multiplier and the addend, read at run time; their fixed point is 1.
 * The SSE2 loop multiplies by peak_one instead. */
static volatile double peak_x = 0.999999;
static volatile double peak_y = 0.000001;
static volatile double peak_one = 1.0;
/* Where the results of the loops go. */
static volatile double peak_sink;

/* One thread's loop: iters iterations; returns the sum of the accumulators. */
typedef double (*peak_loop_fn)(int64_t iters);

__attribute__((target("avx512f,fma"))) static double peak_f32_avx512(int64_t iters)
{
	const double xd = peak_x, yd = peak_y;
	const __m512 x = _mm512_set1_ps((float)xd), y = _mm512_set1_ps((float)yd);
	__m512 a0 = _mm512_set1_ps(0.10f), a1 = _mm512_set1_ps(0.11f), a2 = _mm512_set1_ps(0.12f);
	__m512 a3 = _mm512_set1_ps(0.13f), a4 = _mm512_set1_ps(0.14f), a5 = _mm512_set1_ps(0.15f);
	__m512 a6 = _mm512_set1_ps(0.16f), a7 = _mm512_set1_ps(0.17f), a8 = _mm512_set1_ps(0.18f);
	__m512 a9 = _mm512_set1_ps(0.19f), a10 = _mm512_set1_ps(0.20f), a11 = _mm512_set1_ps(0.21f);
	__m512 a12 = _mm512_set1_ps(0.22f), a13 = _mm512_set1_ps(0.23f), a14 = _mm512_set1_ps(0.24f);
	__m512 a15 = _mm512_set1_ps(0.25f);
	for (int64_t i = 0; i < iters; i++) {
		a0 = _mm512_fmadd_ps(a0, x, y), a1 = _mm512_fmadd_ps(a1, x, y);
		a2 = _mm512_fmadd_ps(a2, x, y), a3 = _mm512_fmadd_ps(a3, x, y);
		a4 = _mm512_fmadd_ps(a4, x, y), a5 = _mm512_fmadd_ps(a5, x, y);
		a6 = _mm512_fmadd_ps(a6, x, y), a7 = _mm512_fmadd_ps(a7, x, y);
		a8 = _mm512_fmadd_ps(a8, x, y), a9 = _mm512_fmadd_ps(a9, x, y);
		a10 = _mm512_fmadd_ps(a10, x, y), a11 = _mm512_fmadd_ps(a11, x, y);
		a12 = _mm512_fmadd_ps(a12, x, y), a13 = _mm512_fmadd_ps(a13, x, y);
		a14 = _mm512_fmadd_ps(a14, x, y), a15 = _mm512_fmadd_ps(a15, x, y);
	}
	a0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
	                   _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
	a8 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11)),
	                   _mm512_add_ps(_mm512_add_ps(a12, a13), _mm512_add_ps(a14, a15)));
	return (double)_mm512_reduce_add_ps(_mm512_add_ps(a0, a8));
}

__attribute__((target("avx512f,fma"))) static double peak_f64_avx512(int64_t iters)
{
	const double xd = peak_x, yd = peak_y;
	const __m512d x = _mm512_set1_pd(xd), y = _mm512_set1_pd(yd);
	__m512d a0 = _mm512_set1_pd(0.10), a1 = _mm512_set1_pd(0.11), a2 = _mm512_set1_pd(0.12);
	__m512d a3 = _mm512_set1_pd(0.13), a4 = _mm512_set1_pd(0.14), a5 = _mm512_set1_pd(0.15);
	__m512d a6 = _mm512_set1_pd(0.16), a7 = _mm512_set1_pd(0.17), a8 = _mm512_set1_pd(0.18);
	__m512d a9 = _mm512_set1_pd(0.19), a10 = _mm512_set1_pd(0.20), a11 = _mm512_set1_pd(0.21);
	__m512d a12 = _mm512_set1_pd(0.22), a13 = _mm512_set1_pd(0.23), a14 = _mm512_set1_pd(0.24);
	__m512d a15 = _mm512_set1_pd(0.25);
	for (int64_t i = 0; i < iters; i++) {
		a0 = _mm512_fmadd_pd(a0, x, y), a1 = _mm512_fmadd_pd(a1, x, y);
		a2 = _mm512_fmadd_pd(a2, x, y), a3 = _mm512_fmadd_pd(a3, x, y);
		a4 = _mm512_fmadd_pd(a4, x, y), a5 = _mm512_fmadd_pd(a5, x, y);
		a6 = _mm512_fmadd_pd(a6, x, y), a7 = _mm512_fmadd_pd(a7, x, y);
		a8 = _mm512_fmadd_pd(a8, x, y), a9 = _mm512_fmadd_pd(a9, x, y);
		a10 = _mm512_fmadd_pd(a10, x, y), a11 = _mm512_fmadd_pd(a11, x, y);
		a12 = _mm512_fmadd_pd(a12, x, y), a13 = _mm512_fmadd_pd(a13, x, y);
		a14 = _mm512_fmadd_pd(a14, x, y), a15 = _mm512_fmadd_pd(a15, x, y);
	}
	a0 = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)),
	                   _mm512_add_pd(_mm512_add_pd(a4, a5), _mm512_add_pd(a6, a7)));
	a8 = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(a8, a9), _mm512_add_pd(a10, a11)),
	                   _mm512_add_pd(_mm512_add_pd(a12, a13), _mm512_add_pd(a14, a15)));
	return _mm512_reduce_add_pd(_mm512_add_pd(a0, a8));
}

/* The sum of a ymm register's lanes, in double. */
__attribute__((target("avx2,fma"))) static double hsum_ps256(__m256 v)
{
	float t[8];
	_mm256_storeu_ps(t, v);
	double s = 0;
	for (int i = 0; i < 8; i++)
		s += t[i];
	return s;
}

__attribute__((target("avx2,fma"))) static double hsum_pd256(__m256d v)
{
	double t[4];
	_mm256_storeu_pd(t, v);
	return t[0] + t[1] + t[2] + t[3];
}

__attribute__((target("avx2,fma"))) static double peak_f32_avx2(int64_t iters)
{
	const double xd = peak_x, yd = peak_y;
	const __m256 x = _mm256_set1_ps((float)xd), y = _mm256_set1_ps((float)yd);
	__m256 a0 = _mm256_set1_ps(0.10f), a1 = _mm256_set1_ps(0.11f), a2 = _mm256_set1_ps(0.12f);
	__m256 a3 = _mm256_set1_ps(0.13f), a4 = _mm256_set1_ps(0.14f), a5 = _mm256_set1_ps(0.15f);
	__m256 a6 = _mm256_set1_ps(0.16f), a7 = _mm256_set1_ps(0.17f), a8 = _mm256_set1_ps(0.18f);
	__m256 a9 = _mm256_set1_ps(0.19f), a10 = _mm256_set1_ps(0.20f), a11 = _mm256_set1_ps(0.21f);
	for (int64_t i = 0; i < iters; i++) {
		a0 = _mm256_fmadd_ps(a0, x, y), a1 = _mm256_fmadd_ps(a1, x, y);
		a2 = _mm256_fmadd_ps(a2, x, y), a3 = _mm256_fmadd_ps(a3, x, y);
		a4 = _mm256_fmadd_ps(a4, x, y), a5 = _mm256_fmadd_ps(a5, x, y);
		a6 = _mm256_fmadd_ps(a6, x, y), a7 = _mm256_fmadd_ps(a7, x, y);
		a8 = _mm256_fmadd_ps(a8, x, y), a9 = _mm256_fmadd_ps(a9, x, y);
		a10 = _mm256_fmadd_ps(a10, x, y), a11 = _mm256_fmadd_ps(a11, x, y);
	}
	a0 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
	                   _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
	a8 = _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11));
	return hsum_ps256(_mm256_add_ps(a0, a8));
}

__attribute__((target("avx2,fma"))) static double peak_f64_avx2(int64_t iters)
{
	const double xd = peak_x, yd = peak_y;
	const __m256d x = _mm256_set1_pd(xd), y = _mm256_set1_pd(yd);
	__m256d a0 = _mm256_set1_pd(0.10), a1 = _mm256_set1_pd(0.11), a2 = _mm256_set1_pd(0.12);
	__m256d a3 = _mm256_set1_pd(0.13), a4 = _mm256_set1_pd(0.14), a5 = _mm256_set1_pd(0.15);
	__m256d a6 = _mm256_set1_pd(0.16), a7 = _mm256_set1_pd(0.17), a8 = _mm256_set1_pd(0.18);
	__m256d a9 = _mm256_set1_pd(0.19), a10 = _mm256_set1_pd(0.20), a11 = _mm256_set1_pd(0.21);
	for (int64_t i = 0; i < iters; i++) {
		a0 = _mm256_fmadd_pd(a0, x, y), a1 = _mm256_fmadd_pd(a1, x, y);
		a2 = _mm256_fmadd_pd(a2, x, y), a3 = _mm256_fmadd_pd(a3, x, y);
		a4 = _mm256_fmadd_pd(a4, x, y), a5 = _mm256_fmadd_pd(a5, x, y);
		a6 = _mm256_fmadd_pd(a6, x, y), a7 = _mm256_fmadd_pd(a7, x, y);
		a8 = _mm256_fmadd_pd(a8, x, y), a9 = _mm256_fmadd_pd(a9, x, y);
		a10 = _mm256_fmadd_pd(a10, x, y), a11 = _mm256_fmadd_pd(a11, x, y);
	}
	a0 = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)),
	                   _mm256_add_pd(_mm256_add_pd(a4, a5), _mm256_add_pd(a6, a7)));
	a8 = _mm256_add_pd(_mm256_add_pd(a8, a9), _mm256_add_pd(a10, a11));
	return hsum_pd256(_mm256_add_pd(a0, a8));
}

/* SSE2, without FMA: multiplies by x (chains m*) and adds of y (chains s*)
 * in separate chains, so that both kinds of unit are kept busy. Here x is 1
 * and y tiny, so neither kind of chain drifts out of the normal range. */
static double peak_f32_sse2(int64_t iters)
{
	const double yd = peak_y;
	const __m128 x = _mm_set1_ps((float)peak_one), y = _mm_set1_ps((float)yd);
	__m128 m0 = _mm_set1_ps(0.10f), m1 = _mm_set1_ps(0.11f), m2 = _mm_set1_ps(0.12f), m3 = _mm_set1_ps(0.13f);
	__m128 m4 = _mm_set1_ps(0.14f), m5 = _mm_set1_ps(0.15f), m6 = _mm_set1_ps(0.16f);
	__m128 s0 = _mm_set1_ps(0.20f), s1 = _mm_set1_ps(0.21f), s2 = _mm_set1_ps(0.22f), s3 = _mm_set1_ps(0.23f);
	__m128 s4 = _mm_set1_ps(0.24f), s5 = _mm_set1_ps(0.25f), s6 = _mm_set1_ps(0.26f);
	for (int64_t i = 0; i < iters; i++) {
		m0 = _mm_mul_ps(m0, x), s0 = _mm_add_ps(s0, y);
		m1 = _mm_mul_ps(m1, x), s1 = _mm_add_ps(s1, y);
		m2 = _mm_mul_ps(m2, x), s2 = _mm_add_ps(s2, y);
		m3 = _mm_mul_ps(m3, x), s3 = _mm_add_ps(s3, y);
		m4 = _mm_mul_ps(m4, x), s4 = _mm_add_ps(s4, y);
		m5 = _mm_mul_ps(m5, x), s5 = _mm_add_ps(s5, y);
		m6 = _mm_mul_ps(m6, x), s6 = _mm_add_ps(s6, y);
	}
	m0 = _mm_add_ps(_mm_add_ps(_mm_add_ps(m0, m1), _mm_add_ps(m2, m3)), _mm_add_ps(_mm_add_ps(m4, m5), m6));
	s0 = _mm_add_ps(_mm_add_ps(_mm_add_ps(s0, s1), _mm_add_ps(s2, s3)), _mm_add_ps(_mm_add_ps(s4, s5), s6));
	float t[4];
	_mm_storeu_ps(t, _mm_add_ps(m0, s0));
	return (double)t[0] + t[1] + t[2] + t[3];
}

static double peak_f64_sse2(int64_t iters)
{
	const double yd = peak_y;
	const __m128d x = _mm_set1_pd(peak_one), y = _mm_set1_pd(yd);
	__m128d m0 = _mm_set1_pd(0.10), m1 = _mm_set1_pd(0.11), m2 = _mm_set1_pd(0.12), m3 = _mm_set1_pd(0.13);
	__m128d m4 = _mm_set1_pd(0.14), m5 = _mm_set1_pd(0.15), m6 = _mm_set1_pd(0.16);
	__m128d s0 = _mm_set1_pd(0.20), s1 = _mm_set1_pd(0.21), s2 = _mm_set1_pd(0.22), s3 = _mm_set1_pd(0.23);
	__m128d s4 = _mm_set1_pd(0.24), s5 = _mm_set1_pd(0.25), s6 = _mm_set1_pd(0.26);
	for (int64_t i = 0; i < iters; i++) {
		m0 = _mm_mul_pd(m0, x), s0 = _mm_add_pd(s0, y);
		m1 = _mm_mul_pd(m1, x), s1 = _mm_add_pd(s1, y);
		m2 = _mm_mul_pd(m2, x), s2 = _mm_add_pd(s2, y);
		m3 = _mm_mul_pd(m3, x), s3 = _mm_add_pd(s3, y);
		m4 = _mm_mul_pd(m4, x), s4 = _mm_add_pd(s4, y);
		m5 = _mm_mul_pd(m5, x), s5 = _mm_add_pd(s5, y);
		m6 = _mm_mul_pd(m6, x), s6 = _mm_add_pd(s6, y);
	}
	m0 = _mm_add_pd(_mm_add_pd(_mm_add_pd(m0, m1), _mm_add_pd(m2, m3)), _mm_add_pd(_mm_add_pd(m4, m5), m6));
	s0 = _mm_add_pd(_mm_add_pd(_mm_add_pd(s0, s1), _mm_add_pd(s2, s3)), _mm_add_pd(_mm_add_pd(s4, s5), s6));
	double t[2];
	_mm_storeu_pd(t, _mm_add_pd(m0, s0));
	return t[0] + t[1];
}

typedef struct {
	const char *isa;
	int f64;
	peak_loop_fn fn;
	int lanes;  /* elements per vector */
	int ops;    /* vector operations per iteration */
	int flops;  /* flops per lane and operation: 2 for a multiply-add */
	const char *how;
} peak_kernel;

static const peak_kernel peak_kernels[] = {
	{"avx512", 0, peak_f32_avx512, 16, 16, 2, "16 independent AVX-512 FMA chains per thread"},
	{"avx512", 1, peak_f64_avx512, 8, 16, 2, "16 independent AVX-512 FMA chains per thread"},
	{"avx2", 0, peak_f32_avx2, 8, 12, 2, "12 independent AVX2 FMA chains per thread"},
	{"avx2", 1, peak_f64_avx2, 4, 12, 2, "12 independent AVX2 FMA chains per thread"},
	{"sse2", 0, peak_f32_sse2, 4, 14, 1, "7 SSE2 multiply and 7 add chains per thread (no FMA)"},
	{"sse2", 1, peak_f64_sse2, 2, 14, 1, "7 SSE2 multiply and 7 add chains per thread (no FMA)"},
};
#define N_PEAK_KERNELS ((int)(sizeof peak_kernels / sizeof peak_kernels[0]))

const char *const bench_peak_isas[BENCH_PEAK_ISA_COUNT] = {"avx512", "avx2", "sse2"};

int bench_peak_isa_supported(const char *isa)
{
	__builtin_cpu_init();
	if (strcmp(isa, "avx512") == 0)
		return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
	if (strcmp(isa, "avx2") == 0)
		return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
	return strcmp(isa, "sse2") == 0; /* every x86-64 CPU has it */
}

const char *bench_peak_best_isa(void)
{
	for (int i = 0; i < BENCH_PEAK_ISA_COUNT; i++)
		if (bench_peak_isa_supported(bench_peak_isas[i]))
			return bench_peak_isas[i];
	return "sse2";
}

const char *bench_peak_active_isa(void)
{
	const char *set = gk_arch_name(), *best = bench_peak_best_isa();
	if (strcmp(set, "generic") == 0)
		return "sse2";
	if (strcmp(set, "avx2") == 0 && strcmp(best, "avx512") == 0)
		return "avx2";
	return best;
}

/* Wall time of one loop of iters iterations on each of `threads` threads;
 * *team: how many threads the team had. */
static double run_team(const peak_kernel *k, int threads, int64_t iters, int *team)
{
	double sum = 0;
	int got = 1;
	double t0 = bench_now();
#pragma omp parallel num_threads(threads) reduction(+ : sum)
	{
		sum += k->fn(iters);
#pragma omp master
		got = omp_get_num_threads();
	}
	double t = bench_now() - t0;
	peak_sink = sum;
	*team = got;
	return t;
}

/* One measurement, as a contender of the engine. */
typedef struct peak_state {
	const peak_kernel *k;
	int threads, team;
	double run_s;
	int64_t iters;
} peak_state;

/*
 * Calibrate on this thread alone, where no team start-up or neighbour blurs
 * the time: grow the loop until it takes an eighth of run_s, then scale it
 * to run_s. The engine's checked run then wakes the team and brings the
 * clock up; the timed runs follow.
 */
static int peak_prepare(bench_contender *c, void *cell)
{
	(void)cell;
	peak_state *p = c->self;
	const double run_s = p->run_s;
	int64_t iters = 1024;
	double t0 = bench_now();
	peak_sink = p->k->fn(iters);
	double t = bench_now() - t0;
	while (t < run_s / 8 && iters < (INT64_C(1) << 40)) {
		iters *= t > 0 && run_s / 8 / t < 16 ? 2 : 16;
		t0 = bench_now();
		peak_sink = p->k->fn(iters);
		t = bench_now() - t0;
	}
	double scaled = (double)iters * run_s / (t > 0 ? t : run_s);
	p->iters = scaled < 1 ? 1 : (int64_t)scaled;
	run_team(p->k, p->threads, 1, &p->team); /* the team's size */
	c->work = (double)p->team * (double)p->iters * p->k->ops * p->k->lanes * p->k->flops;
	return 0;
}

static int peak_run(bench_contender *c, void *cell)
{
	(void)cell;
	peak_state *p = c->self;
	int team = 0;
	run_team(p->k, p->threads, p->iters, &team);
	return 0;
}

static const bench_ops peak_ops = {peak_prepare, peak_run, NULL, NULL, NULL, NULL};

int bench_peak_measure(const char *isa, int f64, int threads, double run_s, int reps, bench_peak *out)
{
	memset(out, 0, sizeof *out);
	const peak_kernel *k = NULL;
	for (int i = 0; i < N_PEAK_KERNELS; i++)
		if (strcmp(peak_kernels[i].isa, isa) == 0 && peak_kernels[i].f64 == !!f64)
			k = &peak_kernels[i];
	if (k == NULL || !bench_peak_isa_supported(isa) || threads < 1 || reps < 1 || !(run_s > 0))
		return -1;
	peak_state st = {k, threads, 1, run_s, 1};
	bench_contender c;
	memset(&c, 0, sizeof c);
	snprintf(c.id, sizeof c.id, "peak.%s", isa);
	snprintf(c.name, sizeof c.name, "%s", k->how);
	c.units = BENCH_GFLOPS;
	c.ops = &peak_ops;
	c.self = &st;
	bench_engine e;
	bench_engine_init(&e, 0);
	e.progress = NULL;
	e.cap = 0;
	e.reps = reps;
	e.warm_s = 0;    /* the checked run is the warm-up */
	e.round_s = 0;   /* one loop per round */
	bench_cell cell;
	memset(&cell, 0, sizeof cell);
	snprintf(cell.label, sizeof cell.label, "peak %s %s t=%d", isa, f64 ? "double" : "float", threads);
	cell.work = 1;
	cell.threads = 1; /* one contender: nothing to interleave with */
	bench_result r;
	bench_run_cell(&e, &c, 1, &cell, &r);
	if (r.status != BENCH_OK)
		return -1;
	out->isa = k->isa;
	out->how = k->how;
	out->f64 = !!f64;
	out->threads = threads;
	out->threads_run = st.team;
	out->gflops = r.rate;
	out->gflops_min = c.work / r.max_s * 1e-9;
	out->gflops_max = c.work / r.min_s * 1e-9;
	out->reps = r.reps;
	out->run_s = r.median_s;
	return 0;
}
