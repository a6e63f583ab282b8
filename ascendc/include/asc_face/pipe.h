/*
 * asc_face/pipe.h: TPipe, TQueBind/TQue and TBuf. TPipe::InitBuffer places buffers in the
 * running block's Unified Buffer through the core's placement rule (twin_block.h), and a
 * queue's AllocTensor/EnQue/DeQue/FreeTensor go through the core's protocol (queue.h); a
 * broken rule is reported there and the block stops (every later call does nothing).
 */
#ifndef ASC_FACE_PIPE_H_
#define ASC_FACE_PIPE_H_

#include "../../core/queue.h"
#include "../../core/twin_block.h"
#include "asc_face/tensor.h"

namespace AscendC {

class TPipe;

// The buffers InitBuffer gave a queue or a TBuf: `num` buffers of `len` bytes each from
// `base` in the block's UB, `len` being the length asked for rounded up to 32 bytes.
struct TwinBuffers {
    uint8_t *base = nullptr;
    uint64_t len = 0;    // one buffer's bytes, rounded up to 32: the capacity of its tensor
    uint64_t stride = 0; // bytes between buffers (= len)
    int num = 0;
    asc_twin_ub_ref Ref(int i) const
    {
        if (base == nullptr || i < 0 || i >= num) return asc_twin_ub_ref{nullptr, 0, ASC_TWIN_U8};
        return asc_twin_ub_ref{base + static_cast<uint64_t>(i) * stride, len, ASC_TWIN_U8};
    }
    // The buffer a tensor of this queue starts in, or -1.
    int IndexOf(const uint8_t *addr) const
    {
        if (base == nullptr || addr < base || stride == 0) return -1;
        const uint64_t off = static_cast<uint64_t>(addr - base);
        return off / stride < static_cast<uint64_t>(num) ? static_cast<int>(off / stride) : -1;
    }
};

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0> class TQueBind {
public:
    TQueBind() { asc_twin_que_init(&que_, depth, 0); }

    template <typename T> LocalTensor<T> AllocTensor()
    {
        const int i = asc_twin_que_alloc(&que_);
        return LocalTensor<T>(bufs_.Ref(i));
    }
    template <typename T> bool EnQue(const LocalTensor<T> &tensor)
    {
        return asc_twin_que_enque(&que_, bufs_.IndexOf(tensor.TwinRef().addr)) >= 0;
    }
    template <typename T> LocalTensor<T> DeQue() { return LocalTensor<T>(bufs_.Ref(asc_twin_que_deque(&que_))); }
    // the forms naming the user positions a bound queue moves between (one protocol in the twin)
    template <TPosition srcUserPos, TPosition dstUserPos, typename T> bool EnQue(const LocalTensor<T> &tensor)
    {
        return EnQue(tensor);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T> LocalTensor<T> DeQue() { return DeQue<T>(); }
    template <typename T> void FreeTensor(LocalTensor<T> &tensor)
    {
        asc_twin_que_free(&que_, bufs_.IndexOf(tensor.TwinRef().addr));
    }
    bool VacantInQue() const { return que_.enqueued < depth; }
    bool HasTensorInQue() const { return que_.enqueued > 0; }
    int32_t GetTensorCountInQue() const { return que_.enqueued; }
    bool HasIdleBuffer() const
    {
        for (int i = 0; i < que_.buf_num; i++)
            if (que_.state[i] == ASC_TWIN_BUF_FREE) return true;
        return false;
    }
    void FreeAllEvent() {}

private:
    friend class TPipe;
    asc_twin_que que_;
    TwinBuffers bufs_;
};

template <TPosition pos, int32_t depth, auto mask = 0> class TQue : public TQueBind<pos, pos, depth, mask> {};

// A buffer without a queue (VECCALC scratch): Get hands out the whole buffer or its start.
template <TPosition pos = TPosition::LCM> class TBuf {
public:
    template <typename T> LocalTensor<T> Get() { return LocalTensor<T>(bufs_.Ref(0)); }
    template <typename T> LocalTensor<T> Get(uint32_t len)
    {
        LocalTensor<T> t(bufs_.Ref(0));
        t.SetSize(len);
        return t;
    }
    // a TBuf hands out its buffer as AllocTensor too; nothing to free
    template <typename T> LocalTensor<T> AllocTensor() { return Get<T>(); }
    template <typename T> void FreeTensor(LocalTensor<T> &tensor) { (void)tensor; }
    template <typename T> LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset)
    {
        LocalTensor<T> t = Get<uint8_t>()[bufOffset].template ReinterpretCast<T>();
        t.SetSize(size);
        return t;
    }

private:
    friend class TPipe;
    TwinBuffers bufs_;
};

class TPipe;
// GetTPipePtr(): the pipe the running block made last (CANN keeps the same global).
inline thread_local TPipe *twinCurrentPipe = nullptr;

class TPipe {
public:
    TPipe() { twinCurrentPipe = this; }
    ~TPipe()
    {
        if (twinCurrentPipe == this) twinCurrentPipe = nullptr;
    }
    TPipe(const TPipe &) = delete;
    TPipe &operator=(const TPipe &) = delete;

    template <TPosition src, TPosition dst, int32_t depth, auto mask>
    bool InitBuffer(TQueBind<src, dst, depth, mask> &que, uint8_t num, uint32_t len)
    {
        if (!Place(que.bufs_, num, len)) return false;
        asc_twin_que_init(&que.que_, depth, num);
        return true;
    }
    template <TPosition pos> bool InitBuffer(TBuf<pos> &buf, uint32_t bufferSize)
    {
        return Place(buf.bufs_, 1, bufferSize);
    }
    void Reset() { used_ = 0; buffers_ = 0; }
    void Destroy() { used_ = 0; buffers_ = 0; }
    void Init() { used_ = 0; buffers_ = 0; }
    // Events order nothing in the twin (every instruction completes in program order).
    template <HardEvent evt> TEventID FetchEventID() { return 0; }
    TEventID FetchEventID(HardEvent) { return 0; }
    template <HardEvent evt> TEventID AllocEventID() { return 0; }
    template <HardEvent evt> void ReleaseEventID(TEventID) {}

private:
    bool Place(TwinBuffers &b, int num, uint64_t len)
    {
        // the count rule first: a refused InitBuffer places nothing
        if (asc_twin_pipe_add_buffers(&buffers_, num) != 0) return false;
        // CANN's InitBuffer rounds a length that is not a multiple of 32 bytes up to one (its
        // docs: "非32Bytes对齐会自动向上补齐至32Bytes对齐") and records the rounded length as
        // the buffer's data length, which AllocTensor and TBuf::Get hand on to the tensor: a
        // kernel may use the whole rounded buffer (a DataCopyPad whose 32-byte-aligned span
        // is longer than the length asked for, as ops-nn's softmax_v2 does). Bytes it never
        // writes there are still caught by the written-bytes record.
        const uint64_t stride = (len + 31u) & ~static_cast<uint64_t>(31u);
        const int64_t off = asc_twin_ub_init_buffer(&used_, stride * static_cast<uint64_t>(num));
        uint8_t *ub = asc_twin_ub_base();
        if (off < 0 || ub == nullptr) return false;
        b.base = ub + off;
        b.len = stride;
        b.stride = stride;
        b.num = num;
        return true;
    }
    uint64_t used_ = 0;
    uint32_t buffers_ = 0; // buffers handed out: at most 64 (queue.h)
};

inline TPipe *GetTPipePtr() { return twinCurrentPipe; }

} // namespace AscendC

#endif // ASC_FACE_PIPE_H_
