/* blocked_f32.c - the blocked SGEMM driver, "cpu.blocked" (blocked_tmpl.h). */
#include "blocked.h"

#include "blocked_names_f32.h"
#include "blocked_tmpl.h"
