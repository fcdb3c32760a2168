/*
 * test_kernels.c - every slot of every kernel table this CPU can run, in
 * isolation, against a long-double reference.
 *
 * For each table (generic, avx2, avx512; one the CPU lacks is skipped with a
 * message) and each slot (axpy_f32/f64, dot_f32/f64; axpy4 against four
 * calls of axpy, bit for bit):
 *  - every length 0..300 and a few large ones, x and y at different element
 *    offsets from a 64-byte boundary (0..15), every pair of offsets for two
 *    lengths;
 *  - y elements before y[0] and from y[n] on are left as they were; x is
 *    never written;
 *  - vectors placed so that their last element ends exactly where a
 *    PROT_NONE page begins, or their first starts right after one: a read or
 *    write past either end (a full-width load in a tail, a wrong mask) faults,
 *    and the fault handler names the case.
 *
 * Bounds (u: unit roundoff of the type): axpy is one multiply and one add,
 * fused or not, so |y - (y0 + alpha x)| <= 2u (|y0| + |alpha x|) elementwise;
 * a dot product in any summation order has |s - x.y| <= gamma_n sum |x_i y_i|,
 * checked as 2 (n + 1) u sum |x_i y_i|.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gk_internal.h"
#include "test_util.h"

#define MAX_SMALL 300
#define MAX_OFF 16

static const int64_t large_lengths[] = {1000, 4093, 65536 + 13};

static void *xalloc(size_t bytes)
{
	void *p = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
	if (p == NULL) {
		fprintf(stderr, "test_kernels: out of memory\n");
		exit(2);
	}
	return p;
}

static double unit(unsigned dt)
{
	return dt == GK_DTYPE_F32 ? 0x1p-24 : 0x1p-53;
}

static void fill(unsigned dt, void *x, size_t n, tu_rng *r)
{
	if (dt == GK_DTYPE_F32)
		tu_fill_f32(x, n, r);
	else
		tu_fill_f64(x, n, r);
}

static long double get(unsigned dt, const void *x, int64_t i)
{
	return dt == GK_DTYPE_F32 ? (long double)((const float *)x)[i]
	                          : (long double)((const double *)x)[i];
}

/* ------------------------------------------------------------------------ */
/* One call of a slot, checked                                               */
/* ------------------------------------------------------------------------ */

/* y has `before` writable elements in front of it and `after` behind it, all
 * of which must stay unchanged. */
static void check_axpy(const gk_kernels *t, unsigned dt, int64_t n, double alpha, const void *x,
                       void *y, int64_t before, int64_t after, tu_rng *r)
{
	const size_t es = dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	char *ylo = (char *)y - before * (int64_t)es;
	const size_t ytot = (size_t)(before + n + after) * es;
	fill(dt, ylo, ytot / es, r);
	char *ysave = malloc(ytot + 1), *xsave = malloc((size_t)n * es + 1);
	memcpy(ysave, ylo, ytot);
	memcpy(xsave, x, (size_t)n * es);
	if (dt == GK_DTYPE_F32)
		t->axpy_f32(n, (float)alpha, x, y);
	else
		t->axpy_f64(n, alpha, x, y);
	const long double a = dt == GK_DTYPE_F32 ? (long double)(float)alpha : (long double)alpha;
	const char *y0 = ysave + before * (int64_t)es;
	int64_t bad = 0, first_bad = -1;
	for (int64_t i = 0; i < n; i++) {
		long double ax = a * get(dt, x, i), yi = get(dt, y0, i);
		long double want = yi + ax, got = get(dt, y, i);
		long double tol = 2 * (long double)unit(dt) * (fabsl(yi) + fabsl(ax));
		if (!(fabsl(got - want) <= tol)) {
			if (first_bad < 0)
				first_bad = i;
			bad++;
		}
	}
	TU_CHECK(bad == 0, "%s: %lld wrong elements, first y[%lld]", tu_doing, (long long)bad,
	         (long long)first_bad);
	TU_CHECK(memcmp(ylo, ysave, (size_t)before * es) == 0,
	         "%s: changed y elements before y[0]", tu_doing);
	TU_CHECK(memcmp((char *)y + n * (int64_t)es, ysave + (before + n) * (int64_t)es,
	                (size_t)after * es) == 0,
	         "%s: changed y elements from y[n] on", tu_doing);
	TU_CHECK(memcmp(x, xsave, (size_t)n * es) == 0, "%s: changed x", tu_doing);
	free(ysave);
	free(xsave);
}

static void check_dot(const gk_kernels *t, unsigned dt, int64_t n, const void *x, const void *y)
{
	const size_t es = dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	char *xsave = malloc((size_t)n * es + 1), *ysave = malloc((size_t)n * es + 1);
	memcpy(xsave, x, (size_t)n * es);
	memcpy(ysave, y, (size_t)n * es);
	long double got = dt == GK_DTYPE_F32 ? (long double)t->dot_f32(n, x, y)
	                                     : (long double)t->dot_f64(n, x, y);
	long double want = 0, mag = 0;
	for (int64_t i = 0; i < n; i++) {
		long double p = get(dt, x, i) * get(dt, y, i);
		want += p;
		mag += fabsl(p);
	}
	long double tol = 2 * (long double)(n + 1) * (long double)unit(dt) * mag;
	TU_CHECK(fabsl(got - want) <= tol, "%s: %.10Lg, reference %.10Lg (tolerance %.3Lg)", tu_doing,
	         got, want, tol);
	TU_CHECK(memcmp(x, xsave, (size_t)n * es) == 0 && memcmp(y, ysave, (size_t)n * es) == 0,
	         "%s: changed x or y", tu_doing);
	free(xsave);
	free(ysave);
}

/* Run one slot (0 axpy_f32, 1 axpy_f64, 2 dot_f32, 3 dot_f64) on n elements of
 * x and y; `before`/`after`: y's writable neighbours for axpy. */
static const char *const slot_names[4] = {"axpy_f32", "axpy_f64", "dot_f32", "dot_f64"};

static void run_slot(const gk_kernels *t, int slot, int64_t n, void *x, void *y, int64_t before,
                     int64_t after, tu_rng *r)
{
	const unsigned dt = (slot & 1) ? GK_DTYPE_F64 : GK_DTYPE_F32;
	fill(dt, x, (size_t)n, r);
	if (slot < 2) {
		/* alpha: 0, 1, -1 now and then, a random value otherwise. */
		static const double special[] = {0.0, 1.0, -1.0};
		uint64_t pick = tu_next(r) % 8;
		double alpha = pick < 3 ? special[pick] : 4 * tu_uniform(r);
		check_axpy(t, dt, n, alpha, x, y, before, after, r);
	} else {
		fill(dt, y, (size_t)n, r);
		check_dot(t, dt, n, x, y);
	}
}

/* ------------------------------------------------------------------------ */
/* Lengths and offsets in ordinary memory                                     */
/* ------------------------------------------------------------------------ */

static void lengths_and_offsets(const gk_kernels *t, int slot, tu_rng *r)
{
	const size_t es = (slot & 1) ? sizeof(double) : sizeof(float);
	const int64_t maxn = large_lengths[sizeof large_lengths / sizeof large_lengths[0] - 1];
	char *xb = xalloc((size_t)(maxn + 2 * MAX_OFF) * es);
	char *yb = xalloc((size_t)(maxn + 3 * MAX_OFF) * es);
	const long before = tu_failed;
	for (int64_t n = 0; n <= MAX_SMALL; n++) {
		const int64_t xo = (n * 7) % MAX_OFF, yo = (n * 3 + 5) % MAX_OFF;
		snprintf(tu_doing, sizeof tu_doing, "%s %s n=%lld x+%lld y+%lld", t->name,
		         slot_names[slot], (long long)n, (long long)xo, (long long)yo);
		run_slot(t, slot, n, xb + xo * (int64_t)es, yb + yo * (int64_t)es, yo, MAX_OFF, r);
	}
	/* Every pair of offsets, for a length with a vector tail and one without. */
	static const int64_t pair_lengths[] = {37, 64};
	for (int li = 0; li < 2; li++)
		for (int64_t xo = 0; xo < MAX_OFF; xo++)
			for (int64_t yo = 0; yo < MAX_OFF; yo++) {
				const int64_t n = pair_lengths[li];
				snprintf(tu_doing, sizeof tu_doing, "%s %s n=%lld x+%lld y+%lld", t->name,
				         slot_names[slot], (long long)n, (long long)xo, (long long)yo);
				run_slot(t, slot, n, xb + xo * (int64_t)es, yb + yo * (int64_t)es, yo,
				         MAX_OFF, r);
			}
	for (size_t i = 0; i < sizeof large_lengths / sizeof large_lengths[0]; i++) {
		const int64_t n = large_lengths[i];
		const int64_t xo = 1 + (int64_t)(tu_next(r) % (MAX_OFF - 1));
		const int64_t yo = 1 + (int64_t)(tu_next(r) % (MAX_OFF - 1));
		snprintf(tu_doing, sizeof tu_doing, "%s %s n=%lld x+%lld y+%lld", t->name,
		         slot_names[slot], (long long)n, (long long)xo, (long long)yo);
		run_slot(t, slot, n, xb + xo * (int64_t)es, yb + yo * (int64_t)es, yo, MAX_OFF, r);
	}
	printf("  %-8s %-8s lengths 0..%d and %d large, offsets 0..%d: %s\n", t->name,
	       slot_names[slot], MAX_SMALL, (int)(sizeof large_lengths / sizeof large_lengths[0]),
	       MAX_OFF - 1, tu_failed == before ? "ok" : "FAILED");
	free(xb);
	free(yb);
}

/* ------------------------------------------------------------------------ */
/* Vectors against inaccessible pages                                         */
/* ------------------------------------------------------------------------ */

/* [PROT_NONE page][data pages][PROT_NONE page] */
typedef struct {
	char *map, *lo, *hi; /* the mapping; the first and one past the last data byte */
	size_t len;
} fenced;

static int fence_map(fenced *f, size_t data_bytes)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const size_t data = (data_bytes + page - 1) / page * page;
	f->len = data + 2 * page;
	f->map = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (f->map == MAP_FAILED)
		return -1;
	if (mprotect(f->map, page, PROT_NONE) != 0 ||
	    mprotect(f->map + page + data, page, PROT_NONE) != 0) {
		munmap(f->map, f->len);
		return -1;
	}
	f->lo = f->map + page;
	f->hi = f->lo + data;
	return 0;
}

static void fenced_vectors(const gk_kernels *t, int slot, fenced *fx, fenced *fy, tu_rng *r)
{
	const size_t es = (slot & 1) ? sizeof(double) : sizeof(float);
	const long failed = tu_failed;
	int64_t lengths[MAX_SMALL + 2 + sizeof large_lengths / sizeof large_lengths[0]];
	int nl = 0;
	for (int64_t n = 0; n <= MAX_SMALL; n++)
		lengths[nl++] = n;
	for (size_t i = 0; i < sizeof large_lengths / sizeof large_lengths[0]; i++)
		lengths[nl++] = large_lengths[i];
	for (int li = 0; li < nl; li++) {
		const int64_t n = lengths[li], bytes = n * (int64_t)es;
		/* place 0: both end at a guard page; 1: both start after one;
		 * 2: x ends at one and y starts after one; 3: the other way. */
		for (int place = 0; place < 4; place++) {
			char *x = (place == 0 || place == 2) ? fx->hi - bytes : fx->lo;
			char *y = (place == 0 || place == 3) ? fy->hi - bytes : fy->lo;
			const int64_t before = (y - fy->lo) / (int64_t)es;
			const int64_t after = (fy->hi - y - bytes) / (int64_t)es;
			snprintf(tu_doing, sizeof tu_doing, "%s %s n=%lld x %s guard, y %s guard", t->name,
			         slot_names[slot], (long long)n, x == fx->lo ? "after" : "before",
			         y == fy->lo ? "after" : "before");
			/* Keep the check of y's neighbours short: at most 64 on each side. */
			const int64_t nb = before < 64 ? before : 64, na = after < 64 ? after : 64;
			run_slot(t, slot, n, x, y, nb, na, r);
		}
	}
	printf("  %-8s %-8s against PROT_NONE pages, lengths 0..%d and %d large: %s\n", t->name,
	       slot_names[slot], MAX_SMALL, (int)(sizeof large_lengths / sizeof large_lengths[0]),
	       tu_failed == failed ? "ok" : "FAILED");
}

/* axpy4 (kernel_api.h): for lengths 0..300 and a few large ones, at
 * element offsets 0..15, with rows of x ldx apart: bit for bit the four
 * axpy calls of the same table in order, and nothing of y outside [0, n)
 * written. */
static void check_axpy4(const gk_kernels *t, unsigned dt, tu_rng *r)
{
	const size_t es = dt == GK_DTYPE_F32 ? sizeof(float) : sizeof(double);
	static const int64_t big[] = {1000, 4099, 20000};
	for (int64_t q = 0; q < 301 + 3; q++) {
		const int64_t n = q < 301 ? q : big[q - 301];
		const int64_t off = (int64_t)(tu_next(r) % 16), ldx = n + (int64_t)(tu_next(r) % 5);
		const int64_t guard = 16;
		char *x = tu_xmalloc((size_t)(4 * ldx + n + off + 1) * es);
		char *y = tu_xmalloc((size_t)(n + off + 2 * guard) * es);
		char *z = tu_xmalloc((size_t)(n + off + 2 * guard) * es);
		fill(dt, x, (size_t)(4 * ldx + n + off + 1), r);
		fill(dt, y, (size_t)(n + off + 2 * guard), r);
		memcpy(z, y, (size_t)(n + off + 2 * guard) * es);
		char *xs = x + off * es, *ys = y + (guard + off) * es, *zs = z + (guard + off) * es;
		if (dt == GK_DTYPE_F32) {
			const float al[4] = {(float)tu_uniform(r), (float)tu_uniform(r), (float)tu_uniform(r),
			                     (float)tu_uniform(r)};
			t->axpy4_f32(n, al, (const float *)xs, ldx, (float *)ys);
			for (int k = 0; k < 4; k++)
				t->axpy_f32(n, al[k], (const float *)xs + k * ldx, (float *)zs);
		} else {
			const double al[4] = {tu_uniform(r), tu_uniform(r), tu_uniform(r), tu_uniform(r)};
			t->axpy4_f64(n, al, (const double *)xs, ldx, (double *)ys);
			for (int k = 0; k < 4; k++)
				t->axpy_f64(n, al[k], (const double *)xs + k * ldx, (double *)zs);
		}
		TU_CHECK(memcmp(y, z, (size_t)(n + off + 2 * guard) * es) == 0,
		         "%s axpy4_%s n=%lld offset %lld ldx %lld: not the bits of four axpys, or wrote "
		         "outside y",
		         t->name, dt == GK_DTYPE_F32 ? "f32" : "f64", (long long)n, (long long)off,
		         (long long)ldx);
		free(x);
		free(y);
		free(z);
	}
}

int main(void)
{
	tu_rng r;
	tu_rng_init(&r, tu_seed());
	tu_catch_faults("the kernel read or wrote past its vector");

	const uint64_t have = gk_cpu_features();
	char feat[256];
	gk_cpu_feature_string(have, feat, sizeof feat);
	printf("cpu features: %s; active kernel set: %s\n", feat, gk_kernels_active()->name);

	/* The active table is one of the named ones, and the best this CPU runs. */
	static const char *const names[] = {"avx512", "avx2", "generic"};
	const gk_kernels *active = gk_kernels_active();
	TU_CHECK(active != NULL && gk_kernels_by_name(active->name) == active,
	         "the active table is not the one gk_kernels_by_name returns for its name");
	TU_CHECK(gk_kernels_by_name("no-such-isa") == NULL && gk_kernels_by_name(NULL) == NULL &&
	         gk_kernels_by_name("") == NULL,
	         "gk_kernels_by_name accepts an unknown name");
	TU_CHECK(gk_kernels_by_name("generic") != NULL, "the generic table is not available");

	const size_t maxbytes = (size_t)large_lengths[sizeof large_lengths / sizeof large_lengths[0] - 1] *
	                        sizeof(double);
	fenced fx, fy;
	const int fences = fence_map(&fx, maxbytes) == 0 && fence_map(&fy, maxbytes) == 0;
	if (!fences)
		printf("skip the guard-page tests: mmap/mprotect failed\n");

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const gk_kernels *t = gk_kernels_by_name(names[i]);
		if (t == NULL) {
			printf("skip %s: this CPU (or OS) lacks features it needs\n", names[i]);
			continue;
		}
		TU_CHECK(strcmp(t->name, names[i]) == 0, "table %s calls itself %s", names[i], t->name);
		TU_CHECK((t->requires & have) == t->requires, "table %s needs features the CPU lacks",
		         names[i]);
		TU_CHECK(t->axpy_f32 && t->axpy_f64 && t->dot_f32 && t->dot_f64,
		         "table %s has an empty slot", names[i]);
		if (!(t->axpy_f32 && t->axpy_f64 && t->dot_f32 && t->dot_f64))
			continue;
		TU_CHECK(t->axpy4_f32 && t->axpy4_f64, "table %s has no axpy4", names[i]);
		if (t->axpy4_f32 && t->axpy4_f64) {
			check_axpy4(t, GK_DTYPE_F32, &r);
			check_axpy4(t, GK_DTYPE_F64, &r);
		}
		for (int slot = 0; slot < 4; slot++) {
			lengths_and_offsets(t, slot, &r);
			if (fences)
				fenced_vectors(t, slot, &fx, &fy, &r);
		}
	}
	return tu_finish("test_kernels");
}
