/*
 * gemm_io.c - the matrices of `gemmkit gemm` in and out: the --a/--b/--c
 * .npy files read, the --save-* and --save files written, and --print.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli_util.h"
#include "gemm_cmd.h"

int gemm_load_inputs(gemm_opts *o, npy_matrix in[3])
{
	for (int x = 0; x < 3; x++) {
		if (o->in[x] == NULL)
			continue;
		char err[256];
		int rc = npy_read(o->in[x], &in[x], err, sizeof err);
		if (rc != 0) {
			cli_error(GEMM_CMD, "%s: %s", o->in[x], err);
			return rc == NPY_ERR_NOMEM ? 1 : 2;
		}
		if (in[x].rows < 1 || in[x].cols < 1) {
			cli_error(GEMM_CMD, "%s: the matrix of shape (%lld, %lld) is empty", o->in[x],
			          (long long)in[x].rows, (long long)in[x].cols);
			return 2;
		}
		if (in[x].rows > GEMM_MAX_SIZE || in[x].cols > GEMM_MAX_SIZE) {
			cli_error(GEMM_CMD, "%s: shape (%lld, %lld) is too large", o->in[x],
			          (long long)in[x].rows, (long long)in[x].cols);
			return 2;
		}
	}
	/* The dtype: --dtype, else that of the first input file. */
	if (!o->dtype_set)
		for (int x = 0; x < 3; x++)
			if (o->in[x]) {
				o->dtype = in[x].dtype;
				break;
			}
	return 0;
}

static int save_one(const char *path, const gemm_problem *p, const void *data, int64_t rows,
                    int64_t cols)
{
	npy_matrix mat = {p->dtype, p->layout == GK_COL_MAJOR, rows, cols, (void *)data};
	char err[256];
	if (npy_write(path, &mat, err, sizeof err) != 0) {
		cli_error(GEMM_CMD, "%s: %s", path, err);
		return 1;
	}
	printf("saved:     %s (%lld x %lld, %s)\n", path, (long long)rows, (long long)cols,
	       npy_dtype_name(p->dtype));
	return 0;
}

int gemm_save_outputs(const gemm_opts *o, const gemm_problem *p)
{
	const int64_t ar = p->ta == GK_NO_TRANS ? p->m : p->k, ac = p->ta == GK_NO_TRANS ? p->k : p->m;
	const int64_t br = p->tb == GK_NO_TRANS ? p->k : p->n, bc = p->tb == GK_NO_TRANS ? p->n : p->k;
	int rc = 0;
	if (o->save[0]) rc |= save_one(o->save[0], p, p->a, ar, ac);
	if (o->save[1]) rc |= save_one(o->save[1], p, p->b, br, bc);
	if (o->save[2]) rc |= save_one(o->save[2], p, p->c, p->m, p->n);
	if (o->save_dir) {
		if (mkdir(o->save_dir, 0777) != 0 && errno != EEXIST) {
			cli_error(GEMM_CMD, "cannot create the folder %s: %s", o->save_dir, strerror(errno));
			return 1;
		}
		const size_t len = strlen(o->save_dir) + 16;
		char *path = malloc(len);
		if (path == NULL) {
			cli_error(GEMM_CMD, "out of memory");
			return 1;
		}
		snprintf(path, len, "%s/A.npy", o->save_dir);
		rc |= save_one(path, p, p->a, ar, ac);
		snprintf(path, len, "%s/B.npy", o->save_dir);
		rc |= save_one(path, p, p->b, br, bc);
		snprintf(path, len, "%s/C.npy", o->save_dir);
		rc |= save_one(path, p, p->c, p->m, p->n);
		if (p->beta != 0) {
			snprintf(path, len, "%s/C0.npy", o->save_dir);
			rc |= save_one(path, p, p->c0, p->m, p->n);
		}
		free(path);
	}
	return rc;
}

/* Element (i, j) of the rows x cols matrix x stored with leading dimension
 * ld, transposed first when t says so. */
static double elem(const gemm_problem *p, const void *x, gk_trans t, int64_t i, int64_t j,
                   int64_t ld)
{
	if (t == GK_TRANS) {
		const int64_t s = i;
		i = j;
		j = s;
	}
	const size_t idx = p->layout == GK_ROW_MAJOR ? (size_t)(i * ld + j) : (size_t)(i + j * ld);
	return p->dtype == NPY_F64 ? ((const double *)x)[idx] : (double)((const float *)x)[idx];
}

static void print_one(const char *name, int64_t rows, int64_t cols, const gemm_problem *p,
                      const void *x, gk_trans t, int64_t ld)
{
	printf("%s (%lld x %lld):\n", name, (long long)rows, (long long)cols);
	for (int64_t i = 0; i < rows; i++) {
		for (int64_t j = 0; j < cols; j++)
			printf("%s% .*g", j ? " " : "  ", p->dtype == NPY_F64 ? 17 : 9,
			       elem(p, x, t, i, j, ld));
		printf("\n");
	}
}

void gemm_print_matrices(const gemm_problem *p)
{
	print_one("op(A)", p->m, p->k, p, p->a, p->ta, p->lda);
	print_one("op(B)", p->k, p->n, p, p->b, p->tb, p->ldb);
	print_one("C", p->m, p->n, p, p->c, GK_NO_TRANS, p->ldc);
}
