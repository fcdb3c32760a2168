/*
 * cmd_rs.c - `gemmkit rs encode|decode|verify`: Reed-Solomon sharding of a
 * file into self-describing shard files (docs/RS_FORMAT.md), and rebuilding
 * it from any k good shards.
 *
 * Everything streams stripe by stripe, so memory stays near (k + m) x stripe
 * whatever the file size. Decode works block by block: a stripe is rebuilt
 * from whichever k shards have an intact block for it, so damage in
 * different places of different shards is survivable as long as every
 * stripe keeps k good blocks.
 */
#define _GNU_SOURCE /* renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "cli_util.h"
#include "commands.h"
#include "gemmkit.h"
#include "shard_format.h"

#define RS_DEFAULT_K 4
#define RS_DEFAULT_M 2
#define RS_DEFAULT_STRIPE (1u << 20)
#define RS_SUFFIX ".gkrs"
#define RS_ALIGN 64

/* ---- small utilities -------------------------------------------------------- */

static const char *cmd_name = "rs";

static void rs_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void rs_err(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cli_error(cmd_name, "%s", msg);
}

static void *xalloc(size_t bytes)
{
	size_t n = (bytes + RS_ALIGN - 1) / RS_ALIGN * RS_ALIGN;
	void *p = aligned_alloc(RS_ALIGN, n ? n : RS_ALIGN);
	if (p == NULL) {
		rs_err("out of memory (%zu bytes)", bytes);
		exit(1);
	}
	return p;
}

static char *path_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = xalloc(a + b + 2);
	memcpy(p, dir, a);
	size_t at = a;
	if (a > 0 && dir[a - 1] != '/')
		p[at++] = '/';
	memcpy(p + at, name, b + 1);
	return p;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The directory part of a path: "." when there is none. Caller frees. */
static char *dir_name(const char *path)
{
	const char *s = strrchr(path, '/');
	if (s == NULL)
		return strdup(".");
	if (s == path)
		return strdup("/");
	return strndup(path, (size_t)(s - path));
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a > b && strcmp(s + a - b, suffix) == 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Read up to len bytes; returns the count read (short only at end of file), -1 on error. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, p + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static ssize_t pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t r = pread(fd, p + got, len - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	/* Some file systems cannot fsync a directory; the data is synced already. */
	return rc == 0 || errno == EINVAL || errno == EROFS ? 0 : -1;
}

static const char *matrix_name(int kind)
{
	return kind == SHARD_MATRIX_ISAL_VANDERMONDE ? "isal-vandermonde" : "cauchy";
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- progress on stderr ------------------------------------------------------ */

typedef struct progress {
	int on, shown;
	const char *what;
	uint64_t total;
	double t0, last;
} progress;

static void progress_start(progress *p, const char *what, uint64_t total, int quiet)
{
	/* Only for a person watching: a terminal, and not --quiet. */
	p->on = !quiet && isatty(STDERR_FILENO);
	p->shown = 0;
	p->what = what;
	p->total = total;
	p->t0 = p->last = cli_now();
}

static void progress_update(progress *p, uint64_t done)
{
	if (!p->on)
		return;
	double t = cli_now();
	if (t - p->last < 1.0)
		return;
	p->last = t;
	p->shown = 1;
	double mib = 1024.0 * 1024.0;
	fprintf(stderr, "\r%s: %.1f / %.1f MiB (%.0f%%), %.0f MB/s   ", p->what, done / mib,
	        p->total / mib, p->total ? 100.0 * done / p->total : 100.0, done / (t - p->t0) / 1e6);
	fflush(stderr);
}

static void progress_end(progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", 72, "");
}

/* ---- command-line parsing ------------------------------------------------------ */

/*
 * Match argv[*i] against a valued option: "-k 4", "-k4", "--opt 4" or
 * "--opt=4". 1: matched (value in *val, *i advanced past it); 0: not this
 * option; -1: the value is missing (reported).
 */
static int opt_value(int argc, char **argv, int *i, const char *shortname, const char *longname,
                     const char **val)
{
	const char *a = argv[*i];
	size_t n;
	if (shortname != NULL && strncmp(a, shortname, strlen(shortname)) == 0) {
		n = strlen(shortname);
		if (a[n] != '\0') {
			*val = a + n;
			return 1;
		}
	} else if (longname != NULL && strncmp(a, longname, (n = strlen(longname))) == 0) {
		if (a[n] == '=') {
			*val = a + n + 1;
			return 1;
		}
		if (a[n] != '\0')
			return 0;
	} else {
		return 0;
	}
	if (*i + 1 >= argc) {
		rs_err("option %s needs a value", a);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

typedef struct rs_opts {
	int k, m, matrix, threads, force, quiet;
	uint32_t stripe;
	const char *out;
	const char *pos[2];
	int npos;
} rs_opts;

/* Which options a subcommand takes. */
enum { OPT_KM = 1, OPT_MATRIX = 2, OPT_STRIPE = 4, OPT_THREADS = 8, OPT_FORCE = 16, OPT_OUT = 32 };

/* 0: parsed; 1: --help was printed; 2: bad command line (reported). */
static int parse_opts(int argc, char **argv, unsigned allowed, int max_pos, const char *help,
                      rs_opts *o)
{
	memset(o, 0, sizeof *o);
	o->k = RS_DEFAULT_K;
	o->m = RS_DEFAULT_M;
	o->stripe = RS_DEFAULT_STRIPE;
	o->matrix = SHARD_MATRIX_CAUCHY;
	int only_pos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		int64_t x;
		int r;
		if (only_pos || a[0] != '-' || a[1] == '\0') {
			if (o->npos >= max_pos) {
				rs_err("unexpected argument '%s' (see --help)", a);
				return 2;
			}
			o->pos[o->npos++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(help, stdout);
			return 1;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			o->quiet = 1;
		} else if ((allowed & OPT_FORCE) && (strcmp(a, "--force") == 0 || strcmp(a, "-f") == 0)) {
			o->force = 1;
		} else if ((allowed & OPT_KM) && (r = opt_value(argc, argv, &i, "-k", NULL, &v)) != 0) {
			if (r < 0)
				return 2;
			if (cli_parse_i64(v, 1, SHARD_MAX_SHARDS - 1, &x) != 0) {
				rs_err("-k wants an integer in [1, 255], not '%s'", v);
				return 2;
			}
			o->k = (int)x;
		} else if ((allowed & OPT_KM) && (r = opt_value(argc, argv, &i, "-m", NULL, &v)) != 0) {
			if (r < 0)
				return 2;
			if (cli_parse_i64(v, 1, SHARD_MAX_SHARDS - 1, &x) != 0) {
				rs_err("-m wants an integer in [1, 255], not '%s'", v);
				return 2;
			}
			o->m = (int)x;
		} else if ((allowed & OPT_OUT) && (r = opt_value(argc, argv, &i, "-o", "--output", &v)) != 0) {
			if (r < 0)
				return 2;
			o->out = v;
		} else if ((allowed & OPT_MATRIX) && (r = opt_value(argc, argv, &i, NULL, "--matrix", &v)) != 0) {
			if (r < 0)
				return 2;
			if (strcmp(v, "cauchy") == 0)
				o->matrix = SHARD_MATRIX_CAUCHY;
			else if (strcmp(v, "isal-vandermonde") == 0)
				o->matrix = SHARD_MATRIX_ISAL_VANDERMONDE;
			else {
				rs_err("--matrix wants cauchy or isal-vandermonde, not '%s'", v);
				return 2;
			}
		} else if ((allowed & OPT_STRIPE) && (r = opt_value(argc, argv, &i, NULL, "--stripe", &v)) != 0) {
			if (r < 0)
				return 2;
			if (cli_parse_i64(v, 1, SHARD_MAX_STRIPE, &x) != 0) {
				rs_err("--stripe wants a byte count in [1, 1G], not '%s'", v);
				return 2;
			}
			o->stripe = (uint32_t)x;
		} else if ((allowed & OPT_THREADS) && (r = opt_value(argc, argv, &i, NULL, "--threads", &v)) != 0) {
			if (r < 0)
				return 2;
			if (cli_parse_i64(v, 0, 1024, &x) != 0) {
				rs_err("--threads wants an integer in [0, 1024], not '%s'", v);
				return 2;
			}
			o->threads = (int)x;
		} else {
			rs_err("unknown option '%s' (see --help)", a);
			return 2;
		}
	}
	return 0;
}

static gk_context *make_context(int threads)
{
	gk_context *ctx = NULL;
	if (gk_context_create(&ctx) != GK_OK) {
		rs_err("cannot create a context");
		exit(1);
	}
	if (threads > 0)
		gk_context_set_threads(ctx, threads);
	return ctx;
}

/* The (k + m) x k coding matrix of the code a header names; NULL on failure (reported). */
static uint8_t *coding_matrix(int k, int m, int kind)
{
	gk_rs *rs = NULL;
	gk_status st = gk_rs_create(&rs, k, m, kind == SHARD_MATRIX_ISAL_VANDERMONDE
	                                           ? GK_RS_VANDERMONDE_ISAL : GK_RS_CAUCHY);
	if (st != GK_OK) {
		if (st == GK_ERR_UNSUPPORTED)
			rs_err("the %s matrix is not MDS for k=%d, m=%d (use --matrix cauchy)",
			       matrix_name(kind), k, m);
		else
			rs_err("cannot create the k=%d m=%d code: %s", k, m, gk_strerror(st));
		return NULL;
	}
	uint8_t *mat = xalloc((size_t)(k + m) * (size_t)k);
	st = gk_rs_matrix_get(rs, mat);
	gk_rs_destroy(rs);
	if (st != GK_OK) {
		rs_err("cannot read the coding matrix: %s", gk_strerror(st));
		free(mat);
		return NULL;
	}
	return mat;
}

/* ---- encode ------------------------------------------------------------------ */

static const char encode_help[] =
"usage: gemmkit rs encode [options] -o DIR FILE\n"
"\n"
"Split FILE into k data and m parity shard files DIR/<name>.000.gkrs ...\n"
"DIR/<name>.<k+m-1>.gkrs; any k of them rebuild FILE (gemmkit rs decode).\n"
"DIR is created when missing. Each shard file is self-describing and\n"
"checksummed (docs/RS_FORMAT.md).\n"
"\n"
"  -k K              data shards, 1..255 (default 4)\n"
"  -m M              parity shards, 1..255, k + m <= 256 (default 2)\n"
"  -o DIR            where the shards go (required)\n"
"  --matrix KIND     cauchy (default; MDS for every k, m) or isal-vandermonde\n"
"                    (ISA-L's gf_gen_rs_matrix; refused where it is not MDS)\n"
"  --stripe BYTES    bytes of each shard per stripe (default 1M; 1..1G; k, M, G\n"
"                    suffixes); memory used is about (k + m) x BYTES\n"
"  --threads N       threads for the coding arithmetic (default 0: the\n"
"                    library default, GK_NUM_THREADS / OMP_NUM_THREADS / CPUs)\n"
"  -f, --force       replace the shards already in DIR: every *.gkrs file there\n"
"                    is replaced or removed (without it, a DIR holding any\n"
"                    *.gkrs file is refused)\n"
"  -q, --quiet       no summary on stdout and no progress on stderr\n"
"  -h, --help        this text\n"
"\n"
"Progress is shown on stderr about once a second when stderr is a terminal.\n"
"Exit status: 0 done, 1 failed (nothing in DIR changed), 2 bad command line.\n";

typedef struct encode_tmp {
	char *tmp;   /* the temporary path while writing */
	char *final; /* DIR/<name>.NNN.gkrs */
	int fd;
} encode_tmp;

static void make_file_id(uint8_t id[SHARD_ID_SIZE], const struct stat *st)
{
	if (getrandom(id, SHARD_ID_SIZE, GRND_NONBLOCK) == SHARD_ID_SIZE)
		return;
	/* No entropy source: mix what makes this encode unique. */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t s = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
	             (uint64_t)getpid() << 32 ^ (uint64_t)st->st_ino ^ (uint64_t)st->st_size << 17;
	for (int i = 0; i < SHARD_ID_SIZE; i += 8) {
		uint64_t z = (s += 0x9E3779B97F4A7C15ull);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		z ^= z >> 31;
		memcpy(id + i, &z, 8);
	}
}

/* The original's base name for the header: control bytes replaced, cut at a
 * UTF-8 character boundary to fit the field. */
static void header_name(const char *base, char out[SHARD_NAME_SIZE + 1])
{
	size_t n = strlen(base);
	if (n > SHARD_NAME_SIZE) {
		n = SHARD_NAME_SIZE;
		while (n > 0 && ((uint8_t)base[n] & 0xC0) == 0x80)
			n--;
	}
	for (size_t i = 0; i < n; i++) {
		uint8_t c = (uint8_t)base[i];
		out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	out[n] = '\0';
}

/* Names of the *.gkrs files in dir (NULL-terminated array; NULL if dir is unreadable). */
static char **list_shard_names(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	*count = 0;
	if (d == NULL)
		return NULL;
	int cap = 16, n = 0;
	char **v = xalloc(sizeof(char *) * (size_t)cap);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!ends_with(e->d_name, RS_SUFFIX))
			continue;
		if (n + 1 >= cap) {
			cap *= 2;
			char **nv = realloc(v, sizeof(char *) * (size_t)cap);
			if (nv == NULL) {
				rs_err("out of memory");
				exit(1);
			}
			v = nv;
		}
		v[n++] = strdup(e->d_name);
	}
	closedir(d);
	v[n] = NULL;
	/* readdir order is arbitrary: sort, for reproducible reports. */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	*count = n;
	return v;
}

static void free_names(char **v)
{
	if (v == NULL)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

static int rs_encode(int argc, char **argv)
{
	rs_opts o;
	int r = parse_opts(argc, argv, OPT_KM | OPT_MATRIX | OPT_STRIPE | OPT_THREADS | OPT_FORCE | OPT_OUT,
	                   1, encode_help, &o);
	if (r != 0)
		return r == 1 ? 0 : 2;
	if (o.npos != 1 || o.out == NULL) {
		rs_err("encode wants -o DIR and one FILE (see --help)");
		return 2;
	}
	if (o.k + o.m > SHARD_MAX_SHARDS) {
		rs_err("k + m = %d is more than %d", o.k + o.m, SHARD_MAX_SHARDS);
		return 2;
	}
	const char *input = o.pos[0], *dir = o.out;
	const int k = o.k, m = o.m, n = k + m;

	int in = open(input, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (in < 0 || fstat(in, &st) != 0) {
		rs_err("cannot open %s: %s", input, strerror(errno));
		return 1;
	}
	if (!S_ISREG(st.st_mode)) {
		rs_err("%s is not a regular file", input);
		close(in);
		return 1;
	}
	shard_header h;
	memset(&h, 0, sizeof h);
	h.k = (uint16_t)k;
	h.m = (uint16_t)m;
	h.matrix = (uint8_t)o.matrix;
	h.stripe_size = o.stripe;
	h.file_size = (uint64_t)st.st_size;
	h.created = (uint64_t)time(NULL);
	header_name(base_name(input), h.name);
	if (shard_geometry(k, o.stripe, h.file_size, &h.block_count, &h.last_block_size) != 0) {
		rs_err("%s: size %" PRIu64 " does not fit stripes of %u bytes", input, h.file_size, o.stripe);
		close(in);
		return 1;
	}
	make_file_id(h.file_id, &st);

	uint8_t *mat = coding_matrix(k, m, o.matrix);
	if (mat == NULL) {
		close(in);
		return 1;
	}

	/* The target directory: create it, or refuse one holding shards already. */
	struct stat dst;
	int made_dir = 0;
	if (stat(dir, &dst) != 0) {
		made_dir = 1;
		if (errno != ENOENT || mkdir(dir, 0777) != 0) {
			rs_err("cannot create %s: %s", dir, strerror(errno));
			free(mat);
			close(in);
			return 1;
		}
	} else if (!S_ISDIR(dst.st_mode)) {
		rs_err("%s exists and is not a directory", dir);
		free(mat);
		close(in);
		return 1;
	}
	int nold = 0;
	char **old = list_shard_names(dir, &nold);
	if (old == NULL) {
		rs_err("cannot read %s: %s", dir, strerror(errno));
		free(mat);
		close(in);
		return 1;
	}
	if (nold > 0 && !o.force) {
		rs_err("%s already holds %d shard file%s (%s%s); use --force to replace them", dir, nold,
		       nold == 1 ? "" : "s", old[0], nold > 1 ? ", ..." : "");
		free_names(old);
		free(mat);
		close(in);
		return 1;
	}

	/* Shard files are written under temporary names, renamed when complete. */
	char stem[256];
	snprintf(stem, sizeof stem, "%.200s", base_name(input));
	encode_tmp *t = xalloc(sizeof *t * (size_t)n);
	int status = 1, created = 0;
	for (int i = 0; i < n; i++) {
		char name[300];
		snprintf(name, sizeof name, "%s.%03d" RS_SUFFIX, stem, i);
		t[i].final = path_join(dir, name);
		snprintf(name, sizeof name, ".%s.%03d.tmp-XXXXXX", stem, i);
		t[i].tmp = path_join(dir, name);
		t[i].fd = mkstemp(t[i].tmp);
		if (t[i].fd < 0) {
			rs_err("cannot create a file in %s: %s", dir, strerror(errno));
			goto done;
		}
		created++;
		mode_t um = umask(0);
		umask(um);
		fchmod(t[i].fd, 0666 & ~um);
	}

	uint8_t hdr[SHARD_HEADER_SIZE];
	for (int i = 0; i < n; i++) {
		h.index = (uint16_t)i;
		shard_header_write(&h, hdr);
		if (write_full(t[i].fd, hdr, sizeof hdr) != 0) {
			rs_err("cannot write %s: %s", t[i].final, strerror(errno));
			goto done;
		}
	}

	/* One stripe in memory: k data blocks back to back, then m parity blocks. */
	size_t blk = h.block_count ? shard_block_len(&h, 0) : 0;
	uint8_t *buf = xalloc((size_t)n * blk);
	const uint8_t **dptr = xalloc(sizeof *dptr * (size_t)k);
	uint8_t **pptr = xalloc(sizeof *pptr * (size_t)m);
	gk_context *ctx = make_context(o.threads);
	progress pg;
	progress_start(&pg, "encode", h.file_size, o.quiet);
	double t0 = cli_now();
	uint64_t done = 0;
	int ok = 1;
	for (uint64_t b = 0; ok && b < h.block_count; b++) {
		uint32_t len = shard_block_len(&h, b);
		size_t want = (size_t)((uint64_t)k * len < h.file_size - done ? (uint64_t)k * len : h.file_size - done);
		ssize_t got = read_full(in, buf, want);
		if (got != (ssize_t)want) {
			if (got < 0)
				rs_err("cannot read %s: %s", input, strerror(errno));
			else
				rs_err("%s changed size while being read", input);
			ok = 0;
			break;
		}
		memset(buf + want, 0, (size_t)k * len - want); /* zero padding of the last stripe */
		for (int i = 0; i < k; i++)
			dptr[i] = buf + (size_t)i * len;
		for (int i = 0; i < m; i++)
			pptr[i] = buf + (size_t)(k + i) * len;
		gk_status gs = gk_gf256_gemm_rows_ex(ctx, m, len, k, mat + (size_t)k * k, k, dptr, pptr);
		if (gs != GK_OK) {
			rs_err("encoding failed: %s", gk_strerror(gs));
			ok = 0;
			break;
		}
		for (int i = 0; ok && i < n; i++) {
			uint8_t *p = buf + (size_t)i * len;
			uint8_t crc[SHARD_CRC_SIZE];
			h.index = (uint16_t)i;
			put_le32(crc, shard_block_crc(&h, b, p, len));
			struct iovec iov[2] = {{p, len}, {crc, sizeof crc}};
			size_t total = (size_t)len + sizeof crc;
			ssize_t w = writev(t[i].fd, iov, 2);
			/* A short writev is rare: finish it piecewise. */
			if (w >= 0 && (size_t)w < total) {
				if ((size_t)w < len)
					ok = write_full(t[i].fd, p + w, len - (size_t)w) == 0 &&
					     write_full(t[i].fd, crc, sizeof crc) == 0;
				else
					ok = write_full(t[i].fd, crc + (w - len), total - (size_t)w) == 0;
			} else if (w < 0) {
				ok = 0;
			}
			if (!ok)
				rs_err("cannot write %s: %s", t[i].final, strerror(errno));
		}
		done += want;
		progress_update(&pg, done);
	}
	progress_end(&pg);
	gk_context_destroy(ctx);
	free(buf);
	free(dptr);
	free(pptr);
	if (!ok)
		goto done;

	for (int i = 0; i < n; i++)
		if (fsync(t[i].fd) != 0) {
			rs_err("cannot sync %s: %s", t[i].final, strerror(errno));
			goto done;
		}
	for (int i = 0; i < n; i++) {
		if (rename(t[i].tmp, t[i].final) != 0) {
			rs_err("cannot rename to %s: %s", t[i].final, strerror(errno));
			goto done;
		}
		free(t[i].tmp);
		t[i].tmp = NULL;
	}
	/* --force: shards of the earlier encode that were not replaced go too,
	 * or they would read as foreign shards next to the new ones. */
	for (char **p = old; *p; p++) {
		char *full = path_join(dir, *p);
		int ours = 0;
		for (int i = 0; i < n && !ours; i++)
			ours = strcmp(full, t[i].final) == 0;
		if (!ours && unlink(full) != 0)
			rs_err("warning: cannot remove the old shard %s: %s", full, strerror(errno));
		free(full);
	}
	fsync_dir(dir);
	status = 0;
	if (!o.quiet) {
		double dt = cli_now() - t0;
		char id[2 * SHARD_ID_SIZE + 1];
		shard_id_hex(h.file_id, id);
		printf("encoded %s (%" PRIu64 " bytes) into %d shards in %s: k=%d m=%d %s, "
		       "%" PRIu64 " stripe%s of %u bytes per shard, id %s, %.2f s (%.0f MB/s)\n",
		       input, h.file_size, n, dir, k, m, matrix_name(o.matrix), h.block_count,
		       h.block_count == 1 ? "" : "s", o.stripe, id, dt, dt > 0 ? h.file_size / dt / 1e6 : 0.0);
	}
done:
	for (int i = 0; i < created; i++) {
		close(t[i].fd);
		if (t[i].tmp != NULL && status != 0)
			unlink(t[i].tmp);
	}
	for (int i = 0; i < n; i++) {
		free(t[i].tmp);
		free(t[i].final);
	}
	free(t);
	free_names(old);
	free(mat);
	close(in);
	if (status != 0 && made_dir)
		rmdir(dir); /* only succeeds when empty: a failed encode leaves no trace */
	return status;
}

/* ---- reading a shard directory ------------------------------------------------ */

enum { ROLE_MEMBER, ROLE_FOREIGN, ROLE_BAD_HEADER, ROLE_UNREADABLE };

typedef struct shard_file {
	char *name;               /* within the directory */
	int fd;
	uint64_t size;
	int role;
	const char *why;          /* ROLE_BAD_HEADER / ROLE_UNREADABLE: the reason */
	shard_header h;
	int group;                /* index into the set's groups */
	struct shard_file *next;  /* the next candidate for the same shard index */
	/* filled by verify */
	uint64_t good_blocks, bad_blocks, absent_blocks, first_bad;
} shard_file;

typedef struct shard_set {
	const char *dir;
	shard_file *files;
	int nfiles;
	int ngroups;
	int chosen;               /* group index, -1 when none */
	int tie;                  /* another group has as many shards */
	shard_header h;           /* the chosen set's header (index = 0) */
	int distinct;             /* distinct shard indices in the chosen set */
	shard_file *cand[SHARD_MAX_SHARDS]; /* candidates per index, best first */
} shard_set;

/* The index a file's name claims (<stem>.NNN.gkrs), or -1. */
static int name_index(const char *name)
{
	size_t n = strlen(name), s = strlen(RS_SUFFIX);
	if (n < s + 4 || name[n - s - 4] != '.')
		return -1;
	int v = 0;
	for (size_t i = n - s - 3; i < n - s; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		v = v * 10 + (name[i] - '0');
	}
	return v;
}

static void set_close(shard_set *s)
{
	for (int i = 0; i < s->nfiles; i++) {
		if (s->files[i].fd >= 0)
			close(s->files[i].fd);
		free(s->files[i].name);
	}
	free(s->files);
	s->files = NULL;
	s->nfiles = 0;
}

/* Open and classify every *.gkrs file in dir. 0, or -1 when dir is unreadable (reported). */
static int set_open(shard_set *s, const char *dir)
{
	memset(s, 0, sizeof *s);
	s->dir = dir;
	s->chosen = -1;
	int count = 0;
	char **names = list_shard_names(dir, &count);
	if (names == NULL) {
		rs_err("cannot read the directory %s: %s", dir, strerror(errno));
		return -1;
	}
	s->files = xalloc(sizeof *s->files * (size_t)(count ? count : 1));
	int *group_rep = xalloc(sizeof(int) * (size_t)(count ? count : 1));
	int *group_count = xalloc(sizeof(int) * (size_t)(count ? count : 1));
	for (int i = 0; i < count; i++) {
		shard_file *f = &s->files[s->nfiles];
		memset(f, 0, sizeof *f);
		f->name = names[i];
		names[i] = NULL;
		char *full = path_join(dir, f->name);
		f->fd = open(full, O_RDONLY | O_CLOEXEC);
		free(full);
		struct stat st;
		if (f->fd < 0 || fstat(f->fd, &st) != 0) {
			f->role = ROLE_UNREADABLE;
			f->why = strerror(errno);
			s->nfiles++;
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			close(f->fd);
			free(f->name);
			continue;
		}
		s->nfiles++;
		f->size = (uint64_t)st.st_size;
		uint8_t hdr[SHARD_HEADER_SIZE];
		ssize_t got = pread_full(f->fd, hdr, sizeof hdr, 0);
		if (got < 0) {
			f->role = ROLE_UNREADABLE;
			f->why = strerror(errno);
			continue;
		}
		if (shard_header_parse(hdr, (size_t)got, &f->h, &f->why) != 0) {
			f->role = ROLE_BAD_HEADER;
			continue;
		}
		int g;
		for (g = 0; g < s->ngroups; g++)
			if (shard_same_set(&s->files[group_rep[g]].h, &f->h))
				break;
		if (g == s->ngroups) {
			group_rep[g] = s->nfiles - 1;
			group_count[g] = 0;
			s->ngroups++;
		}
		f->group = g;
		f->role = ROLE_FOREIGN; /* until its group is chosen */
	}
	free(names);

	/* The set is the group with the most distinct shard indices. */
	int best = -1, best_count = 0;
	for (int g = 0; g < s->ngroups; g++) {
		uint8_t seen[SHARD_MAX_SHARDS] = {0};
		for (int i = 0; i < s->nfiles; i++) {
			shard_file *f = &s->files[i];
			if (f->role == ROLE_FOREIGN && f->group == g && !seen[f->h.index]) {
				seen[f->h.index] = 1;
				group_count[g]++;
			}
		}
		if (group_count[g] > best_count) {
			best = g;
			best_count = group_count[g];
			s->tie = 0;
		} else if (group_count[g] == best_count) {
			s->tie = 1;
		}
	}
	if (best >= 0) {
		s->chosen = best;
		s->distinct = best_count;
		s->h = s->files[group_rep[best]].h;
		s->h.index = 0;
		/* Candidates per index: a file whose name matches its index first. */
		for (int pass = 0; pass < 2; pass++)
			for (int i = s->nfiles - 1; i >= 0; i--) {
				shard_file *f = &s->files[i];
				if (f->role != ROLE_FOREIGN || f->group != best)
					continue;
				int named = name_index(f->name) == f->h.index;
				if ((pass == 0 && named) || (pass == 1 && !named))
					continue; /* pass 0 pushes the misnamed, pass 1 the named in front */
				f->next = s->cand[f->h.index];
				s->cand[f->h.index] = f;
			}
		for (int i = 0; i < s->nfiles; i++)
			if (s->files[i].role == ROLE_FOREIGN && s->files[i].group == best)
				s->files[i].role = ROLE_MEMBER;
	}
	free(group_rep);
	free(group_count);
	return 0;
}

/*
 * Read block b of file f into buf (room for len + SHARD_CRC_SIZE bytes).
 * 1: intact; 0: damaged (CRC mismatch); -1: absent (the file is too short).
 */
static int read_block(const shard_set *s, shard_file *f, uint64_t b, uint8_t *buf, uint32_t len)
{
	uint64_t off = shard_block_offset(&s->h, b);
	if (off + len + SHARD_CRC_SIZE > f->size)
		return -1;
	ssize_t got = pread_full(f->fd, buf, (size_t)len + SHARD_CRC_SIZE, off);
	if (got != (ssize_t)len + SHARD_CRC_SIZE)
		return got < 0 ? 0 : -1;
	return get_le32(buf + len) == shard_block_crc(&f->h, b, buf, len);
}

/* Read an intact copy of block b of shard i into buf from any candidate; 1 when found. */
static int read_good_block(const shard_set *s, int i, uint64_t b, uint8_t *buf, uint32_t len)
{
	for (shard_file *f = s->cand[i]; f != NULL; f = f->next)
		if (read_block(s, f, b, buf, len) == 1)
			return 1;
	return 0;
}

/* Report why no set could be chosen; 0 when one was. */
static int set_check_usable(const shard_set *s)
{
	if (s->chosen < 0) {
		if (s->nfiles == 0)
			rs_err("no shard files (*" RS_SUFFIX ") in %s", s->dir);
		else
			rs_err("no readable shard in %s (%d *" RS_SUFFIX " file%s, all with a bad header)",
			       s->dir, s->nfiles, s->nfiles == 1 ? "" : "s");
		return -1;
	}
	if (s->tie) {
		rs_err("%s holds shards of several encodes with equally many shards each; "
		       "move the foreign ones away (gemmkit rs verify lists them)", s->dir);
		return -1;
	}
	return 0;
}

/*
 * Rows of the decoding matrix: with rows[0..k) the shards whose blocks are
 * used, the missing data shard d is row d of the inverse of those rows of
 * the coding matrix. 0, or -1 when singular (a non-MDS matrix).
 */
static int decode_rows(const uint8_t *mat, int k, const int *rows, const int *miss, int nmiss,
                       uint8_t *sub, uint8_t *inv, uint8_t *out)
{
	for (int r = 0; r < k; r++)
		memcpy(sub + (size_t)r * k, mat + (size_t)rows[r] * k, (size_t)k);
	if (gk_gf256_invert_matrix(k, sub, inv) != GK_OK)
		return -1;
	for (int j = 0; j < nmiss; j++)
		memcpy(out + (size_t)j * k, inv + (size_t)miss[j] * k, (size_t)k);
	return 0;
}

/* ---- decode ------------------------------------------------------------------- */

static const char decode_help[] =
"usage: gemmkit rs decode [options] -o FILE DIR\n"
"\n"
"Rebuild the original file from the shard files (*.gkrs) in DIR. Each stripe\n"
"is rebuilt from any k shards whose block for it is intact (CRC32C), so\n"
"missing, truncated, corrupted, duplicated and foreign shards are tolerated\n"
"as long as every stripe keeps k good blocks. Otherwise decode fails and\n"
"writes nothing.\n"
"\n"
"  -o FILE           the file to write (required); it is written to a\n"
"                    temporary file beside it, synced, and renamed into place\n"
"                    only when complete\n"
"  --threads N       threads for the coding arithmetic (default 0: the\n"
"                    library default)\n"
"  -f, --force       replace FILE if it exists (without it, decode refuses)\n"
"  -q, --quiet       no summary on stdout and no progress on stderr\n"
"  -h, --help        this text\n"
"\n"
"Progress is shown on stderr about once a second when stderr is a terminal.\n"
"Exit status: 0 done, 1 failed (FILE not written), 2 bad command line.\n";

static int rs_decode(int argc, char **argv)
{
	rs_opts o;
	int r = parse_opts(argc, argv, OPT_THREADS | OPT_FORCE | OPT_OUT, 1, decode_help, &o);
	if (r != 0)
		return r == 1 ? 0 : 2;
	if (o.npos != 1 || o.out == NULL) {
		rs_err("decode wants -o FILE and one DIR (see --help)");
		return 2;
	}
	const char *out = o.out;
	struct stat ost;
	if (stat(out, &ost) == 0) {
		if (S_ISDIR(ost.st_mode)) {
			rs_err("%s is a directory", out);
			return 1;
		}
		if (!o.force) {
			rs_err("%s exists; use --force to replace it", out);
			return 1;
		}
	}

	shard_set s;
	if (set_open(&s, o.pos[0]) != 0)
		return 1;
	if (set_check_usable(&s) != 0) {
		set_close(&s);
		return 1;
	}
	const shard_header *h = &s.h;
	const int k = h->k, m = h->m, n = k + m;
	if (s.distinct < k) {
		rs_err("only %d of the %d shards of %s are readable in %s; %d are needed", s.distinct, n,
		       h->name[0] ? h->name : "the file", s.dir, k);
		set_close(&s);
		return 1;
	}
	uint8_t *mat = coding_matrix(k, m, h->matrix);
	if (mat == NULL) {
		set_close(&s);
		return 1;
	}

	char *odir = dir_name(out);
	char tmpname[300];
	snprintf(tmpname, sizeof tmpname, ".%.200s.tmp-XXXXXX", base_name(out));
	char *tmp = path_join(odir, tmpname);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		rs_err("cannot create a file in %s: %s", odir, strerror(errno));
		free(tmp);
		free(odir);
		free(mat);
		set_close(&s);
		return 1;
	}
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);

	size_t blk = h->block_count ? shard_block_len(h, 0) : 0;
	size_t slot = (blk + SHARD_CRC_SIZE + RS_ALIGN - 1) / RS_ALIGN * RS_ALIGN;
	uint8_t *buf = xalloc((size_t)n * slot);
	uint8_t *sub = xalloc((size_t)k * k), *inv = xalloc((size_t)k * k), *dec = xalloc((size_t)k * k);
	int *rows = xalloc(sizeof(int) * (size_t)k), *prev_rows = xalloc(sizeof(int) * (size_t)k);
	int *miss = xalloc(sizeof(int) * (size_t)k);
	const uint8_t **src = xalloc(sizeof *src * (size_t)k);
	uint8_t **dst = xalloc(sizeof *dst * (size_t)k);
	int prev_valid = 0;
	gk_context *ctx = make_context(o.threads);
	progress pg;
	progress_start(&pg, "decode", h->file_size, o.quiet);
	double t0 = cli_now();
	uint64_t done = 0, rebuilt_blocks = 0;
	int ok = 1;
	for (uint64_t b = 0; ok && b < h->block_count; b++) {
		uint32_t len = shard_block_len(h, b);
		int good = 0, nmiss = 0;
		/* Data blocks first: when they are intact there is nothing to compute. */
		for (int i = 0; i < n && good < k; i++) {
			uint8_t *p = buf + (size_t)i * slot;
			if (read_good_block(&s, i, b, p, len))
				rows[good++] = i;
			else if (i < k)
				miss[nmiss++] = i;
		}
		if (good < k) {
			rs_err("stripe #%" PRIu64 " (of %" PRIu64 ") has only %d intact blocks; %d are needed: "
			       "cannot rebuild %s", b, h->block_count, good, k, out);
			ok = 0;
			break;
		}
		if (nmiss > 0) {
			int same = prev_valid && memcmp(rows, prev_rows, sizeof(int) * (size_t)k) == 0;
			if (!same && decode_rows(mat, k, rows, miss, nmiss, sub, inv, dec) != 0) {
				rs_err("stripe #%" PRIu64 ": the surviving shards give a singular matrix", b);
				ok = 0;
				break;
			}
			memcpy(prev_rows, rows, sizeof(int) * (size_t)k);
			prev_valid = 1;
			for (int r2 = 0; r2 < k; r2++)
				src[r2] = buf + (size_t)rows[r2] * slot;
			for (int j = 0; j < nmiss; j++)
				dst[j] = buf + (size_t)miss[j] * slot;
			gk_status gs = gk_gf256_gemm_rows_ex(ctx, nmiss, len, k, dec, k, src, dst);
			if (gs != GK_OK) {
				rs_err("decoding failed: %s", gk_strerror(gs));
				ok = 0;
				break;
			}
			rebuilt_blocks += (uint64_t)nmiss;
		}
		for (int i = 0; ok && i < k; i++) {
			uint64_t left = h->file_size - done;
			size_t w = left < len ? (size_t)left : len;
			if (w == 0)
				break;
			if (write_full(fd, buf + (size_t)i * slot, w) != 0) {
				rs_err("cannot write %s: %s", tmp, strerror(errno));
				ok = 0;
			}
			done += w;
		}
		progress_update(&pg, done);
	}
	progress_end(&pg);
	gk_context_destroy(ctx);
	free(buf);
	free(sub);
	free(inv);
	free(dec);
	free(rows);
	free(prev_rows);
	free(miss);
	free(src);
	free(dst);
	free(mat);

	if (ok && fsync(fd) != 0) {
		rs_err("cannot sync %s: %s", tmp, strerror(errno));
		ok = 0;
	}
	if (close(fd) != 0 && ok) {
		rs_err("cannot write %s: %s", tmp, strerror(errno));
		ok = 0;
	}
	if (ok) {
		if (o.force) {
			if (rename(tmp, out) != 0) {
				rs_err("cannot rename to %s: %s", out, strerror(errno));
				ok = 0;
			}
		} else if (renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RENAME_NOREPLACE) != 0) {
			/* No RENAME_NOREPLACE on this file system: a hard link does not replace either. */
			if ((errno == EINVAL || errno == ENOSYS) && link(tmp, out) == 0) {
				unlink(tmp);
			} else {
				if (errno == EEXIST)
					rs_err("%s appeared while decoding; use --force to replace it", out);
				else
					rs_err("cannot rename to %s: %s", out, strerror(errno));
				ok = 0;
			}
		}
	}
	if (!ok)
		unlink(tmp);
	else
		fsync_dir(odir);
	free(tmp);
	free(odir);
	if (ok && !o.quiet) {
		double dt = cli_now() - t0;
		printf("decoded %s (%" PRIu64 " bytes) from %s: %d of %d shards readable, %" PRIu64
		       " block%s rebuilt, %.2f s (%.0f MB/s)\n", out, h->file_size, s.dir, s.distinct, n,
		       rebuilt_blocks, rebuilt_blocks == 1 ? "" : "s", dt, dt > 0 ? h->file_size / dt / 1e6 : 0.0);
	}
	set_close(&s);
	return ok ? 0 : 1;
}

/* ---- verify ------------------------------------------------------------------- */

static const char verify_help[] =
"usage: gemmkit rs verify [options] DIR\n"
"\n"
"Check every shard file (*.gkrs) in DIR: its header, the CRC32C of every\n"
"block, and, for each stripe whose blocks are all intact, that the parity\n"
"matches the data. Prints one line per shard (good, missing, or corrupt and\n"
"why), one line per other file (bad header, foreign: from another encode,\n"
"duplicate), and whether the file can be decoded.\n"
"\n"
"  --threads N       threads for the parity check (default 0: the library default)\n"
"  -q, --quiet       print only the last line (the result)\n"
"  -h, --help        this text\n"
"\n"
"The last line is one of\n"
"  result: ok                       every shard is good\n"
"  result: damaged, decodable       something is wrong; decode still works\n"
"  result: NOT decodable            some stripe has fewer than k good blocks\n"
"Exit status: 0 when every shard is good and DIR holds no other shard file\n"
"(bad, foreign or duplicate), 1 otherwise, 2 bad command line.\n";

static int rs_verify(int argc, char **argv)
{
	rs_opts o;
	int r = parse_opts(argc, argv, OPT_THREADS, 1, verify_help, &o);
	if (r != 0)
		return r == 1 ? 0 : 2;
	if (o.npos != 1) {
		rs_err("verify wants one DIR (see --help)");
		return 2;
	}
	shard_set s;
	if (set_open(&s, o.pos[0]) != 0)
		return 1;
	if (s.chosen < 0) {
		if (!o.quiet)
			for (int i = 0; i < s.nfiles; i++)
				printf("file %s: unusable: %s\n", s.files[i].name, s.files[i].why);
		printf("result: NOT decodable (%s)\n", s.nfiles ? "no readable shard" : "no shard files");
		set_close(&s);
		return 1;
	}
	const shard_header *h = &s.h;
	const int k = h->k, m = h->m, n = k + m;
	uint8_t *mat = coding_matrix(k, m, h->matrix);
	if (mat == NULL) {
		set_close(&s);
		return 1;
	}

	/* Slots: n shard blocks, one scratch block for extra copies of a shard
	 * that is intact already, and m blocks of recomputed parity. */
	size_t blk = h->block_count ? shard_block_len(h, 0) : 0;
	size_t slot = (blk + SHARD_CRC_SIZE + RS_ALIGN - 1) / RS_ALIGN * RS_ALIGN;
	uint8_t *buf = xalloc((size_t)(n + 1 + m) * slot);
	uint8_t *scratch = buf + (size_t)n * slot;
	uint8_t *good = xalloc((size_t)n);
	uint64_t *mismatch = xalloc(sizeof(uint64_t) * (size_t)n);
	memset(mismatch, 0, sizeof(uint64_t) * (size_t)n);
	const uint8_t **dptr = xalloc(sizeof *dptr * (size_t)k);
	uint8_t **pptr = xalloc(sizeof *pptr * (size_t)m);
	int *pidx = xalloc(sizeof(int) * (size_t)m);
	uint8_t *prow = xalloc((size_t)m * k);
	gk_context *ctx = make_context(o.threads);
	int min_good = h->block_count ? n : s.distinct;
	uint64_t worst_block = 0, undecodable = 0;
	progress pg;
	progress_start(&pg, "verify", h->file_size, o.quiet);
	uint64_t done = 0;
	for (uint64_t b = 0; b < h->block_count; b++) {
		uint32_t len = shard_block_len(h, b);
		int ngood = 0;
		for (int i = 0; i < n; i++) {
			good[i] = 0;
			/* Every candidate is read, to report on each file; the first
			 * intact copy is the one kept. */
			for (shard_file *f = s.cand[i]; f != NULL; f = f->next) {
				int rb = read_block(&s, f, b, good[i] ? scratch : buf + (size_t)i * slot, len);
				if (rb == 1) {
					f->good_blocks++;
					good[i] = 1;
				} else if (rb == 0) {
					if (f->bad_blocks++ == 0)
						f->first_bad = b;
				} else {
					f->absent_blocks++;
				}
			}
			ngood += good[i];
		}
		if (ngood < min_good) {
			min_good = ngood;
			worst_block = b;
		}
		if (ngood < k)
			undecodable++;
		/* With all data blocks intact, the intact parity blocks must be
		 * exactly what encoding the data gives. */
		int all_data = 1;
		for (int i = 0; i < k; i++)
			all_data &= good[i];
		int nchk = 0;
		for (int j = 0; all_data && j < m; j++)
			if (good[k + j]) {
				memcpy(prow + (size_t)nchk * k, mat + (size_t)(k + j) * k, (size_t)k);
				pidx[nchk] = k + j;
				pptr[nchk] = scratch + (size_t)(1 + nchk) * slot;
				nchk++;
			}
		if (nchk > 0) {
			for (int i = 0; i < k; i++)
				dptr[i] = buf + (size_t)i * slot;
			gk_status gs = gk_gf256_gemm_rows_ex(ctx, nchk, len, k, prow, k, dptr, pptr);
			for (int j = 0; j < nchk; j++)
				if (gs != GK_OK || memcmp(pptr[j], buf + (size_t)pidx[j] * slot, len) != 0)
					mismatch[pidx[j]]++;
		}
		done += (uint64_t)k * len;
		progress_update(&pg, done < h->file_size ? done : h->file_size);
	}
	progress_end(&pg);
	gk_context_destroy(ctx);

	/* The report. */
	int all_good = 1;
	char id[2 * SHARD_ID_SIZE + 1];
	shard_id_hex(h->file_id, id);
	if (!o.quiet)
		printf("set: \"%s\", %" PRIu64 " bytes, k=%d m=%d %s, stripe %u bytes, %" PRIu64
		       " block%s per shard, id %s\n", h->name, h->file_size, k, m, matrix_name(h->matrix),
		       h->stripe_size, h->block_count, h->block_count == 1 ? "" : "s", id);
	for (int i = 0; i < n; i++) {
		shard_file *best = NULL;
		for (shard_file *f = s.cand[i]; f != NULL; f = f->next)
			if (f->bad_blocks == 0 && f->absent_blocks == 0 && f->size == shard_file_bytes(h)) {
				best = f;
				break;
			}
		if (best != NULL && mismatch[i] == 0) {
			if (!o.quiet)
				printf("shard %3d: good     %s\n", i, best->name);
			continue;
		}
		all_good = 0;
		if (o.quiet)
			continue;
		if (s.cand[i] == NULL) {
			printf("shard %3d: missing\n", i);
			continue;
		}
		if (best != NULL) {
			printf("shard %3d: corrupt  %s: parity does not match the data in %" PRIu64
			       " stripe%s (all CRCs intact)\n", i, best->name, mismatch[i], mismatch[i] == 1 ? "" : "s");
			continue;
		}
		shard_file *f = s.cand[i];
		printf("shard %3d: corrupt  %s:", i, f->name);
		if (f->bad_blocks > 0)
			printf(" %" PRIu64 " of %" PRIu64 " blocks fail their CRC (first: #%" PRIu64 ")%s",
			       f->bad_blocks, h->block_count, f->first_bad, f->absent_blocks ? ";" : "");
		if (f->absent_blocks > 0 || f->size < shard_file_bytes(h))
			printf(" truncated: %" PRIu64 " of %" PRIu64 " bytes, %" PRIu64 " block%s missing",
			       f->size, shard_file_bytes(h), f->absent_blocks, f->absent_blocks == 1 ? "" : "s");
		else if (f->size > shard_file_bytes(h))
			printf("%s %" PRIu64 " bytes past the end", f->bad_blocks ? ";" : "",
			       f->size - shard_file_bytes(h));
		printf("\n");
	}
	for (int i = 0; i < s.nfiles; i++) {
		shard_file *f = &s.files[i];
		int claimed = name_index(f->name);
		if (f->role == ROLE_BAD_HEADER || f->role == ROLE_UNREADABLE) {
			all_good = 0;
			if (!o.quiet)
				printf("file %s: unusable: %s\n", f->name, f->why);
		} else if (f->role == ROLE_FOREIGN) {
			all_good = 0;
			if (!o.quiet) {
				char fid[2 * SHARD_ID_SIZE + 1];
				shard_id_hex(f->h.file_id, fid);
				printf("file %s: foreign: shard %d of another encode (\"%s\", k=%d m=%d, id %s)\n",
				       f->name, f->h.index, f->h.name, f->h.k, f->h.m, fid);
			}
		} else if (s.cand[f->h.index] != f) {
			all_good = 0;
			if (!o.quiet)
				printf("file %s: duplicate: holds shard %d, as %s does\n", f->name, f->h.index,
				       s.cand[f->h.index]->name);
		} else if (claimed >= 0 && claimed != f->h.index) {
			all_good = 0;
			if (!o.quiet)
				printf("file %s: misnamed: holds shard %d\n", f->name, f->h.index);
		}
	}
	int decodable = h->block_count ? undecodable == 0 : s.distinct >= k;
	if (!o.quiet) {
		if (h->block_count)
			printf("decodable: %s (fewest intact blocks in a stripe: %d, in stripe #%" PRIu64
			       "; k = %d)\n", decodable ? "yes" : "no", min_good, worst_block, k);
		else
			printf("decodable: %s (%d of %d shards readable; k = %d)\n", decodable ? "yes" : "no",
			       s.distinct, n, k);
		if (s.tie)
			printf("warning: another encode has as many shards in %s as this one\n", s.dir);
	}
	if (s.tie)
		all_good = 0;
	printf("result: %s\n", all_good ? "ok" : decodable ? "damaged, decodable" : "NOT decodable");
	free(buf);
	free(good);
	free(mismatch);
	free(dptr);
	free(pptr);
	free(pidx);
	free(prow);
	free(mat);
	set_close(&s);
	return all_good ? 0 : 1;
}

/* ---- dispatch --------------------------------------------------------------------- */

static const char rs_help[] =
"usage: gemmkit rs <encode|decode|verify> [options]\n"
"\n"
"Reed-Solomon erasure coding of files (docs/RS_FORMAT.md):\n"
"  encode -k K -m M -o DIR FILE   split FILE into k + m shard files in DIR\n"
"  decode -o FILE DIR             rebuild FILE from any k good shards in DIR\n"
"  verify DIR                     check the shards in DIR (exit 0: all good)\n"
"\n"
"`gemmkit rs <command> --help` describes each command.\n";

int gk_cmd_rs(int argc, char **argv)
{
	if (argc < 2) {
		fputs(rs_help, stderr);
		return 2;
	}
	const char *sub = argv[1];
	if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0) {
		fputs(rs_help, stdout);
		return 0;
	}
	if (strcmp(sub, "encode") == 0) {
		cmd_name = "rs encode";
		return rs_encode(argc - 1, argv + 1);
	}
	if (strcmp(sub, "decode") == 0) {
		cmd_name = "rs decode";
		return rs_decode(argc - 1, argv + 1);
	}
	if (strcmp(sub, "verify") == 0) {
		cmd_name = "rs verify";
		return rs_verify(argc - 1, argv + 1);
	}
	rs_err("unknown command '%s' (encode, decode or verify)", sub);
	return 2;
}
