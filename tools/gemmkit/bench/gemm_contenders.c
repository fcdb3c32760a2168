/*
 * gemm_contenders.c - who runs in a GEMM suite: --algos expanded into
 * gemmkit's CPU algorithms (a gk_context each), "auto" and the reference
 * libraries, put in table order; a seed ladder rung tied to an instruction
 * set the CPU lacks, or that the kernel set in use (GK_ARCH) does not run,
 * is marked unavailable instead of being timed under its name.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "gemm.h"

#define CMD "bench"

/* The seed ladder rungs tied to an instruction set: measured under their
 * name only where the CPU has it and the kernel set in use runs it. */
static const struct {
	const char *algo, *feature, *label;
	const char *sets[2]; /* kernel sets (gk_arch_name) that run it */
} rung_isa[] = {
	{"cpu.avx2_3x32", "avx2", "AVX2", {"avx2", "avx512"}},
	{"cpu.avx512_6x64", "avx512f", "AVX-512", {"avx512", NULL}},
};

static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; (p = strstr(p, w)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

static void rung_unavailable(const char *algo, char *why, size_t len)
{
	why[0] = '\0';
	gk_info info;
	gk_get_info(&info);
	const char *arch = gk_arch_name();
	for (size_t i = 0; i < sizeof rung_isa / sizeof rung_isa[0]; i++) {
		if (strcmp(rung_isa[i].algo, algo) != 0)
			continue;
		if (!has_word(info.cpu_features, rung_isa[i].feature)) {
			snprintf(why, len, "needs %s; this CPU lacks it", rung_isa[i].label);
			return;
		}
		int runs = 0;
		for (int j = 0; j < 2; j++)
			runs |= rung_isa[i].sets[j] && !strcmp(rung_isa[i].sets[j], arch);
		if (!runs)
			snprintf(why, len, "needs %s; the kernel set in use is %s%s", rung_isa[i].label, arch,
			         getenv("GK_ARCH") ? " (GK_ARCH)" : "");
	}
}

static int find(const gemm_run *g, const char *id)
{
	for (int i = 0; i < g->nc; i++)
		if (strcmp(g->c[i].id, id) == 0)
			return i;
	return -1;
}

static int add_ours(gemm_run *g, const gk_algo_info *in)
{
	const char *id = in ? in->name : "auto";
	if (find(g, id) >= 0)
		return 0;
	if (g->nc >= GEMM_MAX_CONTENDERS) {
		cli_error(CMD, "too many contenders (at most %d)", GEMM_MAX_CONTENDERS);
		return 2;
	}
	bench_contender *c = &g->c[g->nc];
	gemm_side *sd = &g->side[g->nc];
	memset(c, 0, sizeof *c);
	memset(sd, 0, sizeof *sd);
	snprintf(c->id, sizeof c->id, "%s", id);
	snprintf(c->name, sizeof c->name, "%s", in ? id : "gemmkit auto");
	c->units = BENCH_GFLOPS;
	c->ops = &gemm_ours_ops;
	c->self = sd;
	sd->kind = GEMM_OURS;
	sd->dtypes = in ? in->dtypes : GK_DTYPE_F32 | GK_DTYPE_F64;
	sd->desc = in ? in->description : "the algorithm gemmkit picks for each call (CPU backend)";
	sd->rung = in && !strncmp(in->description, "seed rung", 9);
	if (in)
		rung_unavailable(id, sd->unavailable, sizeof sd->unavailable);
	gk_status s = gk_context_create(&sd->ctx);
	if (s == GK_OK)
		s = gk_context_set_algo(sd->ctx, id);
	if (s == GK_OK)
		s = gk_context_set_threads(sd->ctx, g->o->threads[0]);
	/* "auto" competes on the CPU here, against CPU libraries. */
	if (s == GK_OK && in == NULL)
		s = gk_context_set_backend(sd->ctx, GK_BACKEND_CPU);
	if (s != GK_OK) {
		cli_error(CMD, "cannot set up %s: %s", id, gk_last_error()[0] ? gk_last_error() : gk_strerror(s));
		gk_context_destroy(sd->ctx);
		return 1;
	}
	g->nc++;
	return 0;
}

/* A GPU contender: a cuda.* algorithm on device pointers (in), or a cuBLAS
 * mode as a reference (in NULL, cublas its id: "cublas", "cublas-tf32",
 * "cublas-bf16x9"), timed with CUDA events (gpu.c). */
static int add_gpu(gemm_run *g, const gk_algo_info *in, const char *cublas)
{
	const char *id = in ? in->name : cublas;
	if (find(g, id) >= 0)
		return 0;
	if (g->nc >= GEMM_MAX_CONTENDERS) {
		cli_error(CMD, "too many contenders (at most %d)", GEMM_MAX_CONTENDERS);
		return 2;
	}
	char why[256] = "";
	gpu_side *gs = gpu_side_new(in ? in->name : cublas, why, sizeof why);
	if (gs == NULL) {
		fprintf(stderr, "gemmkit bench: %s: %s: skipped\n", id, why);
		return 0;
	}
	bench_contender *c = &g->c[g->nc];
	gemm_side *sd = &g->side[g->nc];
	memset(c, 0, sizeof *c);
	memset(sd, 0, sizeof *sd);
	snprintf(c->id, sizeof c->id, "%s", id);
	if (in)
		snprintf(c->name, sizeof c->name, "%s", id);
	else
		snprintf(c->name, sizeof c->name, "%s", !strcmp(cublas, "cublas") ? "cuBLAS"
		                                        : !strcmp(cublas, "cublas-tf32") ? "cuBLAS TF32"
		                                                                         : "cuBLAS BF16x9");
	c->units = BENCH_GFLOPS;
	c->ops = &gemm_gpu_ops;
	c->self = sd;
	sd->kind = in ? GEMM_OURS : GEMM_REF;
	sd->gpu = gs;
	sd->dtypes = in ? in->dtypes : GK_DTYPE_F32 | GK_DTYPE_F64;
	sd->desc = in                              ? in->description
	           : !strcmp(cublas, "cublas")      ? "cublasSgemm (default FP32 math mode) and cublasDgemm, "
	                                              "column-major C^T = B^T A^T"
	           : !strcmp(cublas, "cublas-tf32") ? "cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32 (float)"
	                                            : "cublasGemmEx, CUBLAS_COMPUTE_32F_EMULATED_16BFX9 (float)";
	if (!in && strcmp(cublas, "cublas") != 0)
		sd->dtypes = GK_DTYPE_F32;
	sd->precision = in                              ? in->precision
	                : !strcmp(cublas, "cublas-tf32") ? GK_PRECISION_TF32
	                : !strcmp(cublas, "cublas")      ? GK_PRECISION_STRICT
	                                                 : GK_PRECISION_ACCURATE;
	/* The seeds' GPU kernels form the ladder; the production ones the front. */
	sd->rung = in && strncmp(in->name, "cuda.s0", 7) == 0;
	g->ngpu++;
	g->nc++;
	return 0;
}

/* Add a registry row, or say why not. */
static int add_algo(gemm_run *g, const gk_algo_info *in)
{
	if (in->backend == GK_BACKEND_CUDA)
		return add_gpu(g, in, NULL);
	if (!in->available) {
		fprintf(stderr, "gemmkit bench: %s is not available on this machine: skipped\n", in->name);
		return 0;
	}
	return add_ours(g, in);
}

/* Expand --algos: gemmkit algorithms are added now, references noted. */
static int choose(gemm_run *g, int want[BENCH_REF_COUNT], int forced[BENCH_REF_COUNT])
{
	const char *p = g->o->algos;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char tok[64];
		if (len == 0 || len >= sizeof tok) {
			cli_error(CMD, "--algos \"%s\": expected comma-separated names", g->o->algos);
			return 2;
		}
		memcpy(tok, p, len);
		tok[len] = '\0';
		int known = 0, rc = 0, any = 0;
		int ours = !strcmp(tok, "ours"), strassen = !strcmp(tok, "strassen");
		int cuda = !strcmp(tok, "cuda");
		if (!strcmp(tok, "refs")) {
			known = 1;
			for (int r = 0; r < BENCH_REF_COUNT; r++)
				want[r] = 1;
		} else if (!strcmp(tok, "cublas") || !strcmp(tok, "cublas-tf32") || !strcmp(tok, "cublas-bf16x9")) {
			known = 1;
			rc = add_gpu(g, NULL, tok);
		} else if (!strcmp(tok, "auto")) {
			known = 1;
			rc = add_ours(g, NULL);
		} else {
			for (int r = 0; r < BENCH_REF_COUNT; r++)
				if (!strcmp(tok, bench_ref_ids[r]))
					known = 1, want[r] = 1, forced[r] = 1;
		}
		for (int i = 0; i < gk_algo_count() && rc == 0 && !known; i++) {
			gk_algo_info in;
			if (gk_algo_get(i, &in) != GK_OK)
				continue;
			if (cuda) {
				if (in.backend != GK_BACKEND_CUDA)
					continue;
				any = 1;
				rc = add_algo(g, &in);
			} else if (ours || strassen) {
				/* Groups take the CPU rows only; cuda.* are named one by one. */
				if (in.backend != GK_BACKEND_CPU || (strassen && !strstr(in.name, "strassen")))
					continue;
				any = 1;
				rc = add_algo(g, &in);
			} else if (!strcmp(in.name, tok)) {
				known = 1;
				rc = add_algo(g, &in);
			}
		}
		if (ours && rc == 0)
			rc = add_ours(g, NULL);
		if (strassen && !any)
			fprintf(stderr, "gemmkit bench: --algos strassen: no CPU algorithm of this gemmkit has "
			        "\"strassen\" in its name\n");
		if (cuda && !any)
			fprintf(stderr, "gemmkit bench: --algos cuda: this gemmkit has no cuda.* algorithm\n");
		known |= ours || strassen || cuda;
		if (rc != 0)
			return rc;
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
			fprintf(stderr, " cublas cublas-tf32 cublas-bf16x9 ours refs strassen cuda\n");
			return 2;
		}
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

/* Load the chosen references; best-kernel variants first: their trial load
 * forks, best done before other libraries start threads. */
static void load_refs(gemm_run *g, const int want[BENCH_REF_COUNT], const int forced[BENCH_REF_COUNT])
{
	static const int order[BENCH_REF_COUNT] = {1, 3, 0, 2};
	for (int j = 0; j < BENCH_REF_COUNT; j++) {
		int r = order[j];
		if (!want[r] || g->nc >= GEMM_MAX_CONTENDERS)
			continue;
		bench_contender *c = &g->c[g->nc];
		gemm_side *sd = &g->side[g->nc];
		memset(c, 0, sizeof *c);
		memset(sd, 0, sizeof *sd);
		char why[512];
		int got = bench_ref_load(bench_ref_ids[r], g->o->threads[0], forced[r], &sd->ref, why, sizeof why);
		if (got != BENCH_REF_LOADED) {
			/* A missing library is worth one word, not one per variant. */
			int best = strstr(bench_ref_ids[r], "-best") != NULL;
			if (!(got == BENCH_REF_NOT_FOUND && best && want[r - 1]))
				fprintf(stderr, "gemmkit bench: %s\n", why);
			continue;
		}
		snprintf(c->id, sizeof c->id, "%s", bench_ref_ids[r]);
		memcpy(c->name, sd->ref.name, sizeof sd->ref.name);
		c->units = BENCH_GFLOPS;
		c->ops = &gemm_ref_ops;
		c->self = sd;
		sd->kind = GEMM_REF;
		sd->dtypes = GK_DTYPE_F32 | GK_DTYPE_F64;
		g->nc++;
	}
}

/* Table order: gemmkit algorithms in registry order, auto, then references. */
static int rank(const bench_contender *c)
{
	for (int r = 0; r < BENCH_REF_COUNT; r++)
		if (!strcmp(c->id, bench_ref_ids[r]))
			return 2000 + r;
	if (!strncmp(c->id, "cublas", 6))
		return 3000 + (int)strlen(c->id);
	if (!strcmp(c->id, "auto"))
		return 1000;
	for (int i = 0; i < gk_algo_count(); i++) {
		gk_algo_info in;
		if (gk_algo_get(i, &in) == GK_OK && !strcmp(in.name, c->id))
			return i;
	}
	return 999;
}

static void sort_contenders(gemm_run *g)
{
	for (int i = 1; i < g->nc; i++)
		for (int j = i; j > 0 && rank(&g->c[j]) < rank(&g->c[j - 1]); j--) {
			bench_contender tc = g->c[j];
			gemm_side ts = g->side[j];
			g->c[j] = g->c[j - 1], g->side[j] = g->side[j - 1];
			g->c[j - 1] = tc, g->side[j - 1] = ts;
		}
	for (int i = 0; i < g->nc; i++)
		g->c[i].self = &g->side[i];
}

int gemm_choose(gemm_run *g)
{
	int want[BENCH_REF_COUNT] = {0}, forced[BENCH_REF_COUNT] = {0};
	int rc = choose(g, want, forced);
	if (rc != 0)
		return rc;
	for (int r = 0; r < BENCH_REF_COUNT; r++)
		g->refs_wanted |= want[r];
	load_refs(g, want, forced);
	sort_contenders(g);
	return 0;
}

void gemm_list(const gemm_run *g)
{
	/* One line per contender: its --algos name, a tab, what it is. */
	for (int ci = 0; ci < g->nc; ci++) {
		const gemm_side *sd = &g->side[ci];
		if (sd->gpu != NULL)
			printf("%s\t%s%s (GPU, CUDA events)\n", g->c[ci].id, sd->kind == GEMM_REF ? "" : "gemmkit: ",
			       sd->desc);
		else if (sd->kind == GEMM_REF)
			printf("%s\t%s; %s\n", g->c[ci].id, g->c[ci].name, sd->ref.how);
		else if (sd->unavailable[0])
			printf("%s\tunavailable here (%s); gemmkit: %s\n", g->c[ci].id, sd->unavailable, sd->desc);
		else
			printf("%s\tgemmkit: %s\n", g->c[ci].id, sd->desc);
	}
}
