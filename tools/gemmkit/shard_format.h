/*
 * shard_format.h - the self-describing shard file of `gemmkit rs`: a fixed
 * 128-byte header, then one block per stripe, each followed by its CRC32C.
 * docs/RS_FORMAT.md is the byte-level specification; this is its one
 * implementation. Pure functions on memory: no I/O, no allocation, so the
 * header parser can be fuzzed on its own.
 */
#ifndef GK_SHARD_FORMAT_H
#define GK_SHARD_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* "GKRS\r\n\x1a\n": the CR LF and ^Z catch files mangled by text-mode transfers. */
#define SHARD_MAGIC "GKRS\r\n\x1a\n"
#define SHARD_MAGIC_SIZE 8
#define SHARD_VERSION 1
#define SHARD_HEADER_SIZE 128
#define SHARD_CRC_SIZE 4          /* the CRC32C after every block */
#define SHARD_ID_SIZE 16
#define SHARD_NAME_SIZE 52        /* bytes of the name field, NUL-padded */
#define SHARD_MAX_SHARDS 256      /* k + m */
#define SHARD_MAX_STRIPE (1u << 30)

/* The matrix kinds, with the values of gk_rs_matrix. */
#define SHARD_MATRIX_CAUCHY 0
#define SHARD_MATRIX_ISAL_VANDERMONDE 1

typedef struct shard_header {
	uint16_t k, m;              /* data and parity shard counts */
	uint16_t index;             /* this shard: 0..k-1 data, k..k+m-1 parity */
	uint8_t matrix;             /* SHARD_MATRIX_* */
	uint32_t stripe_size;       /* bytes of each shard per stripe (full blocks) */
	uint64_t file_size;         /* bytes of the original file */
	uint64_t block_count;       /* stripes; 0 for an empty file */
	uint32_t last_block_size;   /* bytes of each shard in the last stripe */
	uint8_t file_id[SHARD_ID_SIZE]; /* shared by all shards of one encode */
	uint64_t created;           /* Unix time of the encode (informational) */
	char name[SHARD_NAME_SIZE + 1]; /* base name of the original file (informational) */
} shard_header;

/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial value and
 * final XOR 0xFFFFFFFF). Chainable as zlib's crc32: start with crc = 0;
 * shard_crc32c(shard_crc32c(0, a, n), b, p) is the CRC of a then b.
 * Uses the SSE4.2 crc32 instruction when the CPU has it.
 */
uint32_t shard_crc32c(uint32_t crc, const void *buf, size_t len);
/* The same, always in portable C (slice-by-8); for tests. */
uint32_t shard_crc32c_sw(uint32_t crc, const void *buf, size_t len);

/*
 * The stripe geometry of a file: block_count = ceil(file_size / (k * stripe)),
 * the last stripe holding ceil(rest / k) bytes per shard.
 * @return 0, or -1 when the sizes are out of range or overflow.
 */
int shard_geometry(int k, uint32_t stripe_size, uint64_t file_size,
                   uint64_t *block_count, uint32_t *last_block_size);

/* Bytes of each shard in stripe b (< block_count). */
uint32_t shard_block_len(const shard_header *h, uint64_t b);
/* Byte offset of block b in a shard file (its CRC follows the block). */
uint64_t shard_block_offset(const shard_header *h, uint64_t b);
/* The size a complete shard file has. */
uint64_t shard_file_bytes(const shard_header *h);

/*
 * The CRC32C stored after a block: over the block's bytes, then the file id,
 * the shard index (u32 LE) and the block number (u64 LE), so that a block
 * that is intact but in the wrong place (another shard, another stripe,
 * another encode) does not pass.
 */
uint32_t shard_block_crc(const shard_header *h, uint64_t b, const uint8_t *data, uint32_t len);

/* Serialise h into out (SHARD_HEADER_SIZE bytes), header CRC included. */
void shard_header_write(const shard_header *h, uint8_t out[SHARD_HEADER_SIZE]);

/*
 * Parse and validate a header from len bytes (arbitrary input: never reads
 * past len). On success fills *h and returns 0; otherwise returns -1 and
 * points *why at a static one-line reason ("bad magic", "header CRC
 * mismatch", ...). why may be NULL.
 */
int shard_header_parse(const uint8_t *buf, size_t len, shard_header *h, const char **why);

/*
 * 1 when a and b come from the same encode: every field but the index equal.
 */
int shard_same_set(const shard_header *a, const shard_header *b);

/* Write the file id as 32 lowercase hex digits plus NUL into out[33]. */
void shard_id_hex(const uint8_t id[SHARD_ID_SIZE], char out[2 * SHARD_ID_SIZE + 1]);

#endif
