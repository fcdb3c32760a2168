/*
 * shard_io.h - reading and writing shard files (docs/RS_FORMAT.md): the
 * header, and blocks with their CRC32C, on file descriptors. The byte
 * layout itself is shard_format.h's.
 */
#ifndef GK_SHARD_IO_H
#define GK_SHARD_IO_H

#include <stdint.h>
#include "shard_format.h"

/* Write the header of shard h->index at the file offset. 0, or -1 with errno. */
int shard_write_header(int fd, const shard_header *h);

/* Append block b of shard h->index: the len bytes of data, then their CRC.
 * 0, or -1 with errno. */
int shard_write_block(int fd, const shard_header *h, uint64_t b, const uint8_t *data,
                      uint32_t len);

/*
 * Read and check the header at the start of fd.
 * @return 0 (*h filled); -1 when it is not a valid header (*why says why, as
 *         shard_header_parse); -2 when it cannot be read (errno).
 */
int shard_read_header(int fd, shard_header *h, const char **why);

/*
 * Read block b of shard h->index from fd, a shard file of size bytes, into
 * buf (room for len + SHARD_CRC_SIZE bytes), len = shard_block_len(h, b).
 * @return 1 when intact; 0 when damaged (its CRC does not match, or it
 *         cannot be read); -1 when absent (the file ends before it does).
 */
int shard_read_block(int fd, uint64_t size, const shard_header *h, uint64_t b, uint8_t *buf,
                     uint32_t len);

#endif
