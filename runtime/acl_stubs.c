/* runtime/acl_stubs.c: declared calls not implemented yet; each returns
   ACL_ERROR_RT_FEATURE_NOT_SUPPORT with a message. Temporary: the next commits replace them. */
#include "runtime_internal.h"

#define NOT_YET(api) \
    mgrt_fail_at(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s is not implemented yet in MishGradV2", api)

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
    (void)threadId, (void)stream;
    return NOT_YET("aclrtSubscribeReport");
}
aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
    (void)fn, (void)userData, (void)blockType, (void)stream;
    return NOT_YET("aclrtLaunchCallback");
}
aclError aclrtProcessReport(int32_t timeout) {
    (void)timeout;
    return NOT_YET("aclrtProcessReport");
}
aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
    (void)threadId, (void)stream;
    return NOT_YET("aclrtUnSubscribeReport");
}
aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    (void)timeout;
    return NOT_YET("aclrtSynchronizeDeviceWithTimeout");
}
aclError aclrtCreateEvent(aclrtEvent *event) {
    (void)event;
    return NOT_YET("aclrtCreateEvent");
}
aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
    (void)event, (void)flag;
    return NOT_YET("aclrtCreateEventWithFlag");
}
aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
    (void)event, (void)flag;
    return NOT_YET("aclrtCreateEventExWithFlag");
}
aclError aclrtDestroyEvent(aclrtEvent event) {
    (void)event;
    return NOT_YET("aclrtDestroyEvent");
}
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    (void)event, (void)stream;
    return NOT_YET("aclrtRecordEvent");
}
aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    (void)event, (void)stream;
    return NOT_YET("aclrtResetEvent");
}
aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status) {
    (void)event, (void)status;
    return NOT_YET("aclrtQueryEvent");
}
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
    (void)event, (void)status;
    return NOT_YET("aclrtQueryEventStatus");
}
aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status) {
    (void)event, (void)status;
    return NOT_YET("aclrtQueryEventWaitStatus");
}
aclError aclrtSynchronizeEvent(aclrtEvent event) {
    (void)event;
    return NOT_YET("aclrtSynchronizeEvent");
}
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
    (void)event, (void)timeout;
    return NOT_YET("aclrtSynchronizeEventWithTimeout");
}
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    (void)ms, (void)startEvent, (void)endEvent;
    return NOT_YET("aclrtEventElapsedTime");
}
aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr) {
    (void)ptr, (void)size, (void)type, (void)devPtr;
    return NOT_YET("aclrtHostRegister");
}
aclError aclrtHostUnregister(void *ptr) {
    (void)ptr;
    return NOT_YET("aclrtHostUnregister");
}
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    (void)dst, (void)destMax, (void)src, (void)count, (void)kind, (void)stream;
    return NOT_YET("aclrtMemcpyAsync");
}
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    (void)devPtr, (void)maxCount, (void)value, (void)count, (void)stream;
    return NOT_YET("aclrtMemsetAsync");
}
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    (void)stream, (void)timeout;
    return NOT_YET("aclrtSynchronizeStreamWithTimeout");
}
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status) {
    (void)stream, (void)status;
    return NOT_YET("aclrtStreamQuery");
}
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    (void)stream, (void)event;
    return NOT_YET("aclrtStreamWaitEvent");
}
