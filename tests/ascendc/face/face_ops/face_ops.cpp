// face_ops: a plain (non-template) kernel that runs one API call per output row, so that
// each face mapping is checked on its own (test_face_ops.cpp), and that branches on
// TILING_KEY_IS: the registration registers it under each key it tests.
//   key 1: row k of `out` (n floats each) holds the result of call k (the test's table)
//   key 2: SetAtomicAdd<int64_t> (not a type the atomic writes take: reported)
//   key 3: a false ASSERT (reported)
//   key 4: GlobalTensor::SetValue one element past the size SetGlobalBuffer gave (the core's rule)
//   key 9: the APIs ops-nn kernels need beyond the seed's, one per row (test_face_ops.cpp)
//   keys 6, 7, 8: TPipe's buffer count: 64 buffers (a queue of 63 and a TBuf) pass, a 65th
//   (a second TBuf) is reported, and so is a queue of 0 buffers
//   keys 10, 11, 12: InitBuffer rounds a length up to 32 bytes and the tensor spans the
//   rounded buffer: a queue buffer of 72 bytes takes a DataCopyPad of 72 bytes whose UB span
//   is 96, a TBuf of 36 bytes one whose span is 64 (key 10, ops-nn softmax_v2's pattern);
//   past the rounded length is still reported (keys 11 and 12)
//   key 13: a TBuf no InitBuffer placed (ops-nn hard_swish_v2's float16 path): reported at
//   its first use as a tensor with no UB buffer
#include "kernel_operator.h"

struct FaceOpsTiling {
    int32_t n;
    int32_t pad;
};

using namespace AscendC;

namespace {
__aicore__ inline void Out(const GlobalTensor<float> &og, int row, const LocalTensor<float> &t, int32_t n)
{
    DataCopy(og[static_cast<uint64_t>(row) * n], t, static_cast<uint32_t>(n));
}

__aicore__ inline void RunOps(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR workspace, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt, bu, bm;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(by, n * sizeof(float));
    pipe.InitBuffer(bt, n * sizeof(float));
    pipe.InitBuffer(bu, n * sizeof(float));
    pipe.InitBuffer(bm, 256);
    GlobalTensor<float> xg, yg, og;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, n);
    og.SetGlobalBuffer((__gm__ float *)out, 27 * n);
    LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), t = bt.Get<float>(), u = bu.Get<float>();
    LocalTensor<uint8_t> mask = bm.Get<uint8_t>();
    // DataCopyParams form in: one block of n floats (n * 4 / 32 blocks)
    DataCopyParams in{1, static_cast<uint16_t>(n * sizeof(float) / 32), 0, 0};
    DataCopy(lx, xg, in);
    DataCopy(ly, yg, static_cast<uint32_t>(n));
    Sub(t, lx, ly, n);
    DataCopy(og, t, DataCopyParams{1, static_cast<uint16_t>(n * sizeof(float) / 32), 0, 0}); // row 0
    Div(t, lx, ly, n);
    Out(og, 1, t, n);
    Min(t, lx, ly, n);
    Out(og, 2, t, n);
    Max(t, lx, ly, n);
    Out(og, 3, t, n);
    Adds(t, lx, 2.5f, n);
    Out(og, 4, t, n);
    Mins(t, lx, 0.25f, n);
    Out(og, 5, t, n);
    Abs(t, lx, n);
    Sqrt(t, t, n);
    Out(og, 6, t, n);
    Abs(t, ly, n);
    Adds(t, t, 1.0f, n);
    Rsqrt(t, t, n);
    Out(og, 7, t, n);
    Reciprocal(t, ly, n);
    Out(og, 8, t, n);
    Abs(t, lx, n);
    Adds(t, t, 1.0f, n);
    Ln(t, t, n);
    Out(og, 9, t, n);
    Sigmoid(t, lx, n);
    Out(og, 10, t, n);
    Duplicate(t, 3.0f, n);
    Out(og, 11, t, n);
    CompareScalar(mask, lx, 0.0f, CMPMODE::GT, n);
    Select(t, mask, lx, ly, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
    Out(og, 12, t, n);
    Compare(mask, lx, ly, CMPMODE::LT, n);
    Select(t, mask, lx, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    Out(og, 13, t, n);
    for (int32_t i = 0; i < n; i++) t.SetValue(i, lx.GetValue(i) * 2.0f);
    Out(og, 14, t, n);
    for (int32_t i = 0; i < n; i++) og.SetValue(15 * n + i, xg.GetValue(i) + 1.0f);
    DataCopy(u, lx, static_cast<uint32_t>(n)); // UB -> UB
    Muls(u, u, 3.0f, n);
    Out(og, 16, u, n);
    // a slice, and a buffer reinterpreted: the low half of row 17 is x's second half
    LocalTensor<int32_t> bits = lx.ReinterpretCast<int32_t>();
    DataCopy(t, bits[n / 2].ReinterpretCast<float>(), static_cast<uint32_t>(n / 2));
    Duplicate(t[n / 2], static_cast<float>(GetUserWorkspace(workspace) - workspace), n / 2);
    SyncAll(); // one block: nothing to wait for
    Out(og, 17, t, n);
    // bitwise, on the floats' bits as int16 lanes
    LocalTensor<int16_t> xi = lx.ReinterpretCast<int16_t>(), yi = ly.ReinterpretCast<int16_t>();
    LocalTensor<int16_t> ti = t.ReinterpretCast<int16_t>();
    And(ti, xi, yi, 2 * n);
    Out(og, 18, t, n);
    Or(ti, xi, yi, 2 * n);
    Out(og, 19, t, n);
    Not(ti, xi, 2 * n);
    Out(og, 20, t, n);
    LeakyRelu(t, lx, 0.125f, n);
    Out(og, 21, t, n);
    // Cast to int32 in each rounding mode, and back (exact)
    LocalTensor<int32_t> ui = u.ReinterpretCast<int32_t>();
    const RoundMode modes[] = {RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL, RoundMode::CAST_ROUND,
                               RoundMode::CAST_TRUNC, RoundMode::CAST_RINT};
    for (int m = 0; m < 5; m++) {
        Cast(ui, lx, modes[m], n);
        Cast(t, ui, RoundMode::CAST_NONE, n);
        Out(og, 22 + m, t, n);
    }
}
static_assert(std::is_same_v<__bf16, bfloat16_t>, "CANN's bfloat16_t is __bf16");

__aicore__ inline void RunMore(GM_ADDR x, GM_ADDR y, GM_ADDR out, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt, bu;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(by, n * sizeof(float));
    pipe.InitBuffer(bt, n * sizeof(float));
    pipe.InitBuffer(bu, n * sizeof(float));
    GlobalTensor<float> xg, yg, og;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, n);
    og.SetGlobalBuffer((__gm__ float *)out, 27 * n);
    LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), t = bt.Get<float>(), u = bu.Get<float>();
    DataCopy(lx, xg, static_cast<uint32_t>(n));
    DataCopy(ly, yg, static_cast<uint32_t>(n));
    Abs(u, lx, n);
    Power(t, u, ly, n);
    Out(og, 0, t, n);
    Power(t, u, 2.0f, n);
    Out(og, 1, t, n);
    Power(t, 2.0f, lx, n);
    Out(og, 2, t, n);
    Divs(t, lx, 4.0f, n);
    Out(og, 3, t, n);
    Sign(t, lx, n);
    Out(og, 4, t, n);
    Floor(t, lx, n);
    Out(og, 5, t, n);
    Duplicate(t, 1.0f, n);
    MulAddDst(t, lx, ly, n);
    Out(og, 6, t, n);
    Duplicate(t, 0.0f, n);
    ReduceSum(t, lx, u, n);
    ReduceMax(t[8], lx, u, n, true);
    Out(og, 7, t, n);
    // log_softmax_v2's way: counter mode, block sums, then the whole sum
    Duplicate(t, 0.0f, n);
    SetMaskCount();
    SetVectorMask<float>(0, n);
    BlockReduceSum<float, false>(t, lx, 1, MASK_PLACEHOLDER, 1, 1, DEFAULT_REPEAT_STRIDE);
    SetVectorMask<float>(0, n / 8);
    WholeReduceSum<float, false>(t[16], t, 1, MASK_PLACEHOLDER, 1, 1, DEFAULT_REPEAT_STRIDE);
    SetMaskNorm();
    ResetMask();
    Out(og, 8, t, n);
    Add(t, lx, ly, 64, 1, {1, 1, 1, 8, 8, 8}); // level 0: one repeat of 64 floats
    Out(og, 9, t, n);
    for (int32_t i = 0; i < n; i++) t(i) = static_cast<float>(lx(i)) * 3.0f;
    Out(og, 10, t, n);
    for (int32_t i = 0; i < n; i++)
        t(i) = static_cast<float>(ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(lx.GetValue(i)));
    Out(og, 11, t, n);
    for (int32_t i = 0; i < n; i++) t(i) = ToFloat(ToBfloat16(lx.GetValue(i) / 3.0f));
    Out(og, 12, t, n);
    GlobalTensor<float> row13 = og[13 * n];
    InitGlobalMemory(row13, static_cast<uint64_t>(n), 7.5f);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(row13);
}
} // namespace

// keys 10-12: 18 floats (72 bytes) per queue buffer, 9 floats (36 bytes) for the TBuf.
__aicore__ inline void RunRounded(GM_ADDR x, GM_ADDR out, int32_t n, int key)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(q, 2, 18 * sizeof(float));
    pipe.InitBuffer(b, 9 * sizeof(float));
    GlobalTensor<float> xg, og;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    og.SetGlobalBuffer((__gm__ float *)out, 27 * n);
    LocalTensor<float> a = q.AllocTensor<float>();
    LocalTensor<float> c = b.Get<float>();
    if (key == 11) { // 100 bytes span 128 of UB: past the queue buffer's 96
        DataCopyPad(a, xg, DataCopyExtParams{1, 100, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, 0, 0.0f});
    } else if (key == 12) { // 17 floats: past the TBuf's 64 bytes
        Duplicate(c, 1.0f, 17);
    } else {
        // the span of a 72-byte block padded to 32 bytes is 96: the rounded buffer's length
        DataCopyPad(a, xg, DataCopyExtParams{1, 18 * sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{true, 0, 0, 0.0f});
        DataCopyPad(og, a, DataCopyExtParams{1, 18 * sizeof(float), 0, 0, 0}); // row 0: x[0, 18)
        DataCopyPad(c, xg[18], DataCopyExtParams{1, 9 * sizeof(float), 0, 0, 0},
                    DataCopyPadExtParams<float>{true, 0, 0, 0.0f}); // 36 bytes, span 64
        DataCopyPad(og[n], c, DataCopyExtParams{1, 9 * sizeof(float), 0, 0, 0}); // row 1: x[18, 27)
        // row 2: the sizes the tensors report, in elements (CANN: the rounded length)
        og.SetValue(2 * n, static_cast<float>(a.GetSize()));
        og.SetValue(2 * n + 1, static_cast<float>(c.GetSize()));
    }
    q.FreeTensor(a);
}

extern "C" __global__ __aicore__ void face_ops(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(FaceOpsTiling, t, tiling);
    if (TILING_KEY_IS(1)) {
        RunOps(x, y, out, workspace, t.n);
    } else if (TILING_KEY_IS(2)) {
        SetAtomicAdd<int64_t>();
    } else if (TILING_KEY_IS(3)) {
        ASSERT(t.n == 0);
    } else if (TILING_KEY_IS(4)) {
        GlobalTensor<float> og;
        og.SetGlobalBuffer((__gm__ float *)out, t.n);
        og.SetValue(t.n, 1.0f);
    } else if (TILING_KEY_IS(9)) {
        RunMore(x, y, out, t.n);
    } else if (TILING_KEY_IS(10) || TILING_KEY_IS(11) || TILING_KEY_IS(12)) {
        RunRounded(x, out, t.n, TILING_KEY_IS(10) ? 10 : TILING_KEY_IS(11) ? 11 : 12);
    } else if (TILING_KEY_IS(13)) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> placed, never;
        pipe.InitBuffer(placed, 256);
        LocalTensor<float> p = placed.Get<float>(), q = never.Get<float>();
        Duplicate(p, 1.0f, 48);
        Adds(q, p, 3.0f, 48);
    } else if (TILING_KEY_IS(6) || TILING_KEY_IS(7) || TILING_KEY_IS(8)) {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> q;
        TBuf<TPosition::VECCALC> b1, b2;
        pipe.InitBuffer(q, TILING_KEY_IS(8) ? 0 : 63, 32);
        pipe.InitBuffer(b1, 32);
        if (TILING_KEY_IS(7)) pipe.InitBuffer(b2, 32);
    }
}
