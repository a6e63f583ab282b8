// opbuild/ut/references.cpp: float64 formulas of elementwise activations (and their
// gradients) for TestPrecision. Each is the operator's mathematical definition evaluated
// in double; attributes fall back to the operator's documented default when absent.
#include <cmath>
#include <cstring>
#include <vector>

#include "op_api_ut_common/references.h"

namespace op_api_ut {
namespace {
double Attr(const double *a, size_t n, size_t i, double fallback) { return i < n ? a[i] : fallback; }
double Softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }
double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double Mish(const double *in, const double *, size_t) { return in[0] * std::tanh(Softplus(in[0])); }
// d/dx mish = tanh(sp(x)) + x * sech^2(sp(x)) * sigmoid(x), times the incoming gradient
double MishGrad(const double *in, const double *, size_t)
{
    const double x = in[1], t = std::tanh(Softplus(x));
    return in[0] * (t + x * (1.0 - t * t) * Sigmoid(x));
}
double Relu(const double *in, const double *, size_t) { return in[0] > 0 ? in[0] : 0.0; }
double Relu6(const double *in, const double *, size_t) { return std::fmin(std::fmax(in[0], 0.0), 6.0); }
double SigmoidRef(const double *in, const double *, size_t) { return Sigmoid(in[0]); }
double Softsign(const double *in, const double *, size_t) { return in[0] / (1.0 + std::fabs(in[0])); }
double LogSigmoid(const double *in, const double *, size_t) { return -Softplus(-in[0]); }
// softplus with beta and threshold (defaults 1 and 20): x where beta*x > threshold
double SoftplusRef(const double *in, const double *a, size_t n)
{
    const double beta = Attr(a, n, 0, 1.0), threshold = Attr(a, n, 1, 20.0);
    return beta * in[0] > threshold ? in[0] : Softplus(beta * in[0]) / beta;
}
double Selu(const double *in, const double *, size_t)
{
    const double alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946;
    return scale * (in[0] > 0 ? in[0] : alpha * std::expm1(in[0]));
}
double Celu(const double *in, const double *a, size_t n)
{
    const double alpha = Attr(a, n, 0, 1.0);
    return std::fmax(0.0, in[0]) + std::fmin(0.0, alpha * std::expm1(in[0] / alpha));
}
// experimental/activation/celu defines its own Celu with three attributes (alpha1, alpha2,
// alpha3): y = 3 alpha3 for x >= 0, alpha1 (exp(x / alpha2) - 1) below. It is told apart
// from the one-alpha CELU above by its attribute count.
double CeluByAttributes(const double *in, const double *a, size_t n)
{
    if (n < 3)
        return Celu(in, a, n);
    return in[0] >= 0 ? 3.0 * a[2] : a[0] * std::expm1(in[0] / a[1]);
}
// elu(x; alpha, scale, input_scale) = scale * (x > 0 ? x : alpha * (exp(input_scale*x) - 1))
double Elu(const double *in, const double *a, size_t n)
{
    const double alpha = Attr(a, n, 0, 1.0), scale = Attr(a, n, 1, 1.0), input_scale = Attr(a, n, 2, 1.0);
    return scale * (in[0] > 0 ? in[0] : alpha * std::expm1(input_scale * in[0]));
}
double HardSigmoid(const double *in, const double *, size_t) { return std::fmin(std::fmax(in[0] / 6.0 + 0.5, 0.0), 1.0); }
double HardSwish(const double *in, const double *, size_t) { return in[0] * std::fmin(std::fmax(in[0] + 3.0, 0.0), 6.0) / 6.0; }
double Silu(const double *in, const double *, size_t) { return in[0] * Sigmoid(in[0]); }
double HardShrink(const double *in, const double *a, size_t n)
{
    const double lambda = Attr(a, n, 0, 0.5);
    return std::fabs(in[0]) > lambda ? in[0] : 0.0;
}
double LeakyRelu(const double *in, const double *a, size_t n)
{
    const double slope = Attr(a, n, 0, 0.01);
    return in[0] > 0 ? in[0] : slope * in[0];
}
double GeluTanh(const double *in, const double *, size_t)
{
    const double x = in[0];
    return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
// hardsigmoid'(x) = 1/6 on (-3, 3), 0 outside (aclnnHardsigmoidBackward's documented formula),
// times the incoming gradient
double HardSigmoidGrad(const double *in, const double *, size_t)
{
    return in[1] > -3.0 && in[1] < 3.0 ? in[0] / 6.0 : 0.0;
}
// softsign'(x) = 1 / (1 + |x|)^2, times the incoming gradient
double SoftsignGrad(const double *in, const double *, size_t)
{
    const double d = 1.0 + std::fabs(in[1]);
    return in[0] / (d * d);
}
// threshold_backward(g, x, t) = g where x > t (and where x is NaN), 0 elsewhere
// (aclnnThresholdBackward's documented formula; the threshold is the scalar)
double ThresholdGrad(const double *in, const double *a, size_t n)
{
    const double t = Attr(a, n, 0, 0.0);
    return in[1] > t || std::isnan(in[1]) ? in[0] : 0.0;
}

// hardshrink'(x) = 1 where |x| > lambda (default 0.5), 0 elsewhere, times the gradient
double HardShrinkGrad(const double *in, const double *a, size_t n)
{
    const double lambda = Attr(a, n, 0, 0.5);
    return std::fabs(in[1]) > lambda ? in[0] : 0.0;
}
// leaky_relu'(x) = 1 for x > 0, the negative slope elsewhere, times the gradient
double LeakyReluGrad(const double *in, const double *a, size_t n)
{
    const double slope = Attr(a, n, 0, 0.0);
    return in[1] > 0 ? in[0] : slope * in[0];
}
// shrink(x; lambda, bias) = x - bias above lambda, x + bias below -lambda, 0 between
double Shrink(const double *in, const double *a, size_t n)
{
    const double lambda = Attr(a, n, 0, 1.0), bias = Attr(a, n, 1, 1.0);
    return in[0] > lambda ? in[0] - bias : in[0] < -lambda ? in[0] + bias : 0.0;
}
// softshrink(x; lambda) = shrink with bias = lambda (default 0.5)
double Softshrink(const double *in, const double *a, size_t n)
{
    const double lambda = Attr(a, n, 0, 0.5);
    return in[0] > lambda ? in[0] - lambda : in[0] < -lambda ? in[0] + lambda : 0.0;
}
// swish(x; beta) = x / (1 + exp(-beta x)) (aclnnSwish's documented formula; beta 1 when absent)
double Swish(const double *in, const double *a, size_t n)
{
    const double beta = Attr(a, n, 0, 1.0);
    return in[0] * Sigmoid(beta * in[0]);
}
// sigmoid's gradient from the forward's output y (aclnnSigmoidBackward's documented formula):
// grad_output * y * (1 - y)
double SigmoidGradRef(const double *in, const double *, size_t) { return in[0] * in[1] * (1.0 - in[1]); }
// prelu(x, w) = x where x > 0, w * x elsewhere (aclnnPrelu's documented formula; w one
// value, or one per channel: the harness hands the element broadcast to x's position)
double Prelu(const double *in, const double *, size_t) { return in[0] > 0 ? in[0] : in[1] * in[0]; }
// silu_mul(x, y) = silu(x) * y
double SiluMul(const double *in, const double *, size_t) { return in[0] * Sigmoid(in[0]) * in[1]; }

const Reference table[] = {
    // the aclnn entries opbuild generates from an OpDef (aclnn<Type>; inputs, then attributes,
    // in the definition's order)
    {"aclnnCeluV2", Celu},
    {"aclnnCeluV3", Celu},
    {"aclnnHardShrink", HardShrink},
    {"aclnnHardShrinkGrad", HardShrinkGrad},
    {"aclnnHardSigmoidGradV2", HardSigmoidGrad},
    {"aclnnHardSwishV2", HardSwish},
    {"aclnnLeakyReluGradV2", LeakyReluGrad},
    {"aclnnLeakyreluV2", LeakyRelu},
    {"aclnnLogsigmoidV2", LogSigmoid},
    {"aclnnReluV2", Relu},
    {"aclnnShrink", Shrink},
    {"aclnnSoftPlusV2", SoftplusRef},
    {"aclnnSoftshrink", Softshrink},
    {"aclnnSiluMul", SiluMul},
    {"aclnnSwish", Swish},
    {"aclnnMish", Mish},
    {"aclnnMishAsc", Mish},
    {"aclnnMishViaL0", Mish}, // tests/opapi/ops_nn_deps: mish_asc's l0 op from another directory
    {"aclnnMishBackward", MishGrad},
    {"aclnnMishAscBackward", MishGrad},
    {"aclnnRelu", Relu},
    {"aclnnRelu6", Relu6},
    {"aclnnSigmoid", SigmoidRef},
    {"aclnnSoftsign", Softsign},
    {"aclnnSoftsignAsc", Softsign},
    {"aclnnLogSigmoid", LogSigmoid},
    {"aclnnSoftplus", SoftplusRef},
    {"aclnnSelu", Selu},
    {"aclnnCelu", CeluByAttributes},
    {"aclnnElu", Elu},
    {"aclnnHardsigmoid", HardSigmoid},
    {"aclnnHardswish", HardSwish},
    {"aclnnSilu", Silu},
    {"aclnnHardshrink", HardShrink},
    {"aclnnLeakyRelu", LeakyRelu},
    {"aclnnGelu", GeluTanh},
    {"aclnnHardsigmoidBackward", HardSigmoidGrad},
    {"aclnnSoftsignBackward", SoftsignGrad},
    {"aclnnHardsigmoidV2", HardSigmoid},
    {"aclnnThresholdBackward", ThresholdGrad},
    {"aclnnSigmoidBackward", SigmoidGradRef},
    {"aclnnPrelu", Prelu},
};
} // namespace

std::vector<const Reference *> &Added()
{
    static std::vector<const Reference *> added;
    return added;
}

void AddReference(const Reference *reference) { Added().push_back(reference); }

namespace {
// softmax along `dim` (an attribute, negative counting from the end; the last dim when
// absent): exp(x - max) / sum exp(x - max) over the dim, in double
void SoftmaxAlongDim(const std::vector<double> &in, const std::vector<int64_t> &in_shape, const double *attrs,
                     size_t attr_count, const std::vector<int64_t> &out_shape, std::vector<double> &out)
{
    const int64_t rank = static_cast<int64_t>(in_shape.size());
    int64_t count = 1;
    for (int64_t extent : out_shape) count *= extent;
    out.assign(static_cast<size_t>(count), std::nan("")); // NaN: every element fails if it cannot say
    if (rank == 0 || in_shape != out_shape || in.size() != out.size()) return;
    int64_t dim = attr_count > 0 ? static_cast<int64_t>(attrs[0]) : -1;
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) return;
    int64_t inner = 1;
    for (int64_t d = dim + 1; d < rank; d++) inner *= in_shape[static_cast<size_t>(d)];
    const int64_t len = in_shape[static_cast<size_t>(dim)], outer = static_cast<int64_t>(in.size()) / (len * inner);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            const int64_t base = o * len * inner + i;
            double top = -INFINITY, sum = 0.0;
            for (int64_t k = 0; k < len; k++) top = std::fmax(top, in[static_cast<size_t>(base + k * inner)]);
            for (int64_t k = 0; k < len; k++) sum += std::exp(in[static_cast<size_t>(base + k * inner)] - top);
            for (int64_t k = 0; k < len; k++)
                out[static_cast<size_t>(base + k * inner)] = std::exp(in[static_cast<size_t>(base + k * inner)] - top) / sum;
        }
}

const TensorReference tensor_table[] = {
    {"aclnnSoftmaxV2", SoftmaxAlongDim},
};
} // namespace

const TensorReference *FindTensorReference(const char *api)
{
    for (const TensorReference &r : tensor_table)
        if (std::strcmp(r.api, api) == 0) return &r;
    return nullptr;
}

const Reference *FindReference(const char *api)
{
    for (auto it = Added().rbegin(); it != Added().rend(); ++it)
        if (std::strcmp((*it)->api, api) == 0) return *it;
    for (const Reference &r : table)
        if (std::strcmp(r.api, api) == 0) return &r;
    return nullptr;
}
} // namespace op_api_ut
