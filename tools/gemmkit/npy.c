/* npy.c - see npy.h. The format is NumPy's "NEP 1" .npy: a 6-byte magic,
 * a version, a little-endian header length, a Python dict literal, then the
 * raw elements. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "npy.h"

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* NumPy itself refuses headers above 10000 bytes by default; a 2-D matrix
 * needs about 100, so anything near this limit is not a file we wrote or one
 * NumPy would read without being told to. */
#define NPY_MAX_HEADER (1u << 20)
#define NPY_MAX_DIMS 32

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	if (err != NULL && errlen > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

const char *npy_dtype_name(npy_dtype dtype)
{
	return dtype == NPY_F64 ? "float64" : "float32";
}

static int host_is_big_endian(void)
{
	const uint16_t one = 1;
	unsigned char b;
	memcpy(&b, &one, 1);
	return b == 0;
}

/* The file's elements are little-endian; only a big-endian host swaps. */
static void swap_elements(void *data, size_t count, size_t esize)
{
	unsigned char *p = data;
	for (size_t i = 0; i < count; i++, p += esize)
		for (size_t a = 0, b = esize - 1; a < b; a++, b--) {
			unsigned char t = p[a];
			p[a] = p[b];
			p[b] = t;
		}
}

static void *alloc_aligned(size_t bytes)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, bytes > 0 ? bytes : 64) != 0)
		return NULL;
	return p;
}

void npy_free(npy_matrix *m)
{
	if (m == NULL)
		return;
	free(m->data);
	memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- header -- */

typedef struct {
	const char *p, *end;
	char *err;
	size_t errlen;
} hparse;

static void skip_ws(hparse *h)
{
	while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
		h->p++;
}

static int expect(hparse *h, char c, const char *what)
{
	skip_ws(h);
	if (h->p >= h->end)
		return fail(h->err, h->errlen, NPY_ERR_FORMAT,
		            "header ends where %s was expected", what);
	if (*h->p != c) {
		const unsigned char b = (unsigned char)*h->p;
		if (b < 0x20 || b >= 0x7f)
			return fail(h->err, h->errlen, NPY_ERR_FORMAT,
			            "header has the byte 0x%02x where %s was expected", b, what);
		return fail(h->err, h->errlen, NPY_ERR_FORMAT,
		            "header has '%c' where %s was expected", b, what);
	}
	h->p++;
	return 0;
}

/* A quoted Python string without escapes; up to cap - 1 characters. */
static int parse_string(hparse *h, char *out, size_t cap, const char *what)
{
	skip_ws(h);
	if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
		return fail(h->err, h->errlen, NPY_ERR_FORMAT,
		            "header: %s is not a quoted string", what);
	const char q = *h->p++;
	size_t n = 0;
	while (h->p < h->end && *h->p != q) {
		unsigned char c = (unsigned char)*h->p;
		if (c == '\\' || c < 0x20 || c >= 0x7f || n + 1 >= cap)
			return fail(h->err, h->errlen, NPY_ERR_FORMAT,
			            "header: %s is not a short plain string", what);
		out[n++] = (char)c;
		h->p++;
	}
	if (h->p >= h->end)
		return fail(h->err, h->errlen, NPY_ERR_FORMAT,
		            "header: unterminated string in %s", what);
	h->p++;
	out[n] = '\0';
	return 0;
}

static int match_word(hparse *h, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(h->end - h->p) < n || memcmp(h->p, w, n) != 0)
		return 0;
	/* "Truex" is not True. */
	if ((size_t)(h->end - h->p) > n) {
		char c = h->p[n];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
			return 0;
	}
	h->p += n;
	return 1;
}

static int parse_bool(hparse *h, int *out)
{
	skip_ws(h);
	if (match_word(h, "True"))
		*out = 1;
	else if (match_word(h, "False"))
		*out = 0;
	else
		return fail(h->err, h->errlen, NPY_ERR_FORMAT,
		            "header: fortran_order is neither True nor False");
	return 0;
}

/* A tuple of non-negative integers: (), (3,), (3, 4), (3, 4, ). */
static int parse_shape(hparse *h, int64_t *dims, int *ndim)
{
	int rc = expect(h, '(', "'(' opening the shape");
	if (rc)
		return rc;
	*ndim = 0;
	for (;;) {
		skip_ws(h);
		/* Only "()" or a trailing comma lets ')' come here. */
		if (h->p < h->end && *h->p == ')') {
			h->p++;
			return 0;
		}
		if (h->p < h->end && *h->p == '-')
			return fail(h->err, h->errlen, NPY_ERR_FORMAT, "header: negative dimension in the shape");
		if (h->p >= h->end || *h->p < '0' || *h->p > '9')
			return fail(h->err, h->errlen, NPY_ERR_FORMAT,
			            "header: the shape is not a tuple of integers");
		int64_t v = 0;
		while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
			/* Past 2^62 no file could hold the data; stop before overflow. */
			if (v > ((int64_t)1 << 62) / 10)
				return fail(h->err, h->errlen, NPY_ERR_FORMAT,
				            "header: a dimension of the shape is impossibly large");
			v = v * 10 + (*h->p - '0');
			h->p++;
		}
		/* Python 2 wrote long integers as "3L". */
		if (h->p < h->end && (*h->p == 'L' || *h->p == 'l'))
			h->p++;
		if (*ndim >= NPY_MAX_DIMS)
			return fail(h->err, h->errlen, NPY_ERR_FORMAT, "header: the shape has too many dimensions");
		dims[(*ndim)++] = v;
		skip_ws(h);
		if (h->p < h->end && *h->p == ',') {
			h->p++;
			continue;
		}
		rc = expect(h, ')', "',' or ')' in the shape");
		if (rc)
			return rc;
		/* "(3)" is the integer 3 in Python, not a tuple: one element needs
		 * its comma, and the comma path returns above. */
		if (*ndim == 1)
			return fail(h->err, h->errlen, NPY_ERR_FORMAT, "header: the shape is not a tuple");
		return 0;
	}
}

typedef struct {
	char descr[32];
	int fortran_order;
	int64_t dims[NPY_MAX_DIMS];
	int ndim;
} npy_header;

static int parse_header(const char *text, size_t len, npy_header *hd, char *err, size_t errlen)
{
	hparse h = {text, text + len, err, errlen};
	int seen_descr = 0, seen_order = 0, seen_shape = 0;
	int rc = expect(&h, '{', "'{' opening the header dict");
	if (rc)
		return rc;
	for (;;) {
		skip_ws(&h);
		if (h.p < h.end && *h.p == '}') {
			h.p++;
			break;
		}
		char key[32];
		rc = parse_string(&h, key, sizeof key, "a key of the header dict");
		if (rc)
			return rc;
		rc = expect(&h, ':', "':' after a key");
		if (rc)
			return rc;
		int *seen;
		if (strcmp(key, "descr") == 0) {
			seen = &seen_descr;
			skip_ws(&h);
			if (h.p < h.end && *h.p == '[')
				return fail(err, errlen, NPY_ERR_FORMAT,
				            "structured dtypes are not supported: only '<f4' and '<f8' are");
			rc = parse_string(&h, hd->descr, sizeof hd->descr, "descr");
		} else if (strcmp(key, "fortran_order") == 0) {
			seen = &seen_order;
			rc = parse_bool(&h, &hd->fortran_order);
		} else if (strcmp(key, "shape") == 0) {
			seen = &seen_shape;
			rc = parse_shape(&h, hd->dims, &hd->ndim);
		} else {
			return fail(err, errlen, NPY_ERR_FORMAT, "header has an unexpected key '%s'", key);
		}
		if (rc)
			return rc;
		if (*seen)
			return fail(err, errlen, NPY_ERR_FORMAT, "header has the key '%s' twice", key);
		*seen = 1;
		skip_ws(&h);
		if (h.p < h.end && *h.p == ',') {
			h.p++;
			continue;
		}
		rc = expect(&h, '}', "',' or '}' after a value");
		if (rc)
			return rc;
		break;
	}
	skip_ws(&h);
	if (h.p != h.end)
		return fail(err, errlen, NPY_ERR_FORMAT, "header has unexpected text after its dict");
	if (!seen_descr || !seen_order || !seen_shape)
		return fail(err, errlen, NPY_ERR_FORMAT, "header lacks the key '%s'",
		            !seen_descr ? "descr" : !seen_order ? "fortran_order" : "shape");
	return 0;
}

static int check_header(const npy_header *hd, npy_dtype *dtype, char *err, size_t errlen)
{
	if (strcmp(hd->descr, "<f4") == 0)
		*dtype = NPY_F32;
	else if (strcmp(hd->descr, "<f8") == 0)
		*dtype = NPY_F64;
	else if (strcmp(hd->descr, ">f4") == 0 || strcmp(hd->descr, ">f8") == 0)
		return fail(err, errlen, NPY_ERR_FORMAT,
		            "big-endian dtype '%s' is not supported: save it as '<%s' (little-endian)",
		            hd->descr, hd->descr + 1);
	else
		return fail(err, errlen, NPY_ERR_FORMAT,
		            "dtype '%s' is not supported: only '<f4' (float32) and '<f8' (float64) are",
		            hd->descr);
	if (hd->ndim == 0)
		return fail(err, errlen, NPY_ERR_FORMAT, "a scalar (shape ()) is not a matrix");
	if (hd->ndim == 1)
		return fail(err, errlen, NPY_ERR_FORMAT,
		            "a 1-D array of shape (%lld,) is not a matrix: reshape it to (%lld, 1) or (1, %lld)",
		            (long long)hd->dims[0], (long long)hd->dims[0], (long long)hd->dims[0]);
	if (hd->ndim > 2)
		return fail(err, errlen, NPY_ERR_FORMAT,
		            "a %d-D array is not a matrix: only 2-D arrays are supported", hd->ndim);
	return 0;
}

/* ------------------------------------------------------------------ read -- */

static uint32_t le16(const unsigned char *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8; }
static uint32_t le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static int read_fd(FILE *f, npy_matrix *out, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(fileno(f), &st) != 0)
		return fail(err, errlen, NPY_ERR_IO, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(err, errlen, NPY_ERR_IO, "not a regular file");
	const uint64_t size = (uint64_t)st.st_size;

	unsigned char pre[12];
	if (size < 10)
		return fail(err, errlen, NPY_ERR_FORMAT,
		            "not a .npy file: only %llu bytes long", (unsigned long long)size);
	if (fread(pre, 1, 10, f) != 10)
		return fail(err, errlen, NPY_ERR_IO, "read error: %s", strerror(errno));
	if (memcmp(pre, npy_magic, sizeof npy_magic) != 0)
		return fail(err, errlen, NPY_ERR_FORMAT, "not a .npy file: the magic string is missing");
	const int major = pre[6], minor = pre[7];
	uint64_t hlen, off;
	if (major == 1 && minor == 0) {
		hlen = le16(pre + 8);
		off = 10;
	} else if ((major == 2 || major == 3) && minor == 0) {
		if (size < 12)
			return fail(err, errlen, NPY_ERR_FORMAT, "truncated .npy file: no header length");
		if (fread(pre + 10, 1, 2, f) != 2)
			return fail(err, errlen, NPY_ERR_IO, "read error: %s", strerror(errno));
		hlen = le32(pre + 8);
		off = 12;
	} else {
		return fail(err, errlen, NPY_ERR_FORMAT,
		            ".npy format version %d.%d is not supported (1.0, 2.0 and 3.0 are)", major, minor);
	}
	if (hlen > NPY_MAX_HEADER)
		return fail(err, errlen, NPY_ERR_FORMAT, "the header length %llu is implausibly large",
		            (unsigned long long)hlen);
	if (off + hlen > size)
		return fail(err, errlen, NPY_ERR_FORMAT,
		            "truncated .npy file: the header needs %llu bytes, the file has %llu",
		            (unsigned long long)(off + hlen), (unsigned long long)size);

	char *text = malloc(hlen + 1);
	if (text == NULL)
		return fail(err, errlen, NPY_ERR_NOMEM, "out of memory");
	if (fread(text, 1, hlen, f) != hlen) {
		free(text);
		return fail(err, errlen, NPY_ERR_IO, "read error: %s", strerror(errno));
	}
	text[hlen] = '\0';
	npy_header hd;
	memset(&hd, 0, sizeof hd);
	int rc = parse_header(text, hlen, &hd, err, errlen);
	free(text);
	if (rc)
		return rc;
	npy_dtype dtype = NPY_F32;
	rc = check_header(&hd, &dtype, err, errlen);
	if (rc)
		return rc;

	uint64_t count, bytes;
	if (__builtin_mul_overflow((uint64_t)hd.dims[0], (uint64_t)hd.dims[1], &count) ||
	    __builtin_mul_overflow(count, (uint64_t)dtype, &bytes) || bytes > (uint64_t)SIZE_MAX ||
	    count > (uint64_t)INT64_MAX)
		return fail(err, errlen, NPY_ERR_FORMAT, "the shape (%lld, %lld) is impossibly large",
		            (long long)hd.dims[0], (long long)hd.dims[1]);
	const uint64_t left = size - off - hlen;
	if (left < bytes)
		return fail(err, errlen, NPY_ERR_FORMAT,
		            "truncated .npy file: shape (%lld, %lld) needs %llu bytes of data, %llu follow the header",
		            (long long)hd.dims[0], (long long)hd.dims[1],
		            (unsigned long long)bytes, (unsigned long long)left);
	if (left > bytes)
		return fail(err, errlen, NPY_ERR_FORMAT,
		            "%llu unexpected bytes after the data of shape (%lld, %lld)",
		            (unsigned long long)(left - bytes), (long long)hd.dims[0], (long long)hd.dims[1]);

	void *data = alloc_aligned((size_t)bytes);
	if (data == NULL)
		return fail(err, errlen, NPY_ERR_NOMEM, "out of memory for %llu bytes",
		            (unsigned long long)bytes);
	if (fread(data, 1, (size_t)bytes, f) != (size_t)bytes) {
		free(data);
		return fail(err, errlen, NPY_ERR_IO, "read error: %s",
		            ferror(f) ? strerror(errno) : "the file shrank while being read");
	}
	if (host_is_big_endian())
		swap_elements(data, (size_t)count, (size_t)dtype);
	out->dtype = dtype;
	out->fortran_order = hd.fortran_order;
	out->rows = hd.dims[0];
	out->cols = hd.dims[1];
	out->data = data;
	return 0;
}

int npy_read(const char *path, npy_matrix *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return fail(err, errlen, NPY_ERR_IO, "cannot open: %s", strerror(errno));
	int rc = read_fd(f, out, err, errlen);
	fclose(f);
	return rc;
}

/* ----------------------------------------------------------------- write -- */

static int write_data(FILE *f, const void *data, size_t count, size_t esize)
{
	if (!host_is_big_endian())
		return fwrite(data, esize, count, f) == count ? 0 : -1;
	unsigned char buf[65536];
	const unsigned char *p = data;
	const size_t per = sizeof buf / esize;
	while (count > 0) {
		size_t n = count < per ? count : per;
		memcpy(buf, p, n * esize);
		swap_elements(buf, n, esize);
		if (fwrite(buf, esize, n, f) != n)
			return -1;
		p += n * esize;
		count -= n;
	}
	return 0;
}

int npy_write(const char *path, const npy_matrix *m, char *err, size_t errlen)
{
	if (m->rows < 0 || m->cols < 0 || (m->dtype != NPY_F32 && m->dtype != NPY_F64))
		return fail(err, errlen, NPY_ERR_FORMAT, "invalid matrix description");
	size_t count;
	if (__builtin_mul_overflow((size_t)m->rows, (size_t)m->cols, &count))
		return fail(err, errlen, NPY_ERR_FORMAT, "matrix too large");

	/* The preamble plus the header is padded to a multiple of 64 bytes, and
	 * the header ends in '\n', as NumPy writes it, so the data is aligned. */
	char dict[160];
	int dlen = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (%lld, %lld), }",
	                    m->dtype == NPY_F64 ? "<f8" : "<f4", m->fortran_order ? "True" : "False",
	                    (long long)m->rows, (long long)m->cols);
	size_t pre = 10;
	size_t total = (pre + (size_t)dlen + 1 + 63) / 64 * 64;
	if (total - pre > 65535) {
		pre = 12;
		total = (pre + (size_t)dlen + 1 + 63) / 64 * 64;
	}
	const size_t hlen = total - pre;
	unsigned char head[sizeof dict + 128];
	memcpy(head, npy_magic, sizeof npy_magic);
	head[6] = pre == 10 ? 1 : 2;
	head[7] = 0;
	head[8] = (unsigned char)(hlen & 0xff);
	head[9] = (unsigned char)(hlen >> 8 & 0xff);
	if (pre == 12) {
		head[10] = (unsigned char)(hlen >> 16 & 0xff);
		head[11] = (unsigned char)(hlen >> 24 & 0xff);
	}
	memcpy(head + pre, dict, (size_t)dlen);
	memset(head + pre + dlen, ' ', hlen - (size_t)dlen - 1);
	head[total - 1] = '\n';

	const size_t plen = strlen(path);
	char *tmp = malloc(plen + 5);
	if (tmp == NULL)
		return fail(err, errlen, NPY_ERR_NOMEM, "out of memory");
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp", 5);
	FILE *f = fopen(tmp, "wb");
	if (f == NULL) {
		int rc = fail(err, errlen, NPY_ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	int bad = fwrite(head, 1, total, f) != total || write_data(f, m->data, count, (size_t)m->dtype) != 0;
	bad = bad || fflush(f) != 0 || fsync(fileno(f)) != 0;
	int saved = errno;
	if (fclose(f) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	if (!bad && rename(tmp, path) != 0) {
		bad = 1;
		saved = errno;
	}
	if (bad) {
		unlink(tmp);
		free(tmp);
		return fail(err, errlen, NPY_ERR_IO, "write error: %s", strerror(saved));
	}
	free(tmp);
	return 0;
}

/* --------------------------------------------------------------- convert -- */

static double get(const void *p, npy_dtype t, size_t i)
{
	return t == NPY_F64 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static void put(void *p, npy_dtype t, size_t i, double v)
{
	if (t == NPY_F64)
		((double *)p)[i] = v;
	else
		((float *)p)[i] = (float)v;
}

int npy_convert(npy_matrix *m, npy_dtype dtype, int fortran_order, char *err, size_t errlen)
{
	fortran_order = fortran_order != 0;
	if (m->dtype == dtype && m->fortran_order == fortran_order)
		return 0;
	const size_t rows = (size_t)m->rows, cols = (size_t)m->cols;
	void *dst = alloc_aligned(rows * cols * (size_t)dtype);
	if (dst == NULL)
		return fail(err, errlen, NPY_ERR_NOMEM, "out of memory");
	if (m->fortran_order == fortran_order) {
		for (size_t i = 0; i < rows * cols; i++)
			put(dst, dtype, i, get(m->data, m->dtype, i));
	} else if (!m->fortran_order) {
		/* row-major to column-major */
		for (size_t i = 0; i < rows; i++)
			for (size_t j = 0; j < cols; j++)
				put(dst, dtype, i + j * rows, get(m->data, m->dtype, i * cols + j));
	} else {
		for (size_t j = 0; j < cols; j++)
			for (size_t i = 0; i < rows; i++)
				put(dst, dtype, i * cols + j, get(m->data, m->dtype, i + j * rows));
	}
	free(m->data);
	m->data = dst;
	m->dtype = dtype;
	m->fortran_order = fortran_order;
	return 0;
}
