// Family creation_fill: fill, zero, ones/zeros, arange, linspace, meshgrid.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/common.hpp"
#include "common/fastmath.hpp"

namespace impl::cpu {

namespace {

/// Fills t with v: contiguous tensors by plain stores (memset for all-zero
/// bits), split across threads when large; others through the strided loop.
template <class T>
void fillFast(const TensorView& t, T v) {
    if (!t.isContiguous()) return fillWith<T>(t, v);
    T* p = t.ptr<T>();
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &v, sizeof(T));
    bool zero = true;
    for (unsigned char c : bytes) zero = zero && c == 0;
    parallelFor(t.numel, kParallelGrain * 4, [&](int64_t b, int64_t e) {
        if (zero) {
            std::memset(static_cast<void*>(p + b), 0, (e - b) * sizeof(T));
        } else if constexpr (std::is_arithmetic_v<T>) {
            simd::fill(p + b, e - b, v);
        } else {
            // 16-bit floats: their bits.
            uint16_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            simd::fill(reinterpret_cast<uint16_t*>(p + b), e - b, bits);
        }
    });
}

void fillValue(const TensorView& t, const diopiScalar_t* value, const char* name) {
    CPU_CHECK(value, name, " is NULL");
    dispatch<AllTypes>(t.dtype, "input", [&](auto tag) {
        using T = typename decltype(tag)::type;
        T v = scalarIsFloat(value) ? convert<T>(scalarDouble(value, name)) : convert<T>(scalarInt(value, name));
        fillFast<T>(t, v);
    });
}

void fillConst(const TensorView& t, int v) {
    dispatch<AllTypes>(t.dtype, "out", [&](auto tag) {
        using T = typename decltype(tag)::type;
        fillFast<T>(t, convert<T>(v));
    });
}

void checkSize(const TensorView& out, diopiSize_t size) {
    CPU_CHECK(size.len >= 0 && (size.len == 0 || size.data), "size is invalid");
    Shape s = toShape(size);
    for (int64_t d : s) CPU_CHECK(d >= 0, "size ", shapeStr(s), " has a negative dimension");
    CPU_CHECK(s == out.shape, "out has shape ", shapeStr(out.shape), " but size is ", shapeStr(s));
}

/// out[i] = value(i) for a 1-D out of any stride.
template <class T, class F>
void generate1d(const TensorView& out, F f) {
    int64_t n = out.numel, st = out.dim() == 0 ? 0 : out.strides[0];
    T* p = out.ptr<T>();
    parallelFor(n, kParallelGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) p[i * st] = f(i);
    });
}

}  // namespace

diopiError_t diopiFill(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* value) {
    return guard(__func__, [&] { fillValue(view(input, "input"), value, "value"); });
}

diopiError_t diopiZeroInp(diopiContextHandle_t ctx, diopiTensorHandle_t self) {
    return guard(__func__, [&] { fillConst(view(self, "self"), 0); });
}

diopiError_t diopiOnes(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiSize_t size) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        checkSize(o, size);
        fillConst(o, 1);
    });
}

diopiError_t diopiZeros(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiSize_t size) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        checkSize(o, size);
        fillConst(o, 0);
    });
}

diopiError_t diopiArange(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* start, const diopiScalar_t* end,
                         const diopiScalar_t* step) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        double a = scalarDouble(start, "start"), b = scalarDouble(end, "end"), s = scalarDouble(step, "step");
        CPU_CHECK(std::isfinite(a) && std::isfinite(b), "start and end must be finite");
        CPU_CHECK(s != 0 && std::isfinite(s), "step must be non-zero and finite");
        CPU_CHECK((s > 0 && b >= a) || (s < 0 && b <= a), "upper bound and larger bound inconsistent with step sign");
        double len = std::ceil((b - a) / s);
        CPU_CHECK(len < 9e18, "arange length overflows");
        int64_t n = (int64_t)len;
        CPU_CHECK(o.dim() == 1 && o.numel == n, "out has shape ", shapeStr(o.shape), " but arange gives ", n, " elements");
        // Values computed in double (torch's accumulate type on CPU), then rounded once.
        dispatch<NumericTypes>(o.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            generate1d<T>(o, [a, s](int64_t i) { return convert<T>(a + s * (double)i); });
        });
    });
}

diopiError_t diopiLinspace(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* start, const diopiScalar_t* end,
                           int64_t steps) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        CPU_CHECK(start, "start is NULL");
        CPU_CHECK(end, "end is NULL");
        CPU_CHECK(steps >= 0, "number of steps must be non-negative, got ", steps);
        CPU_CHECK(o.dim() == 1 && o.numel == steps, "out has shape ", shapeStr(o.shape), " but steps is ", steps);
        if (steps == 0) return;
        dispatch<NumericTypes>(o.dtype, "out", [&](auto tag) {
            using T = typename decltype(tag)::type;
            // Integer and float64 outputs step in double from the endpoints
            // converted to the dtype; the other floating outputs compute in
            // float. The second half counts back from `end` so both end
            // points are exact.
            using S = std::conditional_t<is_floating_v<T> && !std::is_same_v<T, double>, float, double>;
            auto endpoint = [](const diopiScalar_t* v, const char* nm) {
                return scalarIsFloat(v) ? convert<T>(scalarDouble(v, nm)) : convert<T>(scalarInt(v, nm));
            };
            S a = S(acc_t<T>(endpoint(start, "start"))), b = S(acc_t<T>(endpoint(end, "end")));
            if (steps == 1) {
                generate1d<T>(o, [a](int64_t) { return convert<T>(a); });
                return;
            }
            int64_t half = steps / 2;
            if constexpr (is_reduced_float_v<T>) {
                // 16-bit floats: every operation rounds to T, as in torch's
                // arithmetic on these types.
                auto r = [](float v) { return float(T(v)); };
                float st = r(r(b - a) / r(float(steps - 1)));
                generate1d<T>(o, [=](int64_t i) {
                    return T(i < half ? r(a + r(st * r(float(i)))) : r(b - r(st * r(float(steps - i - 1)))));
                });
            } else {
                S st = (b - a) / S(steps - 1);
                generate1d<T>(o, [=](int64_t i) {
                    return convert<T>(i < half ? S(a + st * S(i)) : S(b - st * S(steps - i - 1)));
                });
            }
        });
    });
}

diopiError_t diopiMeshGrid(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputsNum) {
    return guard(__func__, [&] {
        CPU_CHECK(inputsNum >= 0, "inputsNum is negative");
        CPU_CHECK(inputsNum == 0 || outs, "outs is NULL");
        std::vector<TensorView> ins = views(inputs, inputsNum, "inputs");
        Shape grid;
        for (const TensorView& t : ins) {
            CPU_CHECK(t.dim() <= 1, "meshgrid expects 0-d or 1-d tensors, got shape ", shapeStr(t.shape));
            grid.push_back(t.numel);
        }
        std::vector<TensorView> os;
        for (int64_t i = 0; i < inputsNum; ++i) {
            os.push_back(view(outs[i], "outs"));
            CPU_CHECK(os.back().shape == grid, "outs[", i, "] has shape ", shapeStr(os.back().shape), ", expected ", shapeStr(grid));
        }
        for (int64_t i = 0; i < inputsNum; ++i) {
            // Input i seen as varying along dim i only (stride 0 elsewhere).
            Shape st(grid.size(), 0);
            st[i] = ins[i].dim() == 1 ? ins[i].strides[0] : 0;
            copyCast(os[i], ins[i].restrided(grid, st));
        }
    });
}

}  // namespace impl::cpu
