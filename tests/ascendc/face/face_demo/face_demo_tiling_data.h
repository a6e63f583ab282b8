// face_demo's tiling: blocks [0, formerNum) take formerLength elements, the rest tailLength;
// each block walks its part in tiles of tileLength elements.
#ifndef FACE_DEMO_TILING_DATA_H_
#define FACE_DEMO_TILING_DATA_H_
#include <cstdint>
struct FaceDemoTilingData {
    int64_t formerNum;
    int64_t formerLength;
    int64_t tailLength;
    int64_t tileLength;
    float alpha; // z = max(tanh(x) * y + alpha * x, -2), then Sqrt(|z|) + Relu(z) * Exp(-|x|)
    float pad;
};
#endif
