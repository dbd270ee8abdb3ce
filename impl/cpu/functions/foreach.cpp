// Family foreach: one operation over a list of tensors — add/mul by a shared
// scalar or a shared one-element tensor (out of place and in place) and the
// vector p-norm of each tensor.
//
// Out-of-place results follow torch's promotion, which the caller expresses
// through each out's dtype (an integer list plus 1.5 gives float outputs): the
// input is converted to the out's dtype and the operation runs there, with
// 16-bit floats computing in float. Norms accumulate in double over fixed
// blocks so that the result does not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/common.hpp"

namespace impl::cpu {

namespace {

enum class Kind { Add, Mul };

/// The shared operand: a number that is either integral or floating.
struct Operand {
    double d = 0;
    int64_t i = 0;
    bool isFloat = false;
};

Operand fromScalar(const diopiScalar_t* s, const char* name) {
    Operand v;
    v.isFloat = scalarIsFloat(s);
    v.d = scalarDouble(s, name);
    v.i = v.isFloat ? 0 : scalarInt(s, name);
    return v;
}

/// The one element of `other` (0-d or any shape with one element).
Operand fromTensor(diopiConstTensorHandle_t h) {
    TensorView t = view(h, "other");
    CPU_CHECK(t.numel == 1, "other must hold exactly one element, got shape ", shapeStr(t.shape));
    Operand v;
    v.isFloat = isFloatingDtype(t.dtype);
    dispatch<AllTypes>(t.dtype, "other", [&](auto tag) {
        using T = typename decltype(tag)::type;
        T x = *t.ptr<T>();
        v.d = convert<double>(x);
        v.i = v.isFloat ? 0 : convert<int64_t>(x);
    });
    return v;
}

/// o = in (op) v, computed in o's dtype; in broadcasts to o (same shape here).
template <Kind K>
void applyOne(diopiContextHandle_t ctx, const TensorView& o, const TensorView& inRaw, const Operand& v) {
    TensorView in = castTo(ctx, inRaw, o.dtype);
    dispatch<NumericBoolTypes>(o.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
            const bool s = v.isFloat ? v.d != 0 : v.i != 0;
            unaryLoop<T, T>(o, in, [s](bool x) { return K == Kind::Add ? (x || s) : (x && s); });
        } else if constexpr (is_floating_v<T>) {
            using A = acc_t<T>;
            const A s = A(v.d);
            unaryLoop<T, T>(o, in, [s](T x) { return T(K == Kind::Add ? A(x) + s : A(x) * s); });
        } else {
            // Integers wrap like the C types (as torch's do): compute wide, store narrow.
            const int64_t s = v.i;
            unaryLoop<T, T>(o, in, [s](T x) {
                uint64_t a = (uint64_t)(int64_t)x, b = (uint64_t)s;
                return static_cast<T>(K == Kind::Add ? a + b : a * b);
            });
        }
    });
}

/// Checks one (out, input) pair before any element is written.
void checkPair(const TensorView& o, const TensorView& in, int64_t i, const Operand& v) {
    CPU_CHECK(o.shape == in.shape, "outs[", i, "] has shape ", shapeStr(o.shape), " but inputs[", i, "] has shape ", shapeStr(in.shape));
    dispatch<NumericBoolTypes>(o.dtype, "out", [](auto) {});
    dispatch<NumericBoolTypes>(in.dtype, "input", [](auto) {});
    if (v.isFloat && !isFloatingDtype(o.dtype))
        fail("a floating-point operand cannot be applied to ", dtypeName(o.dtype), " tensor ", i,
             " (the result would be floating-point)");
}

template <Kind K>
void foreachOut(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t n, const Operand& v) {
    CPU_CHECK(n >= 0, "inputSize must be non-negative, got ", n);
    std::vector<TensorView> ins = views(inputs, n, "inputs");
    std::vector<TensorView> os = views(reinterpret_cast<const diopiConstTensorHandle_t*>(outs), n, "outs");
    for (int64_t i = 0; i < n; ++i) checkPair(os[i], ins[i], i, v);
    for (int64_t i = 0; i < n; ++i) applyOne<K>(ctx, os[i], ins[i], v);
}

template <Kind K>
void foreachInp(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t n, const Operand& v) {
    CPU_CHECK(n >= 0, "inputSize must be non-negative, got ", n);
    std::vector<TensorView> ts = views(reinterpret_cast<const diopiConstTensorHandle_t*>(inputs), n, "inputs");
    for (int64_t i = 0; i < n; ++i) checkPair(ts[i], ts[i], i, v);
    for (int64_t i = 0; i < n; ++i) applyOne<K>(ctx, ts[i], ts[i], v);
}

/// Vector p-norm of all elements of `in` (contiguous, element type T), in double.
template <class T>
double vectorNorm(const T* x, int64_t n, double p) {
    const bool isInf = std::isinf(p);
    // Fixed-size blocks, combined in order: the result is the same for any thread count.
    constexpr int64_t B = 16384;
    const int64_t nb = (n + B - 1) / B;
    std::vector<double> part(nb, 0.0);
    parallelFor(nb, 4, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
            const int64_t s = b * B, e = std::min(n, s + B);
            double acc = isInf ? (p > 0 ? 0.0 : std::numeric_limits<double>::infinity()) : 0.0;
            for (int64_t j = s; j < e; ++j) {
                const double a = std::fabs((double)acc_t<T>(x[j]));
                if (isInf) {
                    // NaN wins, as in a max/min that propagates it.
                    if (std::isnan(a) || std::isnan(acc)) acc = std::numeric_limits<double>::quiet_NaN();
                    else acc = p > 0 ? std::max(acc, a) : std::min(acc, a);
                } else if (p == 0) {
                    acc += a != 0 ? 1.0 : 0.0;  // a NaN counts as non-zero
                } else if (p == 1) {
                    acc += a;
                } else if (p == 2) {
                    acc += a * a;
                } else {
                    acc += std::pow(a, p);
                }
            }
            part[b] = acc;
        }
    });
    if (isInf) {
        double r = p > 0 ? 0.0 : std::numeric_limits<double>::infinity();
        for (double v : part) {
            if (std::isnan(v) || std::isnan(r)) r = std::numeric_limits<double>::quiet_NaN();
            else r = p > 0 ? std::max(r, v) : std::min(r, v);
        }
        return r;
    }
    double sum = 0;
    for (double v : part) sum += v;
    if (p == 0 || p == 1) return sum;
    if (p == 2) return std::sqrt(sum);
    return std::pow(sum, 1.0 / p);
}

}  // namespace

diopiError_t diopiForeachaddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputSize,
                                   const diopiScalar_t* other) {
    return guard(__func__, [&] { foreachOut<Kind::Add>(ctx, outs, inputs, inputSize, fromScalar(other, "other")); });
}

diopiError_t diopiForeachaddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other) {
    return guard(__func__, [&] { foreachInp<Kind::Add>(ctx, inputs, inputSize, fromScalar(other, "other")); });
}

diopiError_t diopiForeachmulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputSize,
                                   const diopiScalar_t* other) {
    return guard(__func__, [&] { foreachOut<Kind::Mul>(ctx, outs, inputs, inputSize, fromScalar(other, "other")); });
}

diopiError_t diopiForeachmulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other) {
    return guard(__func__, [&] { foreachInp<Kind::Mul>(ctx, inputs, inputSize, fromScalar(other, "other")); });
}

diopiError_t diopiForeachmulTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputSize,
                                   const diopiConstTensorHandle_t other) {
    return guard(__func__, [&] { foreachOut<Kind::Mul>(ctx, outs, inputs, inputSize, fromTensor(other)); });
}

diopiError_t diopiForeachmulInpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize,
                                      const diopiConstTensorHandle_t other) {
    return guard(__func__, [&] { foreachInp<Kind::Mul>(ctx, inputs, inputSize, fromTensor(other)); });
}

diopiError_t diopiForeachnormScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputSize,
                                    const diopiScalar_t* ord) {
    return guard(__func__, [&] {
        CPU_CHECK(inputSize >= 0, "inputSize must be non-negative, got ", inputSize);
        // NULL ord means the Euclidean norm, torch's default.
        const double p = ord ? scalarDouble(ord, "ord") : 2.0;
        CPU_CHECK(!std::isnan(p), "ord is NaN");
        std::vector<TensorView> ins = views(inputs, inputSize, "inputs");
        std::vector<TensorView> os = views(reinterpret_cast<const diopiConstTensorHandle_t*>(outs), inputSize, "outs");
        for (int64_t i = 0; i < inputSize; ++i) {
            CPU_CHECK(os[i].numel == 1, "outs[", i, "] must hold one element, got shape ", shapeStr(os[i].shape));
            dispatch<FloatTypes>(ins[i].dtype, "input", [](auto) {});
            dispatch<FloatTypes>(os[i].dtype, "out", [](auto) {});
            CPU_CHECK(!(std::isinf(p) && p < 0 && ins[i].numel == 0), "the -inf norm of the empty inputs[", i, "] is undefined");
        }
        for (int64_t i = 0; i < inputSize; ++i) {
            double r = 0;
            dispatch<FloatTypes>(ins[i].dtype, "input", [&](auto tag) {
                using T = typename decltype(tag)::type;
                TensorView c = contiguousAs(ctx, ins[i], ins[i].dtype);
                r = vectorNorm<T>(c.ptr<T>(), c.numel, p);
            });
            dispatch<FloatTypes>(os[i].dtype, "out", [&](auto tag) {
                using T = typename decltype(tag)::type;
                fillWith<T>(os[i], T(float(r)));
            });
        }
    });
}

}  // namespace impl::cpu
