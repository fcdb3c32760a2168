/*
 * fuzz_shard_header.c - libFuzzer target for the shard header parser of
 * `gemmkit rs` (tools/gemmkit/shard_format.c).
 *
 * Properties checked on every input:
 *  - the parser never reads past the input (AddressSanitizer) and always
 *    gives a reason when it refuses;
 *  - a header it accepts writes back to the very same 128 bytes, and its
 *    geometry is self-consistent (block offsets and the file size agree and
 *    fit in an off_t);
 *  - the same input with its header CRC fixed up is parsed too, so that the
 *    field checks behind the CRC are reached without the fuzzer having to
 *    forge CRCs;
 *  - the SSE4.2 and the portable CRC32C agree.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shard_format.h"

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_shard_header: %s\n", what);
		abort();
	}
}

static void check_header(const uint8_t *buf, size_t len)
{
	shard_header h;
	const char *why = NULL;
	if (shard_header_parse(buf, len, &h, &why) != 0) {
		check(why != NULL && why[0] != '\0', "refused without a reason");
		return;
	}
	uint8_t out[SHARD_HEADER_SIZE];
	shard_header_write(&h, out);
	check(memcmp(out, buf, SHARD_HEADER_SIZE) == 0, "an accepted header does not write back the same");
	check(h.index < h.k + h.m && h.k + h.m <= SHARD_MAX_SHARDS, "index or k + m out of range");
	check(h.stripe_size >= 1 && h.stripe_size <= SHARD_MAX_STRIPE, "stripe out of range");
	uint64_t bytes = shard_file_bytes(&h);
	check(bytes <= (uint64_t)INT64_MAX, "shard file size does not fit off_t");
	if (h.block_count == 0) {
		check(h.file_size == 0 && bytes == SHARD_HEADER_SIZE, "empty file geometry");
	} else {
		uint64_t last = h.block_count - 1;
		check(h.last_block_size >= 1 && h.last_block_size <= h.stripe_size, "last block size");
		check(shard_block_offset(&h, last) + shard_block_len(&h, last) + SHARD_CRC_SIZE == bytes,
		      "block offsets and file size disagree");
		/* The data capacity covers the file, with less than one stripe row of padding. */
		uint64_t cap = last * h.k * (uint64_t)h.stripe_size + (uint64_t)h.k * h.last_block_size;
		check(cap >= h.file_size && cap - h.file_size < h.k, "geometry does not cover the file");
	}
	shard_header g = h;
	g.index = (uint16_t)((h.index + 1) % (h.k + h.m));
	check(shard_same_set(&h, &g), "same set ignores the index");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Known answers: a CRC that is wrong everywhere would still round-trip. */
	check(shard_crc32c(0, "123456789", 9) == 0xE3069283u, "CRC32C known answer");
	check(shard_crc32c_sw(0, "123456789", 9) == 0xE3069283u, "portable CRC32C known answer");
	check(shard_crc32c(shard_crc32c(0, "1234", 4), "56789", 5) == 0xE3069283u, "CRC32C chaining");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(shard_crc32c(0, data, size) == shard_crc32c_sw(0, data, size), "CRC32C implementations disagree");
	check_header(data, size);
	if (size >= SHARD_HEADER_SIZE) {
		uint8_t fixed[SHARD_HEADER_SIZE];
		memcpy(fixed, data, SHARD_HEADER_SIZE);
		uint32_t crc = shard_crc32c(0, fixed, SHARD_HEADER_SIZE - 4);
		for (int i = 0; i < 4; i++)
			fixed[SHARD_HEADER_SIZE - 4 + i] = (uint8_t)(crc >> (8 * i));
		check_header(fixed, sizeof fixed);
	}
	return 0;
}
