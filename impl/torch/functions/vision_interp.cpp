// Vision and interpolation: NMS, RoIAlign (forward / backward), grid sampling, nearest and (bi/tri)linear / bicubic upsampling.
#include "helper.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace impl::aten;

namespace {

// ---- RoIAlign on double buffers (inputs are converted once; the result is cast on assign)

struct Roi {
    double startH, startW, binH, binW;
    int64_t batch, gridH, gridW;
};

Roi roiGeometry(const double* r, double scale, int64_t ph, int64_t pw, int64_t samplingRatio, bool aligned, int64_t batchSize) {
    Roi g;
    double b = r[0];
    if (!(b >= 0) || b >= static_cast<double>(batchSize) || b != std::floor(b))
        fail("rois[:, 0] must hold a batch index in [0, " + std::to_string(batchSize) + "), got " + std::to_string(b));
    g.batch = static_cast<int64_t>(b);
    const double offset = aligned ? 0.5 : 0.0;
    g.startW = r[1] * scale - offset;
    g.startH = r[2] * scale - offset;
    double w = r[3] * scale - offset - g.startW;
    double h = r[4] * scale - offset - g.startH;
    if (!aligned) {  // legacy behaviour: a degenerate RoI covers at least one pixel
        w = std::max(w, 1.0);
        h = std::max(h, 1.0);
    }
    g.binH = h / static_cast<double>(ph);
    g.binW = w / static_cast<double>(pw);
    g.gridH = samplingRatio > 0 ? samplingRatio : static_cast<int64_t>(std::ceil(h / static_cast<double>(ph)));
    g.gridW = samplingRatio > 0 ? samplingRatio : static_cast<int64_t>(std::ceil(w / static_cast<double>(pw)));
    return g;
}

/// Bilinear taps of a sample point; false when the point lies outside [-1, size] and contributes nothing.
bool taps(double y, double x, int64_t height, int64_t width, int64_t idx[4], double wt[4]) {
    if (y < -1.0 || y > static_cast<double>(height) || x < -1.0 || x > static_cast<double>(width)) return false;
    y = std::max(y, 0.0);
    x = std::max(x, 0.0);
    int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1, x1;
    if (y0 >= height - 1) {
        y0 = y1 = height - 1;
        y = static_cast<double>(y0);
    } else {
        y1 = y0 + 1;
    }
    if (x0 >= width - 1) {
        x0 = x1 = width - 1;
        x = static_cast<double>(x0);
    } else {
        x1 = x0 + 1;
    }
    double ly = y - static_cast<double>(y0), lx = x - static_cast<double>(x0), hy = 1.0 - ly, hx = 1.0 - lx;
    idx[0] = y0 * width + x0;
    idx[1] = y0 * width + x1;
    idx[2] = y1 * width + x0;
    idx[3] = y1 * width + x1;
    wt[0] = hy * hx;
    wt[1] = hy * lx;
    wt[2] = ly * hx;
    wt[3] = ly * lx;
    return true;
}

/// Visits every (roi, channel, bin) with the bilinear taps of its sample points: fn(roiIndex, plane offset of
/// (batch, c), out offset, tap index, tap weight / count).
template <class F>
void roiAlignWalk(const double* rois, int64_t numRois, int64_t channels, int64_t height, int64_t width, int64_t batchSize, double scale,
                  int64_t ph, int64_t pw, int64_t samplingRatio, bool aligned, F&& fn) {
    for (int64_t k = 0; k < numRois; ++k) {
        Roi g = roiGeometry(rois + k * 5, scale, ph, pw, samplingRatio, aligned, batchSize);
        const double count = static_cast<double>(std::max<int64_t>(g.gridH * g.gridW, 1));
        for (int64_t i = 0; i < ph; ++i) {
            for (int64_t j = 0; j < pw; ++j) {
                for (int64_t iy = 0; iy < g.gridH; ++iy) {
                    double y = g.startH + static_cast<double>(i) * g.binH + (static_cast<double>(iy) + 0.5) * g.binH / static_cast<double>(g.gridH);
                    for (int64_t ix = 0; ix < g.gridW; ++ix) {
                        double x = g.startW + static_cast<double>(j) * g.binW + (static_cast<double>(ix) + 0.5) * g.binW / static_cast<double>(g.gridW);
                        int64_t idx[4];
                        double wt[4];
                        if (!taps(y, x, height, width, idx, wt)) continue;
                        for (int64_t c = 0; c < channels; ++c) {
                            int64_t plane = (g.batch * channels + c) * height * width;
                            int64_t o = ((k * channels + c) * ph + i) * pw + j;
                            for (int t = 0; t < 4; ++t) fn(plane + idx[t], o, wt[t] / count);
                        }
                    }
                }
            }
        }
    }
}

at::Tensor checkedRois(diopiConstTensorHandle_t h) {
    at::Tensor r = tensor(h, "rois");
    if (!at::isFloatingType(r.scalar_type())) fail("rois must be a floating-point tensor", diopiDtypeNotSupported);
    if (r.dim() != 2 || r.size(1) != 5) fail("rois must be 2-D (K, 5): batch index, x1, y1, x2, y2; got shape " + c10::str(r.sizes()));
    return r.to(at::kDouble).contiguous();
}

void checkPooled(int64_t ph, int64_t pw) {
    if (ph <= 0 || pw <= 0) fail("pooled_height and pooled_width must be positive");
}

// ---- interpolation helpers

std::vector<int64_t> spatial(diopiSize_t s, int64_t n, const char* name) {
    at::IntArrayRef v = ints(s);
    if (static_cast<int64_t>(v.size()) != n) fail(std::string(name) + " must have " + std::to_string(n) + " entries, got " + std::to_string(v.size()));
    return v.vec();
}

/// in_size of an upsample backward: the full input shape, or only its spatial part (N and C then come from grad_output).
std::vector<int64_t> fullInputSize(diopiSize_t inSize, const at::Tensor& go) {
    at::IntArrayRef v = ints(inSize);
    int64_t n = go.dim() - 2;
    if (static_cast<int64_t>(v.size()) == go.dim()) return v.vec();
    if (static_cast<int64_t>(v.size()) != n)
        fail("in_size must have " + std::to_string(n) + " (spatial) or " + std::to_string(go.dim()) + " (full) entries, got " + std::to_string(v.size()));
    std::vector<int64_t> full{go.size(0), go.size(1)};
    full.insert(full.end(), v.begin(), v.end());
    return full;
}

/// out_size of an upsample backward: spatial entries, or the full output shape.
std::vector<int64_t> spatialOutputSize(diopiSize_t outSize, const at::Tensor& go) {
    at::IntArrayRef v = ints(outSize);
    int64_t n = go.dim() - 2;
    if (static_cast<int64_t>(v.size()) == go.dim()) return std::vector<int64_t>(v.begin() + 2, v.end());
    if (static_cast<int64_t>(v.size()) != n)
        fail("out_size must have " + std::to_string(n) + " (spatial) or " + std::to_string(go.dim()) + " (full) entries, got " + std::to_string(v.size()));
    return v.vec();
}

void requireInterpRank(const at::Tensor& x, const char* name) {
    if (x.dim() < 3 || x.dim() > 5) fail(std::string(name) + " must be 3-D, 4-D or 5-D (N, C, spatial...), got " + std::to_string(x.dim()) + "-D");
}

/// Which linear-family kernel a mode names, checked against the rank it needs.
enum class Linear { Linear1d, Bilinear, Bicubic, Trilinear };

Linear linearMode(const char* mode, int64_t rank) {
    if (!mode) fail("mode must not be NULL");
    struct Entry {
        const char* name;
        Linear kind;
        int64_t rank;
    };
    static const Entry table[] = {{"linear", Linear::Linear1d, 3}, {"bilinear", Linear::Bilinear, 4}, {"bicubic", Linear::Bicubic, 4}, {"trilinear", Linear::Trilinear, 5}};
    for (const Entry& e : table) {
        if (std::strcmp(mode, e.name) == 0) {
            if (rank != e.rank) fail(std::string("mode \"") + mode + "\" needs a " + std::to_string(e.rank) + "-D tensor, got " + std::to_string(rank) + "-D");
            return e.kind;
        }
    }
    fail(std::string("mode must be \"linear\", \"bilinear\", \"bicubic\" or \"trilinear\", got \"") + mode + "\"");
}

}  // namespace

extern "C" {

// ---------------------------------------------------------------- NMS

diopiError_t diopiNms(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t boxes, diopiConstTensorHandle_t confidence,
                      double iou_threshold) {
    DIOPI_IMPL_BEGIN
    if (!out) fail("out must not be NULL");
    at::Tensor b = tensor(boxes, "boxes");
    at::Tensor s = tensor(confidence, "confidence");
    if (!at::isFloatingType(b.scalar_type()) || !at::isFloatingType(s.scalar_type()))
        fail("boxes and confidence must be floating-point tensors", diopiDtypeNotSupported);
    if (b.dim() != 2 || b.size(1) != 4) fail("boxes must be 2-D (K, 4): x1, y1, x2, y2; got shape " + c10::str(b.sizes()));
    if (s.dim() != 1 || s.size(0) != b.size(0)) fail("confidence must be 1-D with one score per box");
    const int64_t k = b.size(0);
    at::Tensor bd = b.to(at::kDouble).contiguous();
    at::Tensor sd = s.to(at::kDouble).contiguous();
    const double* bp = bd.data_ptr<double>();
    const double* sp = sd.data_ptr<double>();
    std::vector<int64_t> order(k);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return sp[i] > sp[j]; });
    std::vector<double> area(k);
    for (int64_t i = 0; i < k; ++i) area[i] = (bp[i * 4 + 2] - bp[i * 4]) * (bp[i * 4 + 3] - bp[i * 4 + 1]);
    std::vector<char> removed(k, 0);
    std::vector<int64_t> keep;
    for (int64_t a = 0; a < k; ++a) {
        int64_t i = order[a];
        if (removed[i]) continue;
        keep.push_back(i);
        for (int64_t c = a + 1; c < k; ++c) {
            int64_t j = order[c];
            if (removed[j]) continue;
            double w = std::max(0.0, std::min(bp[i * 4 + 2], bp[j * 4 + 2]) - std::max(bp[i * 4], bp[j * 4]));
            double h = std::max(0.0, std::min(bp[i * 4 + 3], bp[j * 4 + 3]) - std::max(bp[i * 4 + 1], bp[j * 4 + 1]));
            double inter = w * h;
            double iou = inter / (area[i] + area[j] - inter);
            if (iou > iou_threshold) removed[j] = 1;
        }
    }
    at::Tensor result = at::tensor(keep, at::TensorOptions().dtype(at::kLong));
    *out = requireLike(ctx, result);
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- RoIAlign

diopiError_t diopiRoiAlign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t rois,
                           double spatial_scale, int64_t pooled_height, int64_t pooled_width, int64_t sampling_ratio, bool aligned) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    if (!at::isFloatingType(x.scalar_type())) fail("input must be a floating-point tensor", diopiDtypeNotSupported);
    if (x.dim() != 4) fail("input must be 4-D (N, C, H, W), got " + std::to_string(x.dim()) + "-D");
    checkPooled(pooled_height, pooled_width);
    at::Tensor r = checkedRois(rois);
    const int64_t k = r.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
    at::Tensor xd = x.to(at::kDouble).contiguous();
    at::Tensor res = at::zeros({k, c, pooled_height, pooled_width}, xd.options());
    const double* xp = xd.data_ptr<double>();
    double* op = res.data_ptr<double>();
    roiAlignWalk(r.data_ptr<double>(), k, c, h, w, x.size(0), spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned,
                 [&](int64_t src, int64_t dst, double weight) { op[dst] += weight * xp[src]; });
    assign(out, res);
    DIOPI_IMPL_END
}

diopiError_t diopiRoiAlignBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t grad, diopiConstTensorHandle_t rois,
                                   double spatial_scale, int64_t pooled_height, int64_t pooled_width, int64_t batch_size, int64_t channels,
                                   int64_t height, int64_t width, int64_t sampling_ratio, bool aligned) {
    DIOPI_IMPL_BEGIN
    at::Tensor g = tensor(grad, "grad");
    if (!at::isFloatingType(g.scalar_type())) fail("grad must be a floating-point tensor", diopiDtypeNotSupported);
    checkPooled(pooled_height, pooled_width);
    if (batch_size < 0 || channels < 0 || height < 0 || width < 0) fail("batch_size, channels, height and width must be >= 0");
    at::Tensor r = checkedRois(rois);
    const int64_t k = r.size(0);
    if (g.dim() != 4 || g.size(0) != k || g.size(1) != channels || g.size(2) != pooled_height || g.size(3) != pooled_width)
        fail("grad must have shape (K, channels, pooled_height, pooled_width), got " + c10::str(g.sizes()));
    at::Tensor gd = g.to(at::kDouble).contiguous();
    at::Tensor res = at::zeros({batch_size, channels, height, width}, gd.options());
    const double* gp = gd.data_ptr<double>();
    double* op = res.data_ptr<double>();
    roiAlignWalk(r.data_ptr<double>(), k, channels, height, width, batch_size, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned,
                 [&](int64_t dst, int64_t src, double weight) { op[dst] += weight * gp[src]; });
    assign(out, res);
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- grid sample

diopiError_t diopiGridSample(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t grid,
                             const char* mode) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    at::Tensor gr = tensor(grid, "grid");
    if (x.dim() != 4 && x.dim() != 5) fail("input must be 4-D (N, C, H, W) or 5-D (N, C, D, H, W), got " + std::to_string(x.dim()) + "-D");
    if (gr.dim() != x.dim() || gr.size(-1) != x.dim() - 2)
        fail("grid must be " + std::to_string(x.dim()) + "-D with a last dim of " + std::to_string(x.dim() - 2) + ", got shape " + c10::str(gr.sizes()));
    int64_t m;
    if (!mode) fail("mode must not be NULL");
    if (std::strcmp(mode, "bilinear") == 0)
        m = 0;
    else if (std::strcmp(mode, "nearest") == 0)
        m = 1;
    else if (std::strcmp(mode, "bicubic") == 0)
        m = 2;
    else
        fail(std::string("mode must be \"bilinear\", \"nearest\" or \"bicubic\", got \"") + mode + "\"");
    if (m == 2 && x.dim() != 4) fail("mode \"bicubic\" needs a 4-D input");
    // Half types sample in float32 (coordinates in half precision would be off by a sizeable fraction of a pixel).
    auto ct = x.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
    assign(out, at::grid_sampler(x.to(ct), gr.to(ct), m, /*padding_mode=zeros*/ 0, /*align_corners=*/false));
    DIOPI_IMPL_END
}

// ---------------------------------------------------------------- upsampling

diopiError_t diopiUpsampleNearest(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t size) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    requireInterpRank(x, "input");
    std::vector<int64_t> s = spatial(size, x.dim() - 2, "size");
    at::Tensor y;
    if (x.dim() == 3)
        y = at::upsample_nearest1d(x, at::IntArrayRef(s), std::optional<double>());
    else if (x.dim() == 4)
        y = at::upsample_nearest2d(x, s, std::nullopt, std::nullopt);
    else
        y = at::upsample_nearest3d(x, s, std::nullopt, std::nullopt, std::nullopt);
    assign(out, y);
    DIOPI_IMPL_END
}

diopiError_t diopiUpsampleNearestBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                          diopiSize_t out_size, diopiSize_t in_size) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output");
    requireInterpRank(go, "grad_output");
    std::vector<int64_t> os = spatialOutputSize(out_size, go);
    std::vector<int64_t> is = fullInputSize(in_size, go);
    at::Tensor gi;
    if (go.dim() == 3)
        gi = at::upsample_nearest1d_backward(go, os, is, std::nullopt);
    else if (go.dim() == 4)
        gi = at::upsample_nearest2d_backward(go, os, is, std::nullopt, std::nullopt);
    else
        gi = at::upsample_nearest3d_backward(go, os, is, std::nullopt, std::nullopt, std::nullopt);
    assign(grad_input, gi, "grad_input");
    DIOPI_IMPL_END
}

diopiError_t diopiUpsampleLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t size,
                                 bool align_corners, const char* mode) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input");
    requireInterpRank(x, "input");
    Linear kind = linearMode(mode, x.dim());
    std::vector<int64_t> s = spatial(size, x.dim() - 2, "size");
    at::Tensor y;
    switch (kind) {
        case Linear::Linear1d: y = at::upsample_linear1d(x, at::IntArrayRef(s), align_corners, std::optional<double>()); break;
        case Linear::Bilinear: y = at::upsample_bilinear2d(x, s, align_corners, std::nullopt, std::nullopt); break;
        case Linear::Bicubic: y = at::upsample_bicubic2d(x, s, align_corners, std::nullopt, std::nullopt); break;
        case Linear::Trilinear: y = at::upsample_trilinear3d(x, s, align_corners, std::nullopt, std::nullopt, std::nullopt); break;
    }
    assign(out, y);
    DIOPI_IMPL_END
}

diopiError_t diopiUpsampleLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiSize_t out_size, diopiSize_t in_size, bool align_corners, const char* mode) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output");
    requireInterpRank(go, "grad_output");
    Linear kind = linearMode(mode, go.dim());
    std::vector<int64_t> os = spatialOutputSize(out_size, go);
    std::vector<int64_t> is = fullInputSize(in_size, go);
    at::Tensor gi;
    switch (kind) {
        case Linear::Linear1d: gi = at::upsample_linear1d_backward(go, os, is, align_corners, std::nullopt); break;
        case Linear::Bilinear: gi = at::upsample_bilinear2d_backward(go, os, is, align_corners, std::nullopt, std::nullopt); break;
        case Linear::Bicubic: gi = at::upsample_bicubic2d_backward(go, os, is, align_corners, std::nullopt, std::nullopt); break;
        case Linear::Trilinear: gi = at::upsample_trilinear3d_backward(go, os, is, align_corners, std::nullopt, std::nullopt, std::nullopt); break;
    }
    assign(grad_input, gi, "grad_input");
    DIOPI_IMPL_END
}

}  // extern "C"
