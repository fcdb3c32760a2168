/*
 * axpy4_body.h - the part of the axpy4 kernels (kernel_api.h) that every
 * vector instruction set writes the same way: the four multipliers
 * broadcast, the rows x1..x3 of x, and the loop over full vectors, each
 * vector of y taking the four rows by one FMA chain in their order. Used
 * inside a kernel function of arguments (n, alpha, x, ldx, y), before its
 * own tail; leaves i at the first element of the tail.
 */
#ifndef GK_AXPY4_BODY_H
#define GK_AXPY4_BODY_H

#define GK_AXPY4_BODY(T, VT, W, SET1, LOAD, STORE, FMA)                          \
	const VT a0 = SET1(alpha[0]), a1 = SET1(alpha[1]);                       \
	const VT a2 = SET1(alpha[2]), a3 = SET1(alpha[3]);                       \
	const T *x1 = x + ldx, *x2 = x + 2 * ldx, *x3 = x + 3 * ldx;             \
	int64_t i = 0;                                                           \
	for (; i + (W) <= n; i += (W)) {                                         \
		VT v = FMA(a0, LOAD(x + i), LOAD(y + i));                        \
		v = FMA(a1, LOAD(x1 + i), v);                                    \
		v = FMA(a2, LOAD(x2 + i), v);                                    \
		v = FMA(a3, LOAD(x3 + i), v);                                    \
		STORE(y + i, v);                                                 \
	}

#endif
