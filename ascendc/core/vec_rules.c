/*
 * ascendc/core/vec_rules.c: the rules every vector instruction and data move checks before
 * it writes a byte (docs/ascendc_twin.md, "Rules"): counts within each operand, UB operands
 * inside the block's UB and 32-byte aligned, GM ranges within SetGlobalBuffer's size and the
 * real allocation, operands that overlap where the API forbids it, and the record of written
 * UB bytes that makes a read of never-written bytes reaching GM or a scalar a report.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "asc_twin/gm.h"
#include "mgrt.h"
#include "twin_block.h"
#include "vec_internal.h"

static unsigned long long ull(uint64_t v) { return (unsigned long long)v; }

/* Offset of p in the UB, or -1 when it is not inside. */
static int64_t ub_offset(const uint8_t *p) {
    uint8_t *base = asc_twin_ub_base();
    if (base == NULL || p == NULL) return -1;
    uintptr_t at = (uintptr_t)p, lo = (uintptr_t)base;
    if (at < lo || at - lo >= asc_twin_ub_bytes()) return -1;
    return (int64_t)(at - lo);
}

int twin_block_runs(void) { return asc_twin_ub_base() != NULL && !asc_twin_block_aborted(); }

int twin_check_ub(const char *api, uint64_t count, const twin_operand *ops, int n) {
    if (!twin_block_runs()) return -1;
    uint64_t ub = asc_twin_ub_bytes();
    for (int i = 0; i < n; i++) {
        const twin_operand *o = &ops[i];
        if (o->bytes > o->ref.capacity_bytes) {
            /* A tensor with no address is one no buffer was ever placed for (the face gives a
               TBuf or queue that InitBuffer never placed, and a default LocalTensor, address
               NULL and 0 bytes): on a device it points wherever the TBuf's uninitialised
               handle does. Say so rather than "exceeds ... 0 bytes". */
            if (o->ref.addr == NULL) {
                asc_twin_report(api,
                                "the %s tensor has no UB buffer (count %llu elements): its TBuf or queue was "
                                "never given one by InitBuffer, or the LocalTensor was never assigned",
                                o->role, ull(count));
                return -1;
            }
            asc_twin_report(api, "count %llu elements (%llu bytes) exceeds the %s tensor's %llu bytes", ull(count),
                            ull(o->bytes), o->role, ull(o->ref.capacity_bytes));
            return -1;
        }
        int64_t off = ub_offset(o->ref.addr);
        if (off < 0) {
            asc_twin_report(api, "the %s tensor at %p is not in the block's UB (%llu bytes)", o->role,
                            (void *)o->ref.addr, ull(ub));
            return -1;
        }
        if (o->bytes > ub - (uint64_t)off) {
            asc_twin_report(api, "the %s tensor's %llu bytes at UB offset %lld run past the UB's end (%llu bytes)",
                            o->role, ull(o->bytes), (long long)off, ull(ub));
            return -1;
        }
        if (o->aligned && off % 32 != 0) {
            asc_twin_report(api, "the %s tensor starts at UB offset %lld, not 32-byte aligned", o->role,
                            (long long)off);
            return -1;
        }
    }
    return 0;
}

/* CANN's aclrtMalloc rounds a size up to 32 bytes and adds 32 (its documentation of
   aclrtMalloc, against aclrtMallocAlign32's), so on a device a DataCopy that runs up to that
   far past the requested size stays inside the allocation: a tail copied as whole 32-byte
   blocks, which ops-nn kernels do. The twin's blocks are exactly the requested size (so that
   AddressSanitizer sees an overrun), so such a copy reaches only *in_block bytes; the caller
   reads the rest as zeros and drops what would be written there. */
static uint64_t cann_malloc_reach(uint64_t size) { return (size + 31) / 32 * 32 + 32; }

int twin_check_gm(const char *api, const char *role, asc_twin_gm_ref t, uint64_t offset, uint64_t bytes) {
    return twin_check_gm_copy(api, role, t, offset, bytes, NULL);
}

int twin_check_gm_copy(const char *api, const char *role, asc_twin_gm_ref t, uint64_t offset, uint64_t bytes,
                       uint64_t *in_block) {
    if (in_block != NULL) *in_block = bytes;
    if (bytes == 0) return 0;
    if (offset > t.size_bytes || bytes > t.size_bytes - offset) {
        asc_twin_report(api, "GM bytes [%llu, %llu) of the %s exceed the %llu bytes SetGlobalBuffer gave", ull(offset),
                        ull(offset + bytes), role, ull(t.size_bytes));
        return -1;
    }
    /* an address, not a pointer: the offset may be anything below SetGlobalBuffer's size */
    const void *p = (const void *)((uintptr_t)t.addr + offset);
    uint8_t *base = NULL;
    uint64_t size = 0;
    uintptr_t rt_base = 0;
    if (t.addr == NULL) {
        asc_twin_report(api, "the %s's GM address is null", role);
        return -1;
    }
    /* the allocation holding the first byte, or ending right where the access starts (an
       address, not a pointer into anything: it may lie one byte before the access) */
    const char *kind = NULL;
    int padded = 0; /* an aclrtMalloc block: CANN pads it */
    for (uintptr_t probe = (uintptr_t)p, k = 0; k < 2 && kind == NULL && probe != 0; k++, probe--) {
        const void *at = (const void *)probe;
        if (asc_twin_gm_extent(at, &base, &size)) kind = "GmAlloc block";
        else if (mgrt_device_extent(at, &rt_base, &size))
            kind = "aclrtMalloc block", base = (uint8_t *)rt_base, padded = 1;
        else if (asc_twin_launch_extent(at, &base, &size)) kind = "launch's tiling copy";
    }
    if (kind == NULL) {
        asc_twin_report(api, "GM bytes [%p, +%llu) of the %s are in no GM allocation (GmAlloc, aclrtMalloc, "
                        "the launch's tiling)", (const void *)p, ull(bytes), role);
        return -1;
    }
    uint64_t from = (uint64_t)((uintptr_t)p - (uintptr_t)base);
    if (bytes > size - from && in_block != NULL && padded && from <= size &&
        bytes <= cann_malloc_reach(size) - from) {
        if (asc_twin_warn(api,
                          "GM bytes [%llu, %llu) of the %s run %llu bytes past the end of its aclrtMalloc block "
                          "(%llu bytes), within the padding CANN's aclrtMalloc adds (%llu bytes in all): read as "
                          "zeros, not written here",
                          ull(from), ull(from + bytes), role, ull(from + bytes - size), ull(size),
                          ull(cann_malloc_reach(size))) != 0)
            return -1;
        *in_block = size - from;
        return 0;
    }
    if (bytes > size - from) {
        asc_twin_report(api, "GM bytes [%llu, %llu) of the %s run %llu bytes past the end of its %s (%llu bytes)",
                        ull(from), ull(from + bytes), role, ull(from + bytes - size), kind, ull(size));
        return -1;
    }
    return 0;
}

int twin_check_overlap(const char *api, const twin_operand *dst, const twin_operand *src, int inplace_ok,
                       const char *why) {
    uintptr_t d = (uintptr_t)dst->ref.addr, s = (uintptr_t)src->ref.addr;
    if (dst->bytes == 0 || src->bytes == 0 || d + dst->bytes <= s || s + src->bytes <= d) return 0;
    uint32_t des = asc_twin_dtype_size(dst->ref.dtype), ses = asc_twin_dtype_size(src->ref.dtype);
    int64_t doff = ub_offset(dst->ref.addr), soff = ub_offset(src->ref.addr);
    if (d == s) {
        if (inplace_ok && des <= ses) return 0;
        int r = asc_twin_warn(api, "the %s and %s tensors are the same (UB offset %lld): %s", dst->role, src->role,
                              (long long)doff, why);
        if (r < 0) return -1;
        return des <= ses ? 0 : 1;
    }
    int r = asc_twin_warn(api, "the %s [UB offset %lld, +%llu) and %s [UB offset %lld, +%llu) overlap partially", dst->role,
                          (long long)doff, ull(dst->bytes), src->role, (long long)soff, ull(src->bytes));
    return r < 0 ? -1 : 1;
}

twin_sv twin_shadow(const uint8_t *ub_addr) {
    int64_t off = ub_offset(ub_addr);
    twin_sv v = {off < 0 ? NULL : asc_twin_ub_shadow(), off < 0 ? 0 : (uint64_t)off};
    return v;
}

/* bits [from, to) of a word, 0 <= from < to <= 32 */
static uint32_t bit_mask(unsigned from, unsigned to) { return (uint32_t)((((uint64_t)1 << (to - from)) - 1) << from); }

/* Calls visit(word, mask) over the words holding bits [off, off + n); stops when it returns 0. */
#define FOR_WORDS(v, n, word, mask, body)                                                          \
    do {                                                                                           \
        uint64_t at_ = (v).off, left_ = (n);                                                       \
        while (left_ > 0) {                                                                        \
            unsigned b_ = (unsigned)(at_ % 32), take_ = left_ < 32 - b_ ? (unsigned)left_ : 32 - b_; \
            uint32_t *word = &(v).w[at_ / 32];                                                     \
            uint32_t mask = bit_mask(b_, b_ + take_);                                              \
            body;                                                                                  \
            at_ += take_;                                                                          \
            left_ -= take_;                                                                        \
        }                                                                                          \
    } while (0)

TWIN_CLONES int twin_sv_all(twin_sv v, uint64_t n) {
    if (v.w == NULL || n == 0) return 1;
    if (v.off % 32 == 0) {
        /* the common case, a 32-byte aligned tensor: whole words, a loop that vectorizes */
        const uint32_t *w = v.w + v.off / 32;
        uint64_t full = n / 32;
        uint32_t acc = 0xffffffffu;
        for (uint64_t i = 0; i < full; i++) acc &= w[i];
        if (acc != 0xffffffffu) return 0;
        return n % 32 == 0 || (w[full] & bit_mask(0, (unsigned)(n % 32))) == bit_mask(0, (unsigned)(n % 32));
    }
    int all = 1;
    FOR_WORDS(v, n, word, mask, if ((*word & mask) != mask) { all = 0; break; });
    return all;
}

void twin_sv_set(twin_sv v, uint64_t n, int written) {
    if (v.w == NULL || n == 0) return;
    if (v.off % 32 == 0 && n >= 32) {
        memset(v.w + v.off / 32, written ? 0xff : 0, (size_t)(n / 32) * 4);
        v.off += n / 32 * 32;
        n %= 32;
    }
    FOR_WORDS(v, n, word, mask, *word = written ? *word | mask : *word & ~mask);
}

static int sv_get(twin_sv v, uint64_t i) { return (int)((v.w[(v.off + i) / 32] >> ((v.off + i) % 32)) & 1u); }

void twin_sv_copy(twin_sv dst, twin_sv src, uint64_t n) {
    if (dst.w == NULL || src.w == NULL || n == 0) return;
    if (dst.off % 32 == 0 && src.off % 32 == 0) {
        memmove(dst.w + dst.off / 32, src.w + src.off / 32, (size_t)(n / 32) * 4);
        uint64_t done = n / 32 * 32;
        dst.off += done, src.off += done, n -= done;
    }
    /* bit by bit, in the direction that reads each bit before it is overwritten */
    uint64_t d = dst.off, s = src.off;
    if (dst.w == src.w && d > s) {
        for (uint64_t i = n; i-- > 0;) twin_sv_set(twin_sv_at(dst, i), 1, sv_get(src, i));
    } else {
        for (uint64_t i = 0; i < n; i++) twin_sv_set(twin_sv_at(dst, i), 1, sv_get(src, i));
    }
}

int twin_sv_snapshot(twin_sv v, uint64_t n, uint32_t **owned, twin_sv *out) {
    uint64_t words = (v.off % 32 + n + 31) / 32;
    *owned = mgrt_malloc((size_t)words * 4 + 4);
    if (*owned == NULL) return -1;
    if (v.w != NULL) memcpy(*owned, v.w + v.off / 32, (size_t)words * 4);
    else memset(*owned, 0xff, (size_t)words * 4);
    out->w = *owned;
    out->off = v.off % 32;
    return 0;
}

int twin_check_written(const char *api, const char *role, const uint8_t *addr, uint64_t bytes, const char *what) {
    twin_sv v = twin_shadow(addr);
    if (v.w == NULL || bytes == 0 || twin_sv_all(v, bytes)) return 0;
    uint64_t first = bytes, unwritten = 0;
    for (uint64_t i = 0; i < bytes; i++) {
        if (!sv_get(v, i)) {
            if (first == bytes) first = i;
            unwritten++;
        }
    }
    asc_twin_report(api, "%llu of the %llu bytes %s gives %s were never written (first at UB offset %lld)",
                    ull(unwritten), ull(bytes), role, what, (long long)ub_offset(addr) + (long long)first);
    return -1;
}

void twin_propagate(twin_sv dst, uint32_t dst_es, const twin_sv *src0, uint32_t s0_es, const twin_sv *src1,
                    uint32_t s1_es, size_t n) {
    if (dst.w == NULL) return;
    if ((src0 == NULL || twin_sv_all(*src0, (uint64_t)n * s0_es)) &&
        (src1 == NULL || twin_sv_all(*src1, (uint64_t)n * s1_es))) {
        twin_sv_set(dst, (uint64_t)n * dst_es, 1);
        return;
    }
    /* some element is unwritten: per element, "written" where every source byte was (the
       definedness memcheck gives a result) */
    for (size_t i = 0; i < n; i++) {
        int w = (src0 == NULL || twin_sv_all(twin_sv_at(*src0, (uint64_t)i * s0_es), s0_es)) &&
                (src1 == NULL || twin_sv_all(twin_sv_at(*src1, (uint64_t)i * s1_es), s1_es));
        twin_sv_set(twin_sv_at(dst, (uint64_t)i * dst_es), dst_es, w);
    }
}
