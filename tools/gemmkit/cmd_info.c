/* cmd_info.c - `gemmkit info`: what gemmkit found on this machine, and the
 * algorithms it has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "commands.h"
#include "gemmkit.h"

#define CMD "info"

static void usage(FILE *f)
{
	fprintf(f,
"usage: gemmkit info [--algos]\n"
"\n"
"Print the gemmkit version, the CPU (name, features, the kernel set chosen\n"
"for it, cache sizes), the default thread count, whether CUDA support was\n"
"built, and the GPUs found.\n"
"\n"
"options:\n"
"  --algos, --list-algos  list every GEMM algorithm instead: name, backend,\n"
"                         dtypes, threaded, available here, description\n"
"  -h, --help             this help\n"
"\n"
"environment:\n"
"  GK_ARCH=generic|avx2|avx512  force a CPU kernel set (one the CPU cannot run\n"
"                               is refused with a warning, and the best\n"
"                               supported one is used)\n"
"  GK_ARCH_DEBUG=1              log the kernel set choice to stderr\n"
"  GK_NUM_THREADS=N             default thread count (before OMP_NUM_THREADS,\n"
"                               then the number of processors)\n");
}

static void report_lib_error(const char *what, gk_status st)
{
	const char *detail = gk_last_error();
	cli_error(CMD, "%s: %s%s%s", what, gk_strerror(st), detail && *detail ? ": " : "",
	          detail ? detail : "");
}

static void format_bytes(char *buf, size_t len, size_t bytes)
{
	if (bytes == 0)
		snprintf(buf, len, "unknown");
	else if (bytes % (1024 * 1024) == 0)
		snprintf(buf, len, "%zu MiB", bytes / (1024 * 1024));
	else if (bytes % 1024 == 0)
		snprintf(buf, len, "%zu KiB", bytes / 1024);
	else
		snprintf(buf, len, "%zu B", bytes);
}

static const char *backend_name(gk_backend b)
{
	return b == GK_BACKEND_CPU ? "cpu" : b == GK_BACKEND_CUDA ? "cuda" : "auto";
}

static int list_algos(void)
{
	const int n = gk_algo_count();
	size_t width = 4;
	for (int i = 0; i < n; i++) {
		gk_algo_info ai;
		if (gk_algo_get(i, &ai) == GK_OK && strlen(ai.name) > width)
			width = strlen(ai.name);
	}
	printf("%-*s  %-7s  %-6s  %-8s  %-9s  %s\n", (int)width, "name", "backend", "dtypes",
	       "threaded", "available", "description");
	for (int i = 0; i < n; i++) {
		gk_algo_info ai;
		gk_status st = gk_algo_get(i, &ai);
		if (st != GK_OK) {
			report_lib_error("gk_algo_get", st);
			return 1;
		}
		const char *dt = ai.dtypes == (GK_DTYPE_F32 | GK_DTYPE_F64) ? "s,d"
		                 : ai.dtypes == GK_DTYPE_F32                ? "s"
		                 : ai.dtypes == GK_DTYPE_F64                ? "d"
		                                                            : "-";
		printf("%-*s  %-7s  %-6s  %-8s  %-9s  %s\n", (int)width, ai.name, backend_name(ai.backend),
		       dt, ai.threaded ? "yes" : "no", ai.available ? "yes" : "no",
		       ai.description ? ai.description : "");
	}
	printf("auto: picks one of the available algorithms by size, dtype and device\n");
	return 0;
}

int gk_cmd_info(int argc, char **argv)
{
	int algos = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--algos") == 0 || strcmp(argv[i], "--list-algos") == 0) {
			algos = 1;
			continue;
		}
		cli_error(CMD, "%s '%s' (see 'gemmkit info --help')",
		          argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
		return 2;
	}
	if (algos)
		return list_algos();

	gk_info info;
	gk_status st = gk_get_info(&info);
	if (st != GK_OK) {
		report_lib_error("gk_get_info", st);
		return 1;
	}
	const char *forced = getenv("GK_ARCH");
	char l1[32], l2[32], l3[32];
	format_bytes(l1, sizeof l1, info.l1d_bytes);
	format_bytes(l2, sizeof l2, info.l2_bytes);
	format_bytes(l3, sizeof l3, info.l3_bytes);

	printf("gemmkit:      %s\n", gk_version_string());
	printf("CPU:          %s\n", info.cpu_name[0] ? info.cpu_name : "unknown");
	printf("features:     %s\n", info.cpu_features[0] ? info.cpu_features : "none detected");
	const char *arch = gk_arch_name();
	if (forced && *forced)
		printf("CPU kernels:  %s (GK_ARCH=%s %s)\n", arch, forced,
		       strcmp(forced, arch) == 0 ? "forced it" : "was refused");
	else
		printf("CPU kernels:  %s\n", arch);
	printf("GF(2^8):      %s kernels\n", gk_gf256_kernel_name());
	printf("caches:       L1d %s, L2 %s, L3 %s\n", l1, l2, l3);
	printf("threads:      %d (default)\n", info.max_threads);
	printf("CUDA built:   %s\n", info.cuda_built ? "yes" : "no");
	if (info.gpu_count == 0) {
		printf("GPUs:         none%s\n", info.cuda_built ? " found" : " (built without CUDA)");
	} else {
		printf("GPUs:         %d\n", info.gpu_count);
		for (int d = 0; d < info.gpu_count && d < 4; d++)
			printf("  GPU %d:      %s\n", d, info.gpu_names[d]);
		if (info.gpu_count > 4)
			printf("  ...         (%d more)\n", info.gpu_count - 4);
	}
	int avail = 0;
	for (int i = 0; i < gk_algo_count(); i++) {
		gk_algo_info ai;
		if (gk_algo_get(i, &ai) == GK_OK && ai.available)
			avail++;
	}
	printf("algorithms:   %d, %d available here ('gemmkit info --algos' lists them)\n",
	       gk_algo_count(), avail);
	return 0;
}
