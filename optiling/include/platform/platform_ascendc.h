/* platform/platform_ascendc.h: the same face under its other include path. */
#include "tiling/platform/platform_ascendc.h"
