/*
 * test_core.c - the core services: status strings, the version, the
 * per-thread last error, CPU feature detection and the kernel set it picks,
 * GK_ARCH, gk_get_info, and the thread count from GK_NUM_THREADS /
 * OMP_NUM_THREADS.
 *
 * Choices made once per process (the kernel set, the environment) are tested
 * in child processes: the program runs itself again (/proc/self/exe) with a
 * --child-* argument and a chosen environment, and reports on stdout.
 */
#include <ctype.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gk_internal.h"
#include "test_util.h"

extern char **environ;

static uint64_t seed;

/* ------------------------------------------------------------------------ */
/* Child processes                                                           */
/* ------------------------------------------------------------------------ */

/* Variables the parent's environment must not pass on to a child. */
static int controlled(const char *entry)
{
	static const char *const vars[] = {"GK_ARCH=", "GK_ARCH_DEBUG=", "GK_NUM_THREADS=",
	                                   "OMP_NUM_THREADS=", "GK_TEST_SEED="};
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		if (strncmp(entry, vars[i], strlen(vars[i])) == 0)
			return 1;
	return 0;
}

static void read_all(FILE *f, char *buf, size_t len)
{
	rewind(f);
	size_t got = fread(buf, 1, len - 1, f);
	buf[got] = '\0';
	fclose(f);
}

/* Run this program with argument `mode` and the environment of the parent
 * less the controlled variables, plus `vars` (NULL-terminated "K=V" list).
 * Returns the exit status (128 + signal when killed, -1 when it cannot run). */
static int children;

static int run_child(const char *mode, const char *const *vars, char *out, size_t outlen,
                     char *err, size_t errlen)
{
	children++;
	FILE *fo = tmpfile(), *fe = tmpfile();
	if (fo == NULL || fe == NULL)
		return -1;
	size_t n = 0, nv = 0;
	while (environ[n] != NULL)
		n++;
	while (vars[nv] != NULL)
		nv++;
	char **env = calloc(n + nv + 2, sizeof *env);
	size_t e = 0;
	for (size_t i = 0; i < n; i++)
		if (!controlled(environ[i]))
			env[e++] = environ[i];
	for (size_t i = 0; i < nv; i++)
		env[e++] = (char *)vars[i];
	char seedvar[48];
	snprintf(seedvar, sizeof seedvar, "GK_TEST_SEED=%llu", (unsigned long long)seed);
	env[e++] = seedvar;
	env[e] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fileno(fo), 1);
		dup2(fileno(fe), 2);
		char *argv[] = {(char *)"test_core", (char *)mode, NULL};
		execve("/proc/self/exe", argv, env);
		_exit(127);
	}
	free(env);
	int status = -1;
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		fclose(fo);
		fclose(fe);
		return -1;
	}
	read_all(fo, out, outlen);
	read_all(fe, err, errlen);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

/* The value of "key=value" on a line of out, or "" when absent. */
static const char *field(const char *out, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	buf[0] = '\0';
	for (const char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, key, kl) == 0 && line[kl] == '=') {
			const char *v = line + kl + 1;
			size_t vl = strcspn(v, "\n");
			if (vl >= len)
				vl = len - 1;
			memcpy(buf, v, vl);
			buf[vl] = '\0';
			break;
		}
	}
	return buf;
}

/* A small GEMM checked against the reference: 1 when right. */
static int small_gemm_ok(unsigned dt)
{
	enum { M = 19, N = 23, K = 29 };
	tu_rng r;
	tu_rng_init(&r, seed);
	double a[M * K], b[K * N], c[M * N];
	float af[M * K], bf[K * N], cf[M * N];
	long double ref[M * N];
	gk_status st;
	double err;
	if (dt == GK_DTYPE_F32) {
		tu_fill_f32(af, M * K, &r);
		tu_fill_f32(bf, K * N, &r);
		tu_poison_f32(cf, M * N);
		st = gk_sgemm(GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, M, N, K, 1, af, K, bf, N, 0, cf, N);
		gkc_ref_gemm(dt, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, M, N, K, 1, af, K, bf, N, 0, cf,
		             N, NULL, 0, ref);
		err = gkc_gemm_error(dt, GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, M, N, K, 1, af, K, bf, N,
		                     0, cf, cf, N, NULL, 0, ref);
	} else {
		tu_fill_f64(a, M * K, &r);
		tu_fill_f64(b, K * N, &r);
		tu_poison_f64(c, M * N);
		st = gk_dgemm(GK_COL_MAJOR, GK_TRANS, GK_NO_TRANS, M, N, K, 1, a, K, b, K, 0, c, M);
		gkc_ref_gemm(dt, GK_COL_MAJOR, GK_TRANS, GK_NO_TRANS, M, N, K, 1, a, K, b, K, 0, c, M,
		             NULL, 0, ref);
		err = gkc_gemm_error(dt, GK_COL_MAJOR, GK_TRANS, GK_NO_TRANS, M, N, K, 1, a, K, b, K, 0, c,
		                     c, M, NULL, 0, ref);
	}
	return st == GK_OK && err <= gkc_gemm_bound(dt, K, 2.0);
}

/* Child: report the kernel set, and whether a GEMM is right with it. */
static int child_arch(void)
{
	gk_info info;
	gk_get_info(&info);
	printf("arch=%s\n", gk_arch_name());
	printf("active=%s\n", gk_kernels_active()->name);
	printf("info_arch=%s\n", info.cpu_arch);
	printf("gemm=%s\n", small_gemm_ok(GK_DTYPE_F32) && small_gemm_ok(GK_DTYPE_F64) ? "ok" : "bad");
	return 0;
}

/* Child: report the thread counts. */
static int child_threads(void)
{
	gk_info info;
	gk_get_info(&info);
	printf("max_threads=%d\n", info.max_threads);
	printf("procs=%d\n", omp_get_num_procs());
	printf("resolve0=%d\n", gk_resolve_threads(0));
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Status, version, last error                                               */
/* ------------------------------------------------------------------------ */

static void test_status(void)
{
	const char *seen[15];
	for (int s = 0; s >= -14; s--) {
		const char *msg = gk_strerror((gk_status)s);
		seen[-s] = msg;
		TU_CHECK(msg != NULL && msg[0] != '\0', "gk_strerror(%d) is empty", s);
		if (msg == NULL)
			continue;
		TU_CHECK(strcmp(msg, "unknown gk_status") != 0, "gk_strerror(%d) calls it unknown", s);
		for (int t = 0; t > s; t--)
			TU_CHECK(seen[-t] == NULL || strcmp(seen[-t], msg) != 0,
			         "gk_strerror(%d) and gk_strerror(%d) are both \"%s\"", s, t, msg);
	}
	static const int unknown[] = {1, 2, -15, -100, 12345, -2147483647};
	for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
		const char *msg = gk_strerror((gk_status)unknown[i]);
		TU_CHECK(msg != NULL && strcmp(msg, "unknown gk_status") == 0,
		         "gk_strerror(%d) = \"%s\", not \"unknown gk_status\"", unknown[i],
		         msg ? msg : "(null)");
	}
}

static void test_version(void)
{
	TU_CHECK(gk_version() == GK_VERSION, "gk_version() = %d, header GK_VERSION = %d",
	         gk_version(), GK_VERSION);
	TU_CHECK(GK_VERSION == GK_VERSION_MAJOR * 10000 + GK_VERSION_MINOR * 100 + GK_VERSION_PATCH,
	         "GK_VERSION does not match its parts");
	char want[32];
	snprintf(want, sizeof want, "%d.%d.%d", GK_VERSION_MAJOR, GK_VERSION_MINOR, GK_VERSION_PATCH);
	const char *got = gk_version_string();
	TU_CHECK(got != NULL && strcmp(got, want) == 0, "gk_version_string() = \"%s\", want \"%s\"",
	         got ? got : "(null)", want);
}

static void *other_thread_error(void *arg)
{
	const char **out = arg;
	out[0] = gk_last_error()[0] == '\0' ? "empty" : "set";
	/* An error here must not show on the main thread. */
	gk_sgemm(GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, -7, 1, 1, 1, NULL, 1, NULL, 1, 0, NULL, 1);
	out[1] = strstr(gk_last_error(), "-7") ? "set" : "missing";
	return NULL;
}

static void test_last_error(void)
{
	TU_CHECK(gk_last_error() != NULL && gk_last_error()[0] == '\0',
	         "gk_last_error() is \"%s\" before any error", gk_last_error());
	float c[4] = {0};
	gk_status st = gk_sgemm(GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 2, 1, c, 1, c, 2, 0, c, 2);
	TU_CHECK(st == GK_ERR_BAD_LD, "lda = 1 < 2: status %d", (int)st);
	const char *msg = gk_last_error();
	TU_CHECK(strstr(msg, "lda") != NULL && strstr(msg, "gk_sgemm") != NULL,
	         "gk_last_error() = \"%s\" does not name gk_sgemm and lda", msg);
	char saved[256];
	snprintf(saved, sizeof saved, "%s", msg);

	const char *other[2] = {NULL, NULL};
	pthread_t th;
	if (pthread_create(&th, NULL, other_thread_error, other) == 0) {
		pthread_join(th, NULL);
		TU_CHECK(strcmp(other[0], "empty") == 0, "a new thread sees another thread's error");
		TU_CHECK(strcmp(other[1], "set") == 0, "an error on a second thread is not recorded");
		TU_CHECK(strcmp(gk_last_error(), saved) == 0,
		         "the main thread's error changed to \"%s\" by another thread", gk_last_error());
	}

	st = gk_context_set_algo(NULL, "auto");
	TU_CHECK(st == GK_ERR_NULL_POINTER && strstr(gk_last_error(), "ctx") != NULL,
	         "gk_context_set_algo(NULL): status %d, \"%s\"", (int)st, gk_last_error());
	st = gk_get_info(NULL);
	TU_CHECK(st == GK_ERR_NULL_POINTER && strstr(gk_last_error(), "info") != NULL,
	         "gk_get_info(NULL): status %d, \"%s\"", (int)st, gk_last_error());
}

/* ------------------------------------------------------------------------ */
/* CPU features and the kernel set                                           */
/* ------------------------------------------------------------------------ */

static const struct { uint64_t bit; const char *name; } feature_names[] = {
	{GK_CPU_SSE2, "sse2"}, {GK_CPU_SSSE3, "ssse3"}, {GK_CPU_SSE41, "sse4.1"},
	{GK_CPU_AVX, "avx"}, {GK_CPU_AVX2, "avx2"}, {GK_CPU_FMA, "fma"},
	{GK_CPU_AVX512F, "avx512f"}, {GK_CPU_AVX512DQ, "avx512dq"}, {GK_CPU_AVX512BW, "avx512bw"},
	{GK_CPU_AVX512VL, "avx512vl"}, {GK_CPU_AVX512VBMI, "avx512vbmi"}, {GK_CPU_GFNI, "gfni"},
	{GK_CPU_VPCLMULQDQ, "vpclmulqdq"},
};
#define N_FEATURES (sizeof feature_names / sizeof feature_names[0])

/* Does the space-separated list hold this word? */
static int has_word(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += wl) {
		int start = p == list || p[-1] == ' ' || p[-1] == '\t';
		int end = p[wl] == '\0' || p[wl] == ' ' || p[wl] == '\n' || p[wl] == '\t';
		if (start && end)
			return 1;
	}
	return 0;
}

/* The first table in registry order that this CPU runs. */
static const char *best_arch(void)
{
	static const char *const order[] = {"avx512", "avx2", "generic"};
	for (int i = 0; i < 3; i++)
		if (gk_kernels_by_name(order[i]) != NULL)
			return order[i];
	return "none";
}

static void test_features(void)
{
	const uint64_t f = gk_cpu_features();
	char str[256];
	gk_cpu_feature_string(f, str, sizeof str);
	printf("cpu features: %s\n", str);
	TU_CHECK(f == gk_cpu_features(), "gk_cpu_features() changes between calls");
#if defined(__x86_64__)
	TU_CHECK(f & GK_CPU_SSE2, "an x86-64 CPU without SSE2");
#endif
	/* What the detection guarantees: each ISA needs the OS to save its
	 * registers, and no CPU has the wider ISA without the narrower. */
	const uint64_t avx512_any = GK_CPU_AVX512F | GK_CPU_AVX512DQ | GK_CPU_AVX512BW |
	                            GK_CPU_AVX512VL | GK_CPU_AVX512VBMI;
	if (f & avx512_any) {
		TU_CHECK(f & GK_CPU_AVX512F, "an AVX-512 extension without AVX-512F");
		TU_CHECK((f & (GK_CPU_AVX2 | GK_CPU_FMA | GK_CPU_AVX)) ==
		         (GK_CPU_AVX2 | GK_CPU_FMA | GK_CPU_AVX),
		         "AVX-512 without AVX2, FMA and AVX");
	}
	if (f & (GK_CPU_AVX2 | GK_CPU_FMA))
		TU_CHECK(f & GK_CPU_AVX, "AVX2 or FMA without AVX");
	if (f & GK_CPU_AVX)
		TU_CHECK((f & (GK_CPU_SSE41 | GK_CPU_SSSE3 | GK_CPU_SSE2)) ==
		         (GK_CPU_SSE41 | GK_CPU_SSSE3 | GK_CPU_SSE2), "AVX without SSE4.1");

	/* The string lists exactly the bits that are set, by their names. */
	for (size_t i = 0; i < N_FEATURES; i++)
		TU_CHECK(!!(f & feature_names[i].bit) == has_word(str, feature_names[i].name),
		         "feature string \"%s\" and bit of %s disagree", str, feature_names[i].name);
	/* A short buffer is cut, terminated, never overrun. */
	for (size_t len = 0; len < 24; len++) {
		char buf[32];
		memset(buf, 'X', sizeof buf);
		gk_cpu_feature_string(~0ull, buf, len);
		int over = 0;
		for (size_t i = len; i < sizeof buf; i++)
			over |= buf[i] != 'X';
		TU_CHECK(!over && (len == 0 || memchr(buf, '\0', len) != NULL),
		         "gk_cpu_feature_string with len %zu overruns or leaves no terminator", len);
	}

	/* Linux's view of the same flags, where it gives one. */
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[4096];
	int compared = 0;
	while (fp && fgets(line, sizeof line, fp)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		char *flags = strchr(line, ':');
		if (flags == NULL)
			break;
		static const struct { uint64_t bit; const char *flag; } linux_flags[] = {
			{GK_CPU_SSE2, "sse2"}, {GK_CPU_SSSE3, "ssse3"}, {GK_CPU_SSE41, "sse4_1"},
			{GK_CPU_AVX, "avx"}, {GK_CPU_AVX2, "avx2"}, {GK_CPU_FMA, "fma"},
			{GK_CPU_AVX512F, "avx512f"}, {GK_CPU_AVX512DQ, "avx512dq"},
			{GK_CPU_AVX512BW, "avx512bw"}, {GK_CPU_AVX512VL, "avx512vl"},
			{GK_CPU_AVX512VBMI, "avx512vbmi"}, {GK_CPU_GFNI, "gfni"},
		};
		for (size_t i = 0; i < sizeof linux_flags / sizeof linux_flags[0]; i++)
			TU_CHECK(!!(f & linux_flags[i].bit) == has_word(flags + 1, linux_flags[i].flag),
			         "/proc/cpuinfo and gemmkit disagree on %s", linux_flags[i].flag);
		compared = 1;
		break;
	}
	if (fp)
		fclose(fp);
	if (!compared)
		printf("skip the comparison with /proc/cpuinfo: no flags line\n");

	/* The tables: by_name answers exactly for the ones whose needs are met. */
	static const char *const names[] = {"generic", "avx2", "avx512"};
	for (int i = 0; i < 3; i++) {
		const gk_kernels *t = gk_kernels_by_name(names[i]);
		if (t != NULL)
			TU_CHECK((t->requires & f) == t->requires, "table %s offered without its features",
			         names[i]);
	}
	TU_CHECK(gk_kernels_by_name("generic") != NULL, "no generic table");
	if ((f & (GK_CPU_AVX | GK_CPU_AVX2 | GK_CPU_FMA)) == (GK_CPU_AVX | GK_CPU_AVX2 | GK_CPU_FMA))
		TU_CHECK(gk_kernels_by_name("avx2") != NULL, "an AVX2+FMA CPU gets no avx2 table");

	const char *arch = gk_arch_name();
	TU_CHECK(arch != NULL && (strcmp(arch, "generic") == 0 || strcmp(arch, "avx2") == 0 ||
	                          strcmp(arch, "avx512") == 0),
	         "gk_arch_name() = \"%s\" is not a known kernel set", arch ? arch : "(null)");
	const char *forced = getenv("GK_ARCH");
	if (forced == NULL || forced[0] == '\0')
		TU_CHECK(strcmp(arch, best_arch()) == 0,
		         "gk_arch_name() = %s, but the best table this CPU runs is %s", arch, best_arch());
	else
		printf("GK_ARCH=%s is set: the kernel set is %s\n", forced, arch);
}

/* GK_ARCH in a child: forced, refused, unknown, empty, absent. */
static void test_arch_override(void)
{
	static char out[4096], err[4096];
	char v[64];
	const char *best = best_arch();
	static const char *const sets[] = {"generic", "avx2", "avx512"};
	for (int i = 0; i < 3; i++) {
		char var[32];
		snprintf(var, sizeof var, "GK_ARCH=%s", sets[i]);
		const char *vars[] = {var, NULL};
		int rc = run_child("--child-arch", vars, out, sizeof out, err, sizeof err);
		const int can = gk_kernels_by_name(sets[i]) != NULL;
		const char *want = can ? sets[i] : best;
		TU_CHECK(rc == 0, "GK_ARCH=%s: child exited with %d: %s", sets[i], rc, err);
		TU_CHECK(strcmp(field(out, "arch", v, sizeof v), want) == 0,
		         "GK_ARCH=%s: gk_arch_name() = \"%s\", want %s", sets[i], v, want);
		TU_CHECK(strcmp(field(out, "active", v, sizeof v), want) == 0 &&
		         strcmp(field(out, "info_arch", v, sizeof v), want) == 0,
		         "GK_ARCH=%s: the active table or gk_info disagree", sets[i]);
		TU_CHECK(strcmp(field(out, "gemm", v, sizeof v), "ok") == 0,
		         "GK_ARCH=%s: a GEMM is wrong with the forced kernel set", sets[i]);
		if (can)
			TU_CHECK(strstr(err, "GK_ARCH") == NULL, "GK_ARCH=%s: unexpected warning: %s",
			         sets[i], err);
		else
			TU_CHECK(strstr(err, "GK_ARCH") != NULL,
			         "GK_ARCH=%s on a CPU that lacks it: no warning", sets[i]);
	}
	static const char *const odd[] = {"GK_ARCH=sse9", "GK_ARCH=avx1024", "GK_ARCH=avx2 "};
	for (int i = 0; i < 3; i++) {
		const char *vars[] = {odd[i], NULL};
		int rc = run_child("--child-arch", vars, out, sizeof out, err, sizeof err);
		TU_CHECK(rc == 0, "%s: child exited with %d: %s", odd[i], rc, err);
		TU_CHECK(strcmp(field(out, "arch", v, sizeof v), best) == 0,
		         "%s: gk_arch_name() = \"%s\", want the best, %s", odd[i], v, best);
		TU_CHECK(strstr(err, "GK_ARCH") != NULL, "%s: no warning on stderr", odd[i]);
		TU_CHECK(strcmp(field(out, "gemm", v, sizeof v), "ok") == 0, "%s: a GEMM is wrong",
		         odd[i]);
	}
	const char *empty[] = {"GK_ARCH=", NULL}, *none[] = {NULL};
	const char *const *plain[] = {empty, none};
	for (int i = 0; i < 2; i++) {
		int rc = run_child("--child-arch", plain[i], out, sizeof out, err, sizeof err);
		TU_CHECK(rc == 0 && strcmp(field(out, "arch", v, sizeof v), best) == 0 &&
		         strstr(err, "gemmkit") == NULL,
		         "GK_ARCH %s: exit %d, arch \"%s\", stderr \"%s\"", i ? "unset" : "empty", rc, v,
		         err);
	}
	const char *dbg[] = {"GK_ARCH_DEBUG=1", "GK_ARCH=generic", NULL};
	int rc = run_child("--child-arch", dbg, out, sizeof out, err, sizeof err);
	TU_CHECK(rc == 0 && strstr(err, "generic") != NULL,
	         "GK_ARCH_DEBUG=1 does not log the choice: exit %d, stderr \"%s\"", rc, err);
}

/* ------------------------------------------------------------------------ */
/* gk_get_info and the thread count                                          */
/* ------------------------------------------------------------------------ */

static int terminated(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

static void test_info(void)
{
	gk_info info;
	memset(&info, 0x5a, sizeof info);
	gk_status st = gk_get_info(&info);
	TU_CHECK(st == GK_OK, "gk_get_info: status %d", (int)st);
	TU_CHECK(terminated(info.cpu_name, sizeof info.cpu_name) &&
	         terminated(info.cpu_features, sizeof info.cpu_features) &&
	         terminated(info.cpu_arch, sizeof info.cpu_arch),
	         "gk_get_info: a string is not terminated");
	printf("cpu: \"%s\", arch %s, max_threads %d, cuda_built %d, gpus %d, "
	       "l1d %zu, l2 %zu, l3 %zu\n",
	       info.cpu_name, info.cpu_arch, info.max_threads, info.cuda_built, info.gpu_count,
	       info.l1d_bytes, info.l2_bytes, info.l3_bytes);
	char str[256];
	gk_cpu_feature_string(gk_cpu_features(), str, sizeof str);
	TU_CHECK(strcmp(info.cpu_features, str) == 0, "gk_info.cpu_features \"%s\" != \"%s\"",
	         info.cpu_features, str);
	TU_CHECK(strcmp(info.cpu_arch, gk_arch_name()) == 0, "gk_info.cpu_arch %s != %s",
	         info.cpu_arch, gk_arch_name());
	/* A container's CPU quota caps the default count (threads.c). */
	TU_CHECK(gk_cpu_quota_of(150000, 100000) == 2 && gk_cpu_quota_of(100000, 100000) == 1 &&
	         gk_cpu_quota_of(50000, 100000) == 1 && gk_cpu_quota_of(-1, 100000) == 0 &&
	         gk_cpu_quota_of(0, 100000) == 0 && gk_cpu_quota_of(100000, 0) == 0 &&
	         gk_cpu_quota_of(400000, 100000) == 4,
	         "gk_cpu_quota_of: wrong CPUs for a quota");
	TU_CHECK(info.max_threads >= 1 && info.max_threads == gk_default_threads(),
	         "gk_info.max_threads = %d, the default count is %d", info.max_threads,
	         gk_default_threads());
	TU_CHECK(info.cuda_built == gk_cuda_built(), "gk_info.cuda_built is wrong");
	TU_CHECK(info.gpu_count >= 0 && (info.cuda_built || info.gpu_count == 0),
	         "gk_info.gpu_count = %d (cuda_built %d)", info.gpu_count, info.cuda_built);
	for (int d = 0; d < 4; d++) {
		TU_CHECK(terminated(info.gpu_names[d], sizeof info.gpu_names[d]),
		         "gpu_names[%d] is not terminated", d);
		if (d < info.gpu_count)
			TU_CHECK(info.gpu_names[d][0] != '\0', "gpu_names[%d] is empty", d);
		else
			TU_CHECK(info.gpu_names[d][0] == '\0', "gpu_names[%d] is set for no device", d);
	}
	/* Cache sizes: unknown (0) or plausible. */
	const size_t caches[3] = {info.l1d_bytes, info.l2_bytes, info.l3_bytes};
	for (int i = 0; i < 3; i++)
		TU_CHECK(caches[i] == 0 || (caches[i] >= 1024 && caches[i] <= ((size_t)1 << 40)),
		         "cache level %d: %zu bytes", i + 1, caches[i]);
	if (info.l1d_bytes && info.l2_bytes)
		TU_CHECK(info.l1d_bytes <= info.l2_bytes, "L1d (%zu) larger than L2 (%zu)",
		         info.l1d_bytes, info.l2_bytes);

	/* Inside a parallel region a call runs with 1 thread by default, an
	 * explicit count is obeyed, and gk_info still reports the count outside. */
	int in_region = -1, explicit5 = -1, info_in_region = -1, team = 0;
#pragma omp parallel num_threads(2)
	{
#pragma omp master
		{
			gk_info inner;
			team = omp_get_num_threads();
			in_region = gk_resolve_threads(0);
			explicit5 = gk_resolve_threads(5);
			info_in_region = gk_get_info(&inner) == GK_OK ? inner.max_threads : -1;
		}
	}
	TU_CHECK(in_region == 1, "default thread count inside a parallel region (team of %d): %d",
	         team, in_region);
	TU_CHECK(explicit5 == 5, "an explicit 5 threads inside a parallel region gives %d", explicit5);
	TU_CHECK(info_in_region == info.max_threads,
	         "gk_info.max_threads is %d inside a parallel region, %d outside", info_in_region,
	         info.max_threads);
	TU_CHECK(gk_resolve_threads(3) == 3 && gk_resolve_threads(1) == 1,
	         "an explicit thread count is not obeyed");
}

/* GK_NUM_THREADS, then OMP_NUM_THREADS, then the processors; garbage ignored. */
static void test_thread_env(void)
{
	static char out[4096], err[4096];
	char v[64];
	const char *none[] = {NULL};
	int rc = run_child("--child-threads", none, out, sizeof out, err, sizeof err);
	const int procs = atoi(field(out, "procs", v, sizeof v));
	TU_CHECK(rc == 0 && procs >= 1, "thread child without variables: exit %d, procs %d: %s", rc,
	         procs, err);
	/* want: a count, or 0 for "the processors". */
	static const struct { const char *gk, *omp; int want; } cases[] = {
		{NULL, NULL, 0},
		{"3", NULL, 3},
		{"3", "5", 3},
		{NULL, "5", 5},
		{NULL, "4,2", 4},        /* a list: its first entry */
		{"2", "4,2", 2},
		{"abc", "5", 5},         /* garbage is ignored, the next source counts */
		{"-3", "5", 5},
		{"0", "5", 5},
		{"7x", "5", 5},
		{"", "5", 5},
		{"99999999999999999999", "5", 5},
		{"4,2", NULL, 4},        /* parsed like OMP_NUM_THREADS */
		{"abc", NULL, 0},
		{"-3", NULL, 0},
		{"0", NULL, 0},
		{NULL, "abc", 0},
		{NULL, "0", 0},
		{"abc", "-1", 0},
		{"1", NULL, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char g[64], o[64];
		const char *vars[3];
		int nv = 0;
		if (cases[i].gk) {
			snprintf(g, sizeof g, "GK_NUM_THREADS=%s", cases[i].gk);
			vars[nv++] = g;
		}
		if (cases[i].omp) {
			snprintf(o, sizeof o, "OMP_NUM_THREADS=%s", cases[i].omp);
			vars[nv++] = o;
		}
		vars[nv] = NULL;
		rc = run_child("--child-threads", vars, out, sizeof out, err, sizeof err);
		const int want = cases[i].want ? cases[i].want : procs;
		const int got = atoi(field(out, "max_threads", v, sizeof v));
		TU_CHECK(rc == 0 && got == want,
		         "GK_NUM_THREADS=%s OMP_NUM_THREADS=%s: exit %d, max_threads %d, want %d",
		         cases[i].gk ? cases[i].gk : "(unset)", cases[i].omp ? cases[i].omp : "(unset)",
		         rc, got, want);
		TU_CHECK(atoi(field(out, "resolve0", v, sizeof v)) == got,
		         "gk_info.max_threads and the count of a call disagree");
	}
	/* A huge count is capped, not obeyed or wrapped around. */
	const char *huge[] = {"GK_NUM_THREADS=2000000000", NULL};
	rc = run_child("--child-threads", huge, out, sizeof out, err, sizeof err);
	const int got = atoi(field(out, "max_threads", v, sizeof v));
	TU_CHECK(rc == 0 && got >= 1 && got <= 4096,
	         "GK_NUM_THREADS=2000000000: exit %d, max_threads %d", rc, got);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		seed = tu_seed();
		if (strcmp(argv[1], "--child-arch") == 0)
			return child_arch();
		if (strcmp(argv[1], "--child-threads") == 0)
			return child_threads();
		fprintf(stderr, "test_core: unknown argument %s\n", argv[1]);
		return 2;
	}
	/* Before anything sets it: no error has occurred on this thread. */
	const int clean = gk_last_error()[0] == '\0';
	seed = tu_seed();
	TU_CHECK(clean, "gk_last_error() is not empty at start");
	test_status();
	test_version();
	test_last_error();
	test_features();
	test_info();
	test_arch_override();
	test_thread_env();
	printf("%d child processes checked GK_ARCH, GK_NUM_THREADS and OMP_NUM_THREADS\n", children);
	return tu_finish("test_core");
}
