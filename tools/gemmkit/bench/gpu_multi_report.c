/*
 * gpu_multi_report.c - what the multi-GPU suite (gpu_multi.c) writes: its
 * --help, the report's header (every device, peer access, host memory and
 * the largest N it holds), the table of times, the scaling table, the
 * deterministic mode's table, and results.csv.
 */
#define _GNU_SOURCE
#include "gpu_multi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_multi_usage(FILE *f)
{
	fputs("usage: gemmkit bench --suite gpu-multi [options]\n"
	      "\n"
	      "C = A B, N x N, with A, B and C in pinned host memory, timed end to end by the\n"
	      "host clock (every copy and the synchronization included), on several GPUs of\n"
	      "one host: gemmkit's host-pointer path (gk_sgemm_ex on the CUDA backend, its\n"
	      "device list set with gk_context_set_devices) beside cuBLASXt on the same\n"
	      "devices. Each result is checked before it is timed: every element of C\n"
	      "finite, and 8 sampled rows against a double-precision reference within the\n"
	      "bound of the contender's precision mode. A contender that needs more devices\n"
	      "than are present is shown \"n/a (needs 2 devices, 1 present)\": it is not run\n"
	      "and does not fail the run.\n"
	      "\n"
	      "contenders (--algos, comma-separated; N = 1 .. 8):\n"
	      "  gemmkit-dN            strict FP32 on devices 0 .. N-1\n"
	      "  gemmkit-accurate-dN   FP32-accurate (split TF32 on tensor cores)\n"
	      "  gemmkit-tf32-dN       TF32\n"
	      "  gemmkit-wN            N workers on device 0 (device list 0,0,...): what the\n"
	      "                        split costs on one card (N >= 2; also -accurate-wN,\n"
	      "                        -tf32-wN)\n"
	      "  gemmkit-det-dN, gemmkit-det-wN\n"
	      "                        strict with GK_FLAG_DETERMINISTIC: C must be bit-\n"
	      "                        identical to gemmkit-det-d1's C of the same size (added\n"
	      "                        when not named); a difference is ERR (also\n"
	      "                        gemmkit-accurate-det-*, gemmkit-tf32-det-*)\n"
	      "  cublasxt-dN           cublasXtSgemm on devices 0 .. N-1; block dimension the\n"
	      "                        fastest of 2048 .. 16384 up to N = 16384, above it the\n"
	      "                        largest of 16384, 8192, 4096 that gives each device 4\n"
	      "                        tiles of C\n"
	      "  default: gemmkit, gemmkit-accurate, gemmkit-tf32 and cublasxt on 1, 2 and 4\n"
	      "  devices, gemmkit-w2, gemmkit-det-d1, -det-d2, -det-d4 and -det-w2\n"
	      "\n"
	      "tables: the times (seconds, TFLOPS = 2 N^3 / time); scaling, per size and\n"
	      "contender family: efficiency = rate on N devices / (N x rate on 1), wN / d1,\n"
	      "and gemmkit / cuBLASXt on the same devices; the deterministic mode:\n"
	      "bit-identical yes or no.\n"
	      "\n"
	      "options:\n"
	      "  --sizes N,N,...   square sizes (default 32768,65536; --quick: 16384); the\n"
	      "                    report's header names the largest N host memory holds\n"
	      "  --algos LIST      contenders (above)\n"
	      "  --dtype s|d|both  SGEMM, DGEMM or both (default s; the precision modes are\n"
	      "                    for float: \"-\" in double)\n"
	      "  --reps N          timed rounds per contender and size (default: enough for\n"
	      "                    about 0.6 s, at least 3; 1 for a run over 5 s)\n"
	      "  --cap SECONDS     a contender predicted or measured over this per run is \"x\"\n"
	      "                    (default 120)\n"
	      "  --out DIR         where results.md, results.csv go (default\n"
	      "                    gemmkit-bench-gpu-multi)\n"
	      "  --quick           N = 16384 and short timing, for smoke tests\n"
	      "  --list            list the contenders, and exit (no GPU needed)\n"
	      "  -h, --help        this text\n"
	      "\n"
	      "Exit status: 0 every result right (n/a rows included); 1 a wrong result, a C\n"
	      "not bit-identical, a file not written, or no CUDA device; 2 bad options.\n",
	      f);
}

#ifdef GK_BENCH_CUDA
#include <math.h>
#include <cuda_runtime.h>
#include "gpu.h"

/* ---- The report ----------------------------------------------------------- */

/* The family of an id: the id without its -dN / -wN. */
void mg_family_of(const char *id, char *out, size_t len)
{
	const size_t l = strlen(id);
	snprintf(out, len, "%.*s", (int)(l >= 3 ? l - 3 : l), id);
}

void mg_fmt_devs(const mg_side *s, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < s->ndevs && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "", s->devs[i]);
}

/* The devices: names, memory, PCI addresses, peer access; then device 0
 * with the CUDA and cuBLAS versions. */
static void describe_gpus(FILE *f, int ndev)
{
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");
	fprintf(f, "- GPUs: %d present%s%s%s\n", ndev, vis ? " (CUDA_VISIBLE_DEVICES=" : "", vis ? vis : "",
	        vis ? ")" : "");
	for (int d = 0; d < ndev; d++) {
		struct cudaDeviceProp p;
		if (cudaGetDeviceProperties(&p, d) != cudaSuccess) {
			cudaGetLastError();
			continue;
		}
		fprintf(f, "  - %d: %s (sm_%d%d, %d SMs, %.1f GiB, PCI %04x:%02x:%02x)\n", d, p.name, p.major, p.minor,
		        p.multiProcessorCount, (double)p.totalGlobalMem / 1073741824.0, (unsigned)p.pciDomainID,
		        (unsigned)p.pciBusID, (unsigned)p.pciDeviceID);
	}
	if (ndev > 1) {
		char without[512] = "";
		size_t o = 0;
		int pairs = 0, peers = 0;
		for (int i = 0; i < ndev; i++)
			for (int j = i + 1; j < ndev; j++) {
				int a = 0, b = 0;
				cudaDeviceCanAccessPeer(&a, i, j);
				cudaDeviceCanAccessPeer(&b, j, i);
				pairs++;
				if (a && b)
					peers++;
				else if (o + 16 < sizeof without)
					o += (size_t)snprintf(without + o, sizeof without - o, " %d-%d", i, j);
			}
		cudaGetLastError();
		fprintf(f, "- Peer access: %d of %d pairs%s%s\n", peers, pairs, o ? "; not between" : "", without);
	}
	char dev[512];
	gpu_describe(dev, sizeof dev);
	fprintf(f, "- Device 0 and libraries: %s\n", dev);
}

/* Host memory, and the largest N whose float A, B and C take at most 3/4 of
 * it (a multiple of 1024). */
static void describe_host_memory(FILE *f)
{
	FILE *m = fopen("/proc/meminfo", "r");
	char line[256];
	long long kb = 0;
	while (m && fgets(line, sizeof line, m))
		if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
			break;
	if (m)
		fclose(m);
	if (kb <= 0)
		return;
	const double bytes = (double)kb * 1024.0;
	const long long n = (long long)sqrt(0.75 * bytes / (3.0 * sizeof(float))) / 1024 * 1024;
	fprintf(f, "- Host memory: %.1f GB; the largest N whose float A, B and C take at most 3/4 of it: %lld "
	        "(--sizes %lld)\n", bytes / 1e9, n, n);
}

static void fmt_time(char *b, size_t l, const mg_out *q)
{
	if (q->r.status == BENCH_OK)
		snprintf(b, l, "%.3f s, %.1f TFLOPS", q->r.median_s, q->r.rate / 1e3);
	else if (q->note[0] && (q->r.status == BENCH_UNAVAILABLE || q->r.status == BENCH_SKIP ||
	                        q->r.status == BENCH_FAIL))
		snprintf(b, l, "%s (%s)", bench_status_mark(q->r.status), q->note);
	else
		snprintf(b, l, "%s", bench_status_mark(q->r.status));
}

/* rate(dn) / (n rate(d1)) as a percentage; "n/a" where dn cannot run here. */
static void fmt_eff(char *b, size_t l, const mg_out *d1, const mg_out *dn, int n)
{
	if (dn == NULL)
		snprintf(b, l, "-");
	else if (dn->r.status == BENCH_UNAVAILABLE)
		snprintf(b, l, "n/a");
	else if (d1 && d1->r.status == BENCH_OK && dn->r.status == BENCH_OK && d1->r.rate > 0)
		snprintf(b, l, "%.0f%%", 100.0 * dn->r.rate / ((double)n * d1->r.rate));
	else
		snprintf(b, l, "%s", dn->r.status == BENCH_NONE ? "-" : bench_status_mark(dn->r.status));
}

static void fmt_ratio(char *b, size_t l, const mg_out *x, const mg_out *y)
{
	if (x == NULL || y == NULL)
		snprintf(b, l, "-");
	else if (x->r.status == BENCH_UNAVAILABLE || y->r.status == BENCH_UNAVAILABLE)
		snprintf(b, l, "n/a");
	else if (x->r.status == BENCH_OK && y->r.status == BENCH_OK && y->r.rate > 0)
		snprintf(b, l, "%.2f", x->r.rate / y->r.rate);
	else
		snprintf(b, l, "-");
}

/* A family: the contenders of one id without its -dN / -wN. */
typedef struct mg_fam {
	char name[64];
	int d[MG_MAXN + 1], w[MG_MAXN + 1]; /* contender indices, -1: none */
} mg_fam;

static int families(const bench_contender *cs, const mg_side *sd, int nc, mg_fam *fam)
{
	int nf = 0;
	for (int i = 0; i < nc; i++) {
		char name[64];
		mg_family_of(cs[i].id, name, sizeof name);
		int f = 0;
		while (f < nf && strcmp(fam[f].name, name))
			f++;
		if (f == nf) {
			memset(&fam[nf], 0xff, sizeof fam[nf]);
			snprintf(fam[nf++].name, sizeof fam[0].name, "%s", name);
		}
		if (sd[i].spec.workers)
			fam[f].w[sd[i].spec.workers] = i;
		else
			fam[f].d[sd[i].spec.ndev] = i;
	}
	return nf;
}

/* The scaling table of the run: per size and family (see the top). */
static void scaling_table(FILE *f, const bench_opts *o, const bench_contender *cs, const mg_side *sd, int nc,
                          const mg_out *out)
{
	mg_fam fam[MG_MAX];
	const int nf = families(cs, sd, nc, fam);
	int dn[MG_MAXN + 1] = {0}, wn[MG_MAXN + 1] = {0}, xt = -1;
	for (int k = 0; k < nf; k++) {
		for (int n = 1; n <= MG_MAXN; n++)
			dn[n] |= fam[k].d[n] >= 0, wn[n] |= fam[k].w[n] >= 0;
		if (!strcmp(fam[k].name, "cublasxt"))
			xt = k;
	}
	fprintf(f, "\n## Scaling\n\nEfficiency on N devices: rate on N / (N x rate on 1); wN / d1: N workers on device 0 "
	        "over one; / cuBLASXt: the family's rate over cublasxt-dN's (same devices). n/a: needs more devices "
	        "than are present.\n\n| size | family | 1 device |");
	int ncol = 3;
	for (int n = 2; n <= MG_MAXN; n++)
		if (dn[n])
			fprintf(f, " %d devices |", n), ncol++;
	for (int n = 2; n <= MG_MAXN; n++)
		if (wn[n])
			fprintf(f, " w%d / d1 |", n), ncol++;
	for (int n = 1; n <= MG_MAXN && xt >= 0; n++)
		if (fam[xt].d[n] >= 0)
			fprintf(f, " / cuBLASXt, %d |", n), ncol++;
	fprintf(f, "\n|");
	for (int k = 0; k < ncol; k++)
		fprintf(f, " --- |");
	fprintf(f, "\n");
	char b[64];
	for (int dt = 0; dt < 2; dt++)
		for (int si = 0; si < o->nshapes && o->dtype[dt]; si++) {
			const mg_out *row = &out[(size_t)(dt * o->nshapes + si) * (size_t)nc];
#define AT(i) ((i) >= 0 ? &row[(i)] : NULL)
			for (int k = 0; k < nf; k++) {
				const mg_out *d1 = AT(fam[k].d[1]);
				if (d1 == NULL)
					b[0] = '-', b[1] = '\0';
				else if (d1->r.status == BENCH_OK)
					snprintf(b, sizeof b, "%.1f TFLOPS", d1->r.rate / 1e3);
				else
					snprintf(b, sizeof b, "%s", bench_status_mark(d1->r.status));
				fprintf(f, "| %s %lld | %s | %s |", dt ? "DGEMM" : "SGEMM", (long long)o->shapes[si].n, fam[k].name,
				        b);
				for (int n = 2; n <= MG_MAXN; n++)
					if (dn[n]) {
						fmt_eff(b, sizeof b, d1, AT(fam[k].d[n]), n);
						fprintf(f, " %s |", b);
					}
				for (int n = 2; n <= MG_MAXN; n++)
					if (wn[n]) {
						fmt_ratio(b, sizeof b, AT(fam[k].w[n]), d1);
						fprintf(f, " %s |", b);
					}
				for (int n = 1; n <= MG_MAXN && xt >= 0; n++)
					if (fam[xt].d[n] >= 0) {
						fmt_ratio(b, sizeof b, k == xt ? NULL : AT(fam[k].d[n]), AT(fam[xt].d[n]));
						fprintf(f, " %s |", b);
					}
				fprintf(f, "\n");
			}
#undef AT
		}
}

static void det_table(FILE *f, const bench_opts *o, const bench_contender *cs, const mg_side *sd, int nc,
                      const mg_out *out)
{
	int any = 0;
	for (int i = 0; i < nc; i++)
		any |= sd[i].spec.det && !sd[i].det_ref;
	if (!any)
		return;
	fprintf(f, "\n## Deterministic mode (GK_FLAG_DETERMINISTIC)\n\nEach C compared bit for bit (a 64-bit hash of "
	        "each band of %d rows) with the C of the -det-d1 contender of the same precision mode and size.\n\n"
	        "| size | contender | devices | bit-identical to -det-d1 |\n| --- | --- | --- | --- |\n", MG_BAND);
	for (int dt = 0; dt < 2; dt++)
		for (int si = 0; si < o->nshapes && o->dtype[dt]; si++)
			for (int i = 0; i < nc; i++) {
				if (!sd[i].spec.det || sd[i].det_ref)
					continue;
				const mg_out *q = &out[(size_t)(dt * o->nshapes + si) * (size_t)nc + (size_t)i];
				char b[320], devs[64];
				if (q->same == 1)
					snprintf(b, sizeof b, "yes");
				else if (q->same == 0)
					snprintf(b, sizeof b, "no (%s): ERR", q->note);
				else if (q->same == -1)
					snprintf(b, sizeof b, "- (%s)", q->note);
				else if (q->r.status == BENCH_UNAVAILABLE || q->r.status == BENCH_SKIP)
					fmt_time(b, sizeof b, q);
				else
					snprintf(b, sizeof b, "- (not compared: %s)", bench_status_mark(q->r.status));
				mg_fmt_devs(&sd[i], devs, sizeof devs);
				fprintf(f, "| %s %lld | %s | %s | %s |\n", dt ? "DGEMM" : "SGEMM", (long long)o->shapes[si].n,
				        cs[i].id, devs, b);
			}
}
static void write_csv(bench_report *rep, const bench_opts *o, const bench_contender *cs, const mg_side *sd, int nc,
                      const mg_out *out)
{
	FILE *csv = bench_report_open(rep, "results.csv");
	if (csv == NULL)
		return;
	fprintf(csv, "dtype,n,contender,devices,status,seconds,tflops,error,bit_identical,note\n");
	for (int dt = 0; dt < 2; dt++)
		for (int si = 0; si < o->nshapes && o->dtype[dt]; si++)
			for (int i = 0; i < nc; i++) {
				const mg_out *q = &out[(size_t)(dt * o->nshapes + si) * (size_t)nc + (size_t)i];
				char devs[64];
				mg_fmt_devs(&sd[i], devs, sizeof devs);
				fprintf(csv, "%s,%lld,%s,\"%s\",%s,%.6g,%.6g,%.3g,%s,\"%s\"\n", dt ? "d" : "s",
				        (long long)o->shapes[si].n, cs[i].id, devs,
				        q->r.status == BENCH_OK ? "ok" : bench_status_mark(q->r.status), q->r.median_s,
				        q->r.rate / 1e3, q->r.err, q->same == 1 ? "yes" : q->same == 0 ? "no" : "", q->note);
			}
	bench_report_close(rep, csv, "results.csv");
}

static void times_table(FILE *f, const bench_opts *o, const bench_contender *cs, const mg_side *sd, int nc,
                        const mg_out *out)
{
	fprintf(f, "\n## Times\n\n| contender | devices |");
	int ncell = 0;
	for (int dt = 0; dt < 2; dt++)
		for (int si = 0; si < o->nshapes && o->dtype[dt]; si++)
			fprintf(f, " %s %lld |", dt ? "DGEMM" : "SGEMM", (long long)o->shapes[si].n), ncell++;
	fprintf(f, "\n| --- | --- |");
	for (int k = 0; k < ncell; k++)
		fprintf(f, " --- |");
	fprintf(f, "\n");
	for (int i = 0; i < nc; i++) {
		char devs[64], b[320];
		mg_fmt_devs(&sd[i], devs, sizeof devs);
		fprintf(f, "| %s | %s |", cs[i].id, devs);
		for (int dt = 0; dt < 2; dt++)
			for (int si = 0; si < o->nshapes && o->dtype[dt]; si++) {
				fmt_time(b, sizeof b, &out[(size_t)(dt * o->nshapes + si) * (size_t)nc + (size_t)i]);
				fprintf(f, " %s |", b);
			}
		fprintf(f, "\n");
	}
}

void mg_write_report(bench_report *rep, const bench_opts *o, const bench_contender *cs, const mg_side *sd, int nc,
                     const mg_out *out, int ndev)
{
	write_csv(rep, o, cs, sd, nc, out);
	bench_md_header(rep, rep->md);
	fprintf(rep->md, "\n");
	describe_gpus(rep->md, ndev);
	describe_host_memory(rep->md);
	fprintf(rep->md, "\nPinned host memory to host memory, end to end (host clock), C = A B, N x N x N; "
	        "TFLOPS = 2 N^3 / time.\n");
	times_table(rep->md, o, cs, sd, nc, out);
	scaling_table(rep->md, o, cs, sd, nc, out);
	det_table(rep->md, o, cs, sd, nc, out);
	fprintf(rep->md, "\nresults.csv has every figure, the error of each check and cuBLASXt's block dimension.\n");
}
#endif
