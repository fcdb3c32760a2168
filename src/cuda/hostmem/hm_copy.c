/*
 * hm_copy.c - the host side of pageable staging: copy lines between the
 * caller's strided matrix and a dense pinned staging chunk with several
 * CPU threads (OpenMP), so that pageable memory is packed about as fast as
 * the host link drains it. Built with CUDA only (the driver's helper).
 */
#include <string.h>
#include "hostmem.h"

/* Below this many bytes one thread copies (a parallel region costs more). */
#define PAR_MIN_BYTES ((size_t)1 << 20)

void gk_hm_copy_lines(char *dst, size_t dst_pitch, const char *src, size_t src_pitch, int64_t lines,
                      size_t line_bytes, int threads)
{
	const size_t total = (size_t)lines * line_bytes;
	if (threads <= 1 || total < PAR_MIN_BYTES) {
		for (int64_t l = 0; l < lines; l++)
			memcpy(dst + (size_t)l * dst_pitch, src + (size_t)l * src_pitch, line_bytes);
		return;
	}
	if (lines >= threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
		for (int64_t l = 0; l < lines; l++)
			memcpy(dst + (size_t)l * dst_pitch, src + (size_t)l * src_pitch, line_bytes);
		return;
	}
	/* Few long lines: each line cut into pieces of about total / threads. */
	const size_t piece = (total / (size_t)threads + 4095) & ~(size_t)4095;
	const int64_t per_line = (int64_t)((line_bytes + piece - 1) / piece);
#pragma omp parallel for num_threads(threads) schedule(static)
	for (int64_t u = 0; u < lines * per_line; u++) {
		const int64_t l = u / per_line;
		const size_t off = (size_t)(u % per_line) * piece;
		const size_t len = line_bytes - off < piece ? line_bytes - off : piece;
		memcpy(dst + (size_t)l * dst_pitch + off, src + (size_t)l * src_pitch + off, len);
	}
}
