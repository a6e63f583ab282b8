/* tiling/tiling_api.h: asc-devkit's umbrella header for host tiling code; here the platform
   query and the older tiling-data declarations (the library tilings it also declares, for
   matmul and the like, are not modelled). */
#ifndef MG_TILING_TILING_API_H_
#define MG_TILING_TILING_API_H_

#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

#endif
