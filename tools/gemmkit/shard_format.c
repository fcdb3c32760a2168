/* shard_format.c - see shard_format.h and docs/RS_FORMAT.md. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "shard_format.h"

/* Header field offsets (docs/RS_FORMAT.md, "Header"). */
enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 8,
	OFF_HEADER_SIZE = 10,
	OFF_K = 12,
	OFF_M = 14,
	OFF_INDEX = 16,
	OFF_MATRIX = 18,
	OFF_FLAGS = 19,
	OFF_STRIPE = 20,
	OFF_FILE_SIZE = 24,
	OFF_BLOCKS = 32,
	OFF_LAST = 40,
	OFF_RESERVED = 44,
	OFF_ID = 48,
	OFF_CREATED = 64,
	OFF_NAME = 72,
	OFF_CRC = 124
};
_Static_assert(OFF_NAME + SHARD_NAME_SIZE == OFF_CRC, "name field ends at the CRC");
_Static_assert(OFF_CRC + 4 == SHARD_HEADER_SIZE, "the CRC ends the header");

/* ---- CRC-32C ------------------------------------------------------------ */

#define CRC32C_POLY 0x82F63B78u

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int j = 0; j < 8; j++)
			c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1)));
		crc_table[0][i] = c;
	}
	/* table[t][i]: the CRC of byte i followed by t zero bytes, so that eight
	 * bytes are folded with eight independent lookups. */
	for (int t = 1; t < 8; t++)
		for (int i = 0; i < 256; i++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
}

static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

uint32_t shard_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&crc_once, crc_init_tables);
	const uint8_t *p = buf;
	uint32_t c = ~crc;
	while (len >= 8) {
		uint64_t v = load_le64(p) ^ c;
		c = crc_table[7][v & 0xff] ^ crc_table[6][(v >> 8) & 0xff] ^
		    crc_table[5][(v >> 16) & 0xff] ^ crc_table[4][(v >> 24) & 0xff] ^
		    crc_table[3][(v >> 32) & 0xff] ^ crc_table[2][(v >> 40) & 0xff] ^
		    crc_table[1][(v >> 48) & 0xff] ^ crc_table[0][v >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 0xff];
	return ~c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t c = ~crc;
	while (len > 0 && ((uintptr_t)p & 7) != 0) {
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
		len--;
	}
	while (len >= 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

static uint32_t (*crc_impl)(uint32_t, const void *, size_t);
static pthread_once_t impl_once = PTHREAD_ONCE_INIT;

static void crc_pick_impl(void)
{
	__builtin_cpu_init();
	crc_impl = __builtin_cpu_supports("sse4.2") ? crc32c_sse42 : shard_crc32c_sw;
}

uint32_t shard_crc32c(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&impl_once, crc_pick_impl);
	return crc_impl(crc, buf, len);
}
#else
uint32_t shard_crc32c(uint32_t crc, const void *buf, size_t len)
{
	return shard_crc32c_sw(crc, buf, len);
}
#endif

/* ---- little-endian fields ----------------------------------------------- */

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const uint8_t *p) { return load_le64(p); }

/* ---- geometry ------------------------------------------------------------ */

int shard_geometry(int k, uint32_t stripe_size, uint64_t file_size,
                   uint64_t *block_count, uint32_t *last_block_size)
{
	if (k < 1 || k >= SHARD_MAX_SHARDS || stripe_size < 1 || stripe_size > SHARD_MAX_STRIPE ||
	    file_size > (uint64_t)INT64_MAX)
		return -1;
	if (file_size == 0) {
		*block_count = 0;
		*last_block_size = 0;
		return 0;
	}
	uint64_t per_stripe = (uint64_t)k * stripe_size; /* < 2^38: no overflow */
	uint64_t blocks = (file_size - 1) / per_stripe + 1;
	uint64_t rest = file_size - (blocks - 1) * per_stripe;
	/* A shard file must be addressable with off_t: header + blocks * (stripe + crc). */
	uint64_t bytes;
	if (__builtin_mul_overflow(blocks, (uint64_t)stripe_size + SHARD_CRC_SIZE, &bytes) ||
	    __builtin_add_overflow(bytes, (uint64_t)SHARD_HEADER_SIZE, &bytes) || bytes > (uint64_t)INT64_MAX)
		return -1;
	*block_count = blocks;
	*last_block_size = (uint32_t)((rest + (uint64_t)k - 1) / (uint64_t)k);
	return 0;
}

uint32_t shard_block_len(const shard_header *h, uint64_t b)
{
	return b + 1 == h->block_count ? h->last_block_size : h->stripe_size;
}

uint64_t shard_block_offset(const shard_header *h, uint64_t b)
{
	return SHARD_HEADER_SIZE + b * ((uint64_t)h->stripe_size + SHARD_CRC_SIZE);
}

uint64_t shard_file_bytes(const shard_header *h)
{
	if (h->block_count == 0)
		return SHARD_HEADER_SIZE;
	return shard_block_offset(h, h->block_count - 1) + h->last_block_size + SHARD_CRC_SIZE;
}

uint32_t shard_block_crc(const shard_header *h, uint64_t b, const uint8_t *data, uint32_t len)
{
	uint8_t tail[SHARD_ID_SIZE + 4 + 8];
	memcpy(tail, h->file_id, SHARD_ID_SIZE);
	put32(tail + SHARD_ID_SIZE, h->index);
	put64(tail + SHARD_ID_SIZE + 4, b);
	return shard_crc32c(shard_crc32c(0, data, len), tail, sizeof tail);
}

/* ---- the header ------------------------------------------------------------ */

void shard_header_write(const shard_header *h, uint8_t out[SHARD_HEADER_SIZE])
{
	memset(out, 0, SHARD_HEADER_SIZE);
	memcpy(out + OFF_MAGIC, SHARD_MAGIC, SHARD_MAGIC_SIZE);
	put16(out + OFF_VERSION, SHARD_VERSION);
	put16(out + OFF_HEADER_SIZE, SHARD_HEADER_SIZE);
	put16(out + OFF_K, h->k);
	put16(out + OFF_M, h->m);
	put16(out + OFF_INDEX, h->index);
	out[OFF_MATRIX] = h->matrix;
	out[OFF_FLAGS] = 0;
	put32(out + OFF_STRIPE, h->stripe_size);
	put64(out + OFF_FILE_SIZE, h->file_size);
	put64(out + OFF_BLOCKS, h->block_count);
	put32(out + OFF_LAST, h->last_block_size);
	memcpy(out + OFF_ID, h->file_id, SHARD_ID_SIZE);
	put64(out + OFF_CREATED, h->created);
	memcpy(out + OFF_NAME, h->name, strnlen(h->name, SHARD_NAME_SIZE));
	put32(out + OFF_CRC, shard_crc32c(0, out, OFF_CRC));
}

static int fail(const char **why, const char *reason)
{
	if (why != NULL)
		*why = reason;
	return -1;
}

int shard_header_parse(const uint8_t *buf, size_t len, shard_header *h, const char **why)
{
	if (len < SHARD_HEADER_SIZE)
		return fail(why, "shorter than a header");
	if (memcmp(buf + OFF_MAGIC, SHARD_MAGIC, SHARD_MAGIC_SIZE) != 0)
		return fail(why, "not a gemmkit shard (bad magic)");
	/* The CRC first: a damaged header must read as damaged, not as a
	 * version or field it happens to decode to. */
	if (get32(buf + OFF_CRC) != shard_crc32c(0, buf, OFF_CRC))
		return fail(why, "header CRC mismatch");
	if (get16(buf + OFF_VERSION) != SHARD_VERSION)
		return fail(why, "unsupported format version");
	if (get16(buf + OFF_HEADER_SIZE) != SHARD_HEADER_SIZE)
		return fail(why, "unsupported header size");

	shard_header t;
	memset(&t, 0, sizeof t);
	t.k = get16(buf + OFF_K);
	t.m = get16(buf + OFF_M);
	t.index = get16(buf + OFF_INDEX);
	t.matrix = buf[OFF_MATRIX];
	t.stripe_size = get32(buf + OFF_STRIPE);
	t.file_size = get64(buf + OFF_FILE_SIZE);
	t.block_count = get64(buf + OFF_BLOCKS);
	t.last_block_size = get32(buf + OFF_LAST);
	memcpy(t.file_id, buf + OFF_ID, SHARD_ID_SIZE);
	t.created = get64(buf + OFF_CREATED);

	if (t.k < 1 || t.m < 1 || t.k + t.m > SHARD_MAX_SHARDS)
		return fail(why, "k or m out of range");
	if (t.index >= t.k + t.m)
		return fail(why, "shard index out of range");
	if (t.matrix != SHARD_MATRIX_CAUCHY && t.matrix != SHARD_MATRIX_ISAL_VANDERMONDE)
		return fail(why, "unknown matrix kind");
	if (buf[OFF_FLAGS] != 0 || get32(buf + OFF_RESERVED) != 0)
		return fail(why, "reserved field not zero");
	uint64_t blocks;
	uint32_t last;
	if (shard_geometry(t.k, t.stripe_size, t.file_size, &blocks, &last) != 0)
		return fail(why, "stripe or file size out of range");
	if (blocks != t.block_count || last != t.last_block_size)
		return fail(why, "block count does not match the file size");

	/* The name: printable bytes, no '/', NUL-padded (so that writing the
	 * parsed header gives back the same bytes). */
	const uint8_t *name = buf + OFF_NAME;
	size_t n = 0;
	while (n < SHARD_NAME_SIZE && name[n] != 0) {
		if (name[n] < 0x20 || name[n] == 0x7f || name[n] == '/')
			return fail(why, "bad character in the name field");
		n++;
	}
	for (size_t i = n; i < SHARD_NAME_SIZE; i++)
		if (name[i] != 0)
			return fail(why, "name field not NUL-padded");
	memcpy(t.name, name, n);
	t.name[n] = '\0';

	*h = t;
	return 0;
}

int shard_same_set(const shard_header *a, const shard_header *b)
{
	return a->k == b->k && a->m == b->m && a->matrix == b->matrix &&
	       a->stripe_size == b->stripe_size && a->file_size == b->file_size &&
	       a->block_count == b->block_count && a->last_block_size == b->last_block_size &&
	       memcmp(a->file_id, b->file_id, SHARD_ID_SIZE) == 0 && a->created == b->created &&
	       strcmp(a->name, b->name) == 0;
}

void shard_id_hex(const uint8_t id[SHARD_ID_SIZE], char out[2 * SHARD_ID_SIZE + 1])
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < SHARD_ID_SIZE; i++) {
		out[2 * i] = hex[id[i] >> 4];
		out[2 * i + 1] = hex[id[i] & 15];
	}
	out[2 * SHARD_ID_SIZE] = '\0';
}
