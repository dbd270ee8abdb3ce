// Family elementwise_binary_arith: add, sub, mul, div, pow, addcmul/addcdiv,
// clamp, maximum/minimum, lerp and remainder (tensor and scalar operands, in
// place and out of place). Every operator computes in torch's result dtype and
// stores into out's dtype (a converting copy when they differ, e.g. in place).
#include <atomic>
#include <cmath>
#include <tuple>
#include <type_traits>

#include "common/common.hpp"
#include "common/fastmath.hpp"
#include "common/promote.hpp"

namespace impl::cpu {

namespace {

// ---------------------------------------------------------------- loop drivers
// `make(tag)` returns the element function for element type T = tag::type; it
// receives and returns values of acc_t<T> (float for 16-bit floats). It runs
// before the loop, so it may validate and throw.

/// Typed loop for a dense output where one input is dense and the other a
/// repeated row (or a single element): plain indexing the compiler vectorizes.
/// Returns false when the layout does not fit (the generic loop runs instead).
template <class T, class G>
bool rowBroadcastLoop(const TensorView& o, const TensorView& a, const TensorView& b, G g) {
    if (o.numel == 0 || !o.isContiguous()) return false;
    bool aFull = a.shape == o.shape && a.isContiguous();
    bool bFull = b.shape == o.shape && b.isContiguous();
    if (aFull == bFull) return false;  // both dense: the generic fast path; neither: generic strides
    const TensorView& sm = aFull ? b : a;
    if (!isRowOf(sm, o.shape) || sm.numel <= 0) return false;
    const int64_t inner = sm.numel, rows = o.numel / inner;
    T* po = o.ptr<T>();
    const T* pf = (aFull ? a : b).ptr<T>();
    const T* ps = sm.ptr<T>();
    if (inner == 1) {
        const T c = ps[0];
        parallelFor(rows, kParallelGrain, [&](int64_t i0, int64_t i1) {
            if (aFull)
                for (int64_t i = i0; i < i1; ++i) po[i] = g(pf[i], c);
            else
                for (int64_t i = i0; i < i1; ++i) po[i] = g(c, pf[i]);
        });
        return true;
    }
    parallelFor(rows, std::max<int64_t>(1, kParallelGrain / inner), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            T* d = po + r * inner;
            const T* f = pf + r * inner;
            if (aFull)
                for (int64_t i = 0; i < inner; ++i) d[i] = g(f[i], ps[i]);
            else
                for (int64_t i = 0; i < inner; ++i) d[i] = g(ps[i], f[i]);
        }
    });
    return true;
}

/// Dense float32 operands of out's shape: the element function runs in the
/// per-level array loops (fastmath.hpp), vectorised where it is branch-free.
inline bool denseF32(const TensorView& o, std::initializer_list<const TensorView*> ins) {
    if (o.dtype != diopi_dtype_float32 || !o.isContiguous() || o.numel == 0) return false;
    for (const TensorView* t : ins)
        if (t->dtype != diopi_dtype_float32 || t->shape != o.shape || !t->isContiguous()) return false;
    return true;
}
template <class Arr>
bool rowBroadcastF32(const TensorView& o, const TensorView& a, const TensorView& b, const Arr& arr) {
    if (o.numel == 0 || !o.isContiguous()) return false;
    bool aFull = a.shape == o.shape && a.isContiguous();
    bool bFull = b.shape == o.shape && b.isContiguous();
    if (aFull == bFull) return false;
    const TensorView& sm = aFull ? b : a;
    if (!isRowOf(sm, o.shape) || sm.numel <= 0) return false;
    const int64_t inner = sm.numel, rows = o.numel / inner;
    float* po = o.ptr<float>();
    const float* pf = (aFull ? a : b).ptr<float>();
    const float* ps = sm.ptr<float>();
    auto run = [&](float* d, const float* f, const float* r, int64_t n) {
        if (aFull) arr(d, f, r, n);
        else arr(d, r, f, n);
    };
    if (inner == 1) {
        parallelFor(rows, kParallelGrain, [&](int64_t i0, int64_t i1) {
            float c[simd::kBlock];
            for (int64_t j = 0; j < simd::kBlock; ++j) c[j] = ps[0];
            for (int64_t i = i0; i < i1; i += simd::kBlock) run(po + i, pf + i, c, std::min(simd::kBlock, i1 - i));
        });
        return true;
    }
    parallelFor(rows, std::max<int64_t>(1, kParallelGrain / inner), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) run(po + r * inner, pf + r * inner, ps, inner);
    });
    return true;
}

/// Operands of element type T (float32, or a 16-bit float computed in float)
/// in any layout: runs of the innermost dim go to the float array kernel
/// arr(o, x..., n) as dense float arrays (broadcast operands expanded into a
/// block of their value, other strides gathered, 16-bit runs widened; the
/// result narrowed or scattered back).
template <class T, size_t NI, class Arr>
void stridedAs(const TensorView& o, const std::array<const TensorView*, NI>& ins, const Arr& arr) {
    constexpr bool kF32 = std::is_same_v<T, float>;
    constexpr int64_t kSize = sizeof(T);
    std::array<const TensorView*, NI + 1> ops;
    ops[0] = &o;
    for (size_t k = 0; k < NI; ++k) ops[k + 1] = ins[k];
    StridedPlan<NI + 1> plan(o.shape, ops);
    plan.runAll([&](char** p, int64_t n, const int64_t* s) {
        float bufs[NI + 1][simd::kBlock];
        for (int64_t i = 0; i < n; i += simd::kBlock) {
            const int64_t m = std::min(simd::kBlock, n - i);
            std::array<const float*, NI> in;
            for (size_t k = 0; k < NI; ++k) {
                const char* base = p[k + 1] + i * s[k + 1];
                float* b = bufs[k + 1];
                in[k] = b;
                if (s[k + 1] == kSize) {
                    if constexpr (kF32) in[k] = reinterpret_cast<const float*>(base);
                    else simd::widen(b, reinterpret_cast<const T*>(base), m);
                } else if (s[k + 1] == 0) {
                    const float v = float(*reinterpret_cast<const T*>(base));
                    for (int64_t j = 0; j < m; ++j) b[j] = v;
                } else {
                    for (int64_t j = 0; j < m; ++j) b[j] = float(*reinterpret_cast<const T*>(base + j * s[k + 1]));
                }
            }
            char* ob = p[0] + i * s[0];
            const bool denseOut = s[0] == kSize;
            float* out = kF32 && denseOut ? reinterpret_cast<float*>(ob) : bufs[0];
            std::apply([&](auto... x) { arr(out, x..., m); }, in);
            if (!denseOut) {
                for (int64_t j = 0; j < m; ++j) *reinterpret_cast<T*>(ob + j * s[0]) = T(out[j]);
            } else if constexpr (!kF32) {
                simd::narrow(reinterpret_cast<T*>(ob), out, m);
            }
        }
    });
}
template <size_t NI, class Arr>
void stridedF32(const TensorView& o, const std::array<const TensorView*, NI>& ins, const Arr& arr) {
    stridedAs<float, NI>(o, ins, arr);
}

/// All operands of dtype dt (16-bit float drivers below take stridedAs).
inline bool allOf(diopiDtype_t dt, std::initializer_list<const TensorView*> ts) {
    for (const TensorView* t : ts)
        if (t->dtype != dt) return false;
    return true;
}

inline bool allF32(std::initializer_list<const TensorView*> ts) {
    for (const TensorView* t : ts)
        if (t->dtype != diopi_dtype_float32) return false;
    return true;
}

/// Where a float driver below found operands of another dtype than the
/// compute dtype (which castTo and computeAs rule out): nothing to do for an
/// empty result, else an internal error rather than a silent skip.
inline void floatFallThrough(const TensorView& dst) {
    CPU_CHECK(dst.numel == 0, "internal: operands not in the compute dtype ", dtypeName(dst.dtype));
}

/// `make(tag)` gives the element function; `farr` (optional) an array kernel
/// farr(o, x, y, n) used for float32 instead of the element function in the
/// per-level loops (for functions needing a library fallback, e.g. pow).
template <class List, class Make, class FArr = std::nullptr_t>
void binaryTT(diopiContextHandle_t ctx, const TensorView& out, TensorView a, TensorView b, diopiDtype_t dt, Make make,
              FArr farr = nullptr) {
    checkOutShape(out, broadcastShapes(a.shape, b.shape));
    a = castTo(ctx, a, dt);
    b = castTo(ctx, b, dt);
    computeAs(ctx, out, dt, [&](const TensorView& dst) {
        dispatch<List>(dt, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            auto f = make(tag);
            auto g = [f](T x, T y) { return convert<T>(f(A(x), A(y))); };
            if constexpr (std::is_same_v<T, float>) {
                auto arr = [&](float* o, const float* x, const float* y, int64_t n) {
                    if constexpr (std::is_same_v<FArr, std::nullptr_t>) simd::map2(o, x, y, n, g);
                    else farr(o, x, y, n);
                };
                if (denseF32(dst, {&a, &b})) {
                    float* po = dst.ptr<float>();
                    const float *pa = a.ptr<float>(), *pb = b.ptr<float>();
                    parallelFor(dst.numel, kParallelGrain, [&](int64_t i, int64_t e) { arr(po + i, pa + i, pb + i, e - i); });
                    return;
                }
                if (rowBroadcastF32(dst, a, b, arr)) return;
                if (dst.numel > 0 && allF32({&dst, &a, &b})) return stridedF32<2>(dst, {&a, &b}, arr);
            } else if constexpr (is_reduced_float_v<T>) {
                // In float through the per-level loops, widened and narrowed a block at a time
                // (a per-element 16-bit conversion in the generic loop ran 10-20x behind ATen).
                if (dst.numel > 0 && allOf(dt, {&dst, &a, &b}))
                    // f, not farr: f may round intermediates to T (floor division does).
                    return stridedAs<T, 2>(dst, {&a, &b}, [&](float* o, const float* x, const float* y, int64_t n) {
                        simd::map2(o, x, y, n, f);
                    });
            }
            if constexpr (std::is_same_v<T, float> || is_reduced_float_v<T>) {
                // a and b were cast to dt and computeAs hands over a dt destination, so the float paths
                // above took every non-empty case: no generic loop compiled for them.
                return floatFallThrough(dst);
            } else if (!rowBroadcastLoop<T>(dst, a, b, g)) {
                binaryLoop<T, T, T>(dst, a, b, g);
            }
        });
    });
}

/// The unary counterpart; farr(o, x, n) for float32.
template <class List, class Make, class FArr = std::nullptr_t>
void unaryT(diopiContextHandle_t ctx, const TensorView& out, TensorView a, diopiDtype_t dt, Make make, FArr farr = nullptr) {
    checkOutShape(out, a.shape);
    a = castTo(ctx, a, dt);
    computeAs(ctx, out, dt, [&](const TensorView& dst) {
        dispatch<List>(dt, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            auto f = make(tag);
            auto g = [f](T x) { return convert<T>(f(A(x))); };
            if constexpr (std::is_same_v<T, float>) {
                auto arr = [&](float* o, const float* x, int64_t n) {
                    if constexpr (std::is_same_v<FArr, std::nullptr_t>) simd::map1(o, x, n, g);
                    else farr(o, x, n);
                };
                if (denseF32(dst, {&a})) {
                    float* po = dst.ptr<float>();
                    const float* pa = a.ptr<float>();
                    parallelFor(dst.numel, kParallelGrain, [&](int64_t i, int64_t e) { arr(po + i, pa + i, e - i); });
                    return;
                }
                if (dst.numel > 0 && allF32({&dst, &a})) return stridedF32<1>(dst, {&a}, arr);
            } else if constexpr (is_reduced_float_v<T>) {
                if (dst.numel > 0 && allOf(dt, {&dst, &a}))
                    return stridedAs<T, 1>(dst, {&a}, [&](float* o, const float* x, int64_t n) { simd::map1(o, x, n, f); });
            }
            if constexpr (std::is_same_v<T, float> || is_reduced_float_v<T>) return floatFallThrough(dst);  // as in binaryTT
            else unaryLoop<T, T>(dst, a, g);
        });
    });
}

template <class List, class Make>
void ternaryT(diopiContextHandle_t ctx, const TensorView& out, TensorView a, TensorView b, TensorView c, diopiDtype_t dt,
              Make make) {
    checkOutShape(out, broadcastShapes(broadcastShapes(a.shape, b.shape), c.shape));
    a = castTo(ctx, a, dt);
    b = castTo(ctx, b, dt);
    c = castTo(ctx, c, dt);
    computeAs(ctx, out, dt, [&](const TensorView& dst) {
        dispatch<List>(dt, "input", [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            auto f = make(tag);
            auto g = [f](T x, T y, T z) { return convert<T>(f(A(x), A(y), A(z))); };
            if constexpr (std::is_same_v<T, float>) {
                if (dst.numel > 0 && allF32({&dst, &a, &b, &c}))
                    return stridedF32<3>(dst, {&a, &b, &c}, [&](float* o, const float* x, const float* y, const float* z, int64_t n) {
                        simd::map3(o, x, y, z, n, g);
                    });
            } else if constexpr (is_reduced_float_v<T>) {
                if (dst.numel > 0 && allOf(dt, {&dst, &a, &b, &c}))
                    return stridedAs<T, 3>(dst, {&a, &b, &c}, [&](float* o, const float* x, const float* y, const float* z, int64_t n) {
                        simd::map3(o, x, y, z, n, f);
                    });
            }
            if constexpr (std::is_same_v<T, float> || is_reduced_float_v<T>) return floatFallThrough(dst);  // as in binaryTT
            else ternaryLoop<T, T, T, T>(dst, a, b, c, g);
        });
    });
}

diopiDtype_t resultType3(const TensorView& a, const TensorView& b, const TensorView& c) {
    // Pairwise application of the 0-d rule is exact for the category ordering.
    diopiDtype_t ab = resultType(a, b);
    TensorView tab;
    tab.dtype = ab;
    tab.shape = a.dim() == 0 && b.dim() == 0 ? Shape{} : Shape{1};
    return resultType(tab, c);
}

/// Integer ops that trap on x86 (division by zero, INT_MIN / -1) are guarded.
template <class A>
A intDivTrunc(A x, A y) {
    if (y == A(-1)) return A(A(0) - x);  // INT_MIN / -1 wraps instead of trapping
    return A(x / y);
}
template <class A>
A intDivFloor(A x, A y) {
    if (y == A(-1)) return A(A(0) - x);
    A q = A(x / y);
    if ((x % y != 0) && ((x < 0) != (y < 0))) q = A(q - 1);
    return q;
}
template <class A>
A intRemainder(A x, A y) {
    if (y == A(-1)) return A(0);
    A r = A(x % y);
    if (r != 0 && ((r < 0) != (y < 0))) r = A(r + y);
    return r;
}

/// torch's floor division of floats: derived from fmod so that the quotient
/// is consistent with remainder().
template <class A>
A floatDivFloor(A a, A b) {
    if (b == A(0)) return a / b;
    A mod = std::fmod(a, b);
    A div = (a - mod) / b;
    if (mod != A(0) && ((b < A(0)) != (mod < A(0)))) div -= A(1);
    A fl;
    if (div != A(0)) {
        fl = std::floor(div);
        if (div - fl > A(0.5)) fl += A(1);
    } else {
        fl = std::copysign(A(0), a / b);
    }
    return fl;
}

/// floatDivFloor for a 16-bit T computed in float with each intermediate
/// rounded to T, which is what torch's vectorised CPU kernel returns.
template <class T>
float halfDivFloor(float a, float b) {
    auto r = [](float v) { return float(T(v)); };
    if (b == 0.0f) return a / b;
    float mod = r(std::fmod(a, b));
    float div = r(r(a - mod) / b);
    if (mod != 0.0f && ((b < 0.0f) != (mod < 0.0f))) div = r(div - 1.0f);
    if (div == 0.0f) return std::copysign(0.0f, a / b);
    float fl = std::floor(div);
    if (r(div - fl) > 0.5f) fl += 1.0f;
    return fl;
}

/// fmod of floats, exact: for |a/b| < 2^24 the truncated quotient computed in
/// double is exact and so is a - q*b (all terms fit in 53 bits), which avoids
/// the slow library fmod; other cases (inf, NaN, 0, huge quotients) use it.
inline float fastFmod(float a, float b) {
    double q = (double)a / (double)b;
    if (!(std::fabs(q) < 16777216.0) || !std::isfinite(b) || b == 0.0f) return std::fmod(a, b);
    // |q| < 2^24: an integer cast truncates exactly (std::trunc is a library call on baseline x86-64).
    double r = (double)a - (double)(int64_t)q * (double)b;
    return r == 0.0 ? std::copysign(0.0f, a) : (float)r;
}
inline double fastFmod(double a, double b) { return std::fmod(a, b); }

template <class A>
A floatRemainder(A a, A b) {
    A mod = fastFmod(a, b);
    if (mod != A(0) && ((b < A(0)) != (mod < A(0)))) mod += b;
    return mod;
}

/// floatRemainder for float a, b with b finite and nonzero, a finite and
/// |a / b| < 2^24 (remainderOkF): the same exact double computation as
/// fastFmod, written branch-free (the quotient truncated through the 2^52
/// rounding trick: no int64 conversion, which AVX2 lacks) so it vectorises.
CPU_FORCE_INLINE bool remainderOkF(float a, float b) {
    float ab = absF(b);
    return __builtin_isless(absF(a), kInfF) & __builtin_isgreater(ab, 0.0f) & __builtin_isless(ab, kInfF) &
           __builtin_isless(absF(a), 16777216.0f * ab);
}
CPU_FORCE_INLINE float remainderF(float a, float b) {
    double q = (double)a / (double)b;
    double aq = bitsAsDouble(doubleAsBits(q) & 0x7fffffffffffffffull);
    double rn = (aq + 6755399441055744.0) - 6755399441055744.0;  // round to nearest (aq < 2^24)
    double t = selectD(__builtin_isgreater(rn, aq), rn - 1.0, rn);
    t = bitsAsDouble(doubleAsBits(t) | (doubleAsBits(q) & 0x8000000000000000ull));
    float mod = (float)((double)a - t * (double)b);
    mod = selectF(mod == 0.0f, withSignOf(0.0f, a), mod);  // fmod's zero has the sign of a
    // remainder takes the sign of b.
    bool fix = (mod != 0.0f) & (__builtin_isless(b, 0.0f) != __builtin_isless(mod, 0.0f));
    return selectF(fix, mod + b, mod);
}

/// Integer power by squaring; negative exponents give 0 except for bases +-1.
template <class A>
A intPow(A base, int64_t e) {
    if (e < 0) {
        if (base == A(1)) return A(1);
        if (base == A(-1)) return (e & 1) ? A(-1) : A(1);
        return A(0);
    }
    using W = std::conditional_t<std::is_same_v<A, bool>, int, A>;
    W r = 1, b = W(base);
    while (e) {
        if (e & 1) r = W(r * b);
        b = W(b * b);
        e >>= 1;
    }
    return A(r);
}

/// pow(x, e) for floats with the cheap exact forms torch also uses for common exponents.
template <class A>
A floatPowScalarExp(A x, double e) {
    if (e == 2.0) return x * x;
    if (e == 3.0) return x * x * x;
    if (e == 0.5) return std::sqrt(x);
    if (e == -0.5) return A(1) / std::sqrt(x);
    if (e == -1.0) return A(1) / x;
    if (e == -2.0) return A(1) / (x * x);
    return std::pow(x, A(e));
}

// NaN propagates; float uses bit-mask selects (fastmath.hpp) so the loops vectorize.
template <class A>
A maxProp(A x, A y) {
    if constexpr (std::is_same_v<A, float>) {
        float r = selectF(__builtin_isless(x, y), y, x);
        r = selectF(isNanF(y), y, r);
        return selectF(isNanF(x), x, r);
    } else if constexpr (std::is_floating_point_v<A>) {
        return x != x ? x : (y != y ? y : (x < y ? y : x));
    } else {
        return x < y ? y : x;
    }
}
template <class A>
A minProp(A x, A y) {
    if constexpr (std::is_same_v<A, float>) {
        float r = selectF(__builtin_isless(y, x), y, x);
        r = selectF(isNanF(y), y, r);
        return selectF(isNanF(x), x, r);
    } else if constexpr (std::is_floating_point_v<A>) {
        return x != x ? x : (y != y ? y : (y < x ? y : x));
    } else {
        return y < x ? y : x;
    }
}

/// clamp with NaN propagation from the input first, then from the bounds.
template <class A, bool HasLo, bool HasHi>
A clampVal(A x, A lo, A hi) {
    if constexpr (std::is_same_v<A, float>) {
        // The same priorities as below, as a sequence of selects (last wins).
        float r = x;
        if constexpr (HasLo) r = selectF(__builtin_isless(r, lo), lo, r);
        if constexpr (HasHi) r = selectF(__builtin_isgreater(r, hi), hi, r);
        if constexpr (HasHi) r = selectF(isNanF(hi), hi, r);
        if constexpr (HasLo) r = selectF(isNanF(lo), lo, r);
        return selectF(isNanF(x), x, r);
    } else {
        if constexpr (std::is_floating_point_v<A>) {
            if (std::isnan(x)) return x;
            if (HasLo && std::isnan(lo)) return lo;
            if (HasHi && std::isnan(hi)) return hi;
        }
        if (HasLo && x < lo) x = lo;
        if (HasHi && x > hi) x = hi;
        return x;
    }
}

using ArithTypes = NumericBoolTypes;

// ---------------------------------------------------------------- add / sub

void addImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& b, const diopiScalar_t* alpha,
             double sign) {
    diopiDtype_t dt = resultType(a, b);
    if (sign < 0) CPU_CHECK(dt != diopi_dtype_bool, "subtraction of bool tensors is not supported");
    // As torch: a floating-point alpha needs a floating-point result; an integer
    // alpha applies to bool results too (True + 2 * True is True).
    if (alpha && scalarCategory(alpha) == 2 && dtypeCategory(dt) < 2)
        fail("alpha of type ", dtypeName(alpha->stype), " cannot be applied to a ", dtypeName(dt), " result");
    binaryTT<ArithTypes>(ctx, out, a, b, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        A al = alpha ? scalarAcc<T>(alpha, "alpha") : A(1);
        if (sign < 0) al = A(A(0) - al);
        if constexpr (std::is_same_v<A, bool>) {
            return [al](A x, A y) { return A(x || (al && y)); };
        } else {
            return [al](A x, A y) { return A(x + al * y); };
        }
    });
}

void addScalarImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const diopiScalar_t* other,
                   const diopiScalar_t* alpha, double sign) {
    CPU_CHECK(other, "other is NULL");
    diopiDtype_t dt = resultTypeScalar(a.dtype, other);
    if (sign < 0) CPU_CHECK(dt != diopi_dtype_bool, "subtraction of bool tensors is not supported");
    unaryT<ArithTypes>(ctx, out, a, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        A al = alpha ? scalarAcc<T>(alpha, "alpha") : A(1);
        A v = scalarAcc<T>(other, "other");
        if constexpr (std::is_same_v<A, bool>) {
            bool add = al && v;
            return [add](A x) { return A(x || add); };
        } else {
            // alpha * other in the compute type first, like torch's scalar path.
            A s = A(al * v);
            if (sign < 0) s = A(A(0) - s);
            return [s](A x) { return A(x + s); };
        }
    });
}

// ---------------------------------------------------------------- div

void divImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& b, diopiRoundMode_t mode) {
    CPU_CHECK(mode == RoundModeNone || mode == RoundModeTrunc || mode == RoundModeFloor, "invalid rounding_mode ", (int)mode);
    diopiDtype_t dt = resultType(a, b);
    if (mode == RoundModeNone && dtypeCategory(dt) < 2) dt = diopi_dtype_float32;
    CPU_CHECK(!(mode != RoundModeNone && dt == diopi_dtype_bool), "rounded division of bool tensors is not supported");
    std::atomic<bool> byZero{false};
    if (mode == RoundModeNone && dtypeCategory(dt) >= 2) {
        // True division of floats on its own: with the mode test inside the
        // element function the 16-bit loops did not vectorise.
        binaryTT<FloatTypes>(ctx, out, a, b, dt, [&](auto tag) {
            using A = acc_t<typename decltype(tag)::type>;
            return [](A x, A y) -> A { return x / y; };
        });
        return;
    }
    binaryTT<ArithTypes>(ctx, out, a, b, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        std::atomic<bool>* z = &byZero;
        return [mode, z](A x, A y) -> A {
            if constexpr (std::is_floating_point_v<A> && !std::is_same_v<T, A>) {
                // 16-bit floats: as torch, every step of the rounded division is rounded to T.
                if (mode == RoundModeTrunc) return std::trunc(A(T(x / y)));
                if (mode == RoundModeFloor) return halfDivFloor<T>(x, y);
                return x / y;
            } else if constexpr (std::is_floating_point_v<A>) {
                if (mode == RoundModeTrunc) return std::trunc(x / y);
                if (mode == RoundModeFloor) return floatDivFloor(x, y);
                return x / y;
            } else if constexpr (std::is_same_v<A, bool>) {
                return x;  // unreachable: bool is rejected or promoted above
            } else {
                if (y == A(0)) {
                    z->store(true, std::memory_order_relaxed);
                    return A(0);
                }
                return mode == RoundModeFloor ? intDivFloor(x, y) : intDivTrunc(x, y);
            }
        };
    });
    if (byZero.load()) fail("integer division by zero");
}

void divScalarImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const diopiScalar_t* other,
                   diopiRoundMode_t mode) {
    CPU_CHECK(other, "other is NULL");
    CPU_CHECK(mode == RoundModeNone || mode == RoundModeTrunc || mode == RoundModeFloor, "invalid rounding_mode ", (int)mode);
    diopiDtype_t dt = resultTypeScalar(a.dtype, other);
    if (mode == RoundModeNone && dtypeCategory(dt) < 2) dt = diopi_dtype_float32;
    CPU_CHECK(!(mode != RoundModeNone && dt == diopi_dtype_bool), "rounded division of bool tensors is not supported");
    unaryT<ArithTypes>(ctx, out, a, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        A v = scalarAcc<T>(other, "other");
        if constexpr (std::is_integral_v<A> && !std::is_same_v<A, bool>) {
            CPU_CHECK(v != A(0), "integer division by zero");
        }
        return [mode, v](A x) -> A {
            if constexpr (std::is_floating_point_v<A>) {
                if (mode == RoundModeTrunc) return std::trunc(x / v);
                if (mode == RoundModeFloor) return floatDivFloor(x, v);
                return x / v;
            } else if constexpr (std::is_same_v<A, bool>) {
                return x;
            } else {
                return mode == RoundModeFloor ? intDivFloor(x, v) : intDivTrunc(x, v);
            }
        };
    });
}

// ---------------------------------------------------------------- pow

void powTensorImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& b) {
    diopiDtype_t dt = resultType(a, b);
    CPU_CHECK(dt != diopi_dtype_bool, "pow of bool tensors is not supported");
    binaryTT<NumericTypes>(
        ctx, out, a, b, dt,
        [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            return [](A x, A y) -> A {
                if constexpr (std::is_floating_point_v<A>) return std::pow(x, y);
                else return intPow(x, (int64_t)y);
            };
        },
        // float32: positive finite bases with finite exponents in the vector
        // form; blocks with anything else (signs, zeros, inf, NaN) use libm.
        [](float* o, const float* x, const float* y, int64_t n) {
            simd::map2Checked(
                o, x, y, n, [](float u, float v) { return powPosF(u, v); },
                [](float u, float v) {
                    return __builtin_isgreater(u, 0.0f) & __builtin_isless(u, kInfF) & __builtin_isless(absF(v), kInfF);
                },
                [](float u, float v) { return std::pow(u, v); });
        });
}

void powScalarExpImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const diopiScalar_t* exponent) {
    CPU_CHECK(exponent, "exponent is NULL");
    diopiDtype_t dt = resultTypeScalar(a.dtype, exponent);
    const double ev = scalarIsFloat(exponent) ? scalarDouble(exponent, "exponent") : (double)scalarInt(exponent, "exponent");
    unaryT<NumericBoolTypes>(
        ctx, out, a, dt,
        [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            if constexpr (std::is_floating_point_v<A>) {
                double e = scalarDouble(exponent, "exponent");
                return [e](A x) -> A { return floatPowScalarExp(x, e); };
            } else {
                int64_t e = scalarInt(exponent, "exponent");
                CPU_CHECK(e >= 0, "integers to negative integer powers are not allowed");
                return [e](A x) -> A { return intPow(x, e); };
            }
        },
        // float32: the exponents with exact forms, else the vector pow for
        // positive finite bases (libm for blocks with others).
        [e = ev](float* o, const float* x, int64_t n) {
            const float ef = float(e);
            if (e == 2.0) return simd::map1(o, x, n, [](float v) { return v * v; });
            if (e == 3.0) return simd::map1(o, x, n, [](float v) { return v * v * v; });
            if (e == 0.5) return simd::map1(o, x, n, [](float v) { return __builtin_sqrtf(v); });
            if (e == -0.5) return simd::map1(o, x, n, [](float v) { return 1.0f / __builtin_sqrtf(v); });
            if (e == -1.0) return simd::map1(o, x, n, [](float v) { return 1.0f / v; });
            if (e == -2.0) return simd::map1(o, x, n, [](float v) { return 1.0f / (v * v); });
            simd::map1Checked(
                o, x, n, [ef](float v) { return powPosF(v, ef); },
                [ef](float v) { return __builtin_isgreater(v, 0.0f) & __builtin_isless(v, kInfF) & __builtin_isless(absF(ef), kInfF); },
                [ef](float v) { return std::pow(v, ef); });
        });
}

// ---------------------------------------------------------------- clamp

struct Bound {
    const diopiScalar_t* s = nullptr;
    TensorView t;
};

void clampScalarImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const diopiScalar_t* lo,
                     const diopiScalar_t* hi) {
    CPU_CHECK(lo || hi, "at least one of min and max must be given (both are NULL)");
    diopiDtype_t dt = a.dtype;
    if (lo) dt = resultTypeScalar(dt, lo);
    if (hi) dt = resultTypeScalar(dt, hi);
    CPU_CHECK(dt != diopi_dtype_bool, "clamp of bool tensors is not supported");
    // One element function per bound combination (no per-element flags).
    auto run = [&](auto hasLoC, auto hasHiC) {
        using LoC = decltype(hasLoC);
        using HiC = decltype(hasHiC);
        unaryT<NumericTypes>(ctx, out, a, dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            A l = LoC::value ? scalarAcc<T>(lo, "min") : A(0);
            A h = HiC::value ? scalarAcc<T>(hi, "max") : A(0);
            return [l, h](A x) { return clampVal<A, LoC::value, HiC::value>(x, l, h); };
        });
    };
    if (lo && hi) run(std::true_type{}, std::true_type{});
    else if (lo) run(std::true_type{}, std::false_type{});
    else run(std::false_type{}, std::true_type{});
}

void clampTensorImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& lo, const TensorView& hi) {
    bool hasLo = lo.defined(), hasHi = hi.defined();
    CPU_CHECK(hasLo || hasHi, "at least one of min and max must be given (both are NULL)");
    if (hasLo && hasHi) {
        diopiDtype_t dt = resultType3(a, lo, hi);
        CPU_CHECK(dt != diopi_dtype_bool, "clamp of bool tensors is not supported");
        ternaryT<NumericTypes>(ctx, out, a, lo, hi, dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            return [](A x, A l, A h) { return clampVal<A, true, true>(x, l, h); };
        });
        return;
    }
    const TensorView& bnd = hasLo ? lo : hi;
    diopiDtype_t dt = resultType(a, bnd);
    CPU_CHECK(dt != diopi_dtype_bool, "clamp of bool tensors is not supported");
    binaryTT<NumericTypes>(ctx, out, a, bnd, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        return [hasLo](A x, A b) { return hasLo ? clampVal<A, true, false>(x, b, b) : clampVal<A, false, true>(x, b, b); };
    });
}

// ---------------------------------------------------------------- remainder

template <class A>
A remainderVal(A x, A y, std::atomic<bool>* z) {
    if constexpr (std::is_floating_point_v<A>) {
        return floatRemainder(x, y);
    } else if constexpr (std::is_same_v<A, bool>) {
        return x;
    } else {
        if (y == A(0)) {
            z->store(true, std::memory_order_relaxed);
            return A(0);
        }
        return intRemainder(x, y);
    }
}

}  // namespace

// ================================================================ add / sub / mul

diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
    return guard(__func__, [&] { addImpl(ctx, view(out, "out"), view(input, "input"), view(other, "other"), alpha, 1); });
}
diopiError_t diopiAddInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        addImpl(ctx, t, t, view(other, "other"), alpha, 1);
    });
}
diopiError_t diopiAddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            const diopiScalar_t* alpha) {
    return guard(__func__, [&] { addScalarImpl(ctx, view(out, "out"), view(input, "input"), other, alpha, 1); });
}
diopiError_t diopiAddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        addScalarImpl(ctx, t, t, other, alpha, 1);
    });
}
diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
    return guard(__func__, [&] { addImpl(ctx, view(out, "out"), view(input, "input"), view(other, "other"), alpha, -1); });
}
diopiError_t diopiSubInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        addImpl(ctx, t, t, view(other, "other"), alpha, -1);
    });
}
diopiError_t diopiSubScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            const diopiScalar_t* alpha) {
    return guard(__func__, [&] { addScalarImpl(ctx, view(out, "out"), view(input, "input"), other, alpha, -1); });
}
diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        addScalarImpl(ctx, t, t, other, alpha, -1);
    });
}

namespace {
void mulImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const TensorView& b) {
    binaryTT<ArithTypes>(ctx, out, a, b, resultType(a, b), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        if constexpr (std::is_same_v<A, bool>) return [](A x, A y) { return A(x && y); };
        else return [](A x, A y) { return A(x * y); };
    });
}
void mulScalarImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& a, const diopiScalar_t* other) {
    CPU_CHECK(other, "other is NULL");
    unaryT<ArithTypes>(ctx, out, a, resultTypeScalar(a.dtype, other), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        A v = scalarAcc<T>(other, "other");
        if constexpr (std::is_same_v<A, bool>) return [v](A x) { return A(x && v); };
        else return [v](A x) { return A(x * v); };
    });
}
}  // namespace

diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] { mulImpl(ctx, view(out, "out"), view(input, "input"), view(other, "other")); });
}
diopiError_t diopiMulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        mulImpl(ctx, t, t, view(other, "other"));
    });
}
diopiError_t diopiMulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other) {
    return guard(__func__, [&] { mulScalarImpl(ctx, view(out, "out"), view(input, "input"), other); });
}
diopiError_t diopiMulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        mulScalarImpl(ctx, t, t, other);
    });
}

// ================================================================ div

diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      diopiRoundMode_t rounding_mode) {
    return guard(__func__, [&] { divImpl(ctx, view(out, "out"), view(input, "input"), view(other, "other"), rounding_mode); });
}
diopiError_t diopiDivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, diopiRoundMode_t rounding_mode) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        divImpl(ctx, t, t, view(other, "other"), rounding_mode);
    });
}
diopiError_t diopiDivScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            diopiRoundMode_t rounding_mode) {
    return guard(__func__, [&] { divScalarImpl(ctx, view(out, "out"), view(input, "input"), other, rounding_mode); });
}
diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, diopiRoundMode_t rounding_mode) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        divScalarImpl(ctx, t, t, other, rounding_mode);
    });
}

// ================================================================ pow

diopiError_t diopiPowScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* input, diopiConstTensorHandle_t exponent) {
    return guard(__func__, [&] {
        CPU_CHECK(input, "input is NULL");
        TensorView o = view(out, "out"), e = view(exponent, "exponent");
        diopiDtype_t dt = resultTypeScalar(e.dtype, input);
        if (dt == diopi_dtype_bool) dt = diopi_dtype_int32;
        const float bf = float(scalarDouble(input, "input"));
        const bool posBase = bf > 0.0f && bf < kInfF;
        const double lb = posBase ? std::log((double)bf) : 0.0;
        unaryT<NumericTypes>(
            ctx, o, e, dt,
            [&](auto tag) {
                using T = typename decltype(tag)::type;
                using A = acc_t<T>;
                A base = scalarAcc<T>(input, "input");
                return [base](A y) -> A {
                    if constexpr (std::is_floating_point_v<A>) return std::pow(base, y);
                    else return intPow(base, (int64_t)y);
                };
            },
            // float32 with a positive finite base: e^(y ln base) in double for finite y.
            [bf, posBase, lb](float* out, const float* y, int64_t n) {
                simd::map1Checked(
                    out, y, n, [lb](float v) { return expScaledF(lb, v); },
                    [posBase](float v) { return posBase & __builtin_isless(absF(v), kInfF); }, [bf](float v) { return std::pow(bf, v); });
            });
    });
}
diopiError_t diopiPow(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* exponent) {
    return guard(__func__, [&] { powScalarExpImpl(ctx, view(out, "out"), view(input, "input"), exponent); });
}
diopiError_t diopiPowInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* exponent) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        powScalarExpImpl(ctx, t, t, exponent);
    });
}
diopiError_t diopiPowTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t exponent) {
    return guard(__func__, [&] { powTensorImpl(ctx, view(out, "out"), view(input, "input"), view(exponent, "exponent")); });
}
diopiError_t diopiPowInpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t exponent) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        powTensorImpl(ctx, t, t, view(exponent, "exponent"));
    });
}

// ================================================================ addcmul / addcdiv

namespace {
void addcImpl(diopiContextHandle_t ctx, const TensorView& out, const TensorView& in, const TensorView& t1, const TensorView& t2,
              const diopiScalar_t* value, bool divide) {
    diopiDtype_t dt = resultType3(in, t1, t2);
    if (divide) CPU_CHECK(dtypeCategory(dt) == 2, "addcdiv needs floating-point tensors, got ", dtypeName(dt));
    CPU_CHECK(dt != diopi_dtype_bool || !divide, "addcdiv of bool tensors is not supported");
    ternaryT<NumericTypes>(ctx, out, in, t1, t2, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using A = acc_t<T>;
        A v = value ? scalarAcc<T>(value, "value") : A(1);
        // The flag is tested per element, but both forms are straight-line code the compiler can select between.
        return [v, divide](A x, A y, A z) {
            if constexpr (std::is_same_v<A, float>) {
                float p = v * y;
                return selectF(divide, x + p / z, x + p * z);
            } else {
                return divide ? A(x + v * y / z) : A(x + v * y * z);
            }
        };
    });
}
}  // namespace

diopiError_t diopiAddcmul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                          diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
    return guard(__func__, [&] {
        addcImpl(ctx, view(out, "out"), view(input, "input"), view(tensor1, "tensor1"), view(tensor2, "tensor2"), value, false);
    });
}
diopiError_t diopiAddcmulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t tensor1, diopiConstTensorHandle_t tensor2,
                             const diopiScalar_t* value) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        addcImpl(ctx, t, t, view(tensor1, "tensor1"), view(tensor2, "tensor2"), value, false);
    });
}
diopiError_t diopiAddcdiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                          diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
    return guard(__func__, [&] {
        addcImpl(ctx, view(out, "out"), view(input, "input"), view(tensor1, "tensor1"), view(tensor2, "tensor2"), value, true);
    });
}
diopiError_t diopiAddcdivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t tensor1, diopiConstTensorHandle_t tensor2,
                             const diopiScalar_t* value) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        addcImpl(ctx, t, t, view(tensor1, "tensor1"), view(tensor2, "tensor2"), value, true);
    });
}

// ================================================================ clamp

diopiError_t diopiClampInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min, const diopiScalar_t* max) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        clampScalarImpl(ctx, t, t, min, max);
    });
}
diopiError_t diopiClampInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t min, diopiConstTensorHandle_t max) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        clampTensorImpl(ctx, t, t, viewOpt(min, "min"), viewOpt(max, "max"));
    });
}
diopiError_t diopiClampScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min,
                              const diopiScalar_t* max) {
    return guard(__func__, [&] { clampScalarImpl(ctx, view(out, "out"), view(input, "input"), min, max); });
}
diopiError_t diopiClamp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t min,
                        diopiConstTensorHandle_t max) {
    return guard(__func__, [&] {
        clampTensorImpl(ctx, view(out, "out"), view(input, "input"), viewOpt(min, "min"), viewOpt(max, "max"));
    });
}
diopiError_t diopiClampMaxInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* max) {
    return guard(__func__, [&] {
        CPU_CHECK(max, "max is NULL");
        TensorView t = view(input, "input");
        clampScalarImpl(ctx, t, t, nullptr, max);
    });
}
diopiError_t diopiClampMaxInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t max) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        clampTensorImpl(ctx, t, t, TensorView{}, view(max, "max"));
    });
}
diopiError_t diopiClampMaxScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* max) {
    return guard(__func__, [&] {
        CPU_CHECK(max, "max is NULL");
        clampScalarImpl(ctx, view(out, "out"), view(input, "input"), nullptr, max);
    });
}
diopiError_t diopiClampMax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t max) {
    return guard(__func__, [&] { clampTensorImpl(ctx, view(out, "out"), view(input, "input"), TensorView{}, view(max, "max")); });
}
diopiError_t diopiClampMinInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min) {
    return guard(__func__, [&] {
        CPU_CHECK(min, "min is NULL");
        TensorView t = view(input, "input");
        clampScalarImpl(ctx, t, t, min, nullptr);
    });
}
diopiError_t diopiClampMinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t min) {
    return guard(__func__, [&] {
        TensorView t = view(input, "input");
        clampTensorImpl(ctx, t, t, view(min, "min"), TensorView{});
    });
}
diopiError_t diopiClampMinScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min) {
    return guard(__func__, [&] {
        CPU_CHECK(min, "min is NULL");
        clampScalarImpl(ctx, view(out, "out"), view(input, "input"), min, nullptr);
    });
}
diopiError_t diopiClampMin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t min) {
    return guard(__func__, [&] { clampTensorImpl(ctx, view(out, "out"), view(input, "input"), view(min, "min"), TensorView{}); });
}

// ================================================================ maximum / minimum

diopiError_t diopiMaximum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        TensorView a = view(input, "input"), b = view(other, "other");
        binaryTT<ArithTypes>(ctx, view(out, "out"), a, b, resultType(a, b), [&](auto tag) {
            using A = acc_t<typename decltype(tag)::type>;
            return [](A x, A y) { return maxProp(x, y); };
        });
    });
}
diopiError_t diopiMinimum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        TensorView a = view(input, "input"), b = view(other, "other");
        binaryTT<ArithTypes>(ctx, view(out, "out"), a, b, resultType(a, b), [&](auto tag) {
            using A = acc_t<typename decltype(tag)::type>;
            return [](A x, A y) { return minProp(x, y); };
        });
    });
}

// ================================================================ lerp

namespace {
template <class A>
A lerpVal(A s, A e, A w) {
    // Two forms, switched at |w| = 0.5, keep both end points exact.
    if constexpr (std::is_same_v<A, float>) {
        float d = e - s;
        return selectF(__builtin_isless(absF(w), 0.5f), s + w * d, e - d * (1.0f - w));
    } else {
        return std::abs(w) < A(0.5) ? A(s + w * (e - s)) : A(e - (e - s) * (A(1) - w));
    }
}
}  // namespace

diopiError_t diopiLerpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t end,
                             diopiConstTensorHandle_t weight) {
    return guard(__func__, [&] {
        TensorView a = view(input, "input"), e = view(end, "end"), w = view(weight, "weight");
        diopiDtype_t dt = resultType3(a, e, w);
        CPU_CHECK(dtypeCategory(dt) == 2, "lerp needs floating-point tensors, got ", dtypeName(dt));
        ternaryT<FloatTypes>(ctx, view(out, "out"), a, e, w, dt, [&](auto tag) {
            using A = acc_t<typename decltype(tag)::type>;
            return [](A x, A y, A z) { return lerpVal(x, y, z); };
        });
    });
}
diopiError_t diopiLerpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t end,
                             const diopiScalar_t* weight) {
    return guard(__func__, [&] {
        CPU_CHECK(weight, "weight is NULL");
        TensorView a = view(input, "input"), e = view(end, "end");
        diopiDtype_t dt = resultType(a, e);
        CPU_CHECK(dtypeCategory(dt) == 2, "lerp needs floating-point tensors, got ", dtypeName(dt));
        binaryTT<FloatTypes>(ctx, view(out, "out"), a, e, dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            A w = scalarAcc<T>(weight, "weight");
            return [w](A x, A y) { return lerpVal(x, y, w); };
        });
    });
}

// ================================================================ remainder

diopiError_t diopiRemainderTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        TensorView a = view(input, "input"), b = view(other, "other");
        diopiDtype_t dt = resultType(a, b);
        CPU_CHECK(dt != diopi_dtype_bool, "remainder of bool tensors is not supported");
        std::atomic<bool> byZero{false};
        binaryTT<NumericTypes>(
            ctx, view(out, "out"), a, b, dt,
            [&](auto tag) {
                using A = acc_t<typename decltype(tag)::type>;
                std::atomic<bool>* z = &byZero;
                return [z](A x, A y) { return remainderVal(x, y, z); };
            },
            [](float* o, const float* x, const float* y, int64_t n) {
                simd::map2Checked(
                    o, x, y, n, [](float u, float v) { return remainderF(u, v); },
                    [](float u, float v) { return remainderOkF(u, v); }, [](float u, float v) { return floatRemainder(u, v); });
            });
        if (byZero.load()) fail("integer remainder by zero");
    });
}
diopiError_t diopiRemainderScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other) {
    return guard(__func__, [&] {
        CPU_CHECK(other, "other is NULL");
        TensorView a = view(input, "input");
        diopiDtype_t dt = resultTypeScalar(a.dtype, other);
        CPU_CHECK(dt != diopi_dtype_bool, "remainder of bool tensors is not supported");
        unaryT<NumericTypes>(ctx, view(out, "out"), a, dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            // remainder rounds its scalar to the tensor dtype first (unlike add/mul/div).
            A v = A(convert<T>(scalarAcc<T>(other, "other")));
            if constexpr (!std::is_floating_point_v<A>) CPU_CHECK(v != A(0), "integer remainder by zero");
            return [v](A x) { return remainderVal(x, v, nullptr); };
        });
    });
}
diopiError_t diopiRemainder(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* input, diopiConstTensorHandle_t other) {
    return guard(__func__, [&] {
        CPU_CHECK(input, "input is NULL");
        TensorView b = view(other, "other");
        diopiDtype_t dt = resultTypeScalar(b.dtype, input);
        CPU_CHECK(dt != diopi_dtype_bool, "remainder of bool tensors is not supported");
        std::atomic<bool> byZero{false};
        unaryT<NumericTypes>(ctx, view(out, "out"), b, dt, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using A = acc_t<T>;
            A v = A(convert<T>(scalarAcc<T>(input, "input")));
            std::atomic<bool>* z = &byZero;
            return [v, z](A y) { return remainderVal(v, y, z); };
        });
        if (byZero.load()) fail("integer remainder by zero");
    });
}

}  // namespace impl::cpu
