/* Model-internal: forcewake, GDRST, PCODE (uncore.c). */
#ifndef GPU_MODEL_UNCORE_H
#define GPU_MODEL_UNCORE_H

#include "gpu/model/gen9_model.h"

int model_fw_domain(uint32_t off, bool *is_ack);
void model_fw_write(struct gen9_model *m, int d, uint32_t val);
void model_gdrst_write(struct gen9_model *m, uint32_t val);
void model_reset_ctl_write(struct gen9_model *m, struct gen9_model_engine *e,
			   uint32_t val);
void model_pcode_write(struct gen9_model *m, uint32_t val);
void model_uncore_tick(struct gen9_model *m);

#endif
