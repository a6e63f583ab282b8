/*
 * runtime/acl_op.c: CANN's single-operator API (acl/acl_op.h) and its online compiler
 * (acl/acl_op_compiler.h) on a platform that has neither compiled operator models nor an
 * operator compiler.
 *
 * Attributes are real objects (registry handles, MGRT_HANDLE_OP_ATTR): created, set (the
 * arguments checked, the values not kept: nothing could use them) and destroyed like every
 * handle. Every call that would load, compile, run or describe an operator by type name
 * returns ACL_ERROR_API_NOT_SUPPORT (200001, CANN's "interface not supported") with a
 * message pointing at the aclnn API, and writes no output. CANN keeps the compiler in
 * libacl_op_compiler; here both are in libascendcl.
 */
#include <stdlib.h>

#include "mgrt_handle.h"
#include "runtime_internal.h"

#include "acl/acl_op_compiler.h"

static aclError not_supported(const char *api, const char *opType) {
    if (opType != NULL)
        return mgrt_fail_at(api, ACL_ERROR_API_NOT_SUPPORT,
                            "%s: running operator \"%.64s\" through the single-operator API is not supported on the "
                            "CPU platform (no operator models or compiler); call its aclnn API "
                            "(aclnnXxxGetWorkspaceSize, aclnnXxx) instead",
                            api, opType);
    return mgrt_fail_at(api, ACL_ERROR_API_NOT_SUPPORT,
                        "%s: the single-operator API (aclop*, operator models and their compiler) is not supported "
                        "on the CPU platform; operators run through their aclnn API",
                        api);
}

/* ---- attributes ------------------------------------------------------------------------- */

struct op_attr {
    unsigned char unused;
};

aclopAttr *aclopCreateAttr(void) {
    struct op_attr *attr = mgrt_calloc(1, sizeof *attr);
    void *token = attr != NULL ? mgrt_handle_register(MGRT_HANDLE_OP_ATTR, attr, mgrt_free) : NULL;
    if (token == NULL) {
        mgrt_free(attr);
        mgrt_fail_at("aclopCreateAttr", ACL_ERROR_BAD_ALLOC, "aclopCreateAttr: out of memory");
    }
    return token;
}

void aclopDestroyAttr(const aclopAttr *attr) {
    if (attr == NULL) return;  /* as CANN's: deleting nothing */
    if (!mgrt_handle_release(attr, MGRT_HANDLE_OP_ATTR))
        mgrt_fail_at("aclopDestroyAttr", ACL_ERROR_INVALID_PARAM, "aclopDestroyAttr: attr %p %s", (const void *)attr,
                     mgrt_handle_describe(attr, MGRT_HANDLE_OP_ATTR));
}

/* The checks every setter makes: a live attribute, a name, and for lists a count that is not
   negative with values present when it is positive. */
static aclError check_attr(const char *api, const aclopAttr *attr, const char *attrName, int numValues,
                           const void *values) {
    if (attr == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: attr is NULL", api);
    if (mgrt_handle_pin(attr, MGRT_HANDLE_OP_ATTR) == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: attr %p %s", api, (const void *)attr,
                            mgrt_handle_describe(attr, MGRT_HANDLE_OP_ATTR));
    mgrt_handle_unpin(attr);
    if (attrName == NULL) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: attrName is NULL", api);
    if (numValues < 0) return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: the count %d is negative", api, numValues);
    if (numValues > 0 && values == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: values is NULL while the count is %d", api, numValues);
    return ACL_SUCCESS;
}

aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue) {
    (void)attrValue;
    return check_attr("aclopSetAttrBool", attr, attrName, 0, NULL);
}

aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue) {
    (void)attrValue;
    return check_attr("aclopSetAttrInt", attr, attrName, 0, NULL);
}

aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue) {
    (void)attrValue;
    return check_attr("aclopSetAttrFloat", attr, attrName, 0, NULL);
}

aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue) {
    aclError status = check_attr("aclopSetAttrString", attr, attrName, 0, NULL);
    if (status == ACL_SUCCESS && attrValue == NULL)
        return mgrt_fail_at("aclopSetAttrString", ACL_ERROR_INVALID_PARAM, "aclopSetAttrString: attrValue is NULL");
    return status;
}

aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue) {
    (void)attrValue;
    return check_attr("aclopSetAttrDataType", attr, attrName, 0, NULL);
}

aclError aclopSetAttrListDataType(aclopAttr *attr, const char *attrName, int numValues, const aclDataType values[]) {
    return check_attr("aclopSetAttrListDataType", attr, attrName, numValues, values);
}

aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName, int numValues, const uint8_t *values) {
    return check_attr("aclopSetAttrListBool", attr, attrName, numValues, values);
}

aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues, const int64_t *values) {
    return check_attr("aclopSetAttrListInt", attr, attrName, numValues, values);
}

aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues, const float *values) {
    return check_attr("aclopSetAttrListFloat", attr, attrName, numValues, values);
}

aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName, int numValues, const char **values) {
    aclError status = check_attr("aclopSetAttrListString", attr, attrName, numValues, values);
    for (int i = 0; status == ACL_SUCCESS && i < numValues; i++)
        if (values[i] == NULL)
            status = mgrt_fail_at("aclopSetAttrListString", ACL_ERROR_INVALID_PARAM,
                                  "aclopSetAttrListString: values[%d] is NULL", i);
    return status;
}

aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName, int numLists, const int *numValues,
                                 const int64_t *const values[]) {
    static const char api[] = "aclopSetAttrListListInt";
    aclError status = check_attr(api, attr, attrName, numLists, numValues);
    if (status == ACL_SUCCESS && numLists > 0 && values == NULL)
        return mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: values is NULL while numLists is %d", api, numLists);
    for (int i = 0; status == ACL_SUCCESS && i < numLists; i++) {
        if (numValues[i] < 0)
            status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: numValues[%d] = %d is negative", api, i,
                                  numValues[i]);
        else if (numValues[i] > 0 && values[i] == NULL)
            status = mgrt_fail_at(api, ACL_ERROR_INVALID_PARAM, "%s: values[%d] is NULL while numValues[%d] is %d",
                                  api, i, i, numValues[i]);
    }
    return status;
}

/* ---- loading, running, kernels: not supported ------------------------------------------ */

aclError aclopSetModelDir(const char *modelDir) {
    (void)modelDir;
    return not_supported("aclopSetModelDir", NULL);
}

aclError aclopLoad(const void *model, size_t modelSize) {
    (void)model;
    (void)modelSize;
    return not_supported("aclopLoad", NULL);
}

aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                      const aclDataBuffer *const inputs[], int numOutputs, const aclTensorDesc *const outputDesc[],
                      aclDataBuffer *const outputs[], const aclopAttr *attr, aclrtStream stream) {
    (void)numInputs, (void)inputDesc, (void)inputs, (void)numOutputs, (void)outputDesc, (void)outputs, (void)attr,
        (void)stream;
    return not_supported("aclopExecute", opType);
}

aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
                        int numOutputs, aclTensorDesc *outputDesc[], aclDataBuffer *outputs[], aclopAttr *attr,
                        aclrtStream stream) {
    (void)numInputs, (void)inputDesc, (void)inputs, (void)numOutputs, (void)outputDesc, (void)outputs, (void)attr,
        (void)stream;
    return not_supported("aclopExecuteV2", opType);
}

aclError aclopCreateHandle(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                           const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr, aclopHandle **handle) {
    (void)numInputs, (void)inputDesc, (void)numOutputs, (void)outputDesc, (void)opAttr, (void)handle;
    return not_supported("aclopCreateHandle", opType);
}

/* No handle can exist (aclopCreateHandle never makes one): anything passed is foreign. */
void aclopDestroyHandle(aclopHandle *handle) {
    if (handle == NULL) return;
    mgrt_fail_at("aclopDestroyHandle", ACL_ERROR_INVALID_PARAM,
                 "aclopDestroyHandle: handle %p was not created by this library (aclopCreateHandle is not supported "
                 "on the CPU platform)",
                 (void *)handle);
}

aclError aclopExecWithHandle(aclopHandle *handle, int numInputs, const aclDataBuffer *const inputs[], int numOutputs,
                             aclDataBuffer *const outputs[], aclrtStream stream) {
    (void)handle, (void)numInputs, (void)inputs, (void)numOutputs, (void)outputs, (void)stream;
    return not_supported("aclopExecWithHandle", NULL);
}

aclError aclopCast(const aclTensorDesc *srcDesc, const aclDataBuffer *srcBuffer, const aclTensorDesc *dstDesc,
                   aclDataBuffer *dstBuffer, uint8_t truncate, aclrtStream stream) {
    (void)srcDesc, (void)srcBuffer, (void)dstDesc, (void)dstBuffer, (void)truncate, (void)stream;
    return not_supported("aclopCast", "Cast");
}

aclError aclopCreateHandleForCast(aclTensorDesc *srcDesc, aclTensorDesc *dstDesc, uint8_t truncate,
                                  aclopHandle **handle) {
    (void)srcDesc, (void)dstDesc, (void)truncate, (void)handle;
    return not_supported("aclopCreateHandleForCast", "Cast");
}

aclError aclopCreateKernel(const char *opType, const char *kernelId, const char *kernelName, void *binData,
                           int binSize, aclopEngineType enginetype, aclDataDeallocator deallocator) {
    (void)kernelId, (void)kernelName, (void)binData, (void)binSize, (void)enginetype, (void)deallocator;
    return not_supported("aclopCreateKernel", opType);
}

aclError aclopRegisterCompileFunc(const char *opType, aclopCompileFunc func) {
    (void)func;
    return not_supported("aclopRegisterCompileFunc", opType);
}

aclError aclopUnregisterCompileFunc(const char *opType) { return not_supported("aclopUnregisterCompileFunc", opType); }

aclError aclopSetKernelArgs(aclopKernelDesc *kernelDesc, const char *kernelId, uint32_t blockDim, const void *args,
                            uint32_t argSize) {
    (void)kernelDesc, (void)kernelId, (void)blockDim, (void)args, (void)argSize;
    return not_supported("aclopSetKernelArgs", NULL);
}

aclError aclopSetKernelWorkspaceSizes(aclopKernelDesc *kernelDesc, int numWorkspaces, size_t *workspaceSizes) {
    (void)kernelDesc, (void)numWorkspaces, (void)workspaceSizes;
    return not_supported("aclopSetKernelWorkspaceSizes", NULL);
}

aclError aclopUpdateParams(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                           const aclTensorDesc *const outputDesc[], const aclopAttr *attr) {
    (void)numInputs, (void)inputDesc, (void)numOutputs, (void)outputDesc, (void)attr;
    return not_supported("aclopUpdateParams", opType);
}

aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum) {
    (void)maxOpNum;
    return not_supported("aclopSetMaxOpQueueNum", NULL);
}

aclError aclopInferShape(const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
                         int numOutputs, aclTensorDesc *outputDesc[], aclopAttr *attr) {
    (void)numInputs, (void)inputDesc, (void)inputs, (void)numOutputs, (void)outputDesc, (void)attr;
    return not_supported("aclopInferShape", opType);
}

/* ---- the compiler (acl_op_compiler.h): not supported ----------------------------------- */

aclError aclopCompile(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                      const aclTensorDesc *const outputDesc[], const aclopAttr *attr, aclopEngineType engineType,
                      aclopCompileType compileFlag, const char *opPath) {
    (void)numInputs, (void)inputDesc, (void)numOutputs, (void)outputDesc, (void)attr, (void)engineType,
        (void)compileFlag, (void)opPath;
    return not_supported("aclopCompile", opType);
}

aclError aclopCompileAndExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                const aclDataBuffer *const inputs[], int numOutputs,
                                const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                const aclopAttr *attr, aclopEngineType engineType, aclopCompileType compileFlag,
                                const char *opPath, aclrtStream stream) {
    (void)numInputs, (void)inputDesc, (void)inputs, (void)numOutputs, (void)outputDesc, (void)outputs, (void)attr,
        (void)engineType, (void)compileFlag, (void)opPath, (void)stream;
    return not_supported("aclopCompileAndExecute", opType);
}

aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                  aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                  aclDataBuffer *outputs[], aclopAttr *attr, aclopEngineType engineType,
                                  aclopCompileType compileFlag, const char *opPath, aclrtStream stream) {
    (void)numInputs, (void)inputDesc, (void)inputs, (void)numOutputs, (void)outputDesc, (void)outputs, (void)attr,
        (void)engineType, (void)compileFlag, (void)opPath, (void)stream;
    return not_supported("aclopCompileAndExecuteV2", opType);
}

aclError aclSetCompileopt(aclCompileOpt opt, const char *value) {
    (void)opt, (void)value;
    return not_supported("aclSetCompileopt", NULL);
}

size_t aclGetCompileoptSize(aclCompileOpt opt) {
    (void)opt;
    (void)not_supported("aclGetCompileoptSize", NULL);
    return 0;
}

aclError aclGetCompileopt(aclCompileOpt opt, char *value, size_t length) {
    (void)opt, (void)value, (void)length;
    return not_supported("aclGetCompileopt", NULL);
}

aclError aclopSetCompileFlag(aclOpCompileFlag flag) {
    (void)flag;
    return not_supported("aclopSetCompileFlag", NULL);
}

aclError aclGenGraphAndDumpForOp(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                 const aclDataBuffer *const inputs[], int numOutputs,
                                 const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                 const aclopAttr *attr, aclopEngineType engineType, const char *graphDumpPath,
                                 const aclGraphDumpOption *graphDumpOpt) {
    (void)numInputs, (void)inputDesc, (void)inputs, (void)numOutputs, (void)outputDesc, (void)outputs, (void)attr,
        (void)engineType, (void)graphDumpPath, (void)graphDumpOpt;
    return not_supported("aclGenGraphAndDumpForOp", opType);
}

aclGraphDumpOption *aclCreateGraphDumpOpt(void) {
    (void)not_supported("aclCreateGraphDumpOpt", NULL);
    return NULL;
}

aclError aclDestroyGraphDumpOpt(const aclGraphDumpOption *graphDumpOpt) {
    (void)graphDumpOpt;
    return not_supported("aclDestroyGraphDumpOpt", NULL);
}
