/*
 * compare_outputs.c - run two builds of cblas_program (one linked against
 * libgemmkit, one against a reference CBLAS) and check that they print the
 * same: the same lines and labels, "nan" where the other has "nan", and
 * numbers that agree within the rounding error GEMM may make.
 *
 * Only the programs' own lines count, those that begin with "= " (a library
 * may print to stdout too). A line "= <label> <s|d> <k> <values>..." may differ by
 * 4 (k + 2)^2 u in each value, u the unit roundoff of s or d: the inputs
 * lie in [-1, 1], so a sum of k products stays below k + |beta| and its
 * error below (k + 2) u times that. Other lines must be identical.
 *
 * Usage: compare_outputs <program> <reference-program>; exit status 0 when
 * they agree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run a program (its path quoted for the shell) and return its whole stdout. */
static char *read_all(const char *path, size_t *len)
{
	char cmd[4096];
	if (strchr(path, '\'') != NULL || snprintf(cmd, sizeof cmd, "'%s'", path) >= (int)sizeof cmd)
		return NULL;
	FILE *p = popen(cmd, "r");
	if (p == NULL)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf != NULL && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			char *nb = realloc(buf, cap * 2);
			if (nb == NULL) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	const int status = pclose(p);
	if (buf == NULL)
		return NULL;
	buf[n] = '\0';
	*len = n;
	if (status != 0) {
		fprintf(stderr, "compare_outputs: '%s' exited with status %d\n", cmd, status);
		free(buf);
		return NULL;
	}
	return buf;
}

/* The next line of the program's own output (beginning with "= "), the
 * marker skipped; NULL at the end. */
static char *next_line(char *start, char **save)
{
	char *line = strtok_r(start, "\n", save);
	while (line != NULL && strncmp(line, "= ", 2) != 0)
		line = strtok_r(NULL, "\n", save);
	return line != NULL ? line + 2 : NULL;
}

/* Compare one line pair; returns the number of mismatches. */
static int compare_line(int lineno, char *x, char *y, double *worst)
{
	char *sx, *sy;
	char *tx = strtok_r(x, " ", &sx), *ty = strtok_r(y, " ", &sy);
	if (tx == NULL || ty == NULL || strcmp(tx, ty) != 0) {
		fprintf(stderr, "line %d: labels differ: '%s' vs '%s'\n", lineno, tx ? tx : "",
		        ty ? ty : "");
		return 1;
	}
	const char *label = tx;
	char *type_x = strtok_r(NULL, " ", &sx), *type_y = strtok_r(NULL, " ", &sy);
	char *k_x = strtok_r(NULL, " ", &sx), *k_y = strtok_r(NULL, " ", &sy);
	const int numeric = type_x != NULL && (strcmp(type_x, "s") == 0 || strcmp(type_x, "d") == 0);
	if (!numeric || type_y == NULL || strcmp(type_x, type_y) != 0 || k_x == NULL ||
	    k_y == NULL || strcmp(k_x, k_y) != 0) {
		const int same = (type_x == NULL) == (type_y == NULL) &&
		                 (type_x == NULL || strcmp(type_x, type_y) == 0) &&
		                 (k_x == NULL) == (k_y == NULL) && (k_x == NULL || strcmp(k_x, k_y) == 0);
		if (!same)
			fprintf(stderr, "line %d (%s): '%s %s' vs '%s %s'\n", lineno, label,
			        type_x ? type_x : "", k_x ? k_x : "", type_y ? type_y : "",
			        k_y ? k_y : "");
		return !same;
	}
	const double u = type_x[0] == 's' ? 0x1p-24 : 0x1p-53;
	const double k = atof(k_x);
	const double tol = 4.0 * (k + 2) * (k + 2) * u;
	int bad = 0, count = 0;
	for (;;) {
		char *vx = strtok_r(NULL, " ", &sx), *vy = strtok_r(NULL, " ", &sy);
		if (vx == NULL || vy == NULL) {
			if (vx != vy) {
				fprintf(stderr, "line %d (%s): %s values than the reference\n", lineno, label,
				        vx ? "more" : "fewer");
				bad++;
			}
			break;
		}
		count++;
		const int nx = strcmp(vx, "nan") == 0, ny = strcmp(vy, "nan") == 0;
		if (nx || ny) {
			if (nx != ny) {
				fprintf(stderr, "line %d (%s) value %d: %s vs %s\n", lineno, label, count, vx, vy);
				bad++;
			}
			continue;
		}
		const double d = fabs(atof(vx) - atof(vy));
		if (d / tol > *worst)
			*worst = d / tol;
		if (!(d <= tol)) {
			if (bad < 5)
				fprintf(stderr, "line %d (%s) value %d: %s vs %s (tolerance %.3g)\n", lineno,
				        label, count, vx, vy, tol);
			bad++;
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: compare_outputs <program> <reference-program>\n");
		return 2;
	}
	size_t lx = 0, ly = 0;
	char *x = read_all(argv[1], &lx), *y = read_all(argv[2], &ly);
	if (x == NULL || y == NULL)
		return 1;
	int lineno = 0, mismatches = 0, lines_x = 0, lines_y = 0;
	double worst = 0;
	char *sx, *sy;
	char *line_x = next_line(x, &sx), *line_y = next_line(y, &sy);
	char last_x[64] = "", last_y[64] = "";
	while (line_x != NULL && line_y != NULL) {
		lineno++;
		snprintf(last_x, sizeof last_x, "%s", line_x);
		snprintf(last_y, sizeof last_y, "%s", line_y);
		mismatches += compare_line(lineno, line_x, line_y, &worst);
		lines_x++;
		lines_y++;
		line_x = next_line(NULL, &sx);
		line_y = next_line(NULL, &sy);
	}
	if (line_x != NULL || line_y != NULL) {
		fprintf(stderr, "the outputs have different numbers of lines\n");
		mismatches++;
	}
	/* Both must have run to the end: "done <lines>" closes each output. */
	char want[64];
	snprintf(want, sizeof want, "done %d", lines_x);
	if (strcmp(last_x, want) != 0 || strcmp(last_y, want) != 0) {
		fprintf(stderr, "an output is incomplete (last lines '%s', '%s')\n", last_x, last_y);
		mismatches++;
	}
	printf("cblas_compat: %d lines compared, largest difference %.3g of the tolerance, %d mismatches\n",
	       lineno, worst, mismatches);
	free(x);
	free(y);
	return mismatches == 0 ? 0 : 1;
}
