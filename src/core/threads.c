/*
 * threads.c - how many threads a call runs with.
 *
 * An explicit request (a context's thread count) is obeyed. Otherwise:
 * GK_NUM_THREADS, then OMP_NUM_THREADS (its first entry), then the number
 * of processors the process may run on, no more than a container's CPU
 * quota (cgroup cpu.max); and 1 inside a caller's parallel region, so that
 * gemmkit called from parallel code does not oversubscribe the machine.
 * The default is worked out once, at the first call that needs it: asking
 * the system for the processors every call (a system call) cost several
 * times a 16 x 16 x 16 product.
 *
 * The count is what a call may use: the blocked driver runs on gemmkit's
 * own workers (pool.c), which take the tasks a late thread has not, so the
 * count decides how the work is cut (and, for the split depth without
 * GK_FLAG_DETERMINISTIC, the last bits), not how many threads must show up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <pthread.h>
#include <omp.h>
#include "gk_internal.h"
#include "pool.h"

#define GK_MAX_THREADS GK_POOL_MAX_THREADS

static int env_threads(const char *var)
{
	const char *s = getenv(var);
	if (s == NULL || *s == '\0')
		return 0;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	/* OMP_NUM_THREADS may be a list ("4,2"): its first entry is ours. */
	if (errno != 0 || end == s || (*end != '\0' && *end != ',') || v < 1)
		return 0;
	return v > GK_MAX_THREADS ? GK_MAX_THREADS : (int)v;
}

int gk_cpu_quota_of(long long quota, long long period)
{
	if (quota <= 0 || period <= 0)
		return 0;
	const long long n = (quota + period - 1) / period;
	return n > GK_MAX_THREADS ? GK_MAX_THREADS : (int)n;
}

/* Two numbers from the file at path (the first may be "max": none). */
static int read_two(const char *path, long long *a, long long *b)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return 0;
	const int got = fscanf(f, "%lld %lld", a, b);
	fclose(f);
	return got;
}

/* The CPUs a container's quota allows (cgroup v2 cpu.max "quota period",
 * or v1 cfs_quota_us and cfs_period_us), 0 when none is set: a process
 * limited to 2 CPUs' time on a 64-core host that ran 64 threads would
 * have them throttled, each in turn, most of every period. */
static int cpu_quota(void)
{
	long long q = 0, p = 0;
	if (read_two("/sys/fs/cgroup/cpu.max", &q, &p) == 2)
		return gk_cpu_quota_of(q, p);
	long long unused = 0;
	if (read_two("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", &q, &unused) >= 1 &&
	    read_two("/sys/fs/cgroup/cpu/cpu.cfs_period_us", &p, &unused) >= 1)
		return gk_cpu_quota_of(q, p);
	return 0;
}

static int default_threads;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void find_default_threads(void)
{
	int n = env_threads("GK_NUM_THREADS");
	if (n == 0)
		n = env_threads("OMP_NUM_THREADS");
	if (n == 0) {
		/* The processors this process may run on (its affinity), no more
		 * than its CPU quota. */
		n = omp_get_num_procs();
		const int q = cpu_quota();
		if (q > 0 && q < n)
			n = q;
	}
	default_threads = n < 1 ? 1 : n;
}

int gk_default_threads(void)
{
	pthread_once(&default_once, find_default_threads);
	return default_threads;
}

int gk_resolve_threads(int requested)
{
	if (requested > 0)
		return requested > GK_MAX_THREADS ? GK_MAX_THREADS : requested;
	if (omp_in_parallel())
		return 1;
	return gk_default_threads();
}
