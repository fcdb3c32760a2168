/* blocked_f64.c - the blocked DGEMM driver, "cpu.blocked" (blocked_tmpl.h). */
#include "blocked.h"

#include "blocked_names_f64.h"
#include "blocked_tmpl.h"
