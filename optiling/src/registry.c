/* optiling/src/registry.c: operator registry by type name. Registration runs in static
   constructors (one thread, before main or at dlopen), lookups afterwards; a full table
   is reported on stderr once, since a constructor has nowhere to return an error. */
#include <stdio.h>
#include <string.h>

#include "optiling/mg_registry.h"

#define MG_MAX_OPS 256

static mg_op_entry table[MG_MAX_OPS];
static size_t count;

static mg_op_entry *entry_for(const char *type) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(table[i].type, type) == 0) return &table[i];
    if (count == MG_MAX_OPS) {
        fprintf(stderr, "optiling: more than %d operator types registered; %s is left out\n", MG_MAX_OPS, type);
        return NULL;
    }
    mg_op_entry *e = &table[count++];
    e->type = type;
    e->input_num = e->output_num = -1;
    return e;
}

void mg_registry_set_tiling(const char *type, mg_fn tiling) {
    mg_op_entry *e = entry_for(type);
    if (e != NULL) e->tiling = tiling;
}

void mg_registry_set_parse(const char *type, mg_fn parse, void *(*create)(void), void (*destroy)(void *)) {
    mg_op_entry *e = entry_for(type);
    if (e == NULL) return;
    e->parse = parse;
    e->compile_info_create = create;
    e->compile_info_destroy = destroy;
}

void mg_registry_set_infer_shape(const char *type, mg_fn infer_shape) {
    mg_op_entry *e = entry_for(type);
    if (e != NULL) e->infer_shape = infer_shape;
}

void mg_registry_set_opdef(const char *type, const char *kernel_file, int input_num, int output_num) {
    mg_op_entry *e = entry_for(type);
    if (e == NULL) return;
    snprintf(e->kernel_file, sizeof e->kernel_file, "%s", kernel_file != NULL ? kernel_file : "");
    e->input_num = input_num;
    e->output_num = output_num;
}

void mg_registry_set_optional_inputs(const char *type, unsigned mask) {
    mg_op_entry *e = entry_for(type);
    if (e != NULL) e->optional_inputs = mask;
}

const mg_op_entry *mg_registry_find(const char *type) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(table[i].type, type) == 0) return &table[i];
    return NULL;
}
