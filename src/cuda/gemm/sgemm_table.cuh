/*
 * sgemm_table.cuh - the tile configurations of the tuned SGEMM, one entry
 * point per configuration (each compiled in its own sgemm_cfg_*.cu), and the
 * launcher with a forced choice (sgemm_tuned.cu), for tests and tuning.
 */
#ifndef GK_SGEMM_TABLE_CUH
#define GK_SGEMM_TABLE_CUH

#include "sgemm_kernel.cuh"

namespace gk_sg {

/*                 BM   BN  BK WARPS LM STAGES MINB   threads, lane tile */
using cfg_l = cfg<128, 128, 8, 2, 2, 8, 4, 2>;  /* 128, 8 x 16 */
using cfg_h = cfg<128, 256, 8, 2, 4, 8, 3, 1>;  /* 256, 8 x 16 */
using cfg_m = cfg<128, 64, 8, 2, 2, 8, 4, 3>;   /* 128, 8 x 8 */
using cfg_s = cfg<64, 64, 32, 2, 1, 4, 3, 4>;   /* 64, 8 x 8 */
using cfg_l16 = cfg<128, 128, 16, 2, 2, 8, 3, 2>; /* 128, 8 x 16 */
using cfg_s4 = cfg<64, 64, 32, 2, 2, 4, 3, 4>;  /* 128, 8 x 4 */

enum { CFG_L, CFG_H, CFG_M, CFG_S, CFG_L16, CFG_S4, CFG_COUNT };

struct cfg_info {
	int bm, bn, bk, resident; /* resident: blocks per SM (registers, shared memory) */
	double eff;               /* relative speed of a full wave, from measurements */
	int both_scalar;          /* the configuration used when A and B both take the 4-byte path */
	gk_status (*run)(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream);
};

gk_status run_l(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream);
gk_status run_h(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream);
gk_status run_m(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream);
gk_status run_s(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream);
gk_status run_l16(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream);
gk_status run_s4(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream);

extern const cfg_info cfg_table[CFG_COUNT];

} /* namespace gk_sg */

/* The launcher with its choice forced: configuration `cfg` (CFG_*) or -1
 * for the table's, `splits` of K (>= 1) or 0 for the table's. When both
 * operands take the 4-byte path, the configuration's both_scalar stand-in
 * runs. */
gk_status gk_cuda_sgemm_tuned_with(const gk_cuda_sgemm_args *p, int cfg, int64_t splits);

/* The table's choice for a shape on `sms` multiprocessors: configuration
 * and split count. */
void gk_cuda_sgemm_tuned_choice(int64_t m, int64_t n, int64_t k, int sms, int *cfg, int64_t *splits);

#endif
