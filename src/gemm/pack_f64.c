/* pack_f64.c - packing for the blocked DGEMM driver (pack_tmpl.h). */
#include "blocked.h"

#define GK_T double
#define GK_FN_PACK_SLIVER pack_sliver_f64
#define GK_FN_PACK_GROUP pack_group_f64
#define GK_FN_PACK gk_pack_f64
#define GK_PACK_T pack_t_f64
#include "pack_tmpl.h"
