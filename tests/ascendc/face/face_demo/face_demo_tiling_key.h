// face_demo's template parameters: the element type, as the seed declares its own.
#ifndef FACE_DEMO_TILING_KEY_H_
#define FACE_DEMO_TILING_KEY_H_
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(FaceDemo, ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16, ASCENDC_TPL_INPUT(0)),
                      ASCENDC_TPL_BOOL_DECL(ROUND_OUT, 0, 1));

ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT), ASCENDC_TPL_BOOL_SEL(ROUND_OUT, 0)),
                ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT16, C_DT_BF16),
                                     ASCENDC_TPL_BOOL_SEL(ROUND_OUT, 0, 1)), );
#endif
