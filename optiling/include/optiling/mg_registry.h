/* optiling/mg_registry.h: the operator registry by type name, in C: what IMPL_OP_* and
   OP_ADD record (functions are stored type-erased and called back by src/run.cpp). */
#ifndef MG_OPTILING_REGISTRY_H_
#define MG_OPTILING_REGISTRY_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*mg_fn)(void);
typedef struct mg_op_entry {
    const char *type;
    mg_fn tiling, parse, infer_shape;
    void *(*compile_info_create)(void);
    void (*compile_info_destroy)(void *);
    char kernel_file[128];       /* OpDef's ExtendCfgInfo("opFile.value", ...), or "" */
    int input_num, output_num;   /* OpDef's, -1 when no OpDef was added */
    unsigned optional_inputs;    /* bit i: the OpDef's input i is OPTIONAL */
} mg_op_entry;

void mg_registry_set_tiling(const char *type, mg_fn tiling);
void mg_registry_set_parse(const char *type, mg_fn parse, void *(*create)(void), void (*destroy)(void *));
void mg_registry_set_infer_shape(const char *type, mg_fn infer_shape);
void mg_registry_set_opdef(const char *type, const char *kernel_file, int input_num, int output_num);
void mg_registry_set_optional_inputs(const char *type, unsigned mask);
/* The entry for `type`, or NULL. Entries live for the process (registration is static). */
const mg_op_entry *mg_registry_find(const char *type);

#ifdef __cplusplus
}
#endif

#endif
