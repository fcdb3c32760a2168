/* cli_util.c - see cli_util.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli_util.h"

int cli_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	if (s == NULL || *s == '\0')
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno == 0 && *end == '\0') {
		if (v < lo || v > hi)
			return -1;
		*out = v;
		return 0;
	}
	/* 1e6, 2.5e3, 4k, 1M, 2G: a whole number written another way. */
	errno = 0;
	double d = strtod(s, &end);
	if (errno != 0 || end == s)
		return -1;
	double mult = 1;
	if (*end == 'k' || *end == 'K') mult = 1024, end++;
	else if (*end == 'M') mult = 1024.0 * 1024, end++;
	else if (*end == 'G') mult = 1024.0 * 1024 * 1024, end++;
	if (*end != '\0')
		return -1;
	d *= mult;
	if (!isfinite(d) || d != floor(d) || d < (double)lo || d > (double)hi || d >= 9.2e18)
		return -1;
	*out = (int64_t)d;
	return 0;
}

int cli_parse_double(const char *s, double *out)
{
	if (s == NULL || *s == '\0')
		return -1;
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(d))
		return -1;
	*out = d;
	return 0;
}

int cli_parse_i64_list(const char *s, int64_t lo, int64_t hi, int64_t *out, int max)
{
	if (s == NULL || *s == '\0')
		return -1;
	char buf[64];
	int count = 0;
	const char *p = s;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0 || len >= sizeof buf || count >= max)
			return -1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (cli_parse_i64(buf, lo, hi, &out[count]) != 0)
			return -1;
		count++;
		if (comma == NULL)
			return count;
		p = comma + 1;
	}
}

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_rng_init(cli_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x9e3779b97f4a7c15ull;
}

static uint64_t next(cli_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double cli_uniform(cli_rng *r)
{
	return (double)(next(r) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

void cli_fill_f32(float *x, size_t n, cli_rng *r)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)cli_uniform(r);
}

void cli_fill_f64(double *x, size_t n, cli_rng *r)
{
	for (size_t i = 0; i < n; i++)
		x[i] = cli_uniform(r);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "gemmkit %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The first number in the file at path, or 0 (missing, or "max"). */
static uint64_t read_u64(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long v = 0;
	if (f != NULL) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return (uint64_t)v;
}

/* GK_MEM_AVAILABLE: bytes, with an optional K, M, G or T (powers of 1024);
 * "off" or 0 turns the check off. Returns 1 and *out when it is set and
 * valid (*out = 0: no check), 0 when unset, -1 (with a warning) when it
 * cannot be read. */
static int mem_override(uint64_t *out)
{
	const char *e = getenv("GK_MEM_AVAILABLE");
	if (e == NULL || *e == '\0')
		return 0;
	if (strcmp(e, "off") == 0) {
		*out = 0;
		return 1;
	}
	char *end = NULL;
	errno = 0;
	const double v = strtod(e, &end);
	double scale = 1;
	if (end != NULL && *end != '\0') {
		const char *units = "KMGT";
		const char *u = strchr(units, *end == 'k' ? 'K' : *end);
		if (u == NULL || *u == '\0' || end[1] != '\0')
			end = NULL;
		else
			scale = (double)((uint64_t)1 << (10 * (u - units + 1)));
	}
	if (end == NULL || end == e || errno != 0 || !(v >= 0) || v * scale > 1.8e19) {
		static int warned;
		if (!warned)
			fprintf(stderr, "gemmkit: GK_MEM_AVAILABLE=\"%s\" is not a size (bytes, or a number with K, "
			        "M, G or T, or off): ignored\n", e);
		warned = 1;
		return -1;
	}
	*out = (uint64_t)(v * scale);
	return 1;
}

int cli_mem_overridden(void)
{
	uint64_t v;
	return mem_override(&v) == 1;
}

uint64_t cli_mem_available(void)
{
	uint64_t set;
	if (mem_override(&set) == 1)
		return set;
	FILE *f = fopen("/proc/meminfo", "r");
	if (f == NULL)
		return 0;
	char line[256];
	unsigned long long kib = 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	uint64_t avail = (uint64_t)kib * 1024u;
	/* In a container, the cgroup's limit less what it uses, when smaller
	 * (cgroup v2, then v1; a v1 "no limit" reads as a huge number). */
	static const char *const lim[][2] = {
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"}};
	for (int i = 0; i < 2; i++) {
		const uint64_t max = read_u64(lim[i][0]), cur = read_u64(lim[i][1]);
		if (max > 0 && max < ((uint64_t)1 << 60)) {
			const uint64_t room = max > cur ? max - cur : 1;
			if (avail == 0 || room < avail)
				avail = room;
			break;
		}
	}
	return avail;
}

int cli_mem_fits(double need, const char *what, char *why, size_t len)
{
	const uint64_t avail = cli_mem_available();
	if (avail == 0 || need <= (double)avail)
		return 0;
	snprintf(why, len, "%s need %.1f GiB of memory; %.1f GiB are available%s", what,
	         need / (1u << 30), (double)avail / (1u << 30),
	         cli_mem_overridden() ? " (GK_MEM_AVAILABLE)" : " (GK_MEM_AVAILABLE=off skips this check)");
	return -1;
}
