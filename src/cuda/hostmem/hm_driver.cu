/*
 * hm_driver.cu - the out-of-core driver: C = alpha A B + beta C with A, B
 * and C in host memory (the canonical problem of cuda_gemm.h), of any size
 * host memory holds, computed by any device launcher on tiles that stream
 * through the device under a memory budget. Synchronous: every stream,
 * buffer, event and registration it took is gone when it returns, on
 * success or failure.
 *
 * The plan (hm_plan.h) lists the steps: one launcher call each on an A
 * piece, a B piece and a C tile, each in its slot of one device buffer.
 * Three streams:
 *   h2d   loads of the pieces (and of C tiles when beta != 0),
 *   comp  the launcher calls (the context's stream, or one of its own),
 *   d2h   the C tiles back to the host,
 * ordered by events: a slot is loaded after the last call that read it
 * (its "free" event), a call waits for its pieces ("ready"), a C tile
 * goes back after its last depth chunk ("done") and its slot is reused
 * after that copy ("free"). The host thread launches step t, sends back
 * the C tile that step t - 1 finished, then loads step t + 1's pieces:
 * loads, product and copies back overlap.
 *
 * Host memory: pinned (page-locked or registered) operands are copied by
 * the DMA engines directly (2D copies). Pageable ones are staged, by
 * default: CPU threads pack lines into a ring of pinned chunks, kept per
 * device between calls, which the copy engine sends while the next chunk
 * is packed (C the other way round). GK_HOSTMEM_PAGEABLE=register pins the
 * caller's pages for the call instead (cudaHostRegister), =direct hands
 * pageable memory to cudaMemcpy2DAsync as it is (to measure).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../core/cuda_check.cuh"
#include "hm_plan.h"
#include "hostmem.h"

namespace {

constexpr size_t CHUNK = (size_t)32 << 20; /* one pinned staging chunk */
constexpr int RING = 4;                    /* chunks each way */
constexpr int MAX_DEVICES = 64;
constexpr size_t PITCH_2D_MAX = (size_t)1 << 30; /* larger pitches: one copy per line */

/* ---- Injected failures (tests) ----------------------------------------- */

int g_fail_at = 0;                 /* gk_hm_set_fail_at */
thread_local int t_fail_left = 0;  /* this call's countdown; 0: off */

void fail_arm(void)
{
	int n = __atomic_load_n(&g_fail_at, __ATOMIC_RELAXED);
	if (n == 0) {
		const char *e = getenv("GK_HOSTMEM_FAIL_AT");
		n = e ? atoi(e) : 0;
	}
	t_fail_left = n > 0 ? n : 0;
}

/* True when this acquisition is the one to fail. */
bool fail_now(void)
{
	return t_fail_left > 0 && --t_fail_left == 0;
}

#define ACQUIRE(call) (fail_now() ? cudaErrorMemoryAllocation : (call))

/* ---- Pinned staging, kept per device ----------------------------------- */

struct staging {
	char *buf[2 * RING]; /* [0, RING): to the device; [RING, 2 RING): from it */
	cudaEvent_t ev[2 * RING];
};

pthread_mutex_t stage_lock[MAX_DEVICES];
staging stage_cache[MAX_DEVICES];
pthread_once_t stage_once = PTHREAD_ONCE_INIT;

void stage_init(void)
{
	for (int i = 0; i < MAX_DEVICES; i++)
		pthread_mutex_init(&stage_lock[i], NULL);
}

void staging_free(staging *s)
{
	for (int i = 0; i < 2 * RING; i++) {
		if (s->buf[i] != NULL)
			cudaFreeHost(s->buf[i]);
		if (s->ev[i] != NULL)
			cudaEventDestroy(s->ev[i]);
		s->buf[i] = NULL;
		s->ev[i] = NULL;
	}
}

gk_status staging_alloc(const char *fn, staging *s)
{
	if (s->buf[0] != NULL)
		return GK_OK;
	for (int i = 0; i < 2 * RING; i++) {
		cudaError_t e = ACQUIRE(cudaHostAlloc((void **)&s->buf[i], CHUNK, cudaHostAllocDefault));
		if (e == cudaSuccess)
			e = ACQUIRE(cudaEventCreateWithFlags(&s->ev[i], cudaEventDisableTiming));
		if (e != cudaSuccess) {
			staging_free(s);
			return gk_cuda_status(e, fn, "pinned staging buffers");
		}
	}
	return GK_OK;
}

/* ---- Host operands ------------------------------------------------------ */

enum { HOST_PINNED, HOST_STAGE, HOST_DIRECT };

/* A host matrix (element (i, j) at host + (i rs + j cs) esize) seen as
 * lines: rows when cs == 1, columns otherwise (rs == 1). */
struct operand {
	char *host;
	int64_t rows, cols, rs, cs;
	size_t es;
	bool row_lines;
	int how;          /* HOST_* */
	void *registered; /* the pages this call registered, or NULL */
};

bool is_pinned(const void *p)
{
	cudaPointerAttributes at;
	if (cudaPointerGetAttributes(&at, p) != cudaSuccess) {
		(void)cudaGetLastError();
		return false;
	}
	return at.type == cudaMemoryTypeHost;
}

int pageable_mode(void)
{
	const char *e = getenv("GK_HOSTMEM_PAGEABLE");
	if (e != NULL && strcmp(e, "register") == 0)
		return 1;
	if (e != NULL && strcmp(e, "direct") == 0)
		return 2;
	return 0;
}

gk_status operand_init(const char *fn, operand *x, const void *p, int64_t rows, int64_t cols,
                       int64_t rs, int64_t cs, size_t es, int mode)
{
	x->host = (char *)p;
	x->rows = rows, x->cols = cols, x->rs = rs, x->cs = cs, x->es = es;
	x->row_lines = cs == 1;
	x->registered = NULL;
	const size_t span = ((size_t)(rows - 1) * (size_t)rs + (size_t)(cols - 1) * (size_t)cs + 1) * es;
	if (is_pinned(x->host) && is_pinned(x->host + span - 1)) {
		x->how = HOST_PINNED;
		return GK_OK;
	}
	x->how = mode == 2 ? HOST_DIRECT : HOST_STAGE;
	if (mode != 1)
		return GK_OK;
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	const uintptr_t lo = (uintptr_t)x->host & ~(page - 1);
	const uintptr_t hi = ((uintptr_t)x->host + span + page - 1) & ~(page - 1);
	cudaError_t e = ACQUIRE(cudaHostRegister((void *)lo, hi - lo, cudaHostRegisterDefault));
	if (e == cudaErrorHostMemoryAlreadyRegistered) {
		/* Pages shared with an operand registered just before: staged. */
		(void)cudaGetLastError();
		return GK_OK;
	}
	if (e != cudaSuccess)
		return gk_cuda_status(e, fn, "cudaHostRegister");
	x->registered = (void *)lo;
	x->how = HOST_PINNED;
	return GK_OK;
}

void operand_release(operand *x)
{
	if (x->registered != NULL)
		cudaHostUnregister(x->registered);
	x->registered = NULL;
}

/* A tile of x: rows [r0, r0 + nr), columns [c0, c0 + nc), as `lines`
 * lines of line_bytes, host pitch hpitch; on the device, lines dpitch
 * apart (the slot's nominal line). */
struct tile {
	char *host;
	int64_t lines;
	size_t line_bytes, hpitch, dpitch;
};

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

/* ---- One call's state ---------------------------------------------------- */

struct call {
	const char *fn;
	cudaStream_t h2d, d2h, comp;
	staging *stg;
	int threads;
	int ring_in, ring_out; /* next chunk of each ring */
};

cudaError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
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

/* The pieces of a tile in order: *q is the cursor (0 at the start). */
bool next_piece(const tile *t, int64_t *q, piece *p)
{
	if (t->line_bytes <= CHUNK) {
		const int64_t per = (int64_t)(CHUNK / t->line_bytes);
		p->l0 = *q * per;
		if (p->l0 >= t->lines)
			return false;
		p->nl = t->lines - p->l0 < per ? t->lines - p->l0 : per;
		p->off = 0;
		p->len = t->line_bytes;
	} else {
		const int64_t per = (int64_t)((t->line_bytes + CHUNK - 1) / CHUNK);
		p->l0 = *q / per;
		if (p->l0 >= t->lines)
			return false;
		p->nl = 1;
		p->off = (size_t)(*q % per) * CHUNK;
		p->len = t->line_bytes - p->off < CHUNK ? t->line_bytes - p->off : CHUNK;
	}
	(*q)++;
	return true;
}

/* Host to device: a tile of x into dev, on the h2d stream. */
gk_status load(call *cl, const operand *x, const tile *t, char *dev)
{
	if (x->how != HOST_STAGE) {
		GK_CUDA_TRY(cl->fn, copy_2d(dev, t->dpitch, t->host, t->hpitch, t->line_bytes, t->lines,
		                            cudaMemcpyHostToDevice, cl->h2d));
		return GK_OK;
	}
	piece p;
	for (int64_t q = 0; next_piece(t, &q, &p);) {
		const int r = cl->ring_in;
		cl->ring_in = (r + 1) % RING;
		char *buf = cl->stg->buf[r];
		GK_CUDA_TRY(cl->fn, cudaEventSynchronize(cl->stg->ev[r]));
		gk_hm_copy_lines(buf, p.len, t->host + (size_t)p.l0 * t->hpitch + p.off, t->hpitch, p.nl, p.len,
		                 cl->threads);
		GK_CUDA_TRY(cl->fn, copy_2d(dev + (size_t)p.l0 * t->dpitch + p.off, t->dpitch, buf, p.len, p.len,
		                            p.nl, cudaMemcpyHostToDevice, cl->h2d));
		GK_CUDA_TRY(cl->fn, cudaEventRecord(cl->stg->ev[r], cl->h2d));
	}
	return GK_OK;
}

/* Device to host: a C tile from dev, on the d2h stream; a staged tile is
 * in the caller's memory when this returns. */
gk_status store(call *cl, const operand *x, const tile *t, const char *dev)
{
	if (x->how != HOST_STAGE) {
		GK_CUDA_TRY(cl->fn, copy_2d(t->host, t->hpitch, dev, t->dpitch, t->line_bytes, t->lines,
		                            cudaMemcpyDeviceToHost, cl->d2h));
		return GK_OK;
	}
	piece pend[RING];
	int npend = 0, first = 0;
	piece p;
	int64_t q = 0;
	bool more = next_piece(t, &q, &p);
	while (more || npend > 0) {
		if (more && npend < RING) {
			const int r = RING + (first + npend) % RING;
			GK_CUDA_TRY(cl->fn, copy_2d(cl->stg->buf[r], p.len, dev + (size_t)p.l0 * t->dpitch + p.off,
			                            t->dpitch, p.len, p.nl, cudaMemcpyDeviceToHost, cl->d2h));
			GK_CUDA_TRY(cl->fn, cudaEventRecord(cl->stg->ev[r], cl->d2h));
			pend[(first + npend) % RING] = p;
			npend++;
			more = next_piece(t, &q, &p);
			continue;
		}
		const int r = RING + first;
		const piece *d = &pend[first];
		GK_CUDA_TRY(cl->fn, cudaEventSynchronize(cl->stg->ev[r]));
		gk_hm_copy_lines(t->host + (size_t)d->l0 * t->hpitch + d->off, t->hpitch, cl->stg->buf[r], d->len,
		                 d->nl, d->len, cl->threads);
		first = (first + 1) % RING;
		npend--;
	}
	return GK_OK;
}

/* Rates for the planner's cost model, by launcher (FLOP/s on large tiles). */
double launcher_rate(const void *fn, size_t es)
{
	if (es == 8)
		return 50e12;
	if (fn == (const void *)gk_cuda_sgemm_tf32)
		return 300e12;
	if (fn == (const void *)gk_cuda_sgemm_3xtf32)
		return 120e12;
	return 40e12;
}

/* The tensor-core launchers split their operands into TF32 planes: about
 * twice the pieces again, taken per call. */
double launcher_ws_factor(const void *fn, size_t es)
{
	if (es == 4 && (fn == (const void *)gk_cuda_sgemm_tf32 || fn == (const void *)gk_cuda_sgemm_3xtf32))
		return 2.0;
	return 0.0;
}

struct sgemm_t {
	typedef float elem;
	typedef gk_cuda_sgemm_fn fn;
	static gk_status run(fn f, int d, void *s, int64_t m, int64_t n, int64_t k, float al,
	                     const float *a, int64_t ra, int64_t ca, const float *b, int64_t rb,
	                     int64_t cb, float be, float *c, int64_t rc)
	{
		return gk_cuda_sgemm_device_run(f, d, s, m, n, k, al, a, ra, ca, b, rb, cb, be, c, rc);
	}
};

struct dgemm_t {
	typedef double elem;
	typedef gk_cuda_dgemm_fn fn;
	static gk_status run(fn f, int d, void *s, int64_t m, int64_t n, int64_t k, double al,
	                     const double *a, int64_t ra, int64_t ca, const double *b, int64_t rb,
	                     int64_t cb, double be, double *c, int64_t rc)
	{
		return gk_cuda_dgemm_device_run(f, d, s, m, n, k, al, a, ra, ca, b, rb, cb, be, c, rc);
	}
};

/* Events of a set of slots: ready (loaded) and free (last reader done). */
struct slot_events {
	int n;
	cudaEvent_t *ready, *free_;
};

gk_status events_create(const char *fn, slot_events *s, int n)
{
	s->n = 0;
	s->ready = (cudaEvent_t *)calloc((size_t)n, sizeof(cudaEvent_t));
	s->free_ = (cudaEvent_t *)calloc((size_t)n, sizeof(cudaEvent_t));
	if (s->ready == NULL || s->free_ == NULL)
		return gk_set_error(GK_ERR_NO_MEMORY, "%s: out of host memory", fn);
	for (; s->n < n; s->n++) {
		GK_CUDA_TRY(fn, ACQUIRE(cudaEventCreateWithFlags(&s->ready[s->n], cudaEventDisableTiming)));
		cudaError_t e = ACQUIRE(cudaEventCreateWithFlags(&s->free_[s->n], cudaEventDisableTiming));
		if (e != cudaSuccess) {
			cudaEventDestroy(s->ready[s->n]);
			return gk_cuda_status(e, fn, "cudaEventCreate");
		}
	}
	return GK_OK;
}

void events_destroy(slot_events *s)
{
	for (int i = 0; i < s->n; i++) {
		cudaEventDestroy(s->ready[i]);
		cudaEventDestroy(s->free_[i]);
	}
	free(s->ready);
	free(s->free_);
	s->n = 0;
	s->ready = s->free_ = NULL;
}

#define TRY_OUT(expr)                                                      \
	do {                                                                   \
		if ((st = (expr)) != GK_OK)                                        \
			goto out;                                                      \
	} while (0)
#define CUDA_OUT(call)                                                     \
	do {                                                                   \
		cudaError_t e_ = (call);                                           \
		if (e_ != cudaSuccess) {                                           \
			st = gk_cuda_status(e_, fn_name, #call);                       \
			goto out;                                                      \
		}                                                                  \
	} while (0)

template <typename K>
gk_status hm_run(const char *fn_name, typename K::fn fn, int device, void *stream, size_t budget,
                 int64_t m, int64_t n, int64_t k, typename K::elem alpha,
                 const typename K::elem *a, int64_t rs_a, int64_t cs_a,
                 const typename K::elem *b, int64_t rs_b, int64_t cs_b, typename K::elem beta,
                 typename K::elem *c, int64_t rs_c)
{
	typedef typename K::elem T;
	if (!gk_cuda_available())
		return gk_set_error(GK_ERR_NO_GPU, "%s: no CUDA device is present", fn_name);
	int prev;
	GK_CUDA_TRY(fn_name, cudaGetDevice(&prev));
	const int dev = device >= 0 ? device : prev;
	GK_RETURN_IF(dev >= gk_cuda_device_count() || dev >= MAX_DEVICES, GK_ERR_INVALID_VALUE,
	             "%s: the context names CUDA device %d, which is not present", fn_name, dev);
	if (dev != prev)
		GK_CUDA_TRY(fn_name, cudaSetDevice(dev));
	fail_arm();

	const size_t es = sizeof(T);
	const bool beta_nz = beta != T(0);
	gk_status st = GK_OK;
	gk_hm_plan pl;
	memset(&pl, 0, sizeof pl);
	call cl;
	memset(&cl, 0, sizeof cl);
	cl.fn = fn_name;
	cudaStream_t own_comp = NULL;
	cudaEvent_t start = NULL, c_done[2] = {NULL, NULL};
	slot_events ea = {0, NULL, NULL}, eb = {0, NULL, NULL}, ec = {0, NULL, NULL};
	staging priv;
	memset(&priv, 0, sizeof priv);
	int locked = 0;
	char *slab = NULL;
	operand xa, xb, xc;
	memset(&xa, 0, sizeof xa);
	memset(&xb, 0, sizeof xb);
	memset(&xc, 0, sizeof xc);

	/* The budget: the context's, at most what is free less a margin. */
	size_t free_b = 0, total_b = 0;
	CUDA_OUT(cudaMemGetInfo(&free_b, &total_b));
	{
		size_t margin = total_b / 50 > ((size_t)512 << 20) ? total_b / 50 : ((size_t)512 << 20);
		size_t avail = free_b > margin ? free_b - margin : free_b / 2;
		if (budget == 0 || budget > avail)
			budget = avail;
		gk_hm_params pp;
		memset(&pp, 0, sizeof pp);
		pp.m = m, pp.n = n, pp.k = k, pp.esize = es, pp.beta_nonzero = beta_nz, pp.budget = budget;
		pp.ws_factor = launcher_ws_factor((const void *)fn, es);
		pp.ws_fixed = (size_t)64 << 20;
		if (pp.ws_fixed > budget / 8)
			pp.ws_fixed = budget / 8;
		pp.link_bps = 50e9;
		pp.flops = launcher_rate((const void *)fn, es);
		pp.a_col_lines = cs_a != 1;
		pp.b_col_lines = cs_b != 1;
		TRY_OUT(gk_hm_plan_make(&pp, &pl));
	}

	/* Host operands: pinned, staged or registered. */
	{
		const int mode = pageable_mode();
		TRY_OUT(operand_init(fn_name, &xa, a, m, k, rs_a, cs_a, es, mode));
		TRY_OUT(operand_init(fn_name, &xb, b, k, n, rs_b, cs_b, es, mode));
		TRY_OUT(operand_init(fn_name, &xc, c, m, n, rs_c, 1, es, mode));
	}
	cl.threads = gk_resolve_threads(0);
	if (cl.threads > 16)
		cl.threads = 16;

	/* Streams, events, slots, staging. */
	CUDA_OUT(ACQUIRE(cudaStreamCreateWithFlags(&cl.h2d, cudaStreamNonBlocking)));
	CUDA_OUT(ACQUIRE(cudaStreamCreateWithFlags(&cl.d2h, cudaStreamNonBlocking)));
	if (stream == NULL) {
		CUDA_OUT(ACQUIRE(cudaStreamCreateWithFlags(&own_comp, cudaStreamNonBlocking)));
		cl.comp = own_comp;
	} else {
		cl.comp = (cudaStream_t)stream;
	}
	CUDA_OUT(ACQUIRE(cudaEventCreateWithFlags(&start, cudaEventDisableTiming)));
	TRY_OUT(events_create(fn_name, &ea, pl.na));
	TRY_OUT(events_create(fn_name, &eb, pl.nbs));
	TRY_OUT(events_create(fn_name, &ec, pl.nc));
	for (int q = 0; q < pl.nc; q++)
		CUDA_OUT(ACQUIRE(cudaEventCreateWithFlags(&c_done[q], cudaEventDisableTiming)));
	{
		const size_t slots = (size_t)pl.na * pl.slot_a + (size_t)pl.nbs * pl.slot_b + (size_t)pl.nc * pl.slot_c;
		CUDA_OUT(ACQUIRE(cudaMalloc((void **)&slab, slots)));
	}
	if (xa.how == HOST_STAGE || xb.how == HOST_STAGE || xc.how == HOST_STAGE) {
		pthread_once(&stage_once, stage_init);
		if (pthread_mutex_trylock(&stage_lock[dev]) == 0) {
			locked = 1;
			cl.stg = &stage_cache[dev];
		} else {
			cl.stg = &priv;
		}
		TRY_OUT(staging_alloc(fn_name, cl.stg));
	}
	/* Work already queued on the context's stream comes first. */
	CUDA_OUT(cudaEventRecord(start, cl.comp));
	CUDA_OUT(cudaStreamWaitEvent(cl.h2d, start, 0));
	CUDA_OUT(cudaStreamWaitEvent(cl.d2h, start, 0));

	{
		char *sa = slab, *sb = sa + (size_t)pl.na * pl.slot_a, *sc = sb + (size_t)pl.nbs * pl.slot_b;
		const int64_t mt = pl.mt, nt = pl.nt, kt = pl.kt;
		/* Device strides of the pieces: the host operand's orientation,
		 * lines of the slot's nominal length. */
		const int64_t ars = xa.row_lines ? kt : 1, acs = xa.row_lines ? 1 : mt;
		const int64_t brs = xb.row_lines ? nt : 1, bcs = xb.row_lines ? 1 : kt;
		auto load_step = [&](const gk_hm_step *s) -> gk_status {
			const int64_t i0 = (int64_t)s->i * mt, j0 = (int64_t)s->j * nt, k0 = (int64_t)s->kk * kt;
			const int64_t rows = gk_hm_extent(m, mt, s->i), cols = gk_hm_extent(n, nt, s->j);
			const int64_t dep = gk_hm_extent(k, kt, s->kk);
			if (s->a_load) {
				GK_CUDA_TRY(fn_name, cudaStreamWaitEvent(cl.h2d, ea.free_[s->a_slot], 0));
				const tile t = tile_of(&xa, i0, rows, k0, dep, mt, kt);
				GK_FORWARD(load(&cl, &xa, &t, sa + (size_t)s->a_slot * pl.slot_a));
				GK_CUDA_TRY(fn_name, cudaEventRecord(ea.ready[s->a_slot], cl.h2d));
			}
			if (s->b_load) {
				GK_CUDA_TRY(fn_name, cudaStreamWaitEvent(cl.h2d, eb.free_[s->b_slot], 0));
				const tile t = tile_of(&xb, k0, dep, j0, cols, kt, nt);
				GK_FORWARD(load(&cl, &xb, &t, sb + (size_t)s->b_slot * pl.slot_b));
				GK_CUDA_TRY(fn_name, cudaEventRecord(eb.ready[s->b_slot], cl.h2d));
			}
			if (s->c_first && beta_nz) {
				GK_CUDA_TRY(fn_name, cudaStreamWaitEvent(cl.h2d, ec.free_[s->c_slot], 0));
				const tile t = tile_of(&xc, i0, rows, j0, cols, mt, nt);
				GK_FORWARD(load(&cl, &xc, &t, sc + (size_t)s->c_slot * pl.slot_c));
				GK_CUDA_TRY(fn_name, cudaEventRecord(ec.ready[s->c_slot], cl.h2d));
			}
			return GK_OK;
		};
		auto launch_step = [&](const gk_hm_step *s) -> gk_status {
			const int64_t rows = gk_hm_extent(m, mt, s->i), cols = gk_hm_extent(n, nt, s->j);
			const int64_t dep = gk_hm_extent(k, kt, s->kk);
			GK_CUDA_TRY(fn_name, cudaStreamWaitEvent(cl.comp, ea.ready[s->a_slot], 0));
			GK_CUDA_TRY(fn_name, cudaStreamWaitEvent(cl.comp, eb.ready[s->b_slot], 0));
			if (s->c_first)
				GK_CUDA_TRY(fn_name, cudaStreamWaitEvent(cl.comp, beta_nz ? ec.ready[s->c_slot]
				                                                          : ec.free_[s->c_slot], 0));
			const T *pa = (const T *)(sa + (size_t)s->a_slot * pl.slot_a);
			const T *pb = (const T *)(sb + (size_t)s->b_slot * pl.slot_b);
			T *pc = (T *)(sc + (size_t)s->c_slot * pl.slot_c);
			GK_FORWARD(K::run(fn, dev, cl.comp, rows, cols, dep, alpha, pa, ars, acs, pb, brs, bcs,
			                  s->c_first ? beta : T(1), pc, nt));
			GK_CUDA_TRY(fn_name, cudaEventRecord(ea.free_[s->a_slot], cl.comp));
			GK_CUDA_TRY(fn_name, cudaEventRecord(eb.free_[s->b_slot], cl.comp));
			if (s->c_last)
				GK_CUDA_TRY(fn_name, cudaEventRecord(c_done[s->c_slot], cl.comp));
			return GK_OK;
		};
		auto drain_step = [&](const gk_hm_step *s) -> gk_status {
			const int64_t rows = gk_hm_extent(m, mt, s->i), cols = gk_hm_extent(n, nt, s->j);
			GK_CUDA_TRY(fn_name, cudaStreamWaitEvent(cl.d2h, c_done[s->c_slot], 0));
			const tile t = tile_of(&xc, (int64_t)s->i * mt, rows, (int64_t)s->j * nt, cols, mt, nt);
			GK_FORWARD(store(&cl, &xc, &t, sc + (size_t)s->c_slot * pl.slot_c));
			GK_CUDA_TRY(fn_name, cudaEventRecord(ec.free_[s->c_slot], cl.d2h));
			return GK_OK;
		};
		TRY_OUT(load_step(&pl.steps[0]));
		for (int64_t t = 0; t < pl.nsteps; t++) {
			TRY_OUT(launch_step(&pl.steps[t]));
			if (t > 0 && pl.steps[t - 1].c_last)
				TRY_OUT(drain_step(&pl.steps[t - 1]));
			if (t + 1 < pl.nsteps)
				TRY_OUT(load_step(&pl.steps[t + 1]));
		}
		TRY_OUT(drain_step(&pl.steps[pl.nsteps - 1]));
	}
	CUDA_OUT(cudaStreamSynchronize(cl.d2h));
	CUDA_OUT(cudaStreamSynchronize(cl.comp));
out:
	/* Wait for whatever was queued, then give everything back. */
	if (cl.h2d != NULL)
		cudaStreamSynchronize(cl.h2d);
	if (cl.comp != NULL)
		cudaStreamSynchronize(cl.comp);
	if (cl.d2h != NULL)
		cudaStreamSynchronize(cl.d2h);
	if (slab != NULL)
		cudaFree(slab);
	events_destroy(&ea);
	events_destroy(&eb);
	events_destroy(&ec);
	for (int q = 0; q < 2; q++)
		if (c_done[q] != NULL)
			cudaEventDestroy(c_done[q]);
	if (start != NULL)
		cudaEventDestroy(start);
	if (cl.h2d != NULL)
		cudaStreamDestroy(cl.h2d);
	if (cl.d2h != NULL)
		cudaStreamDestroy(cl.d2h);
	if (own_comp != NULL)
		cudaStreamDestroy(own_comp);
	if (locked)
		pthread_mutex_unlock(&stage_lock[dev]);
	staging_free(&priv);
	operand_release(&xa);
	operand_release(&xb);
	operand_release(&xc);
	gk_hm_plan_free(&pl);
	t_fail_left = 0;
	if (dev != prev)
		cudaSetDevice(prev);
	return st;
}

} /* namespace */

extern "C" gk_status gk_hm_sgemm(gk_cuda_sgemm_fn fn, int device, void *stream, size_t budget,
                                 int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                                 int64_t rs_a, int64_t cs_a, const float *b, int64_t rs_b,
                                 int64_t cs_b, float beta, float *c, int64_t rs_c)
{
	return hm_run<sgemm_t>("gk_sgemm", fn, device, stream, budget, m, n, k, alpha, a, rs_a, cs_a, b,
	                       rs_b, cs_b, beta, c, rs_c);
}

extern "C" gk_status gk_hm_dgemm(gk_cuda_dgemm_fn fn, int device, void *stream, size_t budget,
                                 int64_t m, int64_t n, int64_t k, double alpha, const double *a,
                                 int64_t rs_a, int64_t cs_a, const double *b, int64_t rs_b,
                                 int64_t cs_b, double beta, double *c, int64_t rs_c)
{
	return hm_run<dgemm_t>("gk_dgemm", fn, device, stream, budget, m, n, k, alpha, a, rs_a, cs_a, b,
	                       rs_b, cs_b, beta, c, rs_c);
}

extern "C" void gk_hm_set_fail_at(int n)
{
	__atomic_store_n(&g_fail_at, n, __ATOMIC_RELAXED);
}

extern "C" void gk_hm_release_staging(void)
{
	pthread_once(&stage_once, stage_init);
	for (int d = 0; d < MAX_DEVICES; d++) {
		pthread_mutex_lock(&stage_lock[d]);
		if (stage_cache[d].buf[0] != NULL) {
			int prev = 0;
			cudaGetDevice(&prev);
			cudaSetDevice(d);
			staging_free(&stage_cache[d]);
			cudaSetDevice(prev);
		}
		pthread_mutex_unlock(&stage_lock[d]);
	}
}
