/*
 * gk_context.h - the layout of gk_context. It lives in src/core because
 * every layer that runs a call reads it: the API edge (algorithm, backend),
 * the CPU drivers (threads, flags), the GF(2^8) driver (threads) and the
 * CUDA backend (device, stream). Only the API edge writes it.
 */
#ifndef GK_CONTEXT_H
#define GK_CONTEXT_H
#include "gk_internal.h"

struct gk_context {
	const gk_algo *algo; /* NULL: "auto" */
	gk_backend backend;
	int threads;         /* 0: the default count */
	unsigned flags;      /* GK_FLAG_* */
	int device;          /* CUDA device ordinal; -1: the calling thread's current device */
	void *stream;        /* cudaStream_t of device calls; NULL: the legacy default stream */
	gk_precision precision; /* GK_PRECISION_*; DEFAULT: GK_PRECISION from the environment */
	size_t device_budget;   /* bytes of device memory a host-pointer GPU call may take; 0: default */
	int ndevices;           /* entries of devices[]; 0: the default set */
	int devices[GK_MAX_DEVICES]; /* the devices host-pointer GPU calls share work among */
};

#endif
