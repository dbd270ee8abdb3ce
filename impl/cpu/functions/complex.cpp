// Family complex: building complex tensors (polar, complex) and taking them
// apart (real, imag, conj).
//
// A complex64/complex128 element is two adjacent float32/float64 values (real
// first), so each part of a complex tensor is a plain real strided view: same
// shape, strides doubled, the imaginary part one value further. Every kernel
// works on those views with the ordinary real loops and copies. The adaptor
// passes these functions' dtypes through unchanged (convert_config.yaml):
// narrowing float64 parts would make a complex128 result carry float32
// rounding.
#include <algorithm>
#include <cmath>

#include "common/common.hpp"
#include "common/fastmath.hpp"

namespace impl::cpu {

namespace {

/// dtype of one part of a complex dtype (complex32 is not supported).
diopiDtype_t partDtype(diopiDtype_t complexDtype, const char* what) {
    switch (complexDtype) {
        case diopi_dtype_complex64: return diopi_dtype_float32;
        case diopi_dtype_complex128: return diopi_dtype_float64;
        default:
            failCode(diopiDtypeNotSupported, what, " dtype ", dtypeName(complexDtype),
                     " is not supported (complex64 or complex128 expected)");
    }
}

bool isComplex(diopiDtype_t dt) { return dt == diopi_dtype_complex64 || dt == diopi_dtype_complex128; }

/// The real (imag = false) or imaginary part of a complex view, as a real view.
TensorView partView(const TensorView& c, bool imag, const char* what) {
    TensorView p = c;
    p.handle = nullptr;
    p.dtype = partDtype(c.dtype, what);
    p.itemsize = c.itemsize / 2;
    for (auto& s : p.strides) s *= 2;
    if (imag) p.data += p.itemsize;
    return p;
}

/// Checks the two real operands of polar/complex and the complex out they fill.
void checkParts(const TensorView& out, const TensorView& a, const char* aName, const TensorView& b, const char* bName) {
    if (a.dtype != b.dtype)
        failCode(diopiDtypeNotSupported, aName, " is ", dtypeName(a.dtype), " but ", bName, " is ", dtypeName(b.dtype),
                 "; both must have the same floating-point dtype");
    if (a.dtype != diopi_dtype_float32 && a.dtype != diopi_dtype_float64)
        failCode(diopiDtypeNotSupported, aName, " dtype ", dtypeName(a.dtype), " is not supported (float32 or float64 expected)");
    if (partDtype(out.dtype, "out") != a.dtype)
        failCode(diopiDtypeNotSupported, "out is ", dtypeName(out.dtype), " but the parts are ", dtypeName(a.dtype),
                 " (complex64 goes with float32, complex128 with float64)");
    Shape bs = broadcastShapes(a.shape, b.shape);
    CPU_CHECK(bs == out.shape, "out has shape ", shapeStr(out.shape), ", expected ", shapeStr(bs));
}

}  // namespace

diopiError_t diopiPolar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t abs, diopiConstTensorHandle_t angle) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), r = view(abs, "abs"), t = view(angle, "angle");
        checkParts(o, r, "abs", t, "angle");
        if (r.dtype == diopi_dtype_float32 && o.isContiguous() && r.shape == o.shape && r.isContiguous() && t.shape == o.shape &&
            t.isContiguous()) {
            // Dense complex64: cos and sin of a block in the per-level loops (libm
            // for blocks with angles the vector reduction does not cover), then interleaved.
            float* po = reinterpret_cast<float*>(o.data);
            const float *pr = r.ptr<float>(), *pt = t.ptr<float>();
            parallelFor(o.numel, kParallelGrain / 2, [&](int64_t b, int64_t e) {
                float c[simd::kBlock], sn[simd::kBlock];
                for (int64_t i = b; i < e; i += simd::kBlock) {
                    const int64_t m = std::min(simd::kBlock, e - i);
                    if (simd::all1(pt + i, m, [](float x) { return __builtin_isless(absF(x), kTrigMaxF); })) {
                        simd::map2(c, pr + i, pt + i, m, [](float a, float x) { return a * sinCosF<true>(x); });
                        simd::map2(sn, pr + i, pt + i, m, [](float a, float x) { return a * sinCosF<false>(x); });
                    } else {
                        for (int64_t j = 0; j < m; ++j) {
                            c[j] = pr[i + j] * std::cos(pt[i + j]);
                            sn[j] = pr[i + j] * std::sin(pt[i + j]);
                        }
                    }
                    for (int64_t j = 0; j < m; ++j) {
                        po[2 * (i + j)] = c[j];
                        po[2 * (i + j) + 1] = sn[j];
                    }
                }
            });
            return;
        }
        TensorView re = partView(o, false, "out"), im = partView(o, true, "out");
        dispatch<TypeList<float, double>>(r.dtype, "abs", [&](auto tag) {
            using R = typename decltype(tag)::type;
            // Same formula as the definition (not std::polar, which rejects negative radii and NaN).
            binaryLoop<R, R, R>(re, r, t, [](R a, R b) { return a * std::cos(b); });
            binaryLoop<R, R, R>(im, r, t, [](R a, R b) { return a * std::sin(b); });
        });
    });
}

diopiError_t diopiComplex(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t real, diopiConstTensorHandle_t imag) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), a = view(real, "real"), b = view(imag, "imag");
        checkParts(o, a, "real", b, "imag");
        copyCast(partView(o, false, "out"), a);
        copyCast(partView(o, true, "out"), b);
    });
}

diopiError_t diopiConj(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(o.shape == in.shape, "out has shape ", shapeStr(o.shape), ", expected ", shapeStr(in.shape));
        if (!isComplex(in.dtype)) {
            // The conjugate of a real number is itself.
            CPU_CHECK(!isComplex(o.dtype), "out is ", dtypeName(o.dtype), " but input is the real dtype ", dtypeName(in.dtype));
            copyCast(o, in);
            return;
        }
        CPU_CHECK(o.dtype == in.dtype, "out is ", dtypeName(o.dtype), " but input is ", dtypeName(in.dtype));
        copyCast(partView(o, false, "out"), partView(in, false, "input"));
        TensorView oi = partView(o, true, "out"), ii = partView(in, true, "input");
        dispatch<TypeList<float, double>>(ii.dtype, "input", [&](auto tag) {
            using R = typename decltype(tag)::type;
            unaryLoop<R, R>(oi, ii, [](R v) { return -v; });
        });
    });
}

diopiError_t diopiImag(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        if (!isComplex(in.dtype))
            failCode(diopiDtypeNotSupported, "input must be complex (complex64 or complex128), got ", dtypeName(in.dtype));
        CPU_CHECK(o.shape == in.shape, "out has shape ", shapeStr(o.shape), ", expected ", shapeStr(in.shape));
        CPU_CHECK(!isComplex(o.dtype), "out must be real, got ", dtypeName(o.dtype));
        copyCast(o, partView(in, true, "input"));
    });
}

diopiError_t diopiReal(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(o.shape == in.shape, "out has shape ", shapeStr(o.shape), ", expected ", shapeStr(in.shape));
        CPU_CHECK(!isComplex(o.dtype), "out must be real, got ", dtypeName(o.dtype));
        // A real input is its own real part.
        copyCast(o, isComplex(in.dtype) ? partView(in, false, "input") : in);
    });
}

}  // namespace impl::cpu
