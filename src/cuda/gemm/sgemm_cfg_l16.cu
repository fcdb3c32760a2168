/*
 * sgemm_cfg_l16.cu - the tuned SGEMM kernel (sgemm_kernel.cuh) instantiated
 * for configuration cfg_l16 of sgemm_table.cuh, three load paths (A and B
 * each 16-byte or 4-byte, not both 4-byte: that case goes to cfg_l); one file
 * per configuration so that they compile in parallel.
 */
#include "sgemm_table.cuh"

gk_status gk_sg::run_l16(const params &p, bool avec, bool bvec, unsigned splits, cudaStream_t stream)
{
	return launch<cfg_l16>(p, avec, bvec, splits, stream);
}
