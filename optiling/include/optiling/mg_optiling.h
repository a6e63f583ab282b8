/* optiling/mg_optiling.h: the C side of the host-tiling face. opbuild's launcher asks it to
   run an operator type's registered tiling on tensor descriptors (mg_optiling_run); the
   C++ faces (gert::TilingContext and friends) are views over the structures here. */
#ifndef MG_OPTILING_H_
#define MG_OPTILING_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_MAX_DIMS 25            /* gert::Shape::kMaxDimNum */
#define MG_MAX_IO 16              /* inputs or outputs one tiling sees */
#define MG_MAX_ATTRS 16
#define MG_MAX_WORKSPACES 8
#define MG_TILING_CAPACITY 4096   /* bytes of tiling data a tiling may write */

/* Bytes of one element of ge/acl dtype `dtype` (0 for sub-byte or unknown types), its name. */
int mg_dtype_size(int dtype);
const char *mg_dtype_name(int dtype);

typedef struct mg_shape {
    size_t dim_num;
    int64_t dims[MG_MAX_DIMS];
} mg_shape;

/* One tensor as a tiling sees it: ge dtype and format, origin and storage shape. */
typedef struct mg_tensor_info {
    int present;                 /* 0: an optional input left out (GetInputShape gives NULL) */
    int dtype, format;
    mg_shape origin, storage;
} mg_tensor_info;

typedef enum mg_attr_kind { MG_ATTR_INT = 0, MG_ATTR_FLOAT, MG_ATTR_BOOL } mg_attr_kind;
typedef struct mg_attr {
    mg_attr_kind kind;
    int64_t i;
    float f;
    uint8_t b;
} mg_attr;

/* The SoC facts a tiling reads through platform_ascendc::PlatformAscendC (platform.c). */
typedef struct mg_platform {
    uint32_t aiv_core_num, aic_core_num;
    uint64_t ub_bytes, l1_bytes;
    uint32_t lib_workspace_bytes;
    int soc_generation;          /* mgrt_soc_generation */
    const char *soc_name;
} mg_platform;
/* Fills `p` from the runtime's SoC profile (mgrt_soc()). */
void mg_platform_query(mg_platform *p);

/* Everything one tiling call reads and writes. */
typedef struct mg_tiling_run {
    const char *op_type;
    size_t input_num, output_num, attr_num;
    mg_tensor_info inputs[MG_MAX_IO], outputs[MG_MAX_IO];
    mg_attr attrs[MG_MAX_ATTRS];
    mg_platform platform;
    /* results */
    uint32_t block_dim;
    uint64_t tiling_key;
    uint32_t schedule_mode;
    size_t workspace_num;
    size_t workspaces[MG_MAX_WORKSPACES];
    size_t tiling_size;
    union {
        unsigned char tiling[MG_TILING_CAPACITY];
        long double tiling_align_; /* tiling structs cast over it */
    };
} mg_tiling_run;

/* Runs the tiling IMPL_OP_OPTILING registered for run->op_type (after its TilingParse,
   with a zeroed compile info). 0 on success; -1 when none is registered, 1 when it returned
   failure; `message` (size `cap`) says why. */
int mg_optiling_run(mg_tiling_run *run, char *message, size_t cap);
/* The last error the operator log (OP_LOGE) recorded on this thread, "" after a clear. */
const char *mg_op_last_error(void);
void mg_op_clear_last_error(void);

/* Runs the registered IMPL_OP_INFERSHAPE: output storage shapes from the inputs'. */
int mg_optiling_infer_shape(mg_tiling_run *run, char *message, size_t cap);
/* The kernel file an OpDef named for `op_type` (ExtendCfgInfo "opFile.value"), or NULL. */
const char *mg_opdef_kernel_file(const char *op_type);
/* Whether the OpDef of `op_type` declares input `index` OPTIONAL (0 without an OpDef). */
int mg_opdef_input_optional(const char *op_type, size_t index);
/* Whether `op_type` has a registered tiling. */
int mg_optiling_has(const char *op_type);

#ifdef __cplusplus
}
#endif

#endif
