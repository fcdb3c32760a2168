/* pack_f32.c - packing for the blocked SGEMM driver (pack_tmpl.h). */
#include "blocked.h"

#define GK_T float
#define GK_FN_PACK_SLIVER pack_sliver_f32
#define GK_FN_PACK_GROUP pack_group_f32
#define GK_FN_PACK gk_pack_f32
#define GK_PACK_T pack_t_f32
#include "pack_tmpl.h"
