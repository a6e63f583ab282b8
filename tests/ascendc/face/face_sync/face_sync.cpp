// face_sync: a kernel of the project's own for the twin's SyncAll and atomic GM writes
// (test_face_sync.cpp), one case per tiling key; block i of nb, chunks of n elements.
//   key 1: block i writes its chunk of `scratch`, SyncAll, then copies block (i + 1) % nb's
//          chunk to its chunk of `out` (wrong without the barrier: the neighbour's chunk is
//          still zero when blocks run one after another)
//   key 2: the same through the soft form (GM and UB workspaces), twice in a row
//   key 3: the soft form with a GM workspace one int32 short of 32 bytes a core (reported)
//   key 4: atomic writes: reps times SetAtomicAdd<float> + DataCopy into out[0, n) and
//          SetAtomicAdd<int32_t> + DataCopyPad into iout[0, n); SetAtomicAdd<half> into
//          hout[0, n); SetAtomicMax<float> + DataCopyPad into out[n, 2n); then SetAtomicNone
//          and a plain copy of the block's values to out[(2 + i) n, +n) (overwritten, not added)
//   key 5: SetAtomicAdd<half> while copying float (reported)
//   key 6: block 0 returns at once, the others call SyncAll (reported, no hang)
//   key 7: the last block breaks a rule (a false ASSERT) while the others wait at SyncAll
//   key 8: every block passes one SyncAll, block 0 then returns, the others call a second
//   key 9: SetAtomicAdd<int64_t> (not a type the atomic writes take: reported)
#include "kernel_operator.h"

struct FaceSyncTiling {
    int32_t n;
    int32_t reps;
};

using namespace AscendC;

namespace {
// A chunk of the block's own values: v[k] = base + step * k.
__aicore__ inline void Fill(const LocalTensor<float> &t, float base, float step, int32_t n)
{
    for (int32_t k = 0; k < n; k++) t.SetValue(k, base + step * static_cast<float>(k));
}

__aicore__ inline void Exchange(GM_ADDR scratch, GM_ADDR out, GM_ADDR syncWs, int32_t n, bool soft, int rounds)
{
    const int64_t i = GetBlockIdx(), nb = GetBlockNum();
    TPipe pipe;
    TBuf<TPosition::VECCALC> b, w;
    pipe.InitBuffer(b, n * sizeof(float));
    pipe.InitBuffer(w, nb * 32);
    GlobalTensor<float> sg, og;
    GlobalTensor<int32_t> wg;
    sg.SetGlobalBuffer((__gm__ float *)scratch, nb * n);
    og.SetGlobalBuffer((__gm__ float *)out, nb * n);
    wg.SetGlobalBuffer((__gm__ int32_t *)syncWs, nb * 8);
    LocalTensor<float> t = b.Get<float>();
    LocalTensor<int32_t> ubWs = w.Get<int32_t>();
    Fill(t, 1000.0f * static_cast<float>(i + 1), 1.0f, n);
    DataCopy(sg[i * n], t, n);
    for (int r = 0; r < rounds; r++) {
        if (soft) SyncAll(wg, ubWs);
        else SyncAll();
    }
    DataCopy(t, sg[((i + 1) % nb) * n], n);
    DataCopy(og[i * n], t, n);
}

__aicore__ inline void Atomics(GM_ADDR out, GM_ADDR iout, GM_ADDR hout, int32_t n, int32_t reps)
{
    const int64_t i = GetBlockIdx(), nb = GetBlockNum();
    TPipe pipe;
    TBuf<TPosition::VECCALC> bf, bi, bh;
    pipe.InitBuffer(bf, n * sizeof(float));
    pipe.InitBuffer(bi, n * sizeof(int32_t));
    pipe.InitBuffer(bh, n * sizeof(half));
    GlobalTensor<float> og;
    GlobalTensor<int32_t> ig;
    GlobalTensor<half> hg;
    og.SetGlobalBuffer((__gm__ float *)out, (2 + nb) * n);
    ig.SetGlobalBuffer((__gm__ int32_t *)iout, n);
    hg.SetGlobalBuffer((__gm__ half *)hout, n);
    LocalTensor<float> f = bf.Get<float>();
    LocalTensor<int32_t> iv = bi.Get<int32_t>();
    LocalTensor<half> hv = bh.Get<half>();
    // block i adds (i + 1) * (k + 1) / 2 (float), (i + 1) * (k - 20) (int32), 0.5 (half)
    Fill(f, 0.5f * static_cast<float>(i + 1), 0.5f * static_cast<float>(i + 1), n);
    for (int32_t k = 0; k < n; k++) {
        iv.SetValue(k, static_cast<int32_t>((i + 1) * (k - 20)));
        hv.SetValue(k, half(0.5f));
    }
    const DataCopyExtParams row{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0};
    for (int32_t r = 0; r < reps; r++) {
        SetAtomicAdd<float>();
        DataCopy(og, f, n);
        SetAtomicAdd<int32_t>();
        DataCopyPad(ig, iv, row);
        SetAtomicAdd<half>();
        DataCopy(hg, hv, n);
    }
    // the larger of each block's k-th value: block k % nb puts 100 + k there, the others -k
    for (int32_t k = 0; k < n; k++)
        f.SetValue(k, k % nb == i ? 100.0f + static_cast<float>(k) : -static_cast<float>(k));
    SetAtomicMax<float>();
    DataCopyPad(og[n], f, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
    SetAtomicNone();
    DataCopy(og[(2 + i) * n], f, n);
}
} // namespace

extern "C" __global__ __aicore__ void face_sync(GM_ADDR scratch, GM_ADDR out, GM_ADDR iout, GM_ADDR hout,
                                                GM_ADDR syncWs, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
    GET_TILING_DATA_WITH_STRUCT(FaceSyncTiling, t, tiling);
    if (TILING_KEY_IS(1)) {
        Exchange(scratch, out, syncWs, t.n, false, 1);
    } else if (TILING_KEY_IS(2)) {
        Exchange(scratch, out, syncWs, t.n, true, 2);
    } else if (TILING_KEY_IS(3)) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> w;
        pipe.InitBuffer(w, GetBlockNum() * 32);
        GlobalTensor<int32_t> wg;
        wg.SetGlobalBuffer((__gm__ int32_t *)syncWs, GetBlockNum() * 8 - 1);
        SyncAll(wg, w.Get<int32_t>());
    } else if (TILING_KEY_IS(4)) {
        Atomics(out, iout, hout, t.n, t.reps);
    } else if (TILING_KEY_IS(5)) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, t.n * sizeof(float));
        LocalTensor<float> f = b.Get<float>();
        Fill(f, 1.0f, 1.0f, t.n);
        GlobalTensor<float> og;
        og.SetGlobalBuffer((__gm__ float *)out, t.n);
        SetAtomicAdd<half>();
        DataCopy(og, f, t.n);
    } else if (TILING_KEY_IS(6)) {
        if (GetBlockIdx() == 0) return;
        SyncAll();
    } else if (TILING_KEY_IS(7)) {
        ASSERT(GetBlockIdx() + 1 < GetBlockNum());
        SyncAll();
    } else if (TILING_KEY_IS(8)) {
        SyncAll();
        if (GetBlockIdx() == 0) return;
        SyncAll();
    } else if (TILING_KEY_IS(9)) {
        SetAtomicAdd<int64_t>();
    }
}
