/*
 * hm_internal.cuh - what the two CUDA files of the out-of-core driver share
 * (hm_host.cu: host memory, staging, copies, checked acquisitions;
 * hm_driver.cu: the plan's streams, events and launcher calls).
 *
 * Checkpoints: every CUDA call of the driver whose failure is an error
 * path (acquisitions, event records and waits, copies, synchronisations,
 * the launcher call) goes through HM_ACQ / HM_CK / HM_TRY or hm_launch, and
 * counts as one checkpoint of the call. The test hook gk_hm_set_fail_at(n)
 * makes the n-th checkpoint of each following call fail as if the runtime
 * had answered an error (out of memory for acquisitions), so that a test
 * reaches every error path in turn; gk_hm_last_checkpoints() says how many
 * a call passed. Calls whose failure is tolerated (pointer attribute
 * look-ups, the "already registered" answer) and the releases of the
 * cleanup are not checkpoints.
 *
 * Live resources: every stream, event, device buffer, pinned buffer and
 * host registration the driver holds is counted (gk_hm_live_resources), so
 * that a test checks its own process's resources whatever other processes
 * do on the device.
 */
#ifndef GK_HM_INTERNAL_CUH
#define GK_HM_INTERNAL_CUH

#include "../core/cuda_check.cuh"
#include "hm_plan.h"
#include "hostmem.h"

namespace gk_hm {

constexpr size_t CHUNK = (size_t)32 << 20; /* one pinned staging chunk (GK_HOSTMEM_CHUNK) */
constexpr int RING = 4;                    /* chunks each way */
constexpr int MAX_DEVICES = 64;
constexpr size_t PITCH_2D_MAX = (size_t)1 << 30; /* larger pitches: one copy per line */

/* ---- Checkpoints and injected failures ---------------------------------- */

extern thread_local int t_fail_left; /* this call's countdown; 0: off */
extern thread_local int t_points;    /* checkpoints passed by this call */
extern thread_local int t_injected;  /* the last failure was injected */

/* A multi-worker call (hm_multi.cu) counts the checkpoints of all its
 * workers together: the n-th of the whole call fails, whichever worker
 * reaches it, and the call's count is the sum. Set on each worker thread
 * for the call's duration; the per-unit calls then neither arm nor
 * publish. */
struct shared_points {
	int fail_at; /* 0: off */
	int points;  /* atomic */
};
extern thread_local shared_points *t_shared;

/* The countdown of gk_hm_set_fail_at / GK_HOSTMEM_FAIL_AT (0: off). */
int fail_at_setting(void);
/* Arm this call's countdown (gk_hm_set_fail_at, GK_HOSTMEM_FAIL_AT). */
void fail_arm(void);
/* End of a call: the countdown off, its checkpoint count published. */
void fail_disarm(void);
/* Publish a multi-worker call's count as this thread's last. */
void fail_publish(int points);

/* One checkpoint: true when this is the one to fail. */
inline bool fail_now(void)
{
	t_points++;
	if (t_shared != nullptr) {
		const int p = __atomic_add_fetch(&t_shared->points, 1, __ATOMIC_RELAXED);
		if (t_shared->fail_at > 0 && p == t_shared->fail_at) {
			t_injected = 1;
			return true;
		}
		return false;
	}
	if (t_fail_left > 0 && --t_fail_left == 0) {
		t_injected = 1;
		return true;
	}
	return false;
}

#define HM_ACQ(call) (gk_hm::fail_now() ? cudaErrorMemoryAllocation : (call))
#define HM_CK(call) (gk_hm::fail_now() ? cudaErrorUnknown : (call))

/* The status of a failed checkpoint, with the runtime's last error cleared
 * (a later cudaGetLastError, the launchers' launch checks included, must
 * not see it). */
gk_status status(cudaError_t e, const char *fn, const char *what);

/* A checked call inside a function returning gk_status. */
#define HM_TRY(fn, call)                                                   \
	do {                                                                   \
		cudaError_t hm_e_ = HM_CK(call);                                   \
		if (hm_e_ != cudaSuccess)                                          \
			return gk_hm::status(hm_e_, (fn), #call);                      \
	} while (0)

/* The default budget of a device with free_b of total_b bytes free: what
 * is free less a margin (2% of the memory, at least 512 MiB). */
size_t default_budget(size_t free_b, size_t total_b);

/* ---- Counted acquisitions (each a checkpoint) and their releases ------- */

cudaError_t stream_create(cudaStream_t *s);
void stream_destroy(cudaStream_t *s);
cudaError_t event_create(cudaEvent_t *e);
void event_destroy(cudaEvent_t *e);
cudaError_t dev_alloc(char **p, size_t bytes);
void dev_free(char **p);

/* ---- Pinned staging, kept per device ------------------------------------ */

struct staging {
	size_t chunk;        /* bytes of each buffer */
	char *buf[2 * RING]; /* [0, RING): to the device; [RING, 2 RING): from it */
	cudaEvent_t ev[2 * RING];
};

/* The chunk of this call: GK_HOSTMEM_CHUNK bytes (at least 4 KiB; tests
 * use small chunks so that tiles go in several pieces), else CHUNK. */
size_t staging_chunk(void);

/* One of the device's kept rings when one is free (*locked = its number,
 * from 1), else `priv` (*locked = 0), filled when empty or of another
 * chunk size. */
gk_status staging_take(const char *fn, int dev, staging *priv, staging **out, int *locked);
void staging_give(int dev, staging *priv, int locked);
void staging_release_all(void);

/* ---- Host operands ------------------------------------------------------- */

enum { HOST_PINNED, HOST_STAGE, HOST_DIRECT };

/* A host matrix (element (i, j) at host + (i rs + j cs) esize) seen as
 * lines: rows when cs == 1, columns otherwise (rs == 1). */
struct operand {
	char *host;
	int64_t rows, cols, rs, cs;
	size_t es;
	bool row_lines;
	int how; /* HOST_* */
};

/* Pages this call registered (GK_HOSTMEM_PAGEABLE=register). */
struct host_regs {
	int n;
	void *base[3];
};

/* Describe the three operands (A, B, C) and decide how each is copied:
 * pinned memory directly; pageable memory staged, registered or direct
 * by GK_HOSTMEM_PAGEABLE. Registration covers the union of the operands'
 * pages once (operands sharing pages are one range), never pages already
 * pinned. */
gk_status operands_init(const char *fn, operand x[3], host_regs *regs);
void operands_release(host_regs *regs);

/* A tile of x: rows [r0, r0 + nr), columns [c0, c0 + nc), as `lines`
 * lines of line_bytes, host pitch hpitch; on the device, lines dpitch
 * apart (the slot's nominal line). */
struct tile {
	char *host;
	int64_t lines;
	size_t line_bytes, hpitch, dpitch;
};

tile tile_of(const operand *x, int64_t r0, int64_t nr, int64_t c0, int64_t nc, int64_t nom_rows,
             int64_t nom_cols);

/* ---- One call's copies ---------------------------------------------------- */

struct call {
	const char *fn;
	cudaStream_t h2d, d2h, comp;
	staging *stg;
	int threads;
	int ring_in; /* next chunk of the ring to the device */
};

/* Host to device: a tile of x into dev, on the h2d stream. */
gk_status load(call *cl, const operand *x, const tile *t, char *dev);
/* Device to host: a C tile from dev, on the d2h stream; a staged tile is
 * in the caller's memory when this returns. */
gk_status store(call *cl, const operand *x, const tile *t, const char *dev);

} /* namespace gk_hm */

#endif
