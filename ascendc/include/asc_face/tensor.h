/*
 * asc_face/tensor.h: GlobalTensor and LocalTensor. Each is the core's reference (asc_twin/
 * vec.h: an address, the bytes it may reach, the element type) and nothing more; every read
 * and write goes through the core, which checks it.
 */
#ifndef ASC_FACE_TENSOR_H_
#define ASC_FACE_TENSOR_H_

#include "asc_face/types.h"

namespace AscendC {

template <typename T> class LocalTensor;

template <typename T> class GlobalTensor {
public:
    using PrimType = T;
    GlobalTensor() { ref_ = asc_twin_gm_ref{nullptr, UINT64_MAX, TwinDtype<T>::value}; }

    // Without a size only the real allocation bounds the tensor (the core's UINT64_MAX).
    void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize)
    {
        ref_.addr = reinterpret_cast<uint8_t *>(buffer);
        ref_.size_bytes = bufferSize > UINT64_MAX / sizeof(T) ? UINT64_MAX : bufferSize * sizeof(T);
    }
    void SetGlobalBuffer(__gm__ T *buffer)
    {
        ref_.addr = reinterpret_cast<uint8_t *>(buffer);
        ref_.size_bytes = UINT64_MAX;
    }
    GlobalTensor operator[](uint64_t offset) const
    {
        GlobalTensor t(*this);
        t.ref_.addr = ref_.addr == nullptr ? nullptr : ref_.addr + offset * sizeof(T); // an unset optional input
        if (ref_.size_bytes != UINT64_MAX) {
            const uint64_t skip = offset * sizeof(T);
            t.ref_.size_bytes = skip > ref_.size_bytes ? 0 : ref_.size_bytes - skip;
        }
        return t;
    }
    T GetValue(uint64_t offset) const
    {
        double v = 0;
        asc_twin_gm_get_value(ref_, offset, &v);
        return TwinFromDouble<T>(v);
    }
    void SetValue(uint64_t offset, const T &value) const { asc_twin_gm_set_value(ref_, offset, TwinScalar<T>(value)); }
    __gm__ T *GetPhyAddr() const { return reinterpret_cast<__gm__ T *>(ref_.addr); }
    __gm__ T *GetPhyAddr(uint64_t offset) const { return GetPhyAddr() + offset; }
    uint64_t GetSize() const { return ref_.size_bytes == UINT64_MAX ? 0 : ref_.size_bytes / sizeof(T); }
    // L2 cache hints change no value.
    template <typename... A> void SetL2CacheHint(A...) {}

    const asc_twin_gm_ref &TwinRef() const { return ref_; }

private:
    asc_twin_gm_ref ref_;
};

// What LocalTensor::operator() gives: element i, read and written through the core's
// checked scalar access (CANN gives a reference to the UB element).
template <typename T> class TwinElementRef {
public:
    TwinElementRef(asc_twin_ub_ref ref, uint64_t index) : ref_(ref), index_(index) {}
    operator T() const
    {
        double v = 0;
        asc_twin_get_value(ref_, index_, &v);
        return TwinFromDouble<T>(v);
    }
    // half and bfloat16 elements read as float directly ((float)t(i), as on the device)
    template <typename F, typename = std::enable_if_t<std::is_same_v<F, float> && !std::is_same_v<T, float> &&
                                                      (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)>>
    operator F() const
    {
        return static_cast<float>(static_cast<T>(*this));
    }
    TwinElementRef &operator=(const T &value)
    {
        asc_twin_set_value(ref_, index_, TwinScalar<T>(value));
        return *this;
    }
    TwinElementRef &operator=(const TwinElementRef &other) { return *this = static_cast<T>(other); }

private:
    asc_twin_ub_ref ref_;
    uint64_t index_;
};

template <typename T> class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() { ref_ = asc_twin_ub_ref{nullptr, 0, TwinDtype<T>::value}; }
    explicit LocalTensor(asc_twin_ub_ref ref) : ref_(ref) { ref_.dtype = TwinDtype<T>::value; }

    // A slice keeps its buffer's end: counts past it break the core's "within the tensor" rule.
    LocalTensor operator[](uint64_t offset) const
    {
        LocalTensor t(*this);
        const uint64_t skip = offset * sizeof(T);
        t.ref_.addr = ref_.addr == nullptr ? nullptr : ref_.addr + skip;
        t.ref_.capacity_bytes = skip > ref_.capacity_bytes ? 0 : ref_.capacity_bytes - skip;
        return t;
    }
    T GetValue(uint64_t index) const
    {
        double v = 0;
        asc_twin_get_value(ref_, index, &v);
        return TwinFromDouble<T>(v);
    }
    void SetValue(uint64_t index, const T &value) const { asc_twin_set_value(ref_, index, TwinScalar<T>(value)); }
    TwinElementRef<T> operator()(uint64_t index) const { return TwinElementRef<T>(ref_, index); }
    template <typename U> LocalTensor<U> ReinterpretCast() const { return LocalTensor<U>(ref_); }
    uint32_t GetSize() const { return static_cast<uint32_t>(ref_.capacity_bytes / sizeof(T)); }
    uint32_t GetLength() const { return static_cast<uint32_t>(ref_.capacity_bytes); }
    void SetSize(uint32_t size)
    {
        const uint64_t bytes = static_cast<uint64_t>(size) * sizeof(T);
        if (bytes < ref_.capacity_bytes) ref_.capacity_bytes = bytes;
    }
    __ubuf__ T *GetPhyAddr() const { return reinterpret_cast<__ubuf__ T *>(ref_.addr); }
    __ubuf__ T *GetPhyAddr(uint32_t offset) const { return GetPhyAddr() + offset; }

    const asc_twin_ub_ref &TwinRef() const { return ref_; }

private:
    asc_twin_ub_ref ref_;
};

} // namespace AscendC

#endif // ASC_FACE_TENSOR_H_
