#include <stdio.h>
#include <gemmkit.h>

int main(void)
{
	/* C = A * B with A 2 x 3 and B 3 x 2, row-major. */
	const float a[6] = {1, 2, 3, 4, 5, 6};
	const float b[6] = {7, 8, 9, 10, 11, 12};
	float c[4];
	gk_status st = gk_sgemm(GK_ROW_MAJOR, GK_NO_TRANS, GK_NO_TRANS, 2, 2, 3,
	                        1.0f, a, 3, b, 2, 0.0f, c, 2);
	if (st != GK_OK) {
		fprintf(stderr, "gk_sgemm: %s: %s\n", gk_strerror(st), gk_last_error());
		return 1;
	}
	printf("%g %g\n%g %g\n", c[0], c[1], c[2], c[3]); /* 58 64 / 139 154 */
	return 0;
}
