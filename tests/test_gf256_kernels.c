/*
 * test_gf256_kernels.c - every GF(2^8) dot-product kernel this CPU can run,
 * against an independent reference: products from a 256 x 256 table built
 * by bitwise carry-less multiplication reduced by 0x11D (test_gf256_ref.h).
 *  - every gf_dot slot of every table (generic, avx2, avx512) and the GFNI
 *    slots, for every length 0..300 and large ones, all row counts 1..6, k
 *    from 1 to 40, random offsets and pointer misalignment, acc = 0, 1 and 2
 *    (streaming stores, on aligned and unaligned rows), each also with the
 *    GK_GF256_FAR hint, which must change nothing: the output must equal the
 *    reference byte for byte (memcmp), the bytes around it and the inputs
 *    must be unchanged;
 *  - buffers placed against a PROT_NONE page on either side catch any read
 *    or write past an end.
 * The field, the coefficient formats and gk_gf256_gemm*: test_gf256.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gk_internal.h"
#include "../src/gf256/gf256_internal.h"
#include "test_gf256_ref.h"

/* ------------------------------------------------------------------------ */
/* Kernels                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct flavor {
	char name[32];
	const gk_gf256_dot_fn *dot;
	int affine;
} flavor;

static int list_flavors(flavor *out)
{
	static const char *names[] = {"generic", "avx2", "avx512"};
	int n = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const gk_kernels *t = gk_kernels_by_name(names[i]);
		if (t == NULL) {
			printf("kernel set %s: not supported by this CPU, skipped\n", names[i]);
			continue;
		}
		snprintf(out[n].name, sizeof out[n].name, "%s", names[i]);
		out[n].dot = t->gf_dot;
		out[n].affine = 0;
		n++;
		if (t->gf_dot_affine[1] != NULL) {
			const uint64_t need = t->gf_affine_requires;
			if ((gk_cpu_features() & need) != need) {
				printf("kernel set %s+gfni: no GFNI on this CPU, skipped\n", names[i]);
				continue;
			}
			snprintf(out[n].name, sizeof out[n].name, "%s+gfni", names[i]);
			out[n].dot = t->gf_dot_affine;
			out[n].affine = 1;
			n++;
		}
	}
	return n;
}

/* coef for rows x k coefficients a[], in the flavor's format. */
static uint8_t *make_coef(const flavor *f, int rows, int64_t k, const uint8_t *a)
{
	const size_t es = f->affine ? GK_GF256_AFFINE_BYTES : GK_GF256_TBL_BYTES;
	uint8_t *coef = xalloc((size_t)rows * (size_t)k * es);
	for (int64_t i = 0; i < rows * k; i++) {
		if (f->affine) {
			const uint64_t q = gk_gf256_affine(a[i]);
			memcpy(coef + (size_t)i * es, &q, es);
		} else {
			gk_gf256_expand(a[i], coef + (size_t)i * es);
		}
	}
	return coef;
}

#define MAX_K 40
#define MARGIN 96

/*
 * One kernel call on heap buffers: k source rows and `rows` destination
 * rows of off + len + MARGIN bytes each, starting `mis` bytes past a 64-byte
 * boundary. Checks dst against the reference and everything else unchanged.
 */
static void check_call(const flavor *f, int rows, int64_t k, int64_t len, int64_t off, int acc,
                       tu_rng *rng)
{
	const size_t span = (size_t)(off + len + MARGIN);
	uint8_t a[GK_GF256_MAX_ROWS * MAX_K];
	uint8_t *sbuf[MAX_K], *dbuf[GK_GF256_MAX_ROWS], *dref[GK_GF256_MAX_ROWS];
	uint8_t *sorig[MAX_K];
	fill(a, (size_t)rows * (size_t)k, rng);
	if (tu_next(rng) % 4 == 0) /* zeros and ones are coefficients too */
		a[tu_next(rng) % ((uint64_t)rows * k)] = (uint8_t)(tu_next(rng) % 2);
	uint8_t *coef = make_coef(f, rows, k, a);
	/* Half the calls with every row the same distance from a line (blocks
	 * from malloc: the GFNI kernels then do up to the next line first),
	 * the others with each row's own. */
	const int64_t common = tu_next(rng) % 2 ? -1 : (int64_t)(tu_next(rng) % 64);
	for (int64_t j = 0; j < k; j++) {
		sorig[j] = xalloc(span);
		fill(sorig[j], span, rng);
		uint8_t *raw = aligned_alloc(64, (span + 128 + 63) / 64 * 64);
		if (raw == NULL)
			exit(2);
		sbuf[j] = raw + (common >= 0 ? common : (int64_t)(tu_next(rng) % 64));
		memcpy(sbuf[j], sorig[j], span);
	}
	for (int r = 0; r < rows; r++) {
		dref[r] = xalloc(span);
		fill(dref[r], span, rng);
		uint8_t *raw = aligned_alloc(64, (span + 128 + 63) / 64 * 64);
		if (raw == NULL)
			exit(2);
		/* Streaming stores are taken where dst + off is on a line. */
		const int line = (acc & ~GK_GF256_FAR) == GK_GF256_STREAM && tu_next(rng) % 4 != 0;
		dbuf[r] = raw + (line ? (64 - off % 64) % 64 : common >= 0 ? common : (int64_t)(tu_next(rng) % 64));
		memcpy(dbuf[r], dref[r], span);
		for (int64_t i = off; i < off + len; i++) {
			uint8_t v = acc & GK_GF256_ACC ? dref[r][i] : 0;
			for (int64_t j = 0; j < k; j++)
				v ^= T[a[r * k + j]][sorig[j][i]];
			dref[r][i] = v;
		}
	}
	snprintf(tu_doing, sizeof tu_doing, "%s dot%d k=%lld len=%lld off=%lld acc=%d", f->name, rows,
	         (long long)k, (long long)len, (long long)off, acc);
	f->dot[rows](len, k, coef, (const uint8_t *const *)sbuf, dbuf, off, acc);
	int ok = 1;
	for (int r = 0; r < rows; r++)
		ok &= memcmp(dbuf[r], dref[r], span) == 0;
	for (int64_t j = 0; j < k; j++)
		ok &= memcmp(sbuf[j], sorig[j], span) == 0;
	TU_CHECK(ok, "%s: wrong output, or bytes outside the output or inputs changed", tu_doing);
	for (int64_t j = 0; j < k; j++) {
		free(sorig[j]);
		free((void *)((uintptr_t)sbuf[j] & ~(uintptr_t)63));
	}
	for (int r = 0; r < rows; r++) {
		free(dref[r]);
		free((void *)((uintptr_t)dbuf[r] & ~(uintptr_t)63));
	}
	free(coef);
}

static void test_kernels(const flavor *fl, int nfl, tu_rng *rng)
{
	static const int64_t ks[] = {1, 2, 3, 4, 5, 7, 8, 16, 33, MAX_K};
	static const int64_t lens[] = {1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 257};
	for (int fi = 0; fi < nfl; fi++) {
		const flavor *f = &fl[fi];
		long before = tu_failed;
		/* every length 0..300, row count and k varying */
		for (int64_t len = 0; len <= 300; len++)
			check_call(f, 1 + (int)(len % GK_GF256_MAX_ROWS), 1 + (int64_t)(tu_next(rng) % 12),
			           len, (int64_t)(tu_next(rng) % 70), (int)(tu_next(rng) & 1), rng);
		/* every row count with every k of the list */
		for (int rows = 1; rows <= GK_GF256_MAX_ROWS; rows++)
			for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
				for (int acc = 0; acc <= (GK_GF256_STREAM | GK_GF256_FAR); acc++) {
					/* GK_GF256_FAR, a hint, must change no byte */
					if ((acc & GK_GF256_ACC) && (acc & GK_GF256_STREAM))
						continue;
					check_call(f, rows, ks[ki],
					           lens[tu_next(rng) % (sizeof lens / sizeof lens[0])],
					           (int64_t)(tu_next(rng) % 130), acc, rng);
				}
		/* every row count with 9 to 16 inputs from past L2
		 * (GK_GF256_FAR): the GFNI kernels' four-vector loop with requests
		 * ahead, over several of its steps and every kind of tail */
		for (int rows = 1; rows <= GK_GF256_MAX_ROWS; rows++)
			for (int64_t k = 9; k <= 16; k++) {
				const int accs[] = {GK_GF256_FAR, GK_GF256_FAR | GK_GF256_ACC,
				                    GK_GF256_FAR | GK_GF256_STREAM};
				check_call(f, rows, k, 1024 + (int64_t)(tu_next(rng) % 300),
				           (int64_t)(tu_next(rng) % 130), accs[k % 3], rng);
			}
		/* large */
		for (int rows = 1; rows <= GK_GF256_MAX_ROWS; rows++)
			check_call(f, rows, 1 + (int64_t)(tu_next(rng) % 10),
			           65536 + (int64_t)(tu_next(rng) % 200), (int64_t)(tu_next(rng) % 64),
			           rows % 3, rng);
		/* rows long enough for the kernels' streaming paths (prefetching
		 * AVX2 loops from 256 KiB on; non-temporal stores, acc 2, where
		 * the output rows start on a line) */
		for (int rows = 1; rows <= GK_GF256_MAX_ROWS; rows++)
			check_call(f, rows, 1 + (int64_t)(tu_next(rng) % 6),
			           (256 << 10) + (int64_t)(tu_next(rng) % 100),
			           (int64_t)(tu_next(rng) % 64), rows % 3, rng);
		printf("kernels %s: %s\n", f->name, tu_failed == before ? "ok" : "FAILED");
	}
}

/* Page-end and page-start placement: every buffer sits against PROT_NONE. */
#define GUARD_SLOTS (GK_GF256_MAX_ROWS + 6)

static void test_guard_pages(const flavor *fl, int nfl, tu_rng *rng)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *slot[GUARD_SLOTS];
	for (int s = 0; s < GUARD_SLOTS; s++) {
		uint8_t *p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
		                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			printf("guard pages: mmap failed, skipped\n");
			return;
		}
		if (mprotect(p, page, PROT_NONE) != 0 || mprotect(p + 2 * page, page, PROT_NONE) != 0) {
			printf("guard pages: mprotect failed, skipped\n");
			return;
		}
		slot[s] = p + page;
	}
	tu_catch_faults("the kernel read or wrote outside its rows");
	const int kmax = GUARD_SLOTS - GK_GF256_MAX_ROWS;
	for (int fi = 0; fi < nfl; fi++) {
		const flavor *f = &fl[fi];
		long before = tu_failed;
		for (int64_t len = 0; len <= 200; len++) {
			const int rows = 1 + (int)(tu_next(rng) % GK_GF256_MAX_ROWS);
			const int64_t k = 1 + (int64_t)(tu_next(rng) % kmax);
			const int at_end = (int)(len & 1);
			/* 2: streaming stores asked for; GK_GF256_FAR (requests ahead,
			 * which must not fault past the page) on every seventh */
			const int acc = (int)(len % 3) | (len % 7 == 0 ? GK_GF256_FAR : 0);
			/* off = 0 with the row starting at the page start, or the row
			 * ending at the page end; a nonzero off moves the row start
			 * back so that byte off is where the data begins. */
			const int64_t off = at_end ? (int64_t)(tu_next(rng) % 8) : 0;
			uint8_t a[GK_GF256_MAX_ROWS * GUARD_SLOTS];
			fill(a, (size_t)rows * (size_t)k, rng);
			uint8_t *coef = make_coef(f, rows, k, a);
			uint8_t *src[GUARD_SLOTS], *dst[GK_GF256_MAX_ROWS];
			uint8_t ref[GK_GF256_MAX_ROWS][208];
			for (int64_t j = 0; j < k; j++) {
				src[j] = at_end ? slot[j] + page - (size_t)(off + len) : slot[j];
				fill(src[j], (size_t)(off + len), rng);
			}
			for (int r = 0; r < rows; r++) {
				uint8_t *d = slot[kmax + r];
				dst[r] = at_end ? d + page - (size_t)(off + len) : d;
				fill(dst[r], (size_t)(off + len), rng);
				for (int64_t i = 0; i < len; i++) {
					uint8_t v = acc & GK_GF256_ACC ? dst[r][off + i] : 0;
					for (int64_t j = 0; j < k; j++)
						v ^= T[a[r * k + j]][src[j][off + i]];
					ref[r][i] = v;
				}
			}
			snprintf(tu_doing, sizeof tu_doing, "%s dot%d k=%lld len=%lld at page %s",
			         f->name, rows, (long long)k, (long long)len, at_end ? "end" : "start");
			f->dot[rows](len, k, coef, (const uint8_t *const *)src, dst, off, acc);
			int ok = 1;
			for (int r = 0; r < rows; r++)
				ok &= len == 0 || memcmp(dst[r] + off, ref[r], (size_t)len) == 0;
			TU_CHECK(ok, "%s: wrong output", tu_doing);
			free(coef);
		}
		printf("guard pages %s: %s\n", f->name, tu_failed == before ? "ok" : "FAILED");
	}
	tu_catch_faults(NULL);
	for (int s = 0; s < GUARD_SLOTS; s++)
		munmap(slot[s] - page, 3 * page);
}

int main(void)
{
	tu_rng rng;
	tu_rng_init(&rng, tu_seed());
	gf_ref_init();
	printf("GF(2^8) kernels in use: %s\n", gk_gf256_kernel_name());

	flavor fl[8];
	const int nfl = list_flavors(fl);
	test_kernels(fl, nfl, &rng);
	test_guard_pages(fl, nfl, &rng);
	return tu_finish("test_gf256_kernels");
}
