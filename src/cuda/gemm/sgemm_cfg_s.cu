/*
 * sgemm_cfg_s.cu - the tuned SGEMM kernel (sgemm_kernel.cuh) instantiated
 * for configuration cfg_s of sgemm_table.cuh, its four load paths (A and B
 * each 16-byte or 4-byte); one file per configuration so that they compile
 * in parallel.
 */
#include "sgemm_table.cuh"

gk_status gk_sg::run_s(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream)
{
	return launch<cfg_s>(p, avec, bvec, splits, stream);
}
