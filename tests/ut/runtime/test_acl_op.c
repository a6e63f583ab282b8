/*
 * tests/ut/runtime/test_acl_op.c: the single-operator API (acl/acl_op.h) and its compiler
 * (acl/acl_op_compiler.h) on the CPU platform: attributes are handles with checked setters;
 * every call that would load, compile or run an operator returns ACL_ERROR_API_NOT_SUPPORT
 * (200001, CANN's "interface not supported") with a message naming the call, and writes no
 * output. Also: acl/acl_mdl.h declares the model types (no model function).
 */
#define _GNU_SOURCE 1
#include <stdint.h>

#include "acl/acl_mdl.h"
#include "acl/acl_op_compiler.h"
#include "ut_util.h"

static const char *last_message(void) {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "(none)";
}

MG_TEST(attributes_are_handles_with_checked_setters) {
    ut_init();
    aclopAttr *attr = aclopCreateAttr();
    MG_CHECK(attr != NULL);
    const int64_t ints[3] = {1, 2, 3};
    const float floats[2] = {0.5f, 1.5f};
    const uint8_t bools[2] = {1, 0};
    const aclDataType types[1] = {ACL_FLOAT};
    const char *strings[2] = {"a", "b"};
    const int counts[2] = {3, 0};
    const int64_t *lists[2] = {ints, NULL};
    MG_CHECK_EQ_INT(aclopSetAttrBool(attr, "keep_dims", 1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrInt(attr, "axis", -1), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrFloat(attr, "alpha", 0.25f), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrString(attr, "mode", "sum"), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrDataType(attr, "dst_type", ACL_FLOAT16), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrListDataType(attr, "types", 1, types), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrListBool(attr, "flags", 2, bools), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrListInt(attr, "axes", 3, ints), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrListFloat(attr, "scales", 2, floats), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrListString(attr, "names", 2, strings), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrListListInt(attr, "pads", 2, counts, lists), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclopSetAttrListInt(attr, "empty", 0, NULL), ACL_SUCCESS);
    MG_CHECK(aclGetRecentErrMsg() == NULL);

    MG_CHECK_EQ_INT(aclopSetAttrInt(NULL, "axis", 0), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclopSetAttrInt: attr is NULL");
    MG_CHECK_EQ_INT(aclopSetAttrBool(attr, NULL, 0), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclopSetAttrBool: attrName is NULL");
    MG_CHECK_EQ_INT(aclopSetAttrString(attr, "mode", NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclopSetAttrString: attrValue is NULL");
    MG_CHECK_EQ_INT(aclopSetAttrListInt(attr, "axes", -1, ints), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclopSetAttrListInt: the count -1 is negative");
    MG_CHECK_EQ_INT(aclopSetAttrListFloat(attr, "scales", 2, NULL), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclopSetAttrListFloat: values is NULL while the count is 2");
    const char *bad_strings[2] = {"a", NULL};
    MG_CHECK_EQ_INT(aclopSetAttrListString(attr, "names", 2, bad_strings), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "aclopSetAttrListString: values[1] is NULL");
    const int bad_counts[2] = {3, 2};
    MG_CHECK_EQ_INT(aclopSetAttrListListInt(attr, "pads", 2, bad_counts, lists), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "values[1] is NULL while numValues[1] is 2");

    aclopDestroyAttr(attr);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    MG_CHECK_EQ_INT(aclopSetAttrInt(attr, "axis", 0), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is stale");
    aclopDestroyAttr(attr);  /* twice: refused with a message, nothing freed twice */
    MG_CHECK_STR_CONTAINS(last_message(), "aclopDestroyAttr: attr");
    aclopDestroyAttr(NULL);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    aclDataBuffer *buffer = aclCreateDataBuffer(NULL, 0);
    MG_CHECK_EQ_INT(aclopSetAttrFloat((aclopAttr *)buffer, "alpha", 1.0f), ACL_ERROR_INVALID_PARAM);
    MG_CHECK_STR_CONTAINS(last_message(), "is an aclDataBuffer, not an aclopAttr");
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

#define CHECK_NOT_SUPPORTED(call, name)                                  \
    do {                                                                 \
        MG_CHECK_EQ_INT((call), ACL_ERROR_API_NOT_SUPPORT);              \
        MG_CHECK_STR_CONTAINS(last_message(), name ": ");                \
    } while (0)

MG_TEST(running_loading_and_compiling_are_not_supported) {
    ut_init();
    const int64_t dims[1] = {4};
    aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    void *device = NULL;
    MG_CHECK_EQ_INT(aclrtMalloc(&device, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    MG_CHECK_EQ_INT(aclrtMemset(device, 16, 0x5a, 16), ACL_SUCCESS);
    aclDataBuffer *buffer = aclCreateDataBuffer(device, 16);
    aclTensorDesc *in_desc[1] = {desc}, *out_desc[1] = {desc};
    aclDataBuffer *in_buf[1] = {buffer}, *out_buf[1] = {buffer};
    aclopAttr *attr = aclopCreateAttr();

    MG_CHECK_EQ_INT(aclopCompileAndExecute("Softsign", 1, (const aclTensorDesc *const *)in_desc,
                                           (const aclDataBuffer *const *)in_buf, 1,
                                           (const aclTensorDesc *const *)out_desc, out_buf, attr, ACL_ENGINE_SYS,
                                           ACL_COMPILE_SYS, NULL, NULL),
                    ACL_ERROR_API_NOT_SUPPORT);
    MG_CHECK_STR_CONTAINS(last_message(),
                          "aclopCompileAndExecute: running operator \"Softsign\" through the single-operator API is "
                          "not supported on the CPU platform");
    CHECK_NOT_SUPPORTED(aclopExecuteV2("Add", 1, in_desc, in_buf, 1, out_desc, out_buf, attr, NULL), "aclopExecuteV2");
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    CHECK_NOT_SUPPORTED(aclopExecute("Add", 1, (const aclTensorDesc *const *)in_desc,
                                     (const aclDataBuffer *const *)in_buf, 1, (const aclTensorDesc *const *)out_desc,
                                     out_buf, attr, NULL),
                        "aclopExecute");
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    CHECK_NOT_SUPPORTED(aclopCompileAndExecuteV2("Add", 1, in_desc, in_buf, 1, out_desc, out_buf, attr,
                                                 ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL, NULL),
                        "aclopCompileAndExecuteV2");
    CHECK_NOT_SUPPORTED(aclopCompile("Add", 1, (const aclTensorDesc *const *)in_desc, 1,
                                     (const aclTensorDesc *const *)out_desc, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
                        "aclopCompile");
    aclopHandle *handle = (aclopHandle *)&dims;
    CHECK_NOT_SUPPORTED(aclopCreateHandle("Add", 1, (const aclTensorDesc *const *)in_desc, 1,
                                          (const aclTensorDesc *const *)out_desc, attr, &handle),
                        "aclopCreateHandle");
    MG_CHECK(handle == (aclopHandle *)&dims);  /* no output written */
    CHECK_NOT_SUPPORTED(aclopCreateHandleForCast(desc, desc, 0, &handle), "aclopCreateHandleForCast");
    MG_CHECK(handle == (aclopHandle *)&dims);
    CHECK_NOT_SUPPORTED(aclopExecWithHandle(handle, 1, (const aclDataBuffer *const *)in_buf, 1, out_buf, NULL),
                        "aclopExecWithHandle");
    aclopDestroyHandle(handle);
    MG_CHECK_STR_CONTAINS(last_message(), "aclopDestroyHandle: handle");
    aclopDestroyHandle(NULL);
    MG_CHECK(aclGetRecentErrMsg() == NULL);
    CHECK_NOT_SUPPORTED(aclopCast(desc, buffer, desc, buffer, 0, NULL), "aclopCast");
    CHECK_NOT_SUPPORTED(aclopSetModelDir("op_models"), "aclopSetModelDir");
    CHECK_NOT_SUPPORTED(aclopLoad(dims, sizeof dims), "aclopLoad");
    CHECK_NOT_SUPPORTED(aclopCreateKernel("Add", "k0", "add_kernel", NULL, 0, ACL_ENGINE_AICORE, NULL),
                        "aclopCreateKernel");
    CHECK_NOT_SUPPORTED(aclopRegisterCompileFunc("Add", NULL), "aclopRegisterCompileFunc");
    CHECK_NOT_SUPPORTED(aclopUnregisterCompileFunc("Add"), "aclopUnregisterCompileFunc");
    CHECK_NOT_SUPPORTED(aclopSetKernelArgs(NULL, "k0", 1, NULL, 0), "aclopSetKernelArgs");
    CHECK_NOT_SUPPORTED(aclopSetKernelWorkspaceSizes(NULL, 0, NULL), "aclopSetKernelWorkspaceSizes");
    CHECK_NOT_SUPPORTED(aclopUpdateParams("Add", 1, (const aclTensorDesc *const *)in_desc, 1,
                                          (const aclTensorDesc *const *)out_desc, attr),
                        "aclopUpdateParams");
    CHECK_NOT_SUPPORTED(aclopSetMaxOpQueueNum(16), "aclopSetMaxOpQueueNum");
    CHECK_NOT_SUPPORTED(aclopInferShape("Add", 1, in_desc, in_buf, 1, out_desc, attr), "aclopInferShape");
    CHECK_NOT_SUPPORTED(aclSetCompileopt(ACL_PRECISION_MODE, "force_fp32"), "aclSetCompileopt");
    char value[8] = "keep";
    CHECK_NOT_SUPPORTED(aclGetCompileopt(ACL_PRECISION_MODE, value, sizeof value), "aclGetCompileopt");
    MG_CHECK(strcmp(value, "keep") == 0);
    MG_CHECK_EQ_INT(aclGetCompileoptSize(ACL_PRECISION_MODE), 0);
    MG_CHECK_STR_CONTAINS(last_message(), "aclGetCompileoptSize: ");
    CHECK_NOT_SUPPORTED(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), "aclopSetCompileFlag");
    MG_CHECK(aclCreateGraphDumpOpt() == NULL);
    MG_CHECK_STR_CONTAINS(last_message(), "aclCreateGraphDumpOpt: ");
    CHECK_NOT_SUPPORTED(aclDestroyGraphDumpOpt(NULL), "aclDestroyGraphDumpOpt");
    CHECK_NOT_SUPPORTED(aclGenGraphAndDumpForOp("Add", 1, (const aclTensorDesc *const *)in_desc,
                                                (const aclDataBuffer *const *)in_buf, 1,
                                                (const aclTensorDesc *const *)out_desc, out_buf, attr, ACL_ENGINE_SYS,
                                                "dump", NULL),
                        "aclGenGraphAndDumpForOp");

    /* Nothing ran: the device memory is as it was. */
    unsigned char host[16];
    MG_CHECK_EQ_INT(aclrtMemcpy(host, 16, device, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < 16; i++) MG_CHECK_EQ_INT(host[i], 0x5a);
    aclopDestroyAttr(attr);
    MG_CHECK_EQ_INT(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
    aclDestroyTensorDesc(desc);
    MG_CHECK_EQ_INT(aclrtFree(device), ACL_SUCCESS);
}

MG_TEST(model_header_declares_the_model_types) {
    aclmdlDesc *desc = NULL;
    aclmdlDataset *dataset = NULL;
    aclmdlConfigHandle *config = NULL;
    MG_CHECK(desc == NULL && dataset == NULL && config == NULL);
    MG_CHECK_EQ_INT(ACL_COMPILE_FLAG_BIN_SELECTOR, 1);
    MG_CHECK_EQ_INT(ACL_ENGINE_VECTOR, 2);
    MG_CHECK_EQ_INT(ACL_OP_DEBUG_OPTION, 16);
    MG_CHECK_EQ_INT(ACL_COMPILE_UNREGISTERED, 1);
    MG_CHECK_EQ_INT(ACL_OP_COMPILE_FUZZ, 1);
}

int main(int argc, char **argv) { return ut_main(argc, argv); }
