// face_demo: a kernel of the project's own in the seed's style (TPipe, TQue, TBuf,
// DataCopyPad both ways, vector instructions in float, Cast in and out for half and
// bfloat16), compiled unchanged through ascendc_twin_add_kernel. ROUND_OUT picks the
// output Cast's mode: CAST_RINT (false) or CAST_ROUND (true).
#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "face_demo_tiling_data.h"
#include "face_demo_tiling_key.h"

namespace FaceDemo {
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

template <typename T, bool ROUND_OUT> class Kernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const FaceDemoTilingData *t, TPipe *pipe)
    {
        const int64_t idx = GetBlockIdx();
        const int64_t offset = idx < t->formerNum ? t->formerLength * idx
                                                  : t->formerLength * t->formerNum + t->tailLength * (idx - t->formerNum);
        length_ = idx < t->formerNum ? t->formerLength : t->tailLength;
        tile_ = t->tileLength;
        alpha_ = t->alpha;
        xGm_.SetGlobalBuffer((__gm__ T *)x + offset, length_);
        yGm_.SetGlobalBuffer((__gm__ T *)y + offset, length_);
        zGm_.SetGlobalBuffer((__gm__ T *)z + offset, length_);
        pipe->InitBuffer(inX_, BUFFER_NUM, tile_ * sizeof(T));
        pipe->InitBuffer(inY_, BUFFER_NUM, tile_ * sizeof(T));
        pipe->InitBuffer(outZ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe->InitBuffer(xf_, tile_ * sizeof(float));
        pipe->InitBuffer(yf_, tile_ * sizeof(float));
        pipe->InitBuffer(tmp_, tile_ * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        const int64_t tiles = (length_ + tile_ - 1) / tile_;
        for (int64_t i = 0; i < tiles; i++) {
            const int64_t valid = i == tiles - 1 ? length_ - i * tile_ : tile_;
            const int64_t aligned = (valid * static_cast<int64_t>(sizeof(T)) + 31) / 32 * 32 / static_cast<int64_t>(sizeof(T));
            CopyIn(i, valid, aligned);
            Compute(aligned);
            CopyOut(i, valid);
        }
    }

private:
    __aicore__ inline void CopyIn(int64_t i, int64_t valid, int64_t aligned)
    {
        DataCopyExtParams copy{1, static_cast<uint32_t>(valid * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(aligned - valid), static_cast<T>(0)};
        LocalTensor<T> x = inX_.AllocTensor<T>();
        LocalTensor<T> y = inY_.AllocTensor<T>();
        DataCopyPad(x, xGm_[i * tile_], copy, pad);
        DataCopyPad(y, yGm_[i * tile_], copy, pad);
        inX_.EnQue(x);
        inY_.EnQue(y);
    }
    __aicore__ inline void Compute(int64_t n)
    {
        LocalTensor<T> x = inX_.DeQue<T>();
        LocalTensor<T> y = inY_.DeQue<T>();
        LocalTensor<T> z = outZ_.AllocTensor<T>();
        LocalTensor<float> xf = xf_.Get<float>();
        LocalTensor<float> yf = yf_.Get<float>();
        LocalTensor<float> t = tmp_.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(xf, x, static_cast<uint32_t>(n));
            DataCopy(yf, y, static_cast<uint32_t>(n));
        } else {
            Cast(xf, x, RoundMode::CAST_NONE, n);
            Cast(yf, y, RoundMode::CAST_NONE, n);
        }
        PipeBarrier<PIPE_V>();
        Tanh(t, xf, n);
        Mul(t, t, yf, n);
        Muls(yf, xf, alpha_, n);
        Add(t, t, yf, n);
        Maxs(t, t, -2.0f, n);      // z
        Abs(yf, xf, n);
        Muls(yf, yf, -1.0f, n);
        Exp(yf, yf, n);            // exp(-|x|)
        Relu(xf, t, n);
        Mul(xf, xf, yf, n);        // relu(z) * exp(-|x|)
        Abs(t, t, n);
        Sqrt(t, t, n);
        Add(t, t, xf, n);
        if constexpr (std::is_same_v<T, float>) {
            DataCopy(z, t, static_cast<uint32_t>(n));
        } else {
            Cast(z, t, ROUND_OUT ? RoundMode::CAST_ROUND : RoundMode::CAST_RINT, n);
        }
        outZ_.EnQue<T>(z);
        inX_.FreeTensor(x);
        inY_.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(int64_t i, int64_t valid)
    {
        LocalTensor<T> z = outZ_.DeQue<T>();
        DataCopyExtParams copy{1, static_cast<uint32_t>(valid * sizeof(T)), 0, 0, 0};
        DataCopyPad(zGm_[i * tile_], z, copy);
        outZ_.FreeTensor(z);
    }

    TQue<TPosition::VECIN, BUFFER_NUM> inX_, inY_;
    TQue<TPosition::VECOUT, BUFFER_NUM> outZ_;
    TBuf<TPosition::VECCALC> xf_, yf_, tmp_;
    GlobalTensor<T> xGm_, yGm_, zGm_;
    int64_t length_ = 0;
    int64_t tile_ = 0;
    float alpha_ = 0;
};
} // namespace FaceDemo

template <typename D_T, bool ROUND_OUT>
__global__ __aicore__ void face_demo(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    REGISTER_TILING_DEFAULT(FaceDemoTilingData);
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    FaceDemo::Kernel<D_T, ROUND_OUT> op;
    op.Init(x, y, z, &tilingData, &pipe);
    op.Process();
}
