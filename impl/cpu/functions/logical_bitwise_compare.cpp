// Family logical_bitwise_compare: logical and/or/not, bitwise and/or/not,
// comparisons (tensor and scalar operands, in place and out of place) and
// equal. Results are 0/1 (bool out of place); in-place forms store them in
// the input's dtype.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "common/common.hpp"
#include "common/fastmath.hpp"
#include "common/promote.hpp"

namespace impl::cpu {

namespace {

/// Runs body(dstBool) with a bool destination, converting into `out` if it has another dtype.
template <class Body>
void intoBool(diopiContextHandle_t ctx, const TensorView& out, Body&& body) {
    computeAs(ctx, out, diopi_dtype_bool, body);
}

/// bool o = f(a, b) for float32 a, b that are dense, or one dense and the
/// other a repeated row or single element: the per-level array loops. False
/// for other layouts (the generic loop runs instead).
template <class F>
bool boolFromF32(const TensorView& o, const TensorView& a, const TensorView& b, F f) {
    if (o.dtype != diopi_dtype_bool || a.dtype != diopi_dtype_float32 || b.dtype != diopi_dtype_float32 || o.numel == 0 ||
        !o.isContiguous())
        return false;
    const bool aFull = a.shape == o.shape && a.isContiguous(), bFull = b.shape == o.shape && b.isContiguous();
    bool* po = o.ptr<bool>();
    const float *pa = a.ptr<float>(), *pb = b.ptr<float>();
    if (aFull && bFull) {
        parallelFor(o.numel, kParallelGrain, [&](int64_t i, int64_t e) { simd::map2(po + i, pa + i, pb + i, e - i, f); });
        return true;
    }
    if (aFull == bFull) return false;
    const TensorView& sm = aFull ? b : a;
    if (!isRowOf(sm, o.shape) || sm.numel <= 0) return false;
    const int64_t inner = sm.numel, rows = o.numel / inner;
    const float* pf = aFull ? pa : pb;
    const float* ps = aFull ? pb : pa;
    if (inner == 1) {
        const float c = ps[0];
        parallelFor(rows, kParallelGrain, [&](int64_t i, int64_t e) {
            if (aFull) simd::map1(po + i, pf + i, e - i, [f, c](float x) { return f(x, c); });
            else simd::map1(po + i, pf + i, e - i, [f, c](float y) { return f(c, y); });
        });
        return true;
    }
    parallelFor(rows, std::max<int64_t>(1, kParallelGrain / inner), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            if (aFull) simd::map2(po + r * inner, pf + r * inner, ps, inner, f);
            else simd::map2(po + r * inner, ps, pf + r * inner, inner, f);
        }
    });
    return true;
}

// ---------------------------------------------------------------- logical

template <class Op>
void logicalBinary(diopiContextHandle_t ctx, const TensorView& out, TensorView a, TensorView b, Op op) {
    checkOutShape(out, broadcastShapes(a.shape, b.shape));
    if (a.dtype != b.dtype) {
        // Truth values do not depend on a common dtype: reduce both to bool.
        a = castTo(ctx, a, diopi_dtype_bool);
        b = castTo(ctx, b, diopi_dtype_bool);
    }
    intoBool(ctx, out, [&](const TensorView& dst) {
        // NaN counts as true (it is not 0), as in convert<bool>.
        if (boolFromF32(dst, a, b, [op](float x, float y) { return op(x != 0.0f, y != 0.0f); })) return;
        dispatch<NumericBoolTypes>(a.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            binaryLoop<bool, T, T>(dst, a, b, [op](T x, T y) { return op(convert<bool>(x), convert<bool>(y)); });
        });
    });
}

void logicalNot(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a) {
    checkOutShape(out, a.shape);
    if (a.dtype == diopi_dtype_float32 && a.isContiguous() && out.isContiguous() && out.numel > 0 &&
        (out.dtype == diopi_dtype_bool || out.dtype == diopi_dtype_float32)) {
        // Dense float32 input: straight into a bool or float32 out (in place too), no bool temporary.
        const float* pa = a.ptr<float>();
        parallelFor(out.numel, kParallelGrain, [&](int64_t i, int64_t e) {
            if (out.dtype == diopi_dtype_bool) simd::map1(out.ptr<bool>() + i, pa + i, e - i, [](float x) { return x == 0.0f; });
            else simd::map1(out.ptr<float>() + i, pa + i, e - i, [](float x) { return selectF(x == 0.0f, 1.0f, 0.0f); });
        });
        return;
    }
    const bool half = a.dtype == diopi_dtype_float16, bf = a.dtype == diopi_dtype_bfloat16;
    if ((half || bf) && a.isContiguous() && out.isContiguous() && out.numel > 0 &&
        (out.dtype == diopi_dtype_bool || out.dtype == a.dtype)) {
        // Dense 16-bit floats: zero is a test on the bits (either sign), no conversion to float.
        const uint16_t* pa = a.ptr<uint16_t>();
        const uint16_t one = half ? 0x3c00 : 0x3f80;
        parallelFor(out.numel, kParallelGrain, [&](int64_t i, int64_t e) {
            if (out.dtype == diopi_dtype_bool)
                simd::map1(out.ptr<bool>() + i, pa + i, e - i, [](uint16_t x) { return (x & 0x7fff) == 0; });
            else
                simd::map1(out.ptr<uint16_t>() + i, pa + i, e - i,
                           [one](uint16_t x) { return uint16_t((x & 0x7fff) == 0 ? one : 0); });
        });
        return;
    }
    intoBool(ctx, out, [&](const TensorView& dst) {
        dispatch<NumericBoolTypes>(a.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            unaryLoop<bool, T>(dst, a, [](T x) { return !convert<bool>(x); });
        });
    });
}

// ---------------------------------------------------------------- bitwise

template <class A>
struct BitAnd {
    A operator()(A x, A y) const { return A(x & y); }
};
template <class A>
struct BitOr {
    A operator()(A x, A y) const { return A(x | y); }
};

// int64 is included for callers that pass 64-bit tensors through unnarrowed.
using BitTypes = TypeList<int32_t, int8_t, uint8_t, int16_t, bool, int64_t>;
using CmpTypes = TypeList<float, Half, BFloat16, int32_t, int8_t, uint8_t, int16_t, bool, int64_t, double>;

template <template <class> class Op>
void bitwiseBinary(diopiContextHandle_t ctx, const TensorView& out, TensorView a, TensorView b) {
    checkOutShape(out, broadcastShapes(a.shape, b.shape));
    diopiDtype_t dt = resultType(a, b);
    if (isFloatingDtype(dt)) failCode(diopiDtypeNotSupported, "bitwise operations need integer or bool tensors, got ", dtypeName(dt));
    a = castTo(ctx, a, dt);
    b = castTo(ctx, b, dt);
    computeAs(ctx, out, dt, [&](const TensorView& dst) {
        dispatch<BitTypes>(dt, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            binaryLoop<T, T, T>(dst, a, b, [](T x, T y) { return T(Op<T>()(x, y)); });
        });
    });
}

template <template <class> class Op>
void bitwiseScalar(diopiContextHandle_t ctx, const TensorView& out, TensorView a, const diopiScalar_t* s) {
    CPU_CHECK(s, "other is NULL");
    checkOutShape(out, a.shape);
    diopiDtype_t dt = resultTypeScalar(a.dtype, s);
    if (isFloatingDtype(dt)) failCode(diopiDtypeNotSupported, "bitwise operations need integer or bool operands, got ", dtypeName(dt));
    a = castTo(ctx, a, dt);
    computeAs(ctx, out, dt, [&](const TensorView& dst) {
        dispatch<BitTypes>(dt, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            T v = convert<T>(scalarInt(s, "other"));
            unaryLoop<T, T>(dst, a, [v](T x) { return T(Op<T>()(x, v)); });
        });
    });
}

void bitwiseNot(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a) {
    checkOutShape(out, a.shape);
    if (isFloatingDtype(a.dtype)) failCode(diopiDtypeNotSupported, "bitwise_not needs an integer or bool tensor, got ", dtypeName(a.dtype));
    TensorView in = a;
    computeAs(ctx, out, in.dtype, [&](const TensorView& dst) {
        dispatch<BitTypes>(in.dtype, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            unaryLoop<T, T>(dst, in, [](T x) {
                if constexpr (std::is_same_v<T, bool>) return !x;
                else return T(~x);
            });
        });
    });
}

// ---------------------------------------------------------------- comparisons

enum class Cmp { Eq, Ne, Ge, Gt, Le, Lt };

template <Cmp C, class A>
inline bool cmp(A x, A y) {
    if constexpr (C == Cmp::Eq) return x == y;
    else if constexpr (C == Cmp::Ne) return x != y;
    else if constexpr (C == Cmp::Ge) return x >= y;
    else if constexpr (C == Cmp::Gt) return x > y;
    else if constexpr (C == Cmp::Le) return x <= y;
    else return x < y;
}

template <Cmp C>
void compareTensorImpl(diopiContextHandle_t ctx, const TensorView& out, TensorView a, TensorView b) {
    checkOutShape(out, broadcastShapes(a.shape, b.shape));
    diopiDtype_t dt = resultType(a, b);
    a = castTo(ctx, a, dt);
    b = castTo(ctx, b, dt);
    intoBool(ctx, out, [&](const TensorView& dst) {
        if (boolFromF32(dst, a, b, [](float x, float y) { return cmp<C>(x, y); })) return;
        dispatch<CmpTypes>(dt, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            binaryLoop<bool, T, T>(dst, a, b, [](T x, T y) { return cmp<C>(A(x), A(y)); });
        });
    });
}

/// a > b is b < a, a >= b is b <= a (NaN included) and the result dtype is
/// symmetric: only Eq, Ne, Lt and Le get kernels.
template <Cmp C>
void compareTensor(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& b) {
    if constexpr (C == Cmp::Gt) compareTensorImpl<Cmp::Lt>(ctx, out, b, a);
    else if constexpr (C == Cmp::Ge) compareTensorImpl<Cmp::Le>(ctx, out, b, a);
    else compareTensorImpl<C>(ctx, out, a, b);
}

template <Cmp C>
void compareScalar(diopiContextHandle_t ctx, const TensorView& out, TensorView a, const diopiScalar_t* s) {
    CPU_CHECK(s, "other is NULL");
    checkOutShape(out, a.shape);
    diopiDtype_t dt = resultTypeScalar(a.dtype, s);
    a = castTo(ctx, a, dt);
    intoBool(ctx, out, [&](const TensorView& dst) {
        dispatch<CmpTypes>(dt, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            // The scalar is first converted to the common dtype (as torch does).
            T tv = scalarIsFloat(s) ? convert<T>(scalarDouble(s, "other")) : convert<T>(scalarInt(s, "other"));
            A v = A(tv);
            unaryLoop<bool, T>(dst, a, [v](T x) { return cmp<C>(A(x), v); });
        });
    });
}

}  // namespace

// ================================================================ logical

#define CPU_LOGICAL_BINARY(Name, EXPR)                                                                                         \
    diopiError_t diopiLogical##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,         \
                                    diopiConstTensorHandle_t other) {                                                          \
        return guard(__func__, [&] {                                                                                           \
            logicalBinary(ctx, view(out, "out"), view(input, "input"), view(other, "other"), [](bool x, bool y) { return EXPR; }); \
        });                                                                                                                    \
    }                                                                                                                          \
    diopiError_t diopiLogical##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) { \
        return guard(__func__, [&] {                                                                                           \
            TensorView t = view(input, "input");                                                                               \
            logicalBinary(ctx, t, t, view(other, "other"), [](bool x, bool y) { return EXPR; });                               \
        });                                                                                                                    \
    }
// & and | rather than && and ||: no branch in the element function.
CPU_LOGICAL_BINARY(And, x & y)
CPU_LOGICAL_BINARY(Or, x | y)
#undef CPU_LOGICAL_BINARY

diopiError_t diopiLogicalNot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { logicalNot(ctx, view(out, "out"), view(input, "input")); });
}
diopiError_t diopiLogicalNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        logicalNot(ctx, t, t);
    });
}

// ================================================================ bitwise

#define CPU_BITWISE(Name, OP)                                                                                                  \
    diopiError_t diopiBitwise##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,         \
                                    diopiConstTensorHandle_t other) {                                                          \
        return guard(__func__, [&] { bitwiseBinary<OP>(ctx, view(out, "out"), view(input, "input"), view(other, "other")); }); \
    }                                                                                                                          \
    diopiError_t diopiBitwise##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) { \
        return guard(__func__, [&] {                                                                                           \
            TensorView t = view(input, "input");                                                                               \
            bitwiseBinary<OP>(ctx, t, t, view(other, "other"));                                                                \
        });                                                                                                                    \
    }                                                                                                                          \
    diopiError_t diopiBitwise##Name##Scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, \
                                            const diopiScalar_t* other) {                                                      \
        return guard(__func__, [&] { bitwiseScalar<OP>(ctx, view(out, "out"), view(input, "input"), other); });               \
    }                                                                                                                          \
    diopiError_t diopiBitwise##Name##InpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other) { \
        return guard(__func__, [&] {                                                                                           \
            TensorView t = view(input, "input");                                                                               \
            bitwiseScalar<OP>(ctx, t, t, other);                                                                               \
        });                                                                                                                    \
    }
CPU_BITWISE(And, BitAnd)
CPU_BITWISE(Or, BitOr)
#undef CPU_BITWISE

diopiError_t diopiBitwiseNot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] { bitwiseNot(ctx, view(out, "out"), view(input, "input")); });
}
diopiError_t diopiBitwiseNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        bitwiseNot(ctx, t, t);
    });
}

// ================================================================ comparisons

#define CPU_COMPARE(Name, KIND)                                                                                                 \
    diopiError_t diopi##Name##Scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,         \
                                     const diopiScalar_t* other) {                                                              \
        return guard(__func__, [&] { compareScalar<KIND>(ctx, view(out, "out"), view(input, "input"), other); });               \
    }                                                                                                                           \
    diopiError_t diopi##Name##InpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other) {      \
        return guard(__func__, [&] {                                                                                            \
            TensorView t = view(input, "input");                                                                                \
            compareScalar<KIND>(ctx, t, t, other);                                                                              \
        });                                                                                                                     \
    }                                                                                                                           \
    diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,                 \
                             diopiConstTensorHandle_t other) {                                                                  \
        return guard(__func__, [&] { compareTensor<KIND>(ctx, view(out, "out"), view(input, "input"), view(other, "other")); }); \
    }                                                                                                                           \
    diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {        \
        return guard(__func__, [&] {                                                                                            \
            TensorView t = view(input, "input");                                                                                \
            compareTensor<KIND>(ctx, t, t, view(other, "other"));                                                               \
        });                                                                                                                     \
    }
CPU_COMPARE(Eq, Cmp::Eq)
CPU_COMPARE(Ne, Cmp::Ne)
CPU_COMPARE(Ge, Cmp::Ge)
CPU_COMPARE(Gt, Cmp::Gt)
CPU_COMPARE(Le, Cmp::Le)
CPU_COMPARE(Lt, Cmp::Lt)
#undef CPU_COMPARE

diopiError_t diopiEqual(diopiContextHandle_t ctx, bool* out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        CPU_CHECK(out, "out is NULL");
        TensorView a = view(input, "input"), b = view(other, "other");
        if (a.shape != b.shape) {
            *out = false;
            return;
        }
        diopiDtype_t dt = promoteTypes(a.dtype, b.dtype);
        a = castTo(ctx, a, dt);
        b = castTo(ctx, b, dt);
        std::atomic<bool> differ{false};
        dispatch<CmpTypes>(dt, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            std::array<const TensorView*, 2> ops{&a, &b};
            StridedPlan<2> plan(a.shape, ops);
            plan.runAll([&](char** p, int64_t n, const int64_t* s) {
                if (differ.load(std::memory_order_relaxed)) return;
                const char* pa = p[0];
                const char* pb = p[1];
                for (int64_t i = 0; i < n; ++i, pa += s[0], pb += s[1]) {
                    if (!(A(*reinterpret_cast<const T*>(pa)) == A(*reinterpret_cast<const T*>(pb)))) {
                        differ.store(true, std::memory_order_relaxed);
                        return;
                    }
                }
            });
        });
        *out = !differ.load();
    });
}

// The set is sorted once; each element is then a binary search. NaN is left
// out of the set and never found (it equals nothing).
diopiError_t diopiIsIn(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t elements,
                       diopiConstTensorHandle_t test_elements, bool assume_unique, bool invert) {
    (void)assume_unique;  // a hint; sorting is as fast either way here
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), e = view(elements, "elements"), t = view(test_elements, "test_elements");
        checkOutShape(o, e.shape);
        if (e.dtype == diopi_dtype_bool || t.dtype == diopi_dtype_bool)
            failCode(diopiDtypeNotSupported, "isin takes numeric tensors, got ", dtypeName(e.dtype), " and ", dtypeName(t.dtype));
        diopiDtype_t dt = resultType(e, t);
        e = castTo(ctx, e, dt);
        TensorView set = contiguousAs(ctx, t, dt);
        intoBool(ctx, o, [&](const TensorView& dst) {
            dispatch<CmpTypes>(dt, "elements", [&](auto tag) {
                using T = typename decltype(tag)::type;
                using A = acc_t<T>;
                std::vector<A> values;
                values.reserve(static_cast<size_t>(set.numel));
                const T* p = set.ptr<T>();
                for (int64_t i = 0; i < set.numel; ++i) {
                    A v = A(p[i]);
                    if (v == v) values.push_back(v);  // drops NaN
                }
                std::sort(values.begin(), values.end());
                unaryLoop<bool, T>(dst, e, [&values, invert](T x) {
                    const A v = A(x);
                    // NaN compares false both ways, which binary_search would take for "equal": test it first.
                    if (!(v == v)) return invert;
                    return std::binary_search(values.begin(), values.end(), v) != invert;
                });
            });
        });
    });
}

}  // namespace impl::cpu
