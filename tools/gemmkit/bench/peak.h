/*
 * peak.h - the machine's multiply-add peak (peak.c): the ceiling that
 * "% of peak" refers to, measured by the measurement engine.
 */
#ifndef GK_BENCH_PEAK_H
#define GK_BENCH_PEAK_H

/* The instruction sets of the peak loops, widest first. */
#define BENCH_PEAK_ISA_COUNT 3
extern const char *const bench_peak_isas[BENCH_PEAK_ISA_COUNT]; /* "avx512", "avx2", "sse2" */

/* 1 when the CPU and the OS can run the peak loop of `isa`. */
int bench_peak_isa_supported(const char *isa);
/* The widest of bench_peak_isas that this machine runs. */
const char *bench_peak_best_isa(void);
/* The peak loop of gemmkit's CPU kernel set in use: the widest the machine
 * runs, narrowed when GK_ARCH forces a narrower set (avx2, or generic: sse2),
 * so that "% of peak" on a forced run is against that set's ceiling. */
const char *bench_peak_active_isa(void);

typedef struct bench_peak {
	const char *isa;    /* "avx512", "avx2", "sse2" */
	const char *how;    /* "16 independent AVX-512 FMA chains per thread" */
	int f64;
	int threads;        /* asked for */
	int threads_run;    /* the OpenMP team the loops ran on */
	double gflops;      /* median over the runs */
	double gflops_min, gflops_max;
	int reps;
	double run_s;       /* median wall time of one run */
} bench_peak;

/*
 * Measure the multiply-add peak of `isa` in single (f64 == 0) or double
 * precision on `threads` OpenMP threads, each running its own loop: after a
 * calibration, one run that wakes the team, then `reps` runs of about run_s
 * seconds; GFLOPS = flops of all threads / wall time, median over the runs.
 * Returns 0, or -1 when the CPU cannot run `isa`.
 */
int bench_peak_measure(const char *isa, int f64, int threads, double run_s, int reps, bench_peak *out);

#endif
