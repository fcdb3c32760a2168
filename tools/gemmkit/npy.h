/*
 * npy.h - reading and writing 2-D matrices in the NumPy .npy format.
 *
 * Read: format versions 1.0, 2.0 and 3.0; dtype '<f4' (float32) or '<f8'
 * (float64); a shape of exactly two dimensions; fortran_order True or False.
 * Anything else is refused with a message that says what was found. The
 * header is parsed as the small Python dict literal it is (keys in any order,
 * either quote, any spacing, trailing commas), and every size in it is checked
 * against the file's real length before any memory is allocated, so a
 * truncated or hostile file gives an error, never a crash or a huge
 * allocation.
 *
 * Write: version 1.0 (2.0 only when the header would not fit in 1.0), to
 * FILE.tmp first and then renamed over FILE, so that a reader never sees a
 * half-written file under the final name.
 */
#ifndef GK_NPY_H
#define GK_NPY_H

#include <stddef.h>
#include <stdint.h>

/* The element types; the value is the element size in bytes. */
typedef enum npy_dtype {
	NPY_F32 = 4,
	NPY_F64 = 8
} npy_dtype;

/* Return codes: 0, or one of these. */
#define NPY_ERR_IO (-1)     /* the file could not be opened, read or written */
#define NPY_ERR_FORMAT (-2) /* the file is not a .npy matrix we can use */
#define NPY_ERR_NOMEM (-3)  /* an allocation failed */

/* A matrix of rows x cols. With fortran_order = 0 element (i, j) is
 * data[i * cols + j] (row-major, C order); with 1 it is data[i + j * rows]. */
typedef struct npy_matrix {
	npy_dtype dtype;
	int fortran_order;
	int64_t rows, cols;
	void *data; /* 64-byte aligned; release with npy_free */
} npy_matrix;

/* Read a .npy file into *out (zeroed on failure). On failure a one-line
 * message (without the path) is written to err. */
int npy_read(const char *path, npy_matrix *out, char *err, size_t errlen);

/* Write m to path as a .npy file (through path.tmp and a rename). */
int npy_write(const char *path, const npy_matrix *m, char *err, size_t errlen);

/* Convert m in place to the given dtype and storage order (the logical
 * matrix stays the same). Narrowing float64 to float32 rounds each element. */
int npy_convert(npy_matrix *m, npy_dtype dtype, int fortran_order, char *err, size_t errlen);

/* Release m's data and zero it; NULL is ignored. */
void npy_free(npy_matrix *m);

/* "float32" or "float64". */
const char *npy_dtype_name(npy_dtype dtype);

#endif
