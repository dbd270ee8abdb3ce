// RMS normalisation over the trailing normalized_shape dims: forward (with the inverse RMS) and backward. Rows are
// read from dense float copies (double copies for float64) and reduced in double, so 16-bit inputs round once, at
// the store.
#include <cmath>
#include <initializer_list>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"
#include "common/isa.hpp"

namespace impl::cpu {

namespace {

struct Rows {
    int64_t rows = 0, cols = 0;
};

Rows rowsOf(const TensorView& x, diopiSize_t normalized_shape) {
    Shape ns = toShape(normalized_shape);
    CPU_CHECK(!ns.empty() && (int64_t)ns.size() <= x.dim(), "normalized_shape must have 1 to input.dim() entries, got ", shapeStr(ns));
    const int64_t axis = x.dim() - (int64_t)ns.size();
    CPU_CHECK(Shape(x.shape.begin() + axis, x.shape.end()) == ns, "normalized_shape ", shapeStr(ns), " does not match the trailing dims of input ",
              shapeStr(x.shape));
    Rows r;
    r.cols = shapeNumel(ns);
    r.rows = r.cols ? x.numel / r.cols : shapeNumel(Shape(x.shape.begin(), x.shape.begin() + axis));
    return r;
}

/// Dense copies are float32, or float64 when any operand is float64 (computed in double end to end).
diopiDtype_t bufferDtype(std::initializer_list<diopiDtype_t> dts) {
    for (diopiDtype_t d : dts)
        if (d == diopi_dtype_float64) return diopi_dtype_float64;
    return diopi_dtype_float32;
}

/// Calls f(Tag<C>{}) with C the C++ type of a buffer dtype.
template <class F>
void withBuffer(diopiDtype_t dt, F&& f) {
    if (dt == diopi_dtype_float64) f(Tag<double>{});
    else f(Tag<float>{});
}

// weight / bias as a dense row of `cols` values (exact doubles); empty when the handle is NULL.
std::vector<double> paramRow(diopiContextHandle_t ctx, diopiConstTensorHandle_t h, diopiSize_t normalized_shape, int64_t cols, const char* name) {
    TensorView p = viewOpt(h, name);
    if (!p.defined()) return {};
    dispatch<FloatTypes>(p.dtype, name, [](auto) {});
    CPU_CHECK(p.shape == toShape(normalized_shape), name, " shape ", shapeStr(p.shape), " must be normalized_shape ", shapeStr(toShape(normalized_shape)));
    std::vector<double> v(cols);
    TensorView pf = contiguousAs(ctx, p, diopi_dtype_float64);
    const double* src = pf.ptr<double>();
    for (int64_t i = 0; i < cols; ++i) v[i] = src[i];
    return v;
}

// ---- row kernels, compiled once per instruction-set level for float buffers (double: once). The sums are
// reductions in double that `omp simd` may split into lanes.
struct RowArgs {
    const void* x;   ///< dense (rows, cols) input
    const void* g;   ///< dense grad_output (backward) or null
    void* y;         ///< dense output (forward) / grad_input (backward), or null
    const double* w;  ///< weight row or null
    const double* b;  ///< bias row or null
    double* r;        ///< inverse RMS per row (out in the forward pass, in for grad_input)
    int64_t i0, i1, cols;
    double eps;
};

/// Forward rows [i0, i1): r[i] = 1 / sqrt(mean(x^2) + eps) and, when y is set, y = x * r * w + b.
template <class C>
CPU_FORCE_INLINE void rmsForwardImpl(const RowArgs& a) {
    const C* x = static_cast<const C*>(a.x);
    C* y = static_cast<C*>(a.y);
    const int64_t n = a.cols;
    const double* w = a.w;
    const double* b = a.b;
    for (int64_t i = a.i0; i < a.i1; ++i) {
        const C* xr = x + i * n;
        double ss = 0;
#pragma omp simd reduction(+ : ss)
        for (int64_t j = 0; j < n; ++j) ss += double(xr[j]) * double(xr[j]);
        const double r = 1.0 / std::sqrt(ss / double(n) + a.eps);
        a.r[i] = r;
        if (!y) continue;
        C* yr = y + i * n;
        if (w && b) {
            for (int64_t j = 0; j < n; ++j) yr[j] = C(double(xr[j]) * r * w[j] + b[j]);
        } else if (w) {
            for (int64_t j = 0; j < n; ++j) yr[j] = C(double(xr[j]) * r * w[j]);
        } else if (b) {
            for (int64_t j = 0; j < n; ++j) yr[j] = C(double(xr[j]) * r + b[j]);
        } else {
            for (int64_t j = 0; j < n; ++j) yr[j] = C(double(xr[j]) * r);
        }
    }
}

/// grad_input rows [i0, i1): with xhat = x r and gw = g w, y = r (gw - xhat mean(gw xhat)).
template <class C>
CPU_FORCE_INLINE void rmsGradInputImpl(const RowArgs& a) {
    const C* x = static_cast<const C*>(a.x);
    const C* g = static_cast<const C*>(a.g);
    C* y = static_cast<C*>(a.y);
    const int64_t n = a.cols;
    const double* w = a.w;
    for (int64_t i = a.i0; i < a.i1; ++i) {
        const C* xr = x + i * n;
        const C* gr = g + i * n;
        C* yr = y + i * n;
        const double r = a.r[i];
        double dot = 0;  // sum(g w x)
        if (w) {
#pragma omp simd reduction(+ : dot)
            for (int64_t j = 0; j < n; ++j) dot += double(gr[j]) * w[j] * double(xr[j]);
        } else {
#pragma omp simd reduction(+ : dot)
            for (int64_t j = 0; j < n; ++j) dot += double(gr[j]) * double(xr[j]);
        }
        const double m = dot * r / double(n), rr = r * r * m;
        if (w) {
            for (int64_t j = 0; j < n; ++j) yr[j] = C(r * (double(gr[j]) * w[j]) - double(xr[j]) * rr);
        } else {
            for (int64_t j = 0; j < n; ++j) yr[j] = C(r * double(gr[j]) - double(xr[j]) * rr);
        }
    }
}

void fwdBaseF(const RowArgs& a) { rmsForwardImpl<float>(a); }
void fwdBaseD(const RowArgs& a) { rmsForwardImpl<double>(a); }
void bwdBaseF(const RowArgs& a) { rmsGradInputImpl<float>(a); }
void bwdBaseD(const RowArgs& a) { rmsGradInputImpl<double>(a); }
#if CPU_HAVE_X86_LEVELS
CPU_TARGET_AVX2 void fwdAvx2F(const RowArgs& a) { rmsForwardImpl<float>(a); }
CPU_TARGET_AVX2 void bwdAvx2F(const RowArgs& a) { rmsGradInputImpl<float>(a); }
CPU_TARGET_AVX512 void fwdAvx512F(const RowArgs& a) { rmsForwardImpl<float>(a); }
CPU_TARGET_AVX512 void bwdAvx512F(const RowArgs& a) { rmsGradInputImpl<float>(a); }
#endif

using RowFn = void (*)(const RowArgs&);

RowFn pickRows(bool dbl, bool backward) {
    if (dbl) return backward ? bwdBaseD : fwdBaseD;
#if CPU_HAVE_X86_LEVELS
    if (isa() == Isa::Avx512) return backward ? bwdAvx512F : fwdAvx512F;
    if (isa() == Isa::Avx2) return backward ? bwdAvx2F : fwdAvx2F;
#endif
    return backward ? bwdBaseF : fwdBaseF;
}

/// Runs a row kernel over all rows (threads for large inputs only).
void runRows(RowArgs a, int64_t rows, bool dbl, bool backward) {
    const RowFn fn = pickRows(dbl, backward);
    parallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, a.cols)), [&](int64_t b, int64_t e) {
        RowArgs t = a;
        t.i0 = b;
        t.i1 = e;
        fn(t);
    });
}

// Writes one value per row into `dst` (any shape with that many elements, any strides, any float dtype).
void storeRowValues(diopiContextHandle_t ctx, const TensorView& dst, const std::vector<double>& v, const char* name) {
    dispatch<FloatTypes>(dst.dtype, name, [](auto) {});
    CPU_CHECK(dst.numel == (int64_t)v.size(), name, " must hold one value per normalised row (", v.size(), "), got shape ", shapeStr(dst.shape));
    TensorView t = newTensor(ctx, dst.shape, diopi_dtype_float64);
    double* p = t.ptr<double>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = v[i];
    copyCast(dst, t);
}

}  // namespace

// out = input * inv_rms * weight + bias with inv_rms = 1 / sqrt(mean(input^2) + eps) over the trailing dims;
// weight / bias NULL mean 1 / 0; inv_rms (NULL: not stored) holds one value per row in any shape of that size.
diopiError_t diopiRMSNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t inv_rms, diopiConstTensorHandle_t input,
                          diopiSize_t normalized_shape, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, double eps) {
    return guard(__func__, [&] {
        TensorView x = view(input, "input"), o = view(out, "out");
        dispatch<FloatTypes>(x.dtype, "input", [](auto) {});
        dispatch<FloatTypes>(o.dtype, "out", [](auto) {});
        CPU_CHECK(o.shape == x.shape, "out shape ", shapeStr(o.shape), " must match input shape ", shapeStr(x.shape));
        Rows rc = rowsOf(x, normalized_shape);
        std::vector<double> w = paramRow(ctx, weight, normalized_shape, rc.cols, "weight");
        std::vector<double> b = paramRow(ctx, bias, normalized_shape, rc.cols, "bias");
        const diopiDtype_t bt = bufferDtype({x.dtype, o.dtype});
        TensorView xf = contiguousAs(ctx, x, bt);
        // out itself is the dense output buffer when it can be (no extra pass).
        const bool direct = o.dtype == bt && o.isContiguous() && o.data != x.data;
        TensorView y = x.numel == 0 ? o : direct ? o : newTensor(ctx, x.shape, bt);
        std::vector<double> r((size_t)rc.rows);
        RowArgs a{xf.data, nullptr, x.numel ? y.data : nullptr, w.empty() ? nullptr : w.data(), b.empty() ? nullptr : b.data(), r.data(), 0, 0,
                  rc.cols, eps};
        runRows(a, rc.rows, bt == diopi_dtype_float64, false);
        if (inv_rms != nullptr) storeRowValues(ctx, view(inv_rms, "inv_rms"), r, "inv_rms");
        if (x.numel == 0) return;
        if (!direct) copyCast(o, y);
    });
}

// Gradients of diopiRMSNorm. The inverse RMS is recomputed from input and eps in double (inv_rms is only checked for
// its size: its stored value may be rounded). With xhat = input * inv_rms and g = grad_output * weight:
//   grad_input = inv_rms * (g - xhat * mean(g * xhat)),  grad_weight = sum_rows(grad_output * xhat),
//   grad_bias = sum_rows(grad_output).  NULL gradient handles are skipped.
diopiError_t diopiRMSNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight, diopiTensorHandle_t grad_bias,
                                  diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                  diopiConstTensorHandle_t bias, diopiConstTensorHandle_t inv_rms, diopiSize_t normalized_shape, double eps) {
    return guard(__func__, [&] {
        (void)bias;  // the shift does not enter any gradient
        TensorView x = view(input, "input"), go = view(grad_output, "grad_output");
        dispatch<FloatTypes>(x.dtype, "input", [](auto) {});
        dispatch<FloatTypes>(go.dtype, "grad_output", [](auto) {});
        CPU_CHECK(go.shape == x.shape, "grad_output shape ", shapeStr(go.shape), " must match input shape ", shapeStr(x.shape));
        Rows rc = rowsOf(x, normalized_shape);
        std::vector<double> w = paramRow(ctx, weight, normalized_shape, rc.cols, "weight");
        TensorView saved = viewOpt(inv_rms, "inv_rms");
        if (saved.defined())
            CPU_CHECK(saved.numel == rc.rows, "inv_rms must hold one value per normalised row (", rc.rows, "), got shape ", shapeStr(saved.shape));
        const diopiDtype_t bt = bufferDtype({x.dtype, go.dtype});
        TensorView xf = contiguousAs(ctx, x, bt), gf = contiguousAs(ctx, go, bt);
        std::vector<double> r((size_t)rc.rows);
        const bool dbl = bt == diopi_dtype_float64;
        runRows(RowArgs{xf.data, nullptr, nullptr, nullptr, nullptr, r.data(), 0, 0, rc.cols, eps}, rc.rows, dbl, false);
        const int64_t NC = rc.cols, R = rc.rows;
        if (grad_input != nullptr) {
            TensorView gi = view(grad_input, "grad_input");
            dispatch<FloatTypes>(gi.dtype, "grad_input", [](auto) {});
            CPU_CHECK(gi.shape == x.shape, "grad_input shape ", shapeStr(gi.shape), " must match input shape ", shapeStr(x.shape));
            if (x.numel) {
                const bool direct = gi.dtype == bt && gi.isContiguous() && gi.data != x.data && gi.data != go.data;
                TensorView t = direct ? gi : newTensor(ctx, x.shape, bt);
                runRows(RowArgs{xf.data, gf.data, t.data, w.empty() ? nullptr : w.data(), nullptr, r.data(), 0, 0, NC, eps}, R, dbl, true);
                if (!direct) copyCast(gi, t);
            }
        }
        withBuffer(bt, [&](auto tag) {
            using C = typename decltype(tag)::type;
            const C* xp = xf.ptr<const C>();
            const C* gp = gf.ptr<const C>();
            // Column sums over rows: every column is summed by one thread in row order, so results are reproducible.
            auto columnSums = [&](diopiTensorHandle_t h, const char* name, bool withXhat) {
                TensorView d = view(h, name);
                dispatch<FloatTypes>(d.dtype, name, [](auto) {});
                CPU_CHECK(d.shape == toShape(normalized_shape), name, " shape ", shapeStr(d.shape), " must be normalized_shape");
                std::vector<double> acc(NC, 0.0);
                parallelFor(NC, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, R)), [&](int64_t b, int64_t e) {
                    for (int64_t i = 0; i < R; ++i) {
                        const C* xr = xp + i * NC;
                        const C* gr = gp + i * NC;
                        for (int64_t j = b; j < e; ++j) acc[j] += withXhat ? double(gr[j]) * double(xr[j]) * r[i] : double(gr[j]);
                    }
                });
                TensorView t = newTensor(ctx, d.shape, diopi_dtype_float64);
                for (int64_t j = 0; j < NC; ++j) t.ptr<double>()[j] = acc[j];
                copyCast(d, t);
            };
            if (grad_weight != nullptr) columnSums(grad_weight, "grad_weight", true);
            if (grad_bias != nullptr) columnSums(grad_bias, "grad_bias", false);
        });
    });
}

}  // namespace impl::cpu
