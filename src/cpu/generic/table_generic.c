/* table_generic.c - the reference table: every slot filled with portable C. */
#include "kernel_api.h"
#include "kernels_generic.h"

/* The prototypes must match the slot types. */
static const gk_axpy_f32_fn check_axpy_f32 = gk_axpy_f32_generic;
static const gk_axpy_f64_fn check_axpy_f64 = gk_axpy_f64_generic;
static const gk_dot_f32_fn check_dot_f32 = gk_dot_f32_generic;
static const gk_dot_f64_fn check_dot_f64 = gk_dot_f64_generic;

void gk_kernels_init_generic(gk_kernels *t)
{
	t->name = "generic";
	t->requires = 0;
	t->axpy_f32 = check_axpy_f32;
	t->axpy_f64 = check_axpy_f64;
	t->dot_f32 = check_dot_f32;
	t->dot_f64 = check_dot_f64;
}
