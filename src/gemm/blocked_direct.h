/*
 * blocked_direct.h - the blocked driver's direct calls of the smallest
 * products (blocked_direct_tmpl.h), inline, for gemmkit's entry
 * (src/api/gemm_entry.h): direct_try_f32 and direct_try_f64 make the same
 * calls as gk_sgemm_blocked / gk_dgemm_blocked would, or answer 0.
 */
#ifndef GK_BLOCKED_DIRECT_H
#define GK_BLOCKED_DIRECT_H

#include "blocked.h"

#include "blocked_names_f32.h"
#include "blocked_direct_tmpl.h"
#include "blocked_names_undef.h"

#include "blocked_names_f64.h"
#include "blocked_direct_tmpl.h"
#include "blocked_names_undef.h"

#endif
