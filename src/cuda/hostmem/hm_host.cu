/*
 * hm_host.cu - the host side of the out-of-core driver (hm_driver.cu):
 * which host operands are pinned, staged or registered, the pinned staging
 * ring kept per device, the copies of tiles between host memory and device
 * slots, and the driver's checked, counted acquisitions (hm_internal.cuh).
 *
 * Host memory: pinned (page-locked or registered) operands are copied by
 * the DMA engines directly (2D copies). Pageable ones are staged by
 * default: CPU threads pack lines into a ring of pinned chunks, kept per
 * device between calls, which the copy engine sends while the next chunk
 * is packed (C the other way round). GK_HOSTMEM_PAGEABLE=register pins the
 * caller's pages for the call instead (cudaHostRegister of the union of
 * the operands' pages, never of pages already pinned, undone before the
 * call returns); =direct hands pageable memory to cudaMemcpy2DAsync as it
 * is (to measure).
 *
 * Guarantees: every acquisition is counted and given back by its release;
 * no failure leaves an error for cudaGetLastError.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hm_internal.cuh"

namespace gk_hm {

/* ---- Checkpoints, injected failures, live resources --------------------- */

int g_fail_at = 0;             /* gk_hm_set_fail_at */
long g_live = 0;               /* resources held (gk_hm_live_resources) */
thread_local int t_fail_left = 0;
thread_local int t_points = 0;
thread_local int t_injected = 0;
thread_local int t_last_points = 0; /* the last finished call's t_points */

thread_local shared_points *t_shared = nullptr;

int fail_at_setting(void)
{
	int n = __atomic_load_n(&g_fail_at, __ATOMIC_RELAXED);
	if (n == 0) {
		const char *e = getenv("GK_HOSTMEM_FAIL_AT");
		n = e ? atoi(e) : 0;
	}
	return n > 0 ? n : 0;
}

void fail_arm(void)
{
	t_points = 0;
	t_injected = 0;
	t_fail_left = t_shared != nullptr ? 0 : fail_at_setting();
}

void fail_disarm(void)
{
	if (t_shared == nullptr)
		t_last_points = t_points;
	t_fail_left = 0;
	t_injected = 0;
}

void fail_publish(int points)
{
	t_last_points = points;
}

size_t default_budget(size_t free_b, size_t total_b)
{
	const size_t margin = total_b / 50 > ((size_t)512 << 20) ? total_b / 50 : ((size_t)512 << 20);
	return free_b > margin ? free_b - margin : free_b / 2;
}

gk_status status(cudaError_t e, const char *fn, const char *what)
{
	if (t_injected) {
		t_injected = 0;
		return gk_set_error(e == cudaErrorMemoryAllocation ? GK_ERR_NO_MEMORY : GK_ERR_CUDA,
		                    "%s: %s: injected failure %d (gk_hm_set_fail_at)", fn, what, t_points);
	}
	(void)cudaGetLastError();
	return gk_cuda_status(e, fn, what);
}

static void live_add(long d)
{
	__atomic_add_fetch(&g_live, d, __ATOMIC_RELAXED);
}

cudaError_t stream_create(cudaStream_t *s)
{
	*s = NULL;
	cudaError_t e = HM_ACQ(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
	if (e == cudaSuccess)
		live_add(1);
	else
		*s = NULL;
	return e;
}

void stream_destroy(cudaStream_t *s)
{
	if (*s != NULL) {
		cudaStreamDestroy(*s);
		live_add(-1);
	}
	*s = NULL;
}

cudaError_t event_create(cudaEvent_t *ev)
{
	*ev = NULL;
	cudaError_t e = HM_ACQ(cudaEventCreateWithFlags(ev, cudaEventDisableTiming));
	if (e == cudaSuccess)
		live_add(1);
	else
		*ev = NULL;
	return e;
}

void event_destroy(cudaEvent_t *ev)
{
	if (*ev != NULL) {
		cudaEventDestroy(*ev);
		live_add(-1);
	}
	*ev = NULL;
}

cudaError_t dev_alloc(char **p, size_t bytes)
{
	*p = NULL;
	cudaError_t e = HM_ACQ(cudaMalloc((void **)p, bytes));
	if (e == cudaSuccess)
		live_add(1);
	else
		*p = NULL;
	return e;
}

void dev_free(char **p)
{
	if (*p != NULL) {
		cudaFree(*p);
		live_add(-1);
	}
	*p = NULL;
}

static cudaError_t pinned_alloc(char **p, size_t bytes)
{
	*p = NULL;
	cudaError_t e = HM_ACQ(cudaHostAlloc((void **)p, bytes, cudaHostAllocDefault));
	if (e == cudaSuccess)
		live_add(1);
	else
		*p = NULL;
	return e;
}

static void pinned_free(char **p)
{
	if (*p != NULL) {
		cudaFreeHost(*p);
		live_add(-1);
	}
	*p = NULL;
}

/* ---- Pinned staging, kept per device ----------------------------------- */

/* Kept rings per device: one per call running at once on that device (the
 * workers of a multi-device call that share a device, or the caller's own
 * threads), up to KEPT_RINGS; a call that finds them all taken fills a
 * ring of its own for its duration. */
constexpr int KEPT_RINGS = 4;
pthread_mutex_t stage_lock[MAX_DEVICES][KEPT_RINGS];
staging stage_cache[MAX_DEVICES][KEPT_RINGS];
pthread_once_t stage_once = PTHREAD_ONCE_INIT;

static void stage_init(void)
{
	for (int i = 0; i < MAX_DEVICES; i++)
		for (int r = 0; r < KEPT_RINGS; r++)
			pthread_mutex_init(&stage_lock[i][r], NULL);
}

static void staging_free(staging *s)
{
	for (int i = 0; i < 2 * RING; i++) {
		pinned_free(&s->buf[i]);
		event_destroy(&s->ev[i]);
	}
}

size_t staging_chunk(void)
{
	const char *e = getenv("GK_HOSTMEM_CHUNK");
	const long long v = e ? atoll(e) : 0;
	if (v <= 0)
		return CHUNK;
	return v < 4096 ? 4096 : (size_t)v;
}

/* Fill s when empty (or of another chunk); on failure s is empty again. */
static gk_status staging_fill(const char *fn, staging *s)
{
	const size_t chunk = staging_chunk();
	if (s->buf[0] != NULL && s->chunk == chunk)
		return GK_OK;
	staging_free(s);
	s->chunk = chunk;
	for (int i = 0; i < 2 * RING; i++) {
		cudaError_t e = pinned_alloc(&s->buf[i], chunk);
		const char *what = "cudaHostAlloc(staging)";
		if (e == cudaSuccess) {
			e = event_create(&s->ev[i]);
			what = "cudaEventCreate(staging)";
		}
		if (e != cudaSuccess) {
			staging_free(s);
			return status(e, fn, what);
		}
	}
	return GK_OK;
}

gk_status staging_take(const char *fn, int dev, staging *priv, staging **out, int *locked)
{
	pthread_once(&stage_once, stage_init);
	*locked = 0;
	*out = priv;
	for (int r = 0; r < KEPT_RINGS; r++)
		if (pthread_mutex_trylock(&stage_lock[dev][r]) == 0) {
			*locked = r + 1;
			*out = &stage_cache[dev][r];
			break;
		}
	return staging_fill(fn, *out);
}

void staging_give(int dev, staging *priv, int locked)
{
	if (locked > 0)
		pthread_mutex_unlock(&stage_lock[dev][locked - 1]);
	staging_free(priv);
}

void staging_release_all(void)
{
	pthread_once(&stage_once, stage_init);
	for (int d = 0; d < MAX_DEVICES; d++)
		for (int r = 0; r < KEPT_RINGS; r++) {
			pthread_mutex_lock(&stage_lock[d][r]);
			if (stage_cache[d][r].buf[0] != NULL) {
				int prev = 0;
				cudaGetDevice(&prev);
				cudaSetDevice(d);
				staging_free(&stage_cache[d][r]);
				cudaSetDevice(prev);
				(void)cudaGetLastError();
			}
			pthread_mutex_unlock(&stage_lock[d][r]);
		}
}

/* ---- Host operands ------------------------------------------------------ */

/* Whether p is in page-locked memory (cudaHostAlloc'd or registered). On
 * CUDA 11 and later the look-up answers cudaSuccess with type
 * cudaMemoryTypeUnregistered for pageable memory; an error (older
 * runtimes) is taken as pageable and cleared. */
static bool is_pinned(const void *p)
{
	cudaPointerAttributes at;
	if (cudaPointerGetAttributes(&at, p) != cudaSuccess) {
		(void)cudaGetLastError();
		return false;
	}
	return at.type == cudaMemoryTypeHost;
}

static int pageable_mode(void)
{
	const char *e = getenv("GK_HOSTMEM_PAGEABLE");
	if (e != NULL && strcmp(e, "register") == 0)
		return 1;
	if (e != NULL && strcmp(e, "direct") == 0)
		return 2;
	return 0;
}

static size_t span_of(const operand *x)
{
	return ((size_t)(x->rows - 1) * (size_t)x->rs + (size_t)(x->cols - 1) * (size_t)x->cs + 1) * x->es;
}

/* Register the pages of the operands marked in `which` (bits 0..2), the
 * union of their page ranges, each connected part once. A part whose first
 * or last page is already pinned by someone else (it shares a page with a
 * registered or page-locked buffer) is left staged, as is a part the
 * runtime finds registered inside. */
static gk_status register_pages(const char *fn, operand x[3], int which, host_regs *regs)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	struct range {
		uintptr_t lo, hi;
		int ops;
	} r[3];
	int n = 0;
	for (int q = 0; q < 3; q++)
		if (which & (1 << q)) {
			const uintptr_t p = (uintptr_t)x[q].host;
			r[n].lo = p & ~(page - 1);
			r[n].hi = (p + span_of(&x[q]) + page - 1) & ~(page - 1);
			r[n].ops = 1 << q;
			n++;
		}
	/* Sort by start, merge the overlapping ones. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && r[j].lo < r[j - 1].lo; j--) {
			const range t = r[j];
			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (m > 0 && r[i].lo < r[m - 1].hi) {
			if (r[i].hi > r[m - 1].hi)
				r[m - 1].hi = r[i].hi;
			r[m - 1].ops |= r[i].ops;
		} else {
			r[m++] = r[i];
		}
	}
	for (int i = 0; i < m; i++) {
		if (is_pinned((const void *)r[i].lo) || is_pinned((const void *)(r[i].hi - 1)))
			continue;
		cudaError_t e = HM_ACQ(cudaHostRegister((void *)r[i].lo, r[i].hi - r[i].lo, cudaHostRegisterPortable));
		if (e == cudaErrorHostMemoryAlreadyRegistered) {
			/* Pinned pages inside the range (registered by the caller):
			 * those operands are staged. */
			(void)cudaGetLastError();
			continue;
		}
		if (e != cudaSuccess)
			return status(e, fn, "cudaHostRegister");
		live_add(1);
		regs->base[regs->n++] = (void *)r[i].lo;
		for (int q = 0; q < 3; q++)
			if (r[i].ops & (1 << q))
				x[q].how = HOST_PINNED;
	}
	return GK_OK;
}

gk_status operands_init(const char *fn, operand x[3], host_regs *regs)
{
	const int mode = pageable_mode();
	int which = 0;
	regs->n = 0;
	for (int q = 0; q < 3; q++) {
		x[q].row_lines = x[q].cs == 1;
		if (is_pinned(x[q].host) && is_pinned(x[q].host + span_of(&x[q]) - 1)) {
			x[q].how = HOST_PINNED;
			continue;
		}
		x[q].how = mode == 2 ? HOST_DIRECT : HOST_STAGE;
		if (mode == 1)
			which |= 1 << q;
	}
	return which ? register_pages(fn, x, which, regs) : GK_OK;
}

void operands_release(host_regs *regs)
{
	for (int i = 0; i < regs->n; i++) {
		cudaHostUnregister(regs->base[i]);
		live_add(-1);
	}
	regs->n = 0;
}

tile tile_of(const operand *x, int64_t r0, int64_t nr, int64_t c0, int64_t nc, int64_t nom_rows,
             int64_t nom_cols)
{
	tile t;
	t.host = x->host + ((size_t)r0 * (size_t)x->rs + (size_t)c0 * (size_t)x->cs) * x->es;
	if (x->row_lines) {
		t.lines = nr;
		t.line_bytes = (size_t)nc * x->es;
		t.hpitch = (size_t)x->rs * x->es;
		t.dpitch = (size_t)nom_cols * x->es;
	} else {
		t.lines = nc;
		t.line_bytes = (size_t)nr * x->es;
		t.hpitch = (size_t)x->cs * x->es;
		t.dpitch = (size_t)nom_rows * x->es;
	}
	return t;
}

/* ---- Copies --------------------------------------------------------------- */

static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                           int64_t lines, cudaMemcpyKind kind, cudaStream_t s)
{
	if (lines == 1)
		return cudaMemcpyAsync(dst, src, width, kind, s);
	if (dpitch < PITCH_2D_MAX && spitch < PITCH_2D_MAX)
		return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, (size_t)lines, kind, s);
	for (int64_t l = 0; l < lines; l++) {
		cudaError_t e = cudaMemcpyAsync((char *)dst + (size_t)l * dpitch,
		                                (const char *)src + (size_t)l * spitch, width, kind, s);
		if (e != cudaSuccess)
			return e;
	}
	return cudaSuccess;
}

/* A piece of a tile that fits one chunk: lines [l0, l0 + nl), bytes
 * [off, off + len) of each (off = 0 and len = line_bytes unless one line
 * is longer than a chunk). */
struct piece {
	int64_t l0, nl;
	size_t off, len;
};

/* The pieces of a tile in chunks of `chunk` bytes, in order: *q is the
 * cursor (0 at the start). */
static bool next_piece(const tile *t, size_t chunk, int64_t *q, piece *p)
{
	if (t->line_bytes <= chunk) {
		const int64_t per = (int64_t)(chunk / t->line_bytes);
		p->l0 = *q * per;
		if (p->l0 >= t->lines)
			return false;
		p->nl = t->lines - p->l0 < per ? t->lines - p->l0 : per;
		p->off = 0;
		p->len = t->line_bytes;
	} else {
		const int64_t per = (int64_t)((t->line_bytes + chunk - 1) / chunk);
		p->l0 = *q / per;
		if (p->l0 >= t->lines)
			return false;
		p->nl = 1;
		p->off = (size_t)(*q % per) * chunk;
		p->len = t->line_bytes - p->off < chunk ? t->line_bytes - p->off : chunk;
	}
	(*q)++;
	return true;
}

gk_status load(call *cl, const operand *x, const tile *t, char *dev)
{
	if (x->how != HOST_STAGE) {
		HM_TRY(cl->fn, copy_2d(dev, t->dpitch, t->host, t->hpitch, t->line_bytes, t->lines,
		                       cudaMemcpyHostToDevice, cl->h2d));
		return GK_OK;
	}
	piece p;
	for (int64_t q = 0; next_piece(t, cl->stg->chunk, &q, &p);) {
		const int r = cl->ring_in;
		cl->ring_in = (r + 1) % RING;
		char *buf = cl->stg->buf[r];
		HM_TRY(cl->fn, cudaEventSynchronize(cl->stg->ev[r]));
		gk_hm_copy_lines(buf, p.len, t->host + (size_t)p.l0 * t->hpitch + p.off, t->hpitch, p.nl, p.len,
		                 cl->threads);
		HM_TRY(cl->fn, copy_2d(dev + (size_t)p.l0 * t->dpitch + p.off, t->dpitch, buf, p.len, p.len, p.nl,
		                       cudaMemcpyHostToDevice, cl->h2d));
		HM_TRY(cl->fn, cudaEventRecord(cl->stg->ev[r], cl->h2d));
	}
	return GK_OK;
}

gk_status store(call *cl, const operand *x, const tile *t, const char *dev)
{
	if (x->how != HOST_STAGE) {
		HM_TRY(cl->fn, copy_2d(t->host, t->hpitch, dev, t->dpitch, t->line_bytes, t->lines,
		                       cudaMemcpyDeviceToHost, cl->d2h));
		return GK_OK;
	}
	piece pend[RING];
	int npend = 0, first = 0;
	piece p;
	int64_t q = 0;
	bool more = next_piece(t, cl->stg->chunk, &q, &p);
	while (more || npend > 0) {
		if (more && npend < RING) {
			const int r = RING + (first + npend) % RING;
			HM_TRY(cl->fn, copy_2d(cl->stg->buf[r], p.len, dev + (size_t)p.l0 * t->dpitch + p.off, t->dpitch,
			                       p.len, p.nl, cudaMemcpyDeviceToHost, cl->d2h));
			HM_TRY(cl->fn, cudaEventRecord(cl->stg->ev[r], cl->d2h));
			pend[(first + npend) % RING] = p;
			npend++;
			more = next_piece(t, cl->stg->chunk, &q, &p);
			continue;
		}
		const int r = RING + first;
		const piece *d = &pend[first];
		HM_TRY(cl->fn, cudaEventSynchronize(cl->stg->ev[r]));
		gk_hm_copy_lines(t->host + (size_t)d->l0 * t->hpitch + d->off, t->hpitch, cl->stg->buf[r], d->len,
		                 d->nl, d->len, cl->threads);
		first = (first + 1) % RING;
		npend--;
	}
	return GK_OK;
}

} /* namespace gk_hm */

extern "C" void gk_hm_set_fail_at(int n)
{
	__atomic_store_n(&gk_hm::g_fail_at, n, __ATOMIC_RELAXED);
}

extern "C" int gk_hm_last_checkpoints(void)
{
	return gk_hm::t_last_points;
}

extern "C" long gk_hm_live_resources(void)
{
	return __atomic_load_n(&gk_hm::g_live, __ATOMIC_RELAXED);
}

extern "C" void gk_hm_release_staging(void)
{
	gk_hm::staging_release_all();
}
