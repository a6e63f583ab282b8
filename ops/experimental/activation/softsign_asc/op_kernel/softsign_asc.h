/* softsign_asc.h: the SoftsignAsc kernel, y = softsign(x) = x / (1 + |x|), as AscendC vector
   code (TPipe with double-buffered TQue in and out, DataCopyPad for the tails, float32
   arithmetic for every dtype: 16-bit inputs are cast up and the result rounded back to
   nearest-even). In float32 the result has two roundings (1 + |x|, then the quotient): within
   1.5 ulp of the exact value; |x| / (1 + |x|) < 1, so nothing overflows, and for |x| above
   2^24 the sum rounds to |x| and y to +-1 (the exact value rounds there too). */
#ifndef SOFTSIGN_ASC_KERNEL_H_
#define SOFTSIGN_ASC_KERNEL_H_

#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "softsign_asc_tiling_data.h"

namespace SoftsignAscKernel {
using namespace AscendC;

constexpr int32_t DEPTH = 2; /* two buffers per queue: copy-in of tile i+1 overlaps compute of i */

/* y = x / (1 + |x|) on `count` float32 elements; a is a work tensor. y may be x. */
__aicore__ inline void SoftsignF32(const LocalTensor<float> &y, const LocalTensor<float> &x,
                                   const LocalTensor<float> &a, uint32_t count)
{
    Abs(a, x, count);
    Adds(a, a, 1.0f, count);
    Div(y, x, a, count);
}

template <typename T>
class SoftsignAscOp {
public:
    __aicore__ inline SoftsignAscOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftsignAscTilingData &tiling, TPipe *pipe)
    {
        const int64_t start = tiling.blockLength * static_cast<int64_t>(GetBlockIdx());
        const int64_t left = tiling.totalLength - start;
        length_ = left < tiling.blockLength ? (left > 0 ? left : 0) : tiling.blockLength;
        tileLength_ = tiling.tileLength;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + start, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + start, length_);
        const uint32_t tileBytes = static_cast<uint32_t>(tileLength_ * sizeof(T));
        const uint32_t floatBytes = static_cast<uint32_t>(tileLength_ * sizeof(float));
        pipe->InitBuffer(xQueue_, DEPTH, tileBytes);
        pipe->InitBuffer(yQueue_, DEPTH, tileBytes);
        pipe->InitBuffer(work_, floatBytes);
        if constexpr (!IS_FLOAT) pipe->InitBuffer(xF_, floatBytes);
    }

    __aicore__ inline void Process()
    {
        for (int64_t done = 0; done < length_; done += tileLength_) {
            const int64_t rest = length_ - done;
            const uint32_t count = static_cast<uint32_t>(rest < tileLength_ ? rest : tileLength_);
            CopyIn(done, count);
            Compute(count);
            CopyOut(done, count);
        }
    }

private:
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

    __aicore__ inline void CopyIn(int64_t offset, uint32_t count)
    {
        const DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        const DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        LocalTensor<T> x = xQueue_.AllocTensor<T>();
        DataCopyPad(x, xGm_[offset], params, pad);
        xQueue_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> x = xQueue_.DeQue<T>();
        LocalTensor<T> y = yQueue_.AllocTensor<T>();
        LocalTensor<float> a = work_.Get<float>();
        if constexpr (IS_FLOAT) {
            SoftsignF32(y, x, a, count);
        } else {
            LocalTensor<float> xf = xF_.Get<float>();
            Cast(xf, x, RoundMode::CAST_NONE, count); /* exact widening */
            SoftsignF32(xf, xf, a, count);
            Cast(y, xf, RoundMode::CAST_RINT, count); /* round to nearest, ties to even */
        }
        yQueue_.EnQue(y);
        xQueue_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(int64_t offset, uint32_t count)
    {
        LocalTensor<T> y = yQueue_.DeQue<T>();
        const DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[offset], y, params);
        yQueue_.FreeTensor(y);
    }

    TQue<TPosition::VECIN, DEPTH> xQueue_;
    TQue<TPosition::VECOUT, DEPTH> yQueue_;
    TBuf<TPosition::VECCALC> work_;
    TBuf<TPosition::VECCALC> xF_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    int64_t length_ = 0;
    int64_t tileLength_ = 0;
};
} // namespace SoftsignAscKernel

#endif
