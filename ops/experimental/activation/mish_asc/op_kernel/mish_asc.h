/* mish_asc.h: the MishAsc kernel, y = mish(x) = x tanh(softplus(x)), as AscendC vector code
   (TPipe with double-buffered TQue in and out, DataCopyPad for the tails, float32 arithmetic
   for every dtype: 16-bit inputs are cast up and the result rounded back to nearest-even).

   tanh(softplus(x)) is evaluated from one exponential with no cancelling sum (the algebra of
   the project's reference, reference/mish_reference.h): with e = exp(min(x, 20)),
       n = e (e + 2),  tanh(softplus(x)) = n / (n + 2),  mish(x) = x n / (n + 2).
   The clamp keeps n finite; above x = 20 the exact factor is 1 - 2e^-40, which rounds to 1
   in float32 either way, so mish(x) = x there. */
#ifndef MISH_ASC_KERNEL_H_
#define MISH_ASC_KERNEL_H_

#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "mish_asc_tiling_data.h"
#include "mish_asc_tiling_key.h"

namespace MishAscKernel {
using namespace AscendC;

constexpr int32_t DEPTH = 2; /* two buffers per queue: copy-in of tile i+1 overlaps compute of i */
constexpr float CLAMP = 20.0f;

/* y = mish(x) on `count` float32 elements; a and b are work tensors. y may be a or b. */
__aicore__ inline void MishF32(const LocalTensor<float> &y, const LocalTensor<float> &x, const LocalTensor<float> &a,
                               const LocalTensor<float> &b, uint32_t count)
{
    Mins(a, x, CLAMP, count);
    Exp(b, a, count);        /* e */
    Adds(a, b, 2.0f, count); /* e + 2 */
    Mul(a, a, b, count);     /* n */
    Adds(b, a, 2.0f, count); /* n + 2 */
    Div(a, a, b, count);     /* tanh(softplus(x)) */
    Mul(y, a, x, count);
}

template <typename T>
class MishAscOp {
public:
    __aicore__ inline MishAscOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MishAscTilingData &tiling, TPipe *pipe)
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
        pipe->InitBuffer(workA_, floatBytes);
        pipe->InitBuffer(workB_, floatBytes);
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
        LocalTensor<float> a = workA_.Get<float>();
        LocalTensor<float> b = workB_.Get<float>();
        if constexpr (IS_FLOAT) {
            MishF32(y, x, a, b, count);
        } else {
            LocalTensor<float> xf = xF_.Get<float>();
            Cast(xf, x, RoundMode::CAST_NONE, count); /* exact widening */
            MishF32(b, xf, a, b, count);
            Cast(y, b, RoundMode::CAST_RINT, count); /* round to nearest, ties to even */
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
    TBuf<TPosition::VECCALC> workA_;
    TBuf<TPosition::VECCALC> workB_;
    TBuf<TPosition::VECCALC> xF_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    int64_t length_ = 0;
    int64_t tileLength_ = 0;
};
} // namespace MishAscKernel

#endif
