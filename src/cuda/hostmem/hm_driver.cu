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
 * Host memory (pinned, staged or registered operands), the staging ring
 * and the copies are hm_host.cu's. Failures: every checkpoint
 * (hm_internal.cuh) that fails returns its status after waiting for what
 * was queued and giving back everything the call took; the runtime's last
 * error is left clear.
 */
#include <stdlib.h>
#include <string.h>
#include "hm_internal.cuh"

namespace {

using namespace gk_hm;

/* What the planner's cost model knows of a launcher: its rate on large
 * tiles (FLOP/s), the tile side at which a side halves it, and the
 * workspace it takes per call as a multiple of its pieces.
 *
 * Rates and sides were measured in core on an H100 at k = 32768
 * (docs/CUDA_HOSTMEM.md "Tiles, slots, order"): the tensor-core launchers
 * lose more on small tiles than the FFMA ones (TF32 83 TFLOPS at 1024²,
 * 213 at 2816², 323 at 8192², 353 at 16384²; 3xTF32 71, 102, 121, 120;
 * FFMA 33, 39, 43, 44). The tensor-core launchers split their operands
 * into TF32 planes: about twice the pieces again, taken per call
 * (stream-ordered allocations that they shrink, panel by panel, when the
 * memory is not there); the planner reserves it within the budget where
 * tiles fit beside it. */
struct launcher_model {
	double rate, side_half, ws_factor;
};


launcher_model model_of(const void *fn, size_t es)
{
	if (es == 8)
		return {50e12, 128, 0.0};
	if (fn == (const void *)gk_cuda_sgemm_tf32)
		return {350e12, 800, 2.0};
	if (fn == (const void *)gk_cuda_sgemm_3xtf32)
		return {125e12, 300, 2.0};
	return {40e12, 128, 0.0};
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
	s->ready = (cudaEvent_t *)calloc((size_t)n, sizeof(cudaEvent_t));
	s->free_ = (cudaEvent_t *)calloc((size_t)n, sizeof(cudaEvent_t));
	if (s->ready == NULL || s->free_ == NULL)
		return gk_set_error(GK_ERR_NO_MEMORY, "%s: out of host memory", fn);
	s->n = n;
	for (int i = 0; i < n; i++) {
		cudaError_t e = event_create(&s->ready[i]);
		if (e == cudaSuccess)
			e = event_create(&s->free_[i]);
		if (e != cudaSuccess)
			return status(e, fn, "cudaEventCreate(slot)");
	}
	return GK_OK;
}

/* Releases whatever events_create made (NULL entries are skipped). */
void events_destroy(slot_events *s)
{
	for (int i = 0; i < s->n; i++) {
		event_destroy(&s->ready[i]);
		event_destroy(&s->free_[i]);
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
#define ACQ_OUT(call, what)                                                \
	do {                                                                   \
		cudaError_t e_ = (call);                                           \
		if (e_ != cudaSuccess) {                                           \
			st = status(e_, fn_name, what);                                \
			goto out;                                                      \
		}                                                                  \
	} while (0)
#define CUDA_OUT(call) ACQ_OUT(HM_CK(call), #call)

} /* namespace */

/* A worker's run of calls (hostmem.h): streams kept from call to call,
 * loads of each half on a stream of their own (so that a call's first
 * loads do not queue behind the previous call's last ones), and the two
 * halves of the slots, each free again when its last call's results are
 * back (half_free, recorded on d2h). */
struct gk_hm_session {
	int device;
	cudaStream_t h2d[2], d2h, comp;
	char *half[2];
	size_t half_bytes[2];
	cudaEvent_t half_free[2];
	int cur;
};

namespace {

template <typename K>
gk_status hm_run(const char *fn_name, typename K::fn fn, int device, void *stream, size_t budget,
                 int threads, gk_hm_session *ses, int64_t m, int64_t n, int64_t k, typename K::elem alpha,
                 const typename K::elem *a, int64_t rs_a, int64_t cs_a,
                 const typename K::elem *b, int64_t rs_b, int64_t cs_b, typename K::elem beta,
                 typename K::elem *c, int64_t rs_c)
{
	typedef typename K::elem T;
	int prev;
	HM_TRY(fn_name, cudaGetDevice(&prev));
	const int dev = device >= 0 ? device : prev;
	GK_RETURN_IF(dev >= gk_cuda_device_count() || dev >= MAX_DEVICES, GK_ERR_INVALID_VALUE,
	             "%s: the context names CUDA device %d, which is not present", fn_name, dev);

	const size_t es = sizeof(T);
	const bool beta_nz = beta != T(0);
	gk_status st = GK_OK;
	gk_hm_plan pl;
	memset(&pl, 0, sizeof pl);
	call cl;
	memset(&cl, 0, sizeof cl);
	cl.fn = fn_name;
	cudaStream_t own_comp = NULL;
	cudaEvent_t start = NULL, c_done[2] = {NULL, NULL}, part_ready[GK_HM_FIRST_PARTS] = {};
	slot_events ea = {0, NULL, NULL}, eb = {0, NULL, NULL}, ec = {0, NULL, NULL};
	staging priv;
	memset(&priv, 0, sizeof priv);
	int locked = 0;
	bool staged = false;
	char *slab = NULL;
	host_regs regs;
	memset(&regs, 0, sizeof regs);
	operand x[3];
	memset(x, 0, sizeof x);
	size_t free_b = 0, total_b = 0;
	int half = 0;
	int parts = 1; /* of the first step (gk_hm_first_parts) */
	bool queued_only = false; /* session: return once queued */

	if (dev != prev)
		CUDA_OUT(cudaSetDevice(dev));
	/* The budget: the context's, at most what is free less a margin; in a
	 * session, half of what the caller sized. */
	if (ses != NULL) {
		budget /= 2;
	} else {
		CUDA_OUT(cudaMemGetInfo(&free_b, &total_b));
		const size_t avail = default_budget(free_b, total_b);
		if (budget == 0 || budget > avail)
			budget = avail;
	}
	{
		gk_hm_params pp;
		memset(&pp, 0, sizeof pp);
		pp.m = m, pp.n = n, pp.k = k, pp.esize = es, pp.beta_nonzero = beta_nz, pp.budget = budget;
		const launcher_model lm = model_of((const void *)fn, es);
		pp.ws_factor = lm.ws_factor;
		pp.ws_fixed = (size_t)64 << 20;
		if (pp.ws_fixed > budget / 8)
			pp.ws_fixed = budget / 8;
		pp.link_bps = 50e9;
		pp.flops = lm.rate;
		pp.side_half = lm.side_half;
		pp.first_hidden = ses != NULL;
		pp.a_col_lines = cs_a != 1;
		pp.b_col_lines = cs_b != 1;
		TRY_OUT(gk_hm_plan_make(&pp, &pl));
	}

	/* Host operands: pinned, staged or registered. */
	x[0].host = (char *)a, x[0].rows = m, x[0].cols = k, x[0].rs = rs_a, x[0].cs = cs_a;
	x[1].host = (char *)b, x[1].rows = k, x[1].cols = n, x[1].rs = rs_b, x[1].cs = cs_b;
	x[2].host = (char *)c, x[2].rows = m, x[2].cols = n, x[2].rs = rs_c, x[2].cs = 1;
	for (int q = 0; q < 3; q++)
		x[q].es = es;
	TRY_OUT(operands_init(fn_name, x, &regs));
	cl.threads = threads > 0 ? threads : gk_resolve_threads(0);
	if (cl.threads > 16)
		cl.threads = 16;

	/* Streams, events, slots, staging. */
	if (ses != NULL) {
		half = ses->cur;
		cl.h2d = ses->h2d[half], cl.d2h = ses->d2h, cl.comp = ses->comp;
	} else {
		ACQ_OUT(stream_create(&cl.h2d), "cudaStreamCreate(h2d)");
		ACQ_OUT(stream_create(&cl.d2h), "cudaStreamCreate(d2h)");
		if (stream == NULL) {
			ACQ_OUT(stream_create(&own_comp), "cudaStreamCreate(comp)");
			cl.comp = own_comp;
		} else {
			cl.comp = (cudaStream_t)stream;
		}
		ACQ_OUT(event_create(&start), "cudaEventCreate(start)");
	}
	TRY_OUT(events_create(fn_name, &ea, pl.na));
	TRY_OUT(events_create(fn_name, &eb, pl.nbs));
	TRY_OUT(events_create(fn_name, &ec, pl.nc));
	for (int q = 0; q < pl.nc; q++)
		ACQ_OUT(event_create(&c_done[q]), "cudaEventCreate(done)");
	/* The first step in parts along its depth (hm_plan.h): without them
	 * nothing ran before its pieces were in, a tenth of a second for the
	 * 3 GB pieces of a 65536 product. */
	parts = pl.steps[0].a_load && pl.steps[0].b_load ? gk_hm_first_parts(gk_hm_extent(k, pl.kt, pl.steps[0].kk)) : 1;
	for (int q = 0; parts > 1 && q < parts; q++)
		ACQ_OUT(event_create(&part_ready[q]), "cudaEventCreate(first part)");
	{
		const size_t need = (size_t)pl.na * pl.slot_a + (size_t)pl.nbs * pl.slot_b + (size_t)pl.nc * pl.slot_c;
		if (ses == NULL) {
			ACQ_OUT(dev_alloc(&slab, need), "cudaMalloc(slots)");
		} else {
			/* The half's last call must be done before it is replaced. */
			if (ses->half_bytes[half] < need) {
				CUDA_OUT(cudaEventSynchronize(ses->half_free[half]));
				dev_free(&ses->half[half]);
				ses->half_bytes[half] = 0;
				ACQ_OUT(dev_alloc(&ses->half[half], need), "cudaMalloc(slots)");
				ses->half_bytes[half] = need;
			}
			slab = ses->half[half];
		}
	}
	if (x[0].how == HOST_STAGE || x[1].how == HOST_STAGE || x[2].how == HOST_STAGE) {
		staged = true;
		TRY_OUT(staging_take(fn_name, dev, &priv, &cl.stg, &locked));
	}
	if (ses == NULL) {
		/* Work already queued on the context's stream comes first. */
		CUDA_OUT(cudaEventRecord(start, cl.comp));
		CUDA_OUT(cudaStreamWaitEvent(cl.h2d, start, 0));
		CUDA_OUT(cudaStreamWaitEvent(cl.d2h, start, 0));
	} else {
		/* The half's slots are written after its last call has read them
		 * and sent its C back. */
		CUDA_OUT(cudaStreamWaitEvent(cl.h2d, ses->half_free[half], 0));
		CUDA_OUT(cudaStreamWaitEvent(cl.comp, ses->half_free[half], 0));
	}

	{
		const operand *xa = &x[0], *xb = &x[1], *xc = &x[2];
		char *sa = slab, *sb = sa + (size_t)pl.na * pl.slot_a, *sc = sb + (size_t)pl.nbs * pl.slot_b;
		const int64_t mt = pl.mt, nt = pl.nt, kt = pl.kt;
		/* Device strides of the pieces: the host operand's orientation,
		 * lines of the slot's nominal length. */
		const int64_t ars = xa->row_lines ? kt : 1, acs = xa->row_lines ? 1 : mt;
		const int64_t brs = xb->row_lines ? nt : 1, bcs = xb->row_lines ? 1 : kt;
		/* A step in `parts` parts along its depth (the first step,
		 * hm_plan.h; the others in one): each part of the A and B pieces
		 * loaded at its place in the slot, then its product, accumulated
		 * into the C tile. In parts, the C tile is loaded first, as the
		 * first part's product needs it; in one, last, so that the wait
		 * for its slot holds up no A or B load behind it. */
		auto part_of = [&](int64_t dep, int parts, int q, int64_t *p0, int64_t *p1) {
			*p0 = dep * q / parts;
			*p1 = dep * (q + 1) / parts;
		};
		auto load_step = [&](const gk_hm_step *s, int parts) -> gk_status {
			const int64_t i0 = (int64_t)s->i * mt, j0 = (int64_t)s->j * nt, k0 = (int64_t)s->kk * kt;
			const int64_t rows = gk_hm_extent(m, mt, s->i), cols = gk_hm_extent(n, nt, s->j);
			const int64_t dep = gk_hm_extent(k, kt, s->kk);
			auto load_c = [&]() -> gk_status {
				if (!s->c_first || !beta_nz)
					return GK_OK;
				HM_TRY(fn_name, cudaStreamWaitEvent(cl.h2d, ec.free_[s->c_slot], 0));
				const tile t = tile_of(xc, i0, rows, j0, cols, mt, nt);
				GK_FORWARD(load(&cl, xc, &t, sc + (size_t)s->c_slot * pl.slot_c));
				HM_TRY(fn_name, cudaEventRecord(ec.ready[s->c_slot], cl.h2d));
				return GK_OK;
			};
			if (parts > 1)
				GK_FORWARD(load_c());
			/* Each piece after its slot is free, and ready once its
			 * last part is in. */
			for (int q = 0; q < parts; q++) {
				int64_t p0, p1;
				part_of(dep, parts, q, &p0, &p1);
				if (s->a_load) {
					if (q == 0)
						HM_TRY(fn_name, cudaStreamWaitEvent(cl.h2d, ea.free_[s->a_slot], 0));
					const tile t = tile_of(xa, i0, rows, k0 + p0, p1 - p0, mt, kt);
					GK_FORWARD(load(&cl, xa, &t, sa + (size_t)s->a_slot * pl.slot_a + (size_t)(p0 * acs) * es));
					if (q == parts - 1)
						HM_TRY(fn_name, cudaEventRecord(ea.ready[s->a_slot], cl.h2d));
				}
				if (s->b_load) {
					if (q == 0)
						HM_TRY(fn_name, cudaStreamWaitEvent(cl.h2d, eb.free_[s->b_slot], 0));
					const tile t = tile_of(xb, k0 + p0, p1 - p0, j0, cols, kt, nt);
					GK_FORWARD(load(&cl, xb, &t, sb + (size_t)s->b_slot * pl.slot_b + (size_t)(p0 * brs) * es));
					if (q == parts - 1)
						HM_TRY(fn_name, cudaEventRecord(eb.ready[s->b_slot], cl.h2d));
				}
				if (parts > 1)
					HM_TRY(fn_name, cudaEventRecord(part_ready[q], cl.h2d));
			}
			if (parts == 1)
				GK_FORWARD(load_c());
			return GK_OK;
		};
		auto launch_step = [&](const gk_hm_step *s, int parts) -> gk_status {
			const int64_t rows = gk_hm_extent(m, mt, s->i), cols = gk_hm_extent(n, nt, s->j);
			const int64_t dep = gk_hm_extent(k, kt, s->kk);
			if (parts == 1) {
				HM_TRY(fn_name, cudaStreamWaitEvent(cl.comp, ea.ready[s->a_slot], 0));
				HM_TRY(fn_name, cudaStreamWaitEvent(cl.comp, eb.ready[s->b_slot], 0));
			}
			if (s->c_first)
				HM_TRY(fn_name, cudaStreamWaitEvent(cl.comp, beta_nz ? ec.ready[s->c_slot] : ec.free_[s->c_slot], 0));
			const T *pa = (const T *)(sa + (size_t)s->a_slot * pl.slot_a);
			const T *pb = (const T *)(sb + (size_t)s->b_slot * pl.slot_b);
			T *pc = (T *)(sc + (size_t)s->c_slot * pl.slot_c);
			for (int q = 0; q < parts; q++) {
				int64_t p0, p1;
				part_of(dep, parts, q, &p0, &p1);
				if (parts > 1)
					HM_TRY(fn_name, cudaStreamWaitEvent(cl.comp, part_ready[q], 0));
				/* The launcher call is a checkpoint too. */
				if (fail_now())
					return status(cudaErrorLaunchFailure, fn_name, "the launcher");
				GK_FORWARD(K::run(fn, dev, cl.comp, rows, cols, p1 - p0, alpha, pa + p0 * acs, ars, acs,
				                  pb + p0 * brs, brs, bcs, q == 0 && s->c_first ? beta : T(1), pc, nt));
			}
			HM_TRY(fn_name, cudaEventRecord(ea.free_[s->a_slot], cl.comp));
			HM_TRY(fn_name, cudaEventRecord(eb.free_[s->b_slot], cl.comp));
			if (s->c_last)
				HM_TRY(fn_name, cudaEventRecord(c_done[s->c_slot], cl.comp));
			return GK_OK;
		};
		auto drain_step = [&](const gk_hm_step *s) -> gk_status {
			const int64_t rows = gk_hm_extent(m, mt, s->i), cols = gk_hm_extent(n, nt, s->j);
			HM_TRY(fn_name, cudaStreamWaitEvent(cl.d2h, c_done[s->c_slot], 0));
			const tile t = tile_of(xc, (int64_t)s->i * mt, rows, (int64_t)s->j * nt, cols, mt, nt);
			GK_FORWARD(store(&cl, xc, &t, sc + (size_t)s->c_slot * pl.slot_c));
			HM_TRY(fn_name, cudaEventRecord(ec.free_[s->c_slot], cl.d2h));
			return GK_OK;
		};
		TRY_OUT(load_step(&pl.steps[0], parts));
		for (int64_t t = 0; t < pl.nsteps; t++) {
			TRY_OUT(launch_step(&pl.steps[t], t == 0 ? parts : 1));
			if (t > 0 && pl.steps[t - 1].c_last)
				TRY_OUT(drain_step(&pl.steps[t - 1]));
			if (t + 1 < pl.nsteps)
				TRY_OUT(load_step(&pl.steps[t + 1], 1));
		}
		TRY_OUT(drain_step(&pl.steps[pl.nsteps - 1]));
	}
	if (ses != NULL) {
		CUDA_OUT(cudaEventRecord(ses->half_free[half], cl.d2h));
		/* Staged or registered operands: their staging ring and pages are
		 * given back below, so the call waits for its copies. */
		queued_only = !staged && regs.n == 0;
		ses->cur ^= 1;
	}
	if (!queued_only) {
		CUDA_OUT(cudaStreamSynchronize(cl.d2h));
		CUDA_OUT(cudaStreamSynchronize(cl.comp));
	}
out:
	/* Wait for whatever was queued (but the session's queued work on
	 * success), then give everything back. The events of a queued call may
	 * be destroyed now: the waits already queued keep their records. */
	if (!queued_only) {
		if (cl.h2d != NULL)
			cudaStreamSynchronize(cl.h2d);
		if (cl.comp != NULL)
			cudaStreamSynchronize(cl.comp);
		if (cl.d2h != NULL)
			cudaStreamSynchronize(cl.d2h);
		if (ses != NULL && st != GK_OK) {
			cudaStreamSynchronize(ses->h2d[half ^ 1]);
			cudaStreamSynchronize(ses->h2d[half]);
		}
	}
	if (ses == NULL)
		dev_free(&slab);
	else
		cl.h2d = cl.d2h = cl.comp = NULL; /* the session's */
	events_destroy(&ea);
	events_destroy(&eb);
	events_destroy(&ec);
	for (int q = 0; q < 2; q++)
		event_destroy(&c_done[q]);
	for (int q = 0; q < GK_HM_FIRST_PARTS; q++)
		event_destroy(&part_ready[q]);
	event_destroy(&start);
	stream_destroy(&cl.h2d);
	stream_destroy(&cl.d2h);
	stream_destroy(&own_comp);
	if (staged)
		staging_give(dev, &priv, locked);
	operands_release(&regs);
	gk_hm_plan_free(&pl);
	if (dev != prev)
		cudaSetDevice(prev);
	/* Nothing of a failure is left for cudaGetLastError. */
	if (st != GK_OK)
		(void)cudaGetLastError();
	return st;
}

template <typename K>
gk_status hm_call(const char *fn_name, typename K::fn fn, const gk_hm_opts *o, int64_t m, int64_t n,
                  int64_t k, typename K::elem alpha, const typename K::elem *a, int64_t rs_a,
                  int64_t cs_a, const typename K::elem *b, int64_t rs_b, int64_t cs_b,
                  typename K::elem beta, typename K::elem *c, int64_t rs_c)
{
	if (!gk_cuda_available())
		return gk_set_error(GK_ERR_NO_GPU, "%s: no CUDA device is present", fn_name);
	fail_arm();
	const gk_status st = hm_run<K>(fn_name, fn, o->device, o->stream, o->budget, o->threads, o->session, m, n, k,
	                               alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c, rs_c);
	fail_disarm();
	return st;
}

} /* namespace */

extern "C" gk_status gk_hm_sgemm(gk_cuda_sgemm_fn fn, const gk_hm_opts *o, int64_t m, int64_t n,
                                 int64_t k, float alpha, const float *a, int64_t rs_a, int64_t cs_a,
                                 const float *b, int64_t rs_b, int64_t cs_b, float beta, float *c,
                                 int64_t rs_c)
{
	return hm_call<sgemm_t>("gk_sgemm", fn, o, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c,
	                        rs_c);
}

extern "C" gk_status gk_hm_dgemm(gk_cuda_dgemm_fn fn, const gk_hm_opts *o, int64_t m, int64_t n,
                                 int64_t k, double alpha, const double *a, int64_t rs_a,
                                 int64_t cs_a, const double *b, int64_t rs_b, int64_t cs_b,
                                 double beta, double *c, int64_t rs_c)
{
	return hm_call<dgemm_t>("gk_dgemm", fn, o, m, n, k, alpha, a, rs_a, cs_a, b, rs_b, cs_b, beta, c,
	                        rs_c);
}

extern "C" gk_status gk_hm_session_open(const char *fn, int device, gk_hm_session **out)
{
	*out = NULL;
	gk_hm_session *ss = (gk_hm_session *)calloc(1, sizeof *ss);
	GK_RETURN_IF(ss == NULL, GK_ERR_NO_MEMORY, "%s: out of host memory", fn);
	ss->device = device;
	int prev = 0;
	cudaError_t e = HM_CK(cudaGetDevice(&prev));
	if (e == cudaSuccess && prev != device)
		e = HM_CK(cudaSetDevice(device));
	const char *what = "cudaSetDevice";
	if (e == cudaSuccess && (e = stream_create(&ss->h2d[0])) != cudaSuccess)
		what = "cudaStreamCreate(h2d)";
	if (e == cudaSuccess && (e = stream_create(&ss->h2d[1])) != cudaSuccess)
		what = "cudaStreamCreate(h2d)";
	if (e == cudaSuccess && (e = stream_create(&ss->d2h)) != cudaSuccess)
		what = "cudaStreamCreate(d2h)";
	if (e == cudaSuccess && (e = stream_create(&ss->comp)) != cudaSuccess)
		what = "cudaStreamCreate(comp)";
	if (e == cudaSuccess && (e = event_create(&ss->half_free[0])) != cudaSuccess)
		what = "cudaEventCreate(half)";
	if (e == cudaSuccess && (e = event_create(&ss->half_free[1])) != cudaSuccess)
		what = "cudaEventCreate(half)";
	if (e != cudaSuccess) {
		const gk_status st = status(e, fn, what);
		gk_hm_session_close(fn, ss);
		return st;
	}
	*out = ss;
	return GK_OK;
}

extern "C" gk_status gk_hm_session_wait(const char *fn, gk_hm_session *ss)
{
	int prev = 0;
	HM_TRY(fn, cudaGetDevice(&prev));
	if (prev != ss->device)
		HM_TRY(fn, cudaSetDevice(ss->device));
	const cudaError_t e = HM_CK(cudaEventSynchronize(ss->half_free[ss->cur]));
	if (prev != ss->device)
		cudaSetDevice(prev);
	return e == cudaSuccess ? GK_OK : status(e, fn, "cudaEventSynchronize(half)");
}

extern "C" gk_status gk_hm_session_close(const char *fn, gk_hm_session *ss)
{
	if (ss == NULL)
		return GK_OK;
	int prev = 0;
	cudaGetDevice(&prev);
	cudaSetDevice(ss->device);
	gk_status st = GK_OK;
	cudaStream_t all[4] = {ss->h2d[0], ss->h2d[1], ss->comp, ss->d2h};
	for (int q = 0; q < 4; q++)
		if (all[q] != NULL) {
			const cudaError_t e = HM_CK(cudaStreamSynchronize(all[q]));
			if (e != cudaSuccess && st == GK_OK)
				st = status(e, fn, "cudaStreamSynchronize(worker)");
		}
	for (int h = 0; h < 2; h++) {
		dev_free(&ss->half[h]);
		event_destroy(&ss->half_free[h]);
		stream_destroy(&ss->h2d[h]);
	}
	stream_destroy(&ss->d2h);
	stream_destroy(&ss->comp);
	cudaSetDevice(prev);
	(void)cudaGetLastError();
	free(ss);
	return st;
}
