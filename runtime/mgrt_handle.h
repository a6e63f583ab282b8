/*
 * runtime/mgrt_handle.h: the handle registry every library of MishGradV2 shares (part of
 * libascendcl, like mgrt.h). Not installed; not for applications.
 *
 * Invariants: every object handed to a program (tensor, executor, stream, ...) is registered
 * here and the program sees a token (slot + generation), never the address; a token is never
 * valid twice. Use: t = mgrt_handle_pin(token, kind) (NULL: fail with
 * mgrt_handle_describe(token, kind) in the message), use t, mgrt_handle_unpin(token).
 * mgrt_handle_release(token, kind): the first caller wins (returns 1); the destructor runs once
 * the last pin is dropped, so a pinned object is never freed under a call that uses it.
 * aclFinalize's mgrt_handle_reclaim_all() destroys what is left, one warning per kind.
 * Thread-safe. Behaviour and messages: docs/runtime.md, "Handles".
 */
#ifndef MGRT_HANDLE_H_
#define MGRT_HANDLE_H_

#include <stddef.h>
#include <stdint.h>

#include "mgrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mgrt_handle_kind {
    MGRT_HANDLE_TENSOR = 0,     /* aclTensor */
    MGRT_HANDLE_EXECUTOR,       /* aclOpExecutor */
    MGRT_HANDLE_SCALAR,         /* aclScalar */
    MGRT_HANDLE_INT_ARRAY,      /* aclIntArray */
    MGRT_HANDLE_FLOAT_ARRAY,    /* aclFloatArray */
    MGRT_HANDLE_BOOL_ARRAY,     /* aclBoolArray */
    MGRT_HANDLE_TENSOR_LIST,    /* aclTensorList */
    MGRT_HANDLE_SCALAR_LIST,    /* aclScalarList */
    MGRT_HANDLE_STREAM,         /* aclrtStream */
    MGRT_HANDLE_EVENT,          /* aclrtEvent */
    MGRT_HANDLE_DATA_BUFFER,    /* aclDataBuffer */
    MGRT_HANDLE_CONTEXT,        /* aclrtContext */
    MGRT_HANDLE_TENSOR_DESC,    /* aclTensorDesc */
    MGRT_HANDLE_OP_ATTR,        /* aclopAttr */
    MGRT_HANDLE_KIND_COUNT
} mgrt_handle_kind;

/* Frees an object (called once, with no registry lock held; it may call the registry). */
typedef void (*mgrt_handle_destroy_fn)(void *object);

/* Registers `object` of `kind` and returns its token (never NULL), or NULL when the table
   cannot grow (no message is set: the caller reports it), when MISHGRAD_FAULT_HANDLE planted
   that for this registration, or when the arguments are bad. */
MGRT_API void *mgrt_handle_register(mgrt_handle_kind kind, void *object, mgrt_handle_destroy_fn destroy);

/* The object behind `token`, pinned, when `token` is a live handle of `kind`; else NULL.
   Every successful pin is matched by one mgrt_handle_unpin(token). */
MGRT_API void *mgrt_handle_pin(const void *token, mgrt_handle_kind kind);
/* Drops one pin; the last pin of a released handle destroys its object. */
MGRT_API void mgrt_handle_unpin(const void *token);

/* Releases a live handle of `kind`: from now on it does not resolve, and its object is
   destroyed once no pin is held. Returns 1 for the caller that released it, 0 when it was
   not a live handle of `kind` (already released, another kind, or never a handle). */
MGRT_API int mgrt_handle_release(const void *token, mgrt_handle_kind kind);

/* What a token is, for messages. */
typedef enum mgrt_handle_state {
    MGRT_HANDLE_LIVE = 0,       /* a live handle of the kind asked about */
    MGRT_HANDLE_STALE,          /* was a handle: destroyed, released, or reclaimed by aclFinalize */
    MGRT_HANDLE_OTHER_KIND,     /* a live handle of another kind */
    MGRT_HANDLE_FOREIGN         /* NULL, or never a handle of this registry */
} mgrt_handle_state;
MGRT_API mgrt_handle_state mgrt_handle_state_of(const void *token, mgrt_handle_kind kind);
/* A phrase for a message about `token` used as `kind`, e.g. "is stale (already destroyed,
   or reclaimed by aclFinalize)", "is an aclIntArray, not an aclTensor", "was not created
   by this library". Static storage. */
MGRT_API const char *mgrt_handle_describe(const void *token, mgrt_handle_kind kind);
/* "aclTensor", "aclOpExecutor", ... */
MGRT_API const char *mgrt_handle_kind_name(mgrt_handle_kind kind);

/* Live handles of `kind` (released-but-pinned ones not counted). */
MGRT_API size_t mgrt_handle_live_count(mgrt_handle_kind kind);

/* aclFinalize: releases every live handle (destroying each object once unpinned) and logs
   one WARNING line per kind with the count, shown at the default log level. Returns how
   many handles it reclaimed in all. */
MGRT_API size_t mgrt_handle_reclaim_all(void);

#ifdef __cplusplus
}
#endif

#endif /* MGRT_HANDLE_H_ */
