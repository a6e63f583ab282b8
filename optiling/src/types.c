/* optiling/src/types.c: element sizes and names of ge/acl data types (one table; opdev and
   opbuild ask here too). */
#include "optiling/mg_optiling.h"

static const struct { int size; const char *name; } TYPES[] = {
    [0] = {4, "DT_FLOAT"},     [1] = {2, "DT_FLOAT16"},  [2] = {1, "DT_INT8"},     [3] = {4, "DT_INT32"},
    [4] = {1, "DT_UINT8"},     [6] = {2, "DT_INT16"},    [7] = {2, "DT_UINT16"},   [8] = {4, "DT_UINT32"},
    [9] = {8, "DT_INT64"},     [10] = {8, "DT_UINT64"},  [11] = {8, "DT_DOUBLE"},  [12] = {1, "DT_BOOL"},
    [13] = {0, "DT_STRING"},   [16] = {8, "DT_COMPLEX64"}, [17] = {16, "DT_COMPLEX128"},
    [18] = {1, "DT_QINT8"},    [19] = {2, "DT_QINT16"},  [20] = {4, "DT_QINT32"},  [21] = {1, "DT_QUINT8"},
    [22] = {2, "DT_QUINT16"},  [27] = {2, "DT_BF16"},    [28] = {0, "DT_UNDEFINED"}, [33] = {4, "DT_COMPLEX32"},
};

int mg_dtype_size(int dtype) {
    if (dtype < 0 || (unsigned)dtype >= sizeof TYPES / sizeof TYPES[0]) return 0;
    return TYPES[dtype].size;
}

const char *mg_dtype_name(int dtype) {
    if (dtype < 0 || (unsigned)dtype >= sizeof TYPES / sizeof TYPES[0] || TYPES[dtype].name == 0) return "DT_UNKNOWN";
    return TYPES[dtype].name;
}
