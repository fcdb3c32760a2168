/*
 * suite_peak.c - `gemmkit bench --suite peak`: the multiply-add peak of
 * every instruction set the CPU has, float and double, for each thread
 * count; each measurement a contender of the engine (peak.c).
 */
#include <string.h>
#include "gemmkit.h"
#include "peak.h"
#include "report.h"
#include "suite.h"

#define PEAK_S 0.2
#define PEAK_REPS 5
#define QUICK_PEAK_S 0.01
#define QUICK_PEAK_REPS 3

int bench_run_peak(const bench_opts *o)
{
	const double run_s = o->quick ? QUICK_PEAK_S : PEAK_S;
	const int reps = o->reps > 0 ? (int)o->reps : o->quick ? QUICK_PEAK_REPS : PEAK_REPS;
	static bench_peak res[BENCH_PEAK_ISA_COUNT][2][BENCH_MAX_TCOUNTS];
	memset(res, 0, sizeof res);
	bench_report rep;
	if (bench_report_begin(&rep, o->out, o->suite->name, o->argc, o->argv) != 0)
		return 1;
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
	const char *best = bench_peak_best_isa();
	FILE *mf = rep.md;
	bench_md_header(&rep, mf);
	fprintf(mf, "\n- Each thread runs its own loop of independent multiply-adds (acc = acc * x + y) on enough "
	            "accumulators to hide the latency of every unit; GFLOPS = 2 flops per lane and multiply-add "
	            "(1 per multiply or add for SSE2) / wall time; median of %d runs of about %.2g s (min - max "
	            "in brackets). The GEMM suites use the widest set (%s) as the peak.\n", reps, run_s, best);
	fprintf(mf, "\n## Multiply-add peak (GFLOPS)\n\n| instruction set | loop | threads | float | double |\n"
	            "|---|---|---:|---:|---:|\n");
	for (int is = 0; is < BENCH_PEAK_ISA_COUNT; is++)
		for (int ti = 0; ti < o->nthreads; ti++) {
			const bench_peak *p = &res[is][0][ti], *q = &res[is][1][ti];
			if (p->gflops <= 0 && q->gflops <= 0)
				continue;
			fprintf(mf, "| %s | %s | %d |", bench_peak_isas[is], p->how ? p->how : q->how, o->threads[ti]);
			for (int dt = 0; dt < 2; dt++) {
				const bench_peak *r = &res[is][dt][ti];
				if (r->gflops > 0)
					fprintf(mf, " %.1f (%.1f - %.1f) |", r->gflops, r->gflops_min, r->gflops_max);
				else
					fprintf(mf, " - |");
			}
			fputc('\n', mf);
		}
	bench_report_finish(&rep);

	FILE *f = bench_report_open(&rep, "results.csv");
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
		bench_report_close(&rep, f, "results.csv");
	}
	f = bench_report_open(&rep, "meta.txt");
	if (f) {
		bench_meta_machine(&rep, f);
		fprintf(f, "threads: ");
		for (int i = 0; i < o->nthreads; i++)
			fprintf(f, "%s%d", i ? "," : "", o->threads[i]);
		fputc('\n', f);
		/* What the GEMM suites use: the widest set. */
		for (int is = 0; is < BENCH_PEAK_ISA_COUNT; is++)
			for (int ti = 0; ti < o->nthreads && !strcmp(bench_peak_isas[is], best); ti++)
				for (int dt = 0; dt < 2; dt++) {
					const bench_peak *p = &res[is][dt][ti];
					if (p->gflops > 0)
						fprintf(f, "peak_%s_%dt_gflops: %.2f (isa %s: %s; median of %d runs of %.3f s, min %.2f, "
						        "max %.2f; %d threads ran)\n", dt ? "f64" : "f32", p->threads, p->gflops, p->isa,
						        p->how, p->reps, p->run_s, p->gflops_min, p->gflops_max, p->threads_run);
				}
		fprintf(f, "reps: %d\nrun_s: %g\nquick: %d\n", reps, run_s, o->quick);
		bench_report_close(&rep, f, "meta.txt");
	}
	fprintf(stderr, "gemmkit bench: done in %.0f s; results in %s/\n", bench_report_wall(&rep), o->out);
	return rep.failed;
}
