/*
 * gf_prmt.cu - the production GF(2^8) kernel: C = A * B over GF(2^8), every
 * byte of B read once for up to 16 rows of C, 16 bytes per load.
 *
 * Multiplication by a coefficient c is linear over GF(2), so for a byte x
 *   c * x = T0[x & 7] ^ T1[(x >> 3) & 7] ^ T2[x >> 6],
 * with T0[i] = c * i, T1[i] = c * (i << 3) (8 entries each) and
 * T2[i] = c * (i << 6) (4 entries). An 8-entry byte table is two 32-bit
 * registers, and the byte-permute instruction (PRMT, __byte_perm) looks up
 * four bytes at once with 3-bit selectors, so a coefficient costs 3 PRMT and
 * about 1.5 XOR per 4 bytes of B. The selectors of a pair of words x0, x1 are
 * built once per input for every row of C, interleaved (the nibbles of x0's
 * and x1's bytes alternate), so 16 bits of selector serve 4 bytes; the
 * accumulators hold the bytes of x0 and x1 interleaved, and two PRMT per
 * pair put them back in order before the store.
 *
 * Tables: gk_gf_prmt_build_table lays out 20 bytes per coefficient, a uint4
 * (T0 bytes 0-3, T0 bytes 4-7, T1 bytes 0-3, T1 bytes 4-7) in one array and
 * a uint32 (T2) in a second one of the same order, m * k entries each. Rows
 * of C go in groups of up to 16; the group of rows [r0, r0 + R) starts at
 * entry r0 * k and holds input j, row r at r0 * k + j * R + r, so a block
 * copies one contiguous slab of R * k entries into shared memory.
 *
 * A block of 256 threads covers 256 * 16 * V columns (V = 2 for R <= 8, else
 * 1), a thread V 16-byte vectors 4 KiB apart (coalesced), the grid (the
 * blocks that fit on the device at once) striding over the columns. A
 * thread's loads run P rows of B ahead of its arithmetic (P = 4 for R <= 2,
 * else 1) and carry on into its next tile of columns. Operands: B k x n, C m x n, row-major, ldb, ldc. When B,
 * C and ldb, ldc are all 16-byte aligned, whole vectors are loaded and stored
 * as such; the last partial vector of a row, and every vector of an
 * unaligned problem, go byte by byte (bytes past n read as zero, never
 * written).
 * Guarantees: every byte of C[0..m)[0..n) written, nothing else; the same
 * bytes as gk_gf256_gemm. Preconditions: m, n, k >= 1, k <= 255.
 */
#include "gf_common.cuh"

#define PRMT_THREADS 256
#define PRMT_MAX_ROWS 16

extern "C" size_t gk_gf_prmt_table_bytes(int64_t m, int64_t k)
{
	return (size_t)m * (size_t)k * (sizeof(uint4) + sizeof(uint32_t));
}

static uint32_t pack4(uint8_t c, int shift, int first)
{
	uint32_t w = 0;
	for (int i = 0; i < 4; i++)
		w |= (uint32_t)gk_gf256_mul(c, (uint8_t)((first + i) << shift)) << (8 * i);
	return w;
}

extern "C" void gk_gf_prmt_build_table(int64_t m, int64_t k, const uint8_t *a, int64_t lda,
                                       void *out)
{
	uint32_t *t4 = (uint32_t *)out;            /* m * k entries of 4 words */
	uint32_t *t1 = t4 + (size_t)m * k * 4;     /* m * k entries of 1 word */
	for (int64_t r0 = 0; r0 < m; r0 += PRMT_MAX_ROWS) {
		const int64_t R = m - r0 < PRMT_MAX_ROWS ? m - r0 : PRMT_MAX_ROWS;
		for (int64_t j = 0; j < k; j++)
			for (int64_t r = 0; r < R; r++) {
				const uint8_t c = a[(r0 + r) * lda + j];
				const size_t e = (size_t)(r0 * k + j * R + r);
				t4[4 * e + 0] = pack4(c, 0, 0);
				t4[4 * e + 1] = pack4(c, 0, 4);
				t4[4 * e + 2] = pack4(c, 3, 0);
				t4[4 * e + 3] = pack4(c, 3, 4);
				t1[e] = pack4(c, 6, 0);
			}
	}
}

/* 16 bytes of row at col: one vector load when aligned and whole, else bytes. */
__device__ __forceinline__ uint4 load16(const uint8_t *row, int64_t col, int64_t n, bool aligned)
{
	if (aligned && col + 16 <= n)
		return *(const uint4 *)(row + col);
	uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
	for (int i = 0; i < 16; i++)
		if (col + i < n)
			w[i / 4] |= (uint32_t)row[col + i] << (8 * (i % 4));
	return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ __forceinline__ void store16(uint8_t *row, int64_t col, int64_t n, bool aligned, uint4 v)
{
	if (aligned && col + 16 <= n) {
		*(uint4 *)(row + col) = v;
		return;
	}
	const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
	for (int i = 0; i < 16; i++)
		if (col + i < n)
			row[col + i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

/* The six selectors of a pair of words (low halves; the high halves are
 * the same shifted right by 16). */
struct sel6 {
	uint32_t s0, s1, s2, h0, h1, h2;
};

__device__ __forceinline__ sel6 selectors(uint32_t x0, uint32_t x1)
{
	sel6 s;
	s.s0 = (x0 & 0x07070707u) | ((x1 << 4) & 0x70707070u);
	s.s1 = ((x0 >> 3) & 0x07070707u) | ((x1 << 1) & 0x70707070u);
	s.s2 = ((x0 >> 6) & 0x03030303u) | ((x1 >> 2) & 0x30303030u);
	s.h0 = s.s0 >> 16;
	s.h1 = s.s1 >> 16;
	s.h2 = s.s2 >> 16;
	return s;
}

/* The kernel's shape for R rows of C: V vectors of 16 bytes per thread, P
 * rows of B in flight per thread (a ring of registers). */
template <int R> struct prmt_shape {
	static constexpr int V = R <= 8 ? 2 : 1;
	static constexpr int P = R <= 2 ? 4 : 1;
};

/*
 * The columns are tiles of PRMT_THREADS * 16 * V bytes, block b taking tiles
 * b, b + grid, ... For each tile a thread runs over the k rows of B; its loads
 * run P rows ahead of the arithmetic, continuing into its next tile, so that
 * the loads of the next tile are in flight while a tile's last rows are
 * multiplied and its results stored.
 */
template <int R, int V, int P>
__global__ void __launch_bounds__(PRMT_THREADS)
gf_prmt_kernel(int64_t n, int k, const uint4 *__restrict__ tab4, const uint32_t *__restrict__ tab1,
               const uint8_t *__restrict__ b, int64_t ldb, uint8_t *__restrict__ c, int64_t ldc,
               bool aligned)
{
	extern __shared__ uint4 s4[];
	uint32_t *s1 = (uint32_t *)(s4 + R * k);
	for (int i = threadIdx.x; i < R * k; i += PRMT_THREADS) {
		s4[i] = tab4[i];
		s1[i] = tab1[i];
	}
	__syncthreads();
	const int64_t per_block = (int64_t)PRMT_THREADS * 16 * V;
	const int64_t stride = (int64_t)gridDim.x * per_block;
	const int64_t lane = (int64_t)threadIdx.x * 16;
	/* Arithmetic cursor: tile cbase, row cj. Load cursor: tile lbase, row lj. */
	int64_t cbase = (int64_t)blockIdx.x * per_block, lbase = cbase;
	int cj = 0, lj = 0;
	if (cbase >= n)
		return;
	uint4 ring[P][V];
#pragma unroll
	for (int p = 0; p < P; p++) {
#pragma unroll
		for (int v = 0; v < V; v++) {
			const int64_t col = lbase + v * (int64_t)PRMT_THREADS * 16 + lane;
			ring[p][v] = (lbase < n && col < n) ? load16(b + (int64_t)lj * ldb, col, n, aligned)
			                                    : make_uint4(0, 0, 0, 0);
		}
		if (++lj == k) {
			lj = 0;
			lbase += stride;
		}
	}
	/* acc[r][v][q]: pair q (0, 1) of vector v, low (0) and high (1) half. */
	uint32_t acc[R][V][2][2];
#pragma unroll
	for (int r = 0; r < R; r++)
#pragma unroll
		for (int v = 0; v < V; v++)
			acc[r][v][0][0] = acc[r][v][0][1] = acc[r][v][1][0] = acc[r][v][1][1] = 0;
	for (;;) {
#pragma unroll
		for (int p = 0; p < P; p++) {
			sel6 s[V][2];
#pragma unroll
			for (int v = 0; v < V; v++) {
				s[v][0] = selectors(ring[p][v].x, ring[p][v].y);
				s[v][1] = selectors(ring[p][v].z, ring[p][v].w);
			}
			/* Refill this slot with the row P steps ahead. */
			if (lbase < n) {
				const uint8_t *lrow = b + (int64_t)lj * ldb;
#pragma unroll
				for (int v = 0; v < V; v++) {
					const int64_t col = lbase + v * (int64_t)PRMT_THREADS * 16 + lane;
					ring[p][v] = col < n ? load16(lrow, col, n, aligned) : make_uint4(0, 0, 0, 0);
				}
			}
			if (++lj == k) {
				lj = 0;
				lbase += stride;
			}
#pragma unroll
			for (int r = 0; r < R; r++) {
				const uint4 t = s4[cj * R + r];
				const uint32_t t2 = s1[cj * R + r];
#pragma unroll
				for (int v = 0; v < V; v++)
#pragma unroll
					for (int q = 0; q < 2; q++) {
						const sel6 &e = s[v][q];
						acc[r][v][q][0] ^= __byte_perm(t.x, t.y, e.s0) ^
						                   __byte_perm(t.z, t.w, e.s1) ^ __byte_perm(t2, t2, e.s2);
						acc[r][v][q][1] ^= __byte_perm(t.x, t.y, e.h0) ^
						                   __byte_perm(t.z, t.w, e.h1) ^ __byte_perm(t2, t2, e.h2);
					}
			}
			if (++cj == k) {
#pragma unroll
				for (int r = 0; r < R; r++) {
					uint8_t *crow = c + (int64_t)r * ldc;
#pragma unroll
					for (int v = 0; v < V; v++) {
						const int64_t col = cbase + v * (int64_t)PRMT_THREADS * 16 + lane;
						if (col < n) {
							uint4 o;
							o.x = __byte_perm(acc[r][v][0][0], acc[r][v][0][1], 0x6420);
							o.y = __byte_perm(acc[r][v][0][0], acc[r][v][0][1], 0x7531);
							o.z = __byte_perm(acc[r][v][1][0], acc[r][v][1][1], 0x6420);
							o.w = __byte_perm(acc[r][v][1][0], acc[r][v][1][1], 0x7531);
							store16(crow, col, n, aligned, o);
						}
						acc[r][v][0][0] = acc[r][v][0][1] = 0;
						acc[r][v][1][0] = acc[r][v][1][1] = 0;
					}
				}
				cj = 0;
				cbase += stride;
				if (cbase >= n)
					return;
			}
		}
	}
}

/* One group of R rows: its slab of the tables, its rows of C. */
template <int R, int V, int P>
static gk_status launch_rows_vp(const gk_gf_cuda_args *p, const uint4 *tab4, const uint32_t *tab1,
                                uint8_t *c, bool aligned)
{
	static const char fn[] = "cuda.gf256";
	const size_t smem = (size_t)R * p->k * (sizeof(uint4) + sizeof(uint32_t));
	auto kern = gf_prmt_kernel<R, V, P>;
	if (smem > 48 * 1024)
		GK_CUDA_TRY(fn, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                                     (int)smem));
	int per_sm = 0;
	GK_CUDA_TRY(fn, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, PRMT_THREADS, smem));
	const int grid = gf_grid_x(p->n, PRMT_THREADS * 16 * V, p->sm_count, per_sm > 0 ? per_sm : 1);
	kern<<<grid, PRMT_THREADS, smem, (cudaStream_t)p->stream>>>(p->n, (int)p->k, tab4, tab1, p->b,
	                                                             p->ldb, c, p->ldc, aligned);
	GK_CUDA_LAUNCHED(fn);
	return GK_OK;
}

template <int R>
static gk_status launch_rows(const gk_gf_cuda_args *p, const uint4 *tab4, const uint32_t *tab1,
                             uint8_t *c, bool aligned)
{
	return launch_rows_vp<R, prmt_shape<R>::V, prmt_shape<R>::P>(p, tab4, tab1, c, aligned);
}

typedef gk_status (*rows_fn)(const gk_gf_cuda_args *, const uint4 *, const uint32_t *, uint8_t *,
                             bool);
static const rows_fn by_rows[PRMT_MAX_ROWS + 1] = {
	NULL,             launch_rows<1>,  launch_rows<2>,  launch_rows<3>,  launch_rows<4>,
	launch_rows<5>,   launch_rows<6>,  launch_rows<7>,  launch_rows<8>,  launch_rows<9>,
	launch_rows<10>,  launch_rows<11>, launch_rows<12>, launch_rows<13>, launch_rows<14>,
	launch_rows<15>,  launch_rows<16>};

gk_status gk_gf_cuda_production(const gk_gf_cuda_args *p)
{
	const uint4 *tab4 = (const uint4 *)p->tab;
	const uint32_t *tab1 = (const uint32_t *)(tab4 + p->m * p->k);
	const bool aligned = gf_rows_aligned(p->b, p->ldb, 16) && gf_rows_aligned(p->c, p->ldc, 16);
	for (int64_t r0 = 0; r0 < p->m; r0 += PRMT_MAX_ROWS) {
		const int64_t R = p->m - r0 < PRMT_MAX_ROWS ? p->m - r0 : PRMT_MAX_ROWS;
		GK_FORWARD(by_rows[R](p, tab4 + r0 * p->k, tab1 + r0 * p->k, p->c + r0 * p->ldc, aligned));
	}
	return GK_OK;
}
