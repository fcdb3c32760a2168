/*
 * refs.c - the reference BLAS libraries of `gemmkit bench`, loaded at
 * run time so that gemmkit neither builds nor links against them.
 *
 * A library is found by trying its sonames and the paths where Debian-like
 * systems keep its variants. The "best kernel" variants exist because a
 * packaged library's run-time dispatch does not always pick the fastest
 * kernel set the CPU can run (an older library may not know a newer CPU and
 * fall back to AVX2 or generic code); each library lets an environment
 * variable, read while it initialises, choose another set:
 *   OpenBLAS: OPENBLAS_CORETYPE=SkylakeX (read when the library is loaded)
 *   BLIS:     BLIS_ARCH_TYPE=<id of skx> (read by bli_init)
 * When gemmkit runs its AVX2 set on a CPU with AVX-512 (GK_ARCH=avx2), the
 * variant asks for the AVX2 kernels instead (OpenBLAS Haswell, BLIS
 * haswell), so that the ratio compares AVX2 code with AVX2 code.
 * When the installed library already runs a set of that kind, or the CPU has
 * no AVX-512, the variant is offered only on request and then asks for the set
 * the library picks by itself: a second instance of the same kernels, so
 * that a table can show both and say they are the same.
 * A library initialises once per process, so the variant is a private copy
 * of the file under another name, which the dynamic loader treats as a new
 * library. A kernel set the build lacks makes some libraries abort, so each
 * variant is first tried in a forked child process.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "peak.h"
#include "refs.h"

const char *const bench_ref_ids[BENCH_REF_COUNT] = {"openblas", "openblas-best", "blis", "blis-best"};

enum { LIB_OPENBLAS, LIB_BLIS };

/* CBLAS enumerators: row-major and no transpose. */
#define CBLAS_ROW_MAJOR 101
#define CBLAS_NO_TRANS 111

typedef void (*sgemm32_fn)(int, int, int, int32_t, int32_t, int32_t, float, const float *, int32_t,
                           const float *, int32_t, float, float *, int32_t);
typedef void (*dgemm32_fn)(int, int, int, int32_t, int32_t, int32_t, double, const double *, int32_t,
                           const double *, int32_t, double, double *, int32_t);
typedef void (*sgemm64_fn)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t,
                           const float *, int64_t, float, float *, int64_t);
typedef void (*dgemm64_fn)(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t,
                           const double *, int64_t, double, double *, int64_t);

static const char *const openblas_files[] = {
	"libopenblas.so.0",
	"/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
	"/usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0",
	"/usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas.so.0",
	"libopenblas.so",
	NULL};
static const char *const blis_files[] = {
	"libblis.so.4",
	"/usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4",
	"/usr/lib/x86_64-linux-gnu/blis-pthread/libblis.so.4",
	"/usr/lib/x86_64-linux-gnu/blis-serial/libblis.so.4",
	"libblis.so",
	NULL};

static const char *lib_label(int lib)
{
	return lib == LIB_OPENBLAS ? "OpenBLAS" : "BLIS";
}

static const char *lib_env(int lib)
{
	return lib == LIB_OPENBLAS ? "OPENBLAS_CORETYPE" : "BLIS_ARCH_TYPE";
}

static int lib_of(const char *id)
{
	return strncmp(id, "openblas", 8) == 0 ? LIB_OPENBLAS : LIB_BLIS;
}

int bench_cpu_has_avx512f(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") != 0;
}

/* An AVX-512 kernel set of either library. */
static int kernel_is_avx512(const char *k)
{
	static const char *const sets[] = {"SkylakeX", "Cooperlake", "SapphireRapids", "skx", "knl", NULL};
	for (int i = 0; sets[i]; i++)
		if (strcmp(k, sets[i]) == 0)
			return 1;
	return 0;
}

/* gemmkit forced to its AVX2 set on a CPU with AVX-512 (GK_ARCH=avx2): the
 * references' best kernels for the comparison are then their AVX2 ones
 * (OpenBLAS Haswell, BLIS haswell), AVX2 code against AVX2 code. */
static int avx2_run(void)
{
	return bench_cpu_has_avx512f() && strcmp(bench_peak_active_isa(), "avx2") == 0;
}

/* Whether k is a kernel set of the kind the best-kernel variants run. */
static int kernel_is_target(const char *k)
{
	if (avx2_run())
		return strcmp(k, "Haswell") == 0 || strcmp(k, "Zen") == 0 || strcmp(k, "haswell") == 0 ||
		       strcmp(k, "zen") == 0 || strcmp(k, "zen2") == 0 || strcmp(k, "zen3") == 0;
	return kernel_is_avx512(k);
}

/* The first of the library's files that loads and has CBLAS GEMM. */
static void *open_installed(int lib, char *path, size_t path_len, const char **file)
{
	const char *const *files = lib == LIB_OPENBLAS ? openblas_files : blis_files;
	for (int i = 0; files[i]; i++) {
		void *h = dlopen(files[i], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
		if (h == NULL)
			continue;
		if (dlsym(h, "cblas_sgemm") == NULL || dlsym(h, "cblas_dgemm") == NULL) {
			dlclose(h);
			continue;
		}
		struct link_map *lm = NULL;
		char real[PATH_MAX];
		if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && realpath(lm->l_name, real))
			snprintf(path, path_len, "%s", real);
		else
			snprintf(path, path_len, "%s", files[i]);
		*file = files[i];
		return h;
	}
	return NULL;
}

/*
 * Look up the functions of a freshly opened instance, initialise it, set its
 * thread count, and check a 2 x 2 product in both precisions: a wrong
 * binding (a symbol resolved to another library) shows here, not as a
 * wrong benchmark.
 */
static int init_instance(int lib, void *h, int threads, bench_ref *ref, char *why, size_t why_len)
{
	ref->handle = h;
	ref->lib = lib;
	ref->sgemm = dlsym(h, "cblas_sgemm");
	ref->dgemm = dlsym(h, "cblas_dgemm");
	ref->int64 = 0;
	if (lib == LIB_OPENBLAS) {
		const char *(*config)(void) = (const char *(*)(void))dlsym(h, "openblas_get_config");
		const char *(*core)(void) = (const char *(*)(void))dlsym(h, "openblas_get_corename");
		ref->set_threads = dlsym(h, "openblas_set_num_threads");
		const char *cfg = config ? config() : "";
		/* "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64" */
		if (sscanf(cfg, "OpenBLAS %31s", ref->version) != 1)
			snprintf(ref->version, sizeof ref->version, "(unknown version)");
		snprintf(ref->kernel, sizeof ref->kernel, "%s", core ? core() : "?");
		ref->int64 = strstr(cfg, "USE64BITINT") != NULL;
	} else {
		void (*init)(void) = (void (*)(void))dlsym(h, "bli_init");
		const char *(*ver)(void) = (const char *(*)(void))dlsym(h, "bli_info_get_version_str");
		int64_t (*blas_int)(void) = (int64_t (*)(void))dlsym(h, "bli_info_get_blas_int_type_size");
		int (*arch_id)(void) = (int (*)(void))dlsym(h, "bli_arch_query_id");
		const char *(*arch_str)(int) = (const char *(*)(int))dlsym(h, "bli_arch_string");
		ref->set_threads = dlsym(h, "bli_thread_set_num_threads");
		/* BLIS reads BLIS_ARCH_TYPE here; querying the arch before init aborts. */
		if (init)
			init();
		snprintf(ref->version, sizeof ref->version, "%s", ver ? ver() : "(unknown version)");
		snprintf(ref->kernel, sizeof ref->kernel, "%s",
		         arch_id && arch_str ? arch_str(arch_id()) : "?");
		/* The return type's width is the build's too: keep the low 32 bits. */
		ref->int64 = blas_int && (blas_int() & 0xffffffff) == 64;
	}
	bench_ref_set_threads(ref, threads);
	const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
	float c[4] = {-1, -1, -1, -1};
	const double ad[4] = {1, 2, 3, 4}, bd[4] = {5, 6, 7, 8};
	double cd[4] = {-1, -1, -1, -1};
	bench_ref_gemm(ref, 0, 2, 2, 2, a, b, c);
	bench_ref_gemm(ref, 1, 2, 2, 2, ad, bd, cd);
	if (c[0] != 19 || c[1] != 22 || c[2] != 43 || c[3] != 50 ||
	    cd[0] != 19 || cd[1] != 22 || cd[2] != 43 || cd[3] != 50) {
		snprintf(why, why_len, "%s: a 2 x 2 test product came out wrong: skipped", lib_label(lib));
		return -1;
	}
	return 0;
}

void bench_ref_set_threads(const bench_ref *ref, int threads)
{
	if (ref->set_threads == NULL)
		return;
	if (ref->lib == LIB_OPENBLAS)
		((void (*)(int))ref->set_threads)(threads);
	else /* dim_t is 32- or 64-bit by build; passing 64 bits is right for both. */
		((void (*)(int64_t))ref->set_threads)(threads);
}

static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	if (out < 0) {
		close(in);
		return -1;
	}
	char buf[1 << 16];
	int rc = 0;
	for (;;) {
		ssize_t got = read(in, buf, sizeof buf);
		if (got == 0)
			break;
		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		for (ssize_t off = 0; off < got;) {
			ssize_t put = write(out, buf + off, (size_t)(got - off));
			if (put < 0 && errno == EINTR)
				continue;
			if (put <= 0) {
				rc = -1;
				break;
			}
			off += put;
		}
		if (rc)
			break;
	}
	close(in);
	if (close(out) != 0)
		rc = -1;
	return rc;
}

/*
 * Load a private copy of `path` with var=value in the environment while it
 * initialises; the environment and the file system are restored after.
 */
static int load_copy(int lib, const char *path, const char *var, const char *value, int threads,
                     bench_ref *ref, char *why, size_t why_len)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX], copy[PATH_MAX + 64];
	snprintf(dir, sizeof dir, "%s/gemmkit-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		snprintf(why, why_len, "%s: cannot make a temporary directory (%s): skipped",
		         lib_label(lib), strerror(errno));
		return -1;
	}
	snprintf(copy, sizeof copy, "%s/libgemmkit-bench-%s-%s.so", dir, lib == LIB_OPENBLAS ? "openblas" : "blis", value);
	if (copy_file(path, copy) != 0) {
		snprintf(why, why_len, "%s: cannot copy %s to %s (%s): skipped", lib_label(lib), path, copy,
		         strerror(errno));
		unlink(copy);
		rmdir(dir);
		return -1;
	}
	const char *old = getenv(var);
	char *saved = old ? strdup(old) : NULL;
	setenv(var, value, 1);
	void *h = dlopen(copy, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
	int rc = -1;
	if (h == NULL)
		snprintf(why, why_len, "%s: cannot load a copy of %s (%s): skipped", lib_label(lib), path, dlerror());
	else
		rc = init_instance(lib, h, threads, ref, why, why_len);
	if (saved) {
		setenv(var, saved, 1);
		free(saved);
	} else {
		unsetenv(var);
	}
	unlink(copy);
	rmdir(dir);
	return rc;
}

/* The value of BLIS_ARCH_TYPE that selects configuration `want`: its index
 * in BLIS's arch list. */
static int blis_arch_id(void *h, const char *want)
{
	const char *(*arch_str)(int) = (const char *(*)(int))dlsym(h, "bli_arch_string");
	if (arch_str == NULL)
		return -1;
	/* The list ends with "generic"; stop there so as not to read past it. */
	for (int i = 0; i < 64; i++) {
		const char *s = arch_str(i);
		if (s == NULL || strcmp(s, "generic") == 0)
			return -1;
		if (strcmp(s, want) == 0)
			return i;
	}
	return -1;
}

/* What a child process learnt by loading a best-kernel variant. */
typedef struct {
	char path[PATH_MAX];
	char installed_kernel[32];
	char value[32];
	char best_kernel[32];
} variant_probe;

/*
 * Find the library, its kernel as installed and the value that selects the
 * best kernel set, then load the copy: all of it in this process.
 */
static int load_best(int lib, int threads, bench_ref *ref, variant_probe *p, char *why, size_t why_len)
{
	const char *file = NULL;
	void *h = open_installed(lib, p->path, sizeof p->path, &file);
	if (h == NULL) {
		snprintf(why, why_len, "%s not found (install %s): skipped", lib_label(lib),
		         lib == LIB_OPENBLAS ? "libopenblas-dev" : "libblis-dev");
		return BENCH_REF_NOT_FOUND;
	}
	bench_ref installed;
	memset(&installed, 0, sizeof installed);
	if (init_instance(lib, h, threads, &installed, why, why_len) != 0)
		return BENCH_REF_FAILED;
	snprintf(p->installed_kernel, sizeof p->installed_kernel, "%s", installed.kernel);
	/* A library that already runs a set of the target kind (AVX-512; AVX2
	 * when gemmkit runs its AVX2 set, avx2_run), or a CPU without AVX-512,
	 * leaves nothing better: the variant then asks for the installed set
	 * (and says so), never for an older one. */
	const char *want = kernel_is_target(installed.kernel) || !bench_cpu_has_avx512f() ? installed.kernel
	                   : avx2_run() ? (lib == LIB_OPENBLAS ? "Haswell" : "haswell")
	                   : lib == LIB_OPENBLAS ? "SkylakeX" : "skx";
	if (lib == LIB_OPENBLAS) {
		snprintf(p->value, sizeof p->value, "%s", want);
	} else {
		int id = blis_arch_id(h, want);
		if (id < 0) {
			snprintf(why, why_len, "BLIS %s has no %s kernels: no best-kernel BLIS", installed.version, want);
			return BENCH_REF_NOT_OFFERED;
		}
		snprintf(p->value, sizeof p->value, "%d", id);
	}
	if (load_copy(lib, p->path, lib_env(lib), p->value, threads, ref, why, why_len) != 0)
		return BENCH_REF_FAILED;
	snprintf(p->best_kernel, sizeof p->best_kernel, "%s", ref->kernel);
	return BENCH_REF_LOADED;
}

/*
 * Try load_best in a child process first: a library that aborts on a kernel
 * set its build lacks then costs a message, not the whole benchmark.
 */
static int probe_best(int lib, int threads, variant_probe *p, char *why, size_t why_len)
{
	int fds[2];
	if (pipe(fds) != 0)
		return 0; /* no probe possible: load directly */
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		close(fds[0]);
		bench_ref r;
		memset(&r, 0, sizeof r);
		variant_probe cp;
		memset(&cp, 0, sizeof cp);
		char cwhy[512] = "";
		int rc = load_best(lib, threads, &r, &cp, cwhy, sizeof cwhy);
		/* Report the outcome whole, then leave without running the
		 * libraries' destructors. */
		if (write(fds[1], &rc, sizeof rc) != (ssize_t)sizeof rc ||
		    write(fds[1], &cp, sizeof cp) != (ssize_t)sizeof cp ||
		    write(fds[1], cwhy, sizeof cwhy) != (ssize_t)sizeof cwhy)
			_exit(3);
		_exit(0);
	}
	close(fds[1]);
	int rc = -1;
	char cwhy[512];
	size_t want = sizeof rc + sizeof *p + sizeof cwhy, got = 0;
	char buf[sizeof rc + sizeof *p + sizeof cwhy];
	while (got < want) {
		ssize_t n = read(fds[0], buf + got, want - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got == want && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		memcpy(&rc, buf, sizeof rc);
		memcpy(p, buf + sizeof rc, sizeof *p);
		memcpy(cwhy, buf + sizeof rc + sizeof *p, sizeof cwhy);
		cwhy[sizeof cwhy - 1] = '\0';
		if (rc != BENCH_REF_LOADED)
			snprintf(why, why_len, "%s", cwhy);
		return rc;
	}
	if (WIFSIGNALED(status))
		snprintf(why, why_len, "%s with %s set crashed while initialising (signal %d): no best-kernel %s",
		         lib_label(lib), lib_env(lib), WTERMSIG(status), lib_label(lib));
	else
		snprintf(why, why_len, "%s with %s set failed while initialising: no best-kernel %s",
		         lib_label(lib), lib_env(lib), lib_label(lib));
	return BENCH_REF_FAILED;
}

/* Sanitizer runtimes refuse RTLD_DEEPBIND (they abort the process), and
 * without it a reference's internal BLAS calls could land in gemmkit. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BENCH_NO_DEEPBIND 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define BENCH_NO_DEEPBIND 1
#endif
#endif

int bench_ref_load(const char *id, int threads, int forced, bench_ref *ref, char *why, size_t why_len)
{
	memset(ref, 0, sizeof *ref);
	why[0] = '\0';
#ifdef BENCH_NO_DEEPBIND
	(void)threads;
	(void)forced;
	snprintf(why, why_len, "%s: references are not loaded in a sanitizer build "
	         "(RTLD_DEEPBIND is not available there): skipped", id);
	return BENCH_REF_NOT_FOUND;
#endif
	int lib = lib_of(id);
	int best = strstr(id, "-best") != NULL;
	for (int i = 0; i < BENCH_REF_COUNT; i++)
		if (strcmp(id, bench_ref_ids[i]) == 0)
			ref->id = bench_ref_ids[i];
	if (ref->id == NULL) {
		snprintf(why, why_len, "no reference is named \"%s\"", id);
		return BENCH_REF_FAILED;
	}
	ref->int64 = 0;

	if (!best) {
		char path[PATH_MAX];
		const char *file = NULL;
		void *h = open_installed(lib, path, sizeof path, &file);
		if (h == NULL) {
			snprintf(why, why_len, "%s not found (install %s): skipped", lib_label(lib),
			         lib == LIB_OPENBLAS ? "libopenblas-dev" : "libblis-dev");
			return BENCH_REF_NOT_FOUND;
		}
		if (init_instance(lib, h, threads, ref, why, why_len) != 0)
			return BENCH_REF_FAILED;
		snprintf(ref->name, sizeof ref->name, "%s %s", lib_label(lib), ref->version);
		const char *env = getenv(lib_env(lib));
		char envnote[96] = "";
		if (env && *env)
			snprintf(envnote, sizeof envnote, ", with %s=%s from the environment", lib_env(lib), env);
		snprintf(ref->how, sizeof ref->how, "as installed: %s -> %.300s, kernel %s%s%s", file, path,
		         ref->kernel, ref->int64 ? ", 64-bit integers" : "", envnote);
		return BENCH_REF_LOADED;
	}

	if (!bench_cpu_has_avx512f() && !forced) {
		snprintf(why, why_len, "the CPU has no AVX-512F: no best-kernel %s", lib_label(lib));
		return BENCH_REF_NOT_OFFERED;
	}
	variant_probe p;
	memset(&p, 0, sizeof p);
	int rc = probe_best(lib, threads, &p, why, why_len);
	if (rc != BENCH_REF_LOADED)
		return rc;
	if (strcmp(p.best_kernel, p.installed_kernel) == 0 && !forced) {
		snprintf(why, why_len, "%s as installed already runs kernel %s: no separate best-kernel run "
		         "(ask for %s to run it anyway)", lib_label(lib), p.installed_kernel, id);
		return BENCH_REF_NOT_OFFERED;
	}
	const char *kind = avx2_run() ? "AVX2" : "AVX-512";
	if (!kernel_is_target(p.best_kernel) && !forced) {
		snprintf(why, why_len, "%s with %s=%s runs kernel %s, not an %s one: no best-kernel %s",
		         lib_label(lib), lib_env(lib), p.value, p.best_kernel, kind, lib_label(lib));
		return BENCH_REF_NOT_OFFERED;
	}
	if (kernel_is_target(p.installed_kernel) && !forced) {
		snprintf(why, why_len, "%s as installed already runs an %s kernel (%s): no separate "
		         "best-kernel run (ask for %s to run it anyway)", lib_label(lib), kind,
		         p.installed_kernel, id);
		return BENCH_REF_NOT_OFFERED;
	}
	variant_probe q;
	memset(&q, 0, sizeof q);
	rc = load_best(lib, threads, ref, &q, why, why_len);
	if (rc != BENCH_REF_LOADED)
		return rc;
	snprintf(ref->installed_kernel, sizeof ref->installed_kernel, "%s", q.installed_kernel);
	ref->same_kernel = strcmp(ref->kernel, q.installed_kernel) == 0;
	snprintf(ref->name, sizeof ref->name, "%s %s (%s=%s%s%s)", lib_label(lib), ref->version,
	         lib_env(lib), q.value, lib == LIB_BLIS ? ": " : "", lib == LIB_BLIS ? ref->kernel : "");
	snprintf(ref->how, sizeof ref->how, "private copy of %.300s loaded with %s=%s, kernel %s "
	         "(as installed: kernel %s%s)%s", q.path, lib_env(lib), q.value, ref->kernel,
	         q.installed_kernel, ref->same_kernel ? ", the same set" : "",
	         ref->int64 ? ", 64-bit integers" : "");
	return BENCH_REF_LOADED;
}

int bench_ref_gemm(const bench_ref *ref, int f64, int64_t m, int64_t n, int64_t k,
                   const void *a, const void *b, void *c)
{
	if (ref->int64) {
		if (f64)
			((dgemm64_fn)ref->dgemm)(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, m, n, k,
			                         1.0, a, k, b, n, 0.0, c, n);
		else
			((sgemm64_fn)ref->sgemm)(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, m, n, k,
			                         1.0f, a, k, b, n, 0.0f, c, n);
		return 0;
	}
	if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
		return -1;
	if (f64)
		((dgemm32_fn)ref->dgemm)(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, (int32_t)m, (int32_t)n,
		                         (int32_t)k, 1.0, a, (int32_t)k, b, (int32_t)n, 0.0, c, (int32_t)n);
	else
		((sgemm32_fn)ref->sgemm)(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, (int32_t)m, (int32_t)n,
		                         (int32_t)k, 1.0f, a, (int32_t)k, b, (int32_t)n, 0.0f, c, (int32_t)n);
	return 0;
}
