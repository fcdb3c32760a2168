/*
 * shard_set.h - finding the shards of one encode in a directory
 * (docs/RS_FORMAT.md, "What a reader accepts"), and choosing the blocks a
 * stripe is rebuilt from.
 *
 * Every regular file named *.gkrs is opened and its header checked. Valid
 * headers are grouped by everything but the index; the group with the most
 * distinct indices is the set, the files of other groups are foreign. Two
 * groups with as many indices are a tie (decode refuses: it cannot tell
 * which file is wanted). Within the set several files may hold one index
 * (duplicates): all are candidates for it, those whose name says that index
 * first; a duplicate never counts twice toward k.
 */
#ifndef GK_SHARD_SET_H
#define GK_SHARD_SET_H

#include <stddef.h>
#include <stdint.h>
#include "shard_format.h"

#define SHARD_SUFFIX ".gkrs"

enum {
	SHARD_MEMBER,     /* of the set */
	SHARD_FOREIGN,    /* a valid header of another group */
	SHARD_BAD_HEADER, /* why says what is wrong */
	SHARD_UNREADABLE  /* cannot be opened or read; why is the error */
};

typedef struct shard_file {
	char *name;              /* within the directory */
	int fd;                  /* -1 when unreadable */
	uint64_t size;
	int role;                /* SHARD_MEMBER, ... */
	const char *why;         /* SHARD_BAD_HEADER, SHARD_UNREADABLE: the reason */
	shard_header h;          /* valid for SHARD_MEMBER and SHARD_FOREIGN */
	int group;
	struct shard_file *next; /* the next candidate for the same index */
	/* counted by verify */
	uint64_t good_blocks, bad_blocks, absent_blocks, first_bad;
} shard_file;

typedef struct shard_set {
	const char *dir;
	shard_file *files;       /* every *.gkrs regular file, sorted by name */
	int nfiles;
	int ngroups;             /* groups of valid headers */
	int chosen;              /* the set's group; -1 when there is no valid header */
	int tie;                 /* another group has as many distinct indices */
	shard_header h;          /* the set's header, index 0 */
	int distinct;            /* distinct indices in the set */
	shard_file *cand[SHARD_MAX_SHARDS]; /* candidates per index, best first */
} shard_set;

/*
 * Open and classify every *.gkrs file in dir (which must outlive s).
 * @return 0; -1 with errno when dir cannot be read or memory runs out
 *         (nothing is left open then).
 */
int shard_set_open(shard_set *s, const char *dir);
void shard_set_close(shard_set *s);

/* Whether a set can be decoded from, as far as its headers tell. */
enum {
	SHARD_SET_OK,
	SHARD_SET_NO_FILES,    /* no *.gkrs file at all */
	SHARD_SET_NO_VALID,    /* none with a valid header */
	SHARD_SET_TIE,         /* two encodes with as many shards each */
	SHARD_SET_TOO_FEW      /* fewer than k distinct indices */
};
int shard_set_status(const shard_set *s);

/* The index a file name claims (<anything>.NNN.gkrs), or -1. */
int shard_name_index(const char *name);

/*
 * The blocks stripe b is rebuilt from: for each index in order (so data
 * blocks first, which need no arithmetic), the first candidate whose block
 * b is intact is read into buf + index * slot (slot >= block length + CRC),
 * until k are. present[0..k+m) tells which were read.
 * @return the number read: k, or fewer when the stripe cannot be rebuilt.
 */
int shard_set_read_stripe(const shard_set *s, uint64_t b, uint8_t *buf, size_t slot,
                          uint8_t *present);

#endif
