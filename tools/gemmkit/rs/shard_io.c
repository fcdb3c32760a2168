/* shard_io.c - see shard_io.h. */
#include <errno.h>
#include <sys/uio.h>
#include "rs/rs_posix.h"
#include "rs/shard_io.h"

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int shard_write_header(int fd, const shard_header *h)
{
	uint8_t hdr[SHARD_HEADER_SIZE];
	shard_header_write(h, hdr);
	return rs_write_full(fd, hdr, sizeof hdr);
}

int shard_write_block(int fd, const shard_header *h, uint64_t b, const uint8_t *data,
                      uint32_t len)
{
	uint8_t crc[SHARD_CRC_SIZE];
	put_le32(crc, shard_block_crc(h, b, data, len));
	struct iovec iov[2] = {{(void *)data, len}, {crc, sizeof crc}};
	const size_t total = (size_t)len + sizeof crc;
	ssize_t w;
	do
		w = writev(fd, iov, 2);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -1;
	if ((size_t)w == total)
		return 0;
	/* A short writev (a full disk, a signal): finish it piece by piece. */
	if ((size_t)w < len)
		return rs_write_full(fd, data + w, len - (size_t)w) != 0 ||
		               rs_write_full(fd, crc, sizeof crc) != 0
		       ? -1 : 0;
	return rs_write_full(fd, crc + ((size_t)w - len), total - (size_t)w);
}

int shard_read_header(int fd, shard_header *h, const char **why)
{
	uint8_t hdr[SHARD_HEADER_SIZE];
	ssize_t got = rs_pread_full(fd, hdr, sizeof hdr, 0);
	if (got < 0)
		return -2;
	return shard_header_parse(hdr, (size_t)got, h, why) == 0 ? 0 : -1;
}

int shard_read_block(int fd, uint64_t size, const shard_header *h, uint64_t b, uint8_t *buf,
                     uint32_t len)
{
	const uint64_t off = shard_block_offset(h, b);
	if (off + len + SHARD_CRC_SIZE > size)
		return -1;
	ssize_t got = rs_pread_full(fd, buf, (size_t)len + SHARD_CRC_SIZE, off);
	if (got != (ssize_t)len + SHARD_CRC_SIZE)
		return got < 0 ? 0 : -1;
	return get_le32(buf + len) == shard_block_crc(h, b, buf, len);
}
