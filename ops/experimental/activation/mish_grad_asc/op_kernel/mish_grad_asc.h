/* mish_grad_asc.h: the MishGradAsc kernel, x_grad = grad * mish'(x), as AscendC vector code
   (TPipe with double-buffered TQue in and out, DataCopyPad for the tails, float32 arithmetic
   for every dtype: 16-bit inputs are cast up and the result rounded back to nearest-even).

   mish'(x) is evaluated from one exponential in a form where no sum cancels (the project's
   reference uses the same algebra, reference/mish_reference.h): with xc = min(x, 20) and
   e = exp(xc),
       n = e (e + 2),  d = n + 2,  T1 = tanh(softplus(x)) = n / d,
       T2 = x (1 - T1^2) sigmoid(x) = 4 xc e (e + 1) / d / d,   mish'(x) = T1 + T2.
   The clamp keeps d^2 finite (dividing by d twice keeps it so too); above x = 20 the exact
   T1 is 1 - 2e^-40 and T2 below 1e-15, so T1 + T2 rounds to 1 in float32 either way.
   Vector instructions are only ever given whole operands (dst == src is allowed for the
   basic arithmetic; no advanced API that forbids it is used). */
#ifndef MISH_GRAD_ASC_KERNEL_H_
#define MISH_GRAD_ASC_KERNEL_H_

#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "mish_grad_asc_tiling_data.h"
#include "mish_grad_asc_tiling_key.h"

namespace MishGradAscKernel {
using namespace AscendC;

constexpr int32_t DEPTH = 2; /* two buffers per queue: copy-in of tile i+1 overlaps compute of i */
constexpr float CLAMP = 20.0f;

/* y = grad * mish'(x) on `count` float32 elements; x is overwritten (it becomes min(x, 20)),
   a and b are work tensors of at least `count` elements. y may be grad. */
__aicore__ inline void MishGradF32(const LocalTensor<float> &y, const LocalTensor<float> &grad,
                                   const LocalTensor<float> &x, const LocalTensor<float> &a,
                                   const LocalTensor<float> &b, uint32_t count)
{
    Mins(x, x, CLAMP, count); /* xc */
    Exp(a, x, count);         /* e */
    Adds(b, a, 1.0f, count);  /* e + 1 */
    Mul(b, b, a, count);      /* e (e + 1) */
    Mul(b, b, x, count);      /* xc e (e + 1) */
    Adds(x, a, 2.0f, count);  /* e + 2 (xc is no longer needed) */
    Mul(x, x, a, count);      /* n */
    Adds(a, x, 2.0f, count);  /* d */
    Div(x, x, a, count);      /* T1 */
    Muls(b, b, 4.0f, count);
    Div(b, b, a, count);
    Div(b, b, a, count);      /* T2 */
    Add(b, b, x, count);      /* mish'(x) */
    Mul(y, b, grad, count);
}

template <typename T>
class MishGradAscOp {
public:
    __aicore__ inline MishGradAscOp() {}

    __aicore__ inline void Init(GM_ADDR grad, GM_ADDR x, GM_ADDR xGrad, const MishGradAscTilingData &tiling,
                                TPipe *pipe)
    {
        const int64_t start = tiling.blockLength * static_cast<int64_t>(GetBlockIdx());
        const int64_t left = tiling.totalLength - start;
        length_ = left < tiling.blockLength ? (left > 0 ? left : 0) : tiling.blockLength;
        tileLength_ = tiling.tileLength;
        gradGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(grad) + start, length_);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + start, length_);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(xGrad) + start, length_);
        const uint32_t tileBytes = static_cast<uint32_t>(tileLength_ * sizeof(T));
        const uint32_t floatBytes = static_cast<uint32_t>(tileLength_ * sizeof(float));
        pipe->InitBuffer(gradQueue_, DEPTH, tileBytes);
        pipe->InitBuffer(xQueue_, DEPTH, tileBytes);
        pipe->InitBuffer(outQueue_, DEPTH, tileBytes);
        pipe->InitBuffer(workA_, floatBytes);
        pipe->InitBuffer(workB_, floatBytes);
        if constexpr (!IS_FLOAT) {
            pipe->InitBuffer(gradF_, floatBytes);
            pipe->InitBuffer(xF_, floatBytes);
        }
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
        /* a tail shorter than 32 bytes is padded in the UB, never read from beyond the GM range */
        const DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        const DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        LocalTensor<T> g = gradQueue_.AllocTensor<T>();
        DataCopyPad(g, gradGm_[offset], params, pad);
        gradQueue_.EnQue(g);
        LocalTensor<T> x = xQueue_.AllocTensor<T>();
        DataCopyPad(x, xGm_[offset], params, pad);
        xQueue_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> g = gradQueue_.DeQue<T>();
        LocalTensor<T> x = xQueue_.DeQue<T>();
        LocalTensor<T> out = outQueue_.AllocTensor<T>();
        LocalTensor<float> a = workA_.Get<float>();
        LocalTensor<float> b = workB_.Get<float>();
        if constexpr (IS_FLOAT) {
            MishGradF32(out, g, x, a, b, count);
        } else {
            LocalTensor<float> gf = gradF_.Get<float>();
            LocalTensor<float> xf = xF_.Get<float>();
            Cast(gf, g, RoundMode::CAST_NONE, count); /* exact widening */
            Cast(xf, x, RoundMode::CAST_NONE, count);
            MishGradF32(gf, gf, xf, a, b, count);
            Cast(out, gf, RoundMode::CAST_RINT, count); /* round to nearest, ties to even */
        }
        outQueue_.EnQue(out);
        gradQueue_.FreeTensor(g);
        xQueue_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(int64_t offset, uint32_t count)
    {
        LocalTensor<T> out = outQueue_.DeQue<T>();
        const DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(outGm_[offset], out, params);
        outQueue_.FreeTensor(out);
    }

    TQue<TPosition::VECIN, DEPTH> gradQueue_;
    TQue<TPosition::VECIN, DEPTH> xQueue_;
    TQue<TPosition::VECOUT, DEPTH> outQueue_;
    TBuf<TPosition::VECCALC> workA_;
    TBuf<TPosition::VECCALC> workB_;
    TBuf<TPosition::VECCALC> gradF_;
    TBuf<TPosition::VECCALC> xF_;
    GlobalTensor<T> gradGm_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> outGm_;
    int64_t length_ = 0;
    int64_t tileLength_ = 0;
};
} // namespace MishGradAscKernel

#endif
