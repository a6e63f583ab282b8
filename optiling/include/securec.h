/* securec.h: the bounded memory functions CANN code calls (libboundscheck's names and
   EOK/ERANGE-style results): nothing is written past destMax; a request larger than the
   destination fails without writing. */
#ifndef MG_SECUREC_H_
#define MG_SECUREC_H_

#include <stddef.h>
#include <string.h>

#ifndef EOK
#define EOK 0
#endif
#define MG_SECUREC_EINVAL 22
#define MG_SECUREC_ERANGE 34

typedef int errno_t;

static inline errno_t memset_s(void *dest, size_t destMax, int c, size_t count)
{
    if (dest == NULL) return MG_SECUREC_EINVAL;
    if (count > destMax) return MG_SECUREC_ERANGE;
    memset(dest, c, count);
    return EOK;
}
static inline errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count)
{
    if (dest == NULL || (src == NULL && count > 0)) return MG_SECUREC_EINVAL;
    if (count > destMax) return MG_SECUREC_ERANGE;
    if (count > 0) memmove(dest, src, count);
    return EOK;
}
static inline errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count)
{
    return memcpy_s(dest, destMax, src, count);
}

#endif
