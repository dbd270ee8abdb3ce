// Runtime of the generated adaptor wrappers (see adaptor_runtime.hpp).
#include "adaptor_runtime.hpp"

#include <diopi_tables.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>

namespace diopi_adaptor {

namespace {

// Per-thread state: what the last wrapped call converted, and the adaptor's
// own error (which shadows the vendor's message until the next wrapped call).
thread_local std::string t_lastConversions;
thread_local std::string t_error;
thread_local bool t_errorSet = false;

bool logEnabled() {
    static const bool enabled = [] {
        const char* v = std::getenv("DIOPI_ADAPTOR_LOG");
        return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
    }();
    return enabled;
}

// Names come from diopi_tables.h, generated from diopiDtype_t (cmake/DiopiHeaderTables.cmake).
const char* dtypeName(diopiDtype_t d) {
    const char* name = diopiTablesDtypeName(d);
    return name != nullptr ? name : "unknown";
}

// Dense strides of `shape` with dims laid out in memory in `order` (outermost first).
void denseStrides(const diopiSize_t& shape, const int* order, std::vector<int64_t>& out) {
    out.assign(shape.len, 0);
    int64_t s = 1;
    for (int64_t i = shape.len - 1; i >= 0; --i) {
        out[order[i]] = s;
        s *= std::max<int64_t>(shape.data[order[i]], 1);
    }
}

void rowMajor(const diopiSize_t& shape, std::vector<int64_t>& out) {
    out.assign(shape.len, 0);
    int64_t s = 1;
    for (int64_t i = shape.len - 1; i >= 0; --i) {
        out[i] = s;
        s *= std::max<int64_t>(shape.data[i], 1);
    }
}

// Whether `stride` equals `want` on every dim that has more than one element
// (strides of size-1 dims never matter).
bool sameStrides(const diopiSize_t& shape, const diopiSize_t& stride, const std::vector<int64_t>& want) {
    for (int64_t d = 0; d < shape.len; ++d)
        if (shape.data[d] != 1 && stride.data[d] != want[d]) return false;
    return true;
}

bool isRowMajor(const diopiSize_t& shape, const diopiSize_t& stride) {
    int64_t s = 1;
    for (int64_t d = shape.len - 1; d >= 0; --d) {
        if (shape.data[d] != 1 && stride.data[d] != s) return false;
        s *= shape.data[d];
    }
    return true;
}

bool isChannelsLast(const diopiSize_t& shape, const diopiSize_t& stride) {
    static const int k4[] = {0, 2, 3, 1}, k5[] = {0, 2, 3, 4, 1};
    if (shape.len != 4 && shape.len != 5) return false;
    std::vector<int64_t> want;
    denseStrides(shape, shape.len == 4 ? k4 : k5, want);
    return sameStrides(shape, stride, want);
}

// Name of a tensor's current layout for the conversion record.
const char* layoutOf(const diopiSize_t& shape, const diopiSize_t& stride) {
    if (isRowMajor(shape, stride)) return "contiguous";
    if (isChannelsLast(shape, stride)) return shape.len == 4 ? "NHWC" : "NDHWC";
    return "strided";
}

// Dense strides that keep a dense tensor's dim order (so a channels-last
// tensor stays channels-last when only its dtype changes); row-major when the
// tensor is not dense (expanded, sliced).
void keepOrderStrides(const diopiSize_t& shape, const diopiSize_t& stride, std::vector<int64_t>& out) {
    std::vector<int> order(shape.len);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return stride.data[a] > stride.data[b]; });
    denseStrides(shape, order.data(), out);
    if (!sameStrides(shape, stride, out)) rowMajor(shape, out);
}

// ---------------------------------------------------------------------------
// Range check of narrowing casts. A value the kernel's dtype cannot hold would
// be truncated (integers) or become inf (floats) by the copy, and the kernel
// would return a plausible but wrong answer; the wrapper refuses such a call
// instead. Precision loss inside the target's range stays allowed.

// What a target dtype can hold: an integer range, or a float's overflow
// threshold (the smallest magnitude that rounds to inf when cast).
struct Bounds {
    enum Kind { None, Int, Float } kind = None;
    int64_t lo = 0;
    uint64_t hi = 0;
    double limit = 0;
};

bool isInt(diopiDtype_t d) {
    switch (d) {
        case diopi_dtype_int8: case diopi_dtype_uint8: case diopi_dtype_int16: case diopi_dtype_uint16:
        case diopi_dtype_int32: case diopi_dtype_uint32: case diopi_dtype_int64: case diopi_dtype_uint64: return true;
        default: return false;
    }
}
bool isComplex(diopiDtype_t d) {
    return d == diopi_dtype_complex32 || d == diopi_dtype_complex64 || d == diopi_dtype_complex128;
}
// The real dtype of each part of a complex dtype; the dtype itself otherwise.
diopiDtype_t partOf(diopiDtype_t d) {
    switch (d) {
        case diopi_dtype_complex32: return diopi_dtype_float16;
        case diopi_dtype_complex64: return diopi_dtype_float32;
        case diopi_dtype_complex128: return diopi_dtype_float64;
        default: return d;
    }
}

template <class T>
Bounds intBounds() {
    Bounds b;
    b.kind = Bounds::Int;
    b.lo = static_cast<int64_t>(std::numeric_limits<T>::min());
    b.hi = static_cast<uint64_t>(std::numeric_limits<T>::max());
    return b;
}

Bounds boundsOf(diopiDtype_t to) {
    Bounds b;
    switch (partOf(to)) {
        case diopi_dtype_int8: return intBounds<int8_t>();
        case diopi_dtype_uint8: return intBounds<uint8_t>();
        case diopi_dtype_int16: return intBounds<int16_t>();
        case diopi_dtype_uint16: return intBounds<uint16_t>();
        case diopi_dtype_int32: return intBounds<int32_t>();
        case diopi_dtype_uint32: return intBounds<uint32_t>();
        case diopi_dtype_int64: return intBounds<int64_t>();
        case diopi_dtype_uint64: return intBounds<uint64_t>();
        // Max finite value plus half an ulp: round-to-nearest sends it to inf.
        case diopi_dtype_float16: b.kind = Bounds::Float; b.limit = 65520.0; return b;
        case diopi_dtype_bfloat16: b.kind = Bounds::Float; b.limit = std::ldexp(2.0 - std::ldexp(1.0, -8), 127); return b;
        case diopi_dtype_float32:
        case diopi_dtype_tfloat32: b.kind = Bounds::Float; b.limit = std::ldexp(2.0 - std::ldexp(1.0, -24), 127); return b;
        case diopi_dtype_float64: b.kind = Bounds::Float; b.limit = HUGE_VAL; return b;
        default: return b;  // bool (nonzero -> true is exact by definition) and unknown dtypes
    }
}

// Largest finite magnitude a float (or complex part) dtype holds.
double maxFinite(diopiDtype_t d) {
    switch (partOf(d)) {
        case diopi_dtype_float16: return 65504.0;
        case diopi_dtype_bfloat16: return std::ldexp(2.0 - std::ldexp(1.0, -7), 127);
        case diopi_dtype_float32: case diopi_dtype_tfloat32: return std::numeric_limits<float>::max();
        default: return std::numeric_limits<double>::max();
    }
}

// Whether some value of `from` may not fit in `to`; false means no scan is needed.
bool mayNotFit(diopiDtype_t from, diopiDtype_t to) {
    if (from == to || from == diopi_dtype_bool) return false;
    Bounds b = boundsOf(to);
    if (b.kind == Bounds::None) return false;
    if (isInt(from)) {
        Bounds r = boundsOf(from);
        if (b.kind == Bounds::Int) return r.lo < b.lo || r.hi > b.hi;
        return std::max(static_cast<double>(r.hi), -static_cast<double>(r.lo)) >= b.limit;
    }
    diopiDtype_t part = partOf(from);
    bool isFloat = part == diopi_dtype_float16 || part == diopi_dtype_bfloat16 || part == diopi_dtype_float32 ||
                   part == diopi_dtype_tfloat32 || part == diopi_dtype_float64;
    if (!isFloat) return false;
    if (b.kind == Bounds::Int) return true;  // NaN, inf and large values have no integer
    return maxFinite(part) >= b.limit;
}

template <class S>
bool intFits(S v, const Bounds& b) {
    if constexpr (std::is_signed_v<S>) {
        int64_t x = v;
        return x >= b.lo && (x < 0 || static_cast<uint64_t>(x) <= b.hi);
    } else {
        return static_cast<uint64_t>(v) <= b.hi;
    }
}
bool realFits(double v, const Bounds& b) {
    if (b.kind == Bounds::Int) {  // a float cast to an integer truncates toward zero
        double t = std::trunc(v);
        return t >= static_cast<double>(b.lo) && t < static_cast<double>(b.hi) + 1.0;  // false for NaN and inf
    }
    return !std::isfinite(v) || std::fabs(v) < b.limit;  // inf and NaN stay what they are
}

double halfToDouble(uint16_t h) {
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if (exp == 0x1f) {
        v = mant ? std::numeric_limits<double>::quiet_NaN() : HUGE_VAL;
    } else if (exp == 0) {
        v = std::ldexp(mant, -24);
    } else {
        v = std::ldexp(mant + 1024, exp - 25);
    }
    return sign ? -v : v;
}
double bf16ToDouble(uint16_t h) {
    uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// Part k (0 real, 1 imaginary) of a real or complex element, as a double.
double loadReal(diopiDtype_t d, const char* p, int k) {
    switch (partOf(d)) {
        case diopi_dtype_float16: { uint16_t h; std::memcpy(&h, p + 2 * k, 2); return halfToDouble(h); }
        case diopi_dtype_bfloat16: { uint16_t h; std::memcpy(&h, p + 2 * k, 2); return bf16ToDouble(h); }
        case diopi_dtype_float32: case diopi_dtype_tfloat32: { float f; std::memcpy(&f, p + 4 * k, 4); return f; }
        default: { double x; std::memcpy(&x, p + 8 * k, 8); return x; }
    }
}

// One pass over a tensor's elements in row-major index order, honouring its
// strides; returns the index of the first element `fits` rejects, or -1.
template <class Fits>
int64_t firstMisfit(const char* data, int64_t itemsize, const diopiSize_t& shape, const diopiSize_t& stride, Fits fits) {
    int64_t nd = shape.len;
    for (int64_t d = 0; d < nd; ++d)
        if (shape.data[d] == 0) return -1;
    if (nd == 0) return fits(data) ? -1 : 0;
    const int64_t inner = shape.data[nd - 1], step = stride.data[nd - 1] * itemsize;
    std::vector<int64_t> idx(nd - 1, 0);
    const char* row = data;
    for (int64_t k = 0;; k += inner) {
        const char* p = row;
        for (int64_t i = 0; i < inner; ++i, p += step)
            if (!fits(p)) return k + i;
        int64_t d = nd - 2;
        for (; d >= 0; --d) {
            if (++idx[d] < shape.data[d]) {
                row += stride.data[d] * itemsize;
                break;
            }
            row -= (shape.data[d] - 1) * stride.data[d] * itemsize;
            idx[d] = 0;
        }
        if (d < 0) return -1;
    }
}

template <class S>
int64_t scanInts(const char* data, const diopiSize_t& shape, const diopiSize_t& stride, const Bounds& b) {
    if (b.kind == Bounds::Int)
        return firstMisfit(data, sizeof(S), shape, stride, [&](const char* p) {
            S v;
            std::memcpy(&v, p, sizeof v);
            return intFits(v, b);
        });
    return firstMisfit(data, sizeof(S), shape, stride, [&](const char* p) {
        S v;
        std::memcpy(&v, p, sizeof v);
        return realFits(static_cast<double>(v), b);
    });
}

int64_t itemsizeOf(diopiDtype_t d) {
    switch (d) {
        case diopi_dtype_int8: case diopi_dtype_uint8: case diopi_dtype_bool: return 1;
        case diopi_dtype_int16: case diopi_dtype_uint16: case diopi_dtype_float16: case diopi_dtype_bfloat16: return 2;
        case diopi_dtype_int32: case diopi_dtype_uint32: case diopi_dtype_float32: case diopi_dtype_tfloat32:
        case diopi_dtype_complex32: return 4;
        case diopi_dtype_complex128: return 16;
        default: return 8;
    }
}

// Index of the first element of `from` values at `data` that does not fit in `to`, or -1.
int64_t scanRange(diopiDtype_t from, diopiDtype_t to, const char* data, const diopiSize_t& shape, const diopiSize_t& stride) {
    Bounds b = boundsOf(to);
    switch (from) {
        case diopi_dtype_int8: return scanInts<int8_t>(data, shape, stride, b);
        case diopi_dtype_uint8: return scanInts<uint8_t>(data, shape, stride, b);
        case diopi_dtype_int16: return scanInts<int16_t>(data, shape, stride, b);
        case diopi_dtype_uint16: return scanInts<uint16_t>(data, shape, stride, b);
        case diopi_dtype_int32: return scanInts<int32_t>(data, shape, stride, b);
        case diopi_dtype_uint32: return scanInts<uint32_t>(data, shape, stride, b);
        case diopi_dtype_int64: return scanInts<int64_t>(data, shape, stride, b);
        case diopi_dtype_uint64: return scanInts<uint64_t>(data, shape, stride, b);
        case diopi_dtype_float64:
            return firstMisfit(data, 8, shape, stride, [&](const char* p) {
                double v;
                std::memcpy(&v, p, sizeof v);
                return realFits(v, b);
            });
        case diopi_dtype_float32:
        case diopi_dtype_tfloat32:
            return firstMisfit(data, 4, shape, stride, [&](const char* p) {
                float v;
                std::memcpy(&v, p, sizeof v);
                return realFits(v, b);
            });
        default: {
            // 16-bit floats and complex dtypes: decoded part by part. A complex
            // cast to a real dtype keeps only the real part, so only it must fit.
            int parts = isComplex(from) && isComplex(to) ? 2 : 1;
            return firstMisfit(data, itemsizeOf(from), shape, stride, [&](const char* p) {
                for (int k = 0; k < parts; ++k)
                    if (!realFits(loadReal(from, p, k), b)) return false;
                return true;
            });
        }
    }
}

// The offending element as text, e.g. "-9223372036854775808", "1e+300", "(1e+300+0j)".
std::string valueText(diopiDtype_t d, const char* p) {
    auto real = [](double v) {
        if (std::isnan(v)) return std::string("nan");
        if (std::isinf(v)) return std::string(v < 0 ? "-inf" : "inf");
        char buf[40];
        for (int prec = 6; prec <= 17; ++prec) {  // shortest text that reads back exactly
            std::snprintf(buf, sizeof buf, "%.*g", prec, v);
            if (std::strtod(buf, nullptr) == v) break;
        }
        return std::string(buf);
    };
    switch (d) {
        case diopi_dtype_int8: { int8_t v; std::memcpy(&v, p, 1); return std::to_string(v); }
        case diopi_dtype_uint8: { uint8_t v; std::memcpy(&v, p, 1); return std::to_string(v); }
        case diopi_dtype_int16: { int16_t v; std::memcpy(&v, p, 2); return std::to_string(v); }
        case diopi_dtype_uint16: { uint16_t v; std::memcpy(&v, p, 2); return std::to_string(v); }
        case diopi_dtype_int32: { int32_t v; std::memcpy(&v, p, 4); return std::to_string(v); }
        case diopi_dtype_uint32: { uint32_t v; std::memcpy(&v, p, 4); return std::to_string(v); }
        case diopi_dtype_int64: { int64_t v; std::memcpy(&v, p, 8); return std::to_string(v); }
        case diopi_dtype_uint64: { uint64_t v; std::memcpy(&v, p, 8); return std::to_string(v); }
        default: break;
    }
    if (!isComplex(d)) return real(loadReal(d, p, 0));
    double im = loadReal(d, p, 1);
    std::string imText = real(im);
    if (imText[0] != '-') imText = "+" + imText;
    return "(" + real(loadReal(d, p, 0)) + imText + "j)";
}

// Address of the element with row-major index k.
const char* elementAt(const char* data, int64_t itemsize, const diopiSize_t& shape, const diopiSize_t& stride, int64_t k) {
    int64_t off = 0;
    for (int64_t d = shape.len - 1; d >= 0; --d) {
        off += (k % shape.data[d]) * stride.data[d];
        k /= shape.data[d];
    }
    return data + off * itemsize;
}

}  // namespace

void enterPassThrough() noexcept {
    t_lastConversions.clear();
    t_errorSet = false;
}

const char* lastErrorString() noexcept {
    if (t_errorSet) return t_error.c_str();
    const char* v = vendorLastError();
    return v ? v : "";
}

diopiError_t fail(const char* func, diopiError_t code, const std::string& what) noexcept {
    try {
        t_error = std::string(func) + ": adaptor: " + what;
    } catch (...) {
        t_error.clear();  // out of memory: an empty message beats none
    }
    t_errorSet = true;
    return code;
}

Call::Call(const char* func, diopiContextHandle_t ctx) noexcept : func_(func), ctx_(ctx) { enterPassThrough(); }

diopiError_t Call::failed(diopiError_t code, const std::string& what) noexcept {
    status_ = code;
    return fail(func_, code, what);
}

diopiError_t Call::plan(const char* name, diopiConstTensorHandle_t t, const Spec& spec, Target& target) noexcept {
    target.convert = false;
    diopiDtype_t dtype;
    if (diopiGetTensorDtype(t, &dtype) != diopiSuccess) return failed(diopiErrorOccurred, std::string("cannot read the dtype of ") + name);
    target.fromDtype = target.toDtype = dtype;
    for (int i = 0; i < spec.nrules; ++i) {
        if (spec.rules[i].from == dtype) {
            target.toDtype = spec.rules[i].to;
            break;
        }
    }
    bool castDtype = target.toDtype != dtype;
    if (!castDtype && spec.layout == Layout::ND) return diopiSuccess;  // the common, free path

    diopiSize_t shape, stride;
    if (diopiGetTensorShape(t, &shape) != diopiSuccess || diopiGetTensorStride(t, &stride) != diopiSuccess)
        return failed(diopiErrorOccurred, std::string("cannot read the shape/strides of ") + name);
    target.fromLayout = target.toLayout = nullptr;
    try {
        static const int kNHWC[] = {0, 2, 3, 1}, kNDHWC[] = {0, 2, 3, 4, 1};
        bool named = false;  // the layout applies to this rank
        switch (spec.layout) {
            case Layout::ND: break;
            case Layout::Contiguous: named = true; break;
            case Layout::NCHW: named = shape.len == 4; break;
            case Layout::NCDHW: named = shape.len == 5; break;
            case Layout::NHWC: named = shape.len == 4; break;
            case Layout::NDHWC: named = shape.len == 5; break;
        }
        int64_t numel = 1;
        for (int64_t d = 0; d < shape.len; ++d) numel *= shape.data[d];
        bool moveLayout = false;
        if (named) {
            if (spec.layout == Layout::NHWC) {
                denseStrides(shape, kNHWC, target.strides);
            } else if (spec.layout == Layout::NDHWC) {
                denseStrides(shape, kNDHWC, target.strides);
            } else {
                rowMajor(shape, target.strides);
            }
            // An empty tensor has no memory to lay out.
            moveLayout = numel > 0 && !sameStrides(shape, stride, target.strides);
            if (moveLayout) {
                target.fromLayout = layoutOf(shape, stride);
                target.toLayout = spec.layout == Layout::NHWC    ? "NHWC"
                                  : spec.layout == Layout::NDHWC ? "NDHWC"
                                  : spec.layout == Layout::NCHW  ? "NCHW"
                                  : spec.layout == Layout::NCDHW ? "NCDHW"
                                                                 : "contiguous";
            }
        } else if (castDtype) {
            keepOrderStrides(shape, stride, target.strides);
        }
        target.convert = castDtype || moveLayout;
    } catch (...) {
        return failed(diopiErrorOccurred, "out of memory while planning conversions");
    }
    return diopiSuccess;
}

void Call::record(const std::string& name, const Target& target) {
    auto add = [&](const char* from, const char* to) {
        if (!record_.empty()) record_ += "; ";
        record_ += name;
        record_ += ':';
        record_ += from;
        record_ += "->";
        record_ += to;
    };
    if (target.toDtype != target.fromDtype) add(dtypeName(target.fromDtype), dtypeName(target.toDtype));
    if (target.toLayout) add(target.fromLayout, target.toLayout);
}

diopiError_t Call::checkRange(const std::string& name, diopiConstTensorHandle_t t, const Target& target) {
    if (!mayNotFit(target.fromDtype, target.toDtype)) return diopiSuccess;
    // The values are read where the tensor's data pointer points: the
    // adaptor wraps host (CPU) kernels, whose tensors live in host memory.
    const void* data = nullptr;
    diopiSize_t shape, stride;
    if (diopiGetTensorDataConst(t, &data) != diopiSuccess || diopiGetTensorShape(t, &shape) != diopiSuccess ||
        diopiGetTensorStride(t, &stride) != diopiSuccess)
        return failed(diopiErrorOccurred, "cannot read the data of " + name + " to check its range");
    if (data == nullptr) return diopiSuccess;  // no elements
    const char* base = static_cast<const char*>(data);
    int64_t bad = scanRange(target.fromDtype, target.toDtype, base, shape, stride);
    if (bad < 0) return diopiSuccess;

    const char* from = dtypeName(target.fromDtype);
    const char* to = dtypeName(target.toDtype);
    std::string first = valueText(target.fromDtype, elementAt(base, itemsizeOf(target.fromDtype), shape, stride, bad));
    bool floatTarget = boundsOf(target.toDtype).kind == Bounds::Float;
    if (!record_.empty()) record_ += "; ";
    record_ += name + ':' + from + "->" + to + " refused (out of range)";
    status_ = diopiDtypeNotSupported;
    t_error = std::string(func_) + ": " + name + " holds " + from + " values " +
              (floatTarget ? "beyond " + std::string(to) + "'s finite range" : "outside " + std::string(to) + "'s range") +
              " (first: " + first + " at element " + std::to_string(bad) + "); this library computes " + from + " as " + to +
              " (convert_config.yaml)";
    t_errorSet = true;
    return status_;
}

diopiError_t Call::makeTemp(const std::string& name, diopiConstTensorHandle_t t, const Target& target, bool fill, bool reads,
                            diopiTensorHandle_t& temp) noexcept {
    try {
        // Refuse values the kernel's dtype cannot hold before allocating anything. Only
        // values the kernel reads count: an output's previous contents are overwritten.
        if (fill && reads && checkRange(name, t, target) != diopiSuccess) return status_;
        diopiSize_t shape;
        diopiGetTensorShape(t, &shape);
        diopiSize_t stride{target.strides.data(), static_cast<int64_t>(target.strides.size())};
        diopiDevice_t device = diopi_device;
        if (&diopiGetTensorDevice != nullptr) diopiGetTensorDevice(t, &device);
        temp = nullptr;
        if (diopiRequireTensor(ctx_, &temp, &shape, &stride, target.toDtype, device) != diopiSuccess || temp == nullptr)
            return failed(diopiErrorOccurred, "diopiRequireTensor failed for the converted " + name + " (" +
                                                  dtypeName(target.toDtype) + ")");
        record(name, target);
        if (fill) {
            diopiError_t st = vendorCopy(ctx_, t, temp);
            if (st != diopiSuccess) {
                const char* why = vendorLastError();
                return failed(st, "converting " + name + " from " + dtypeName(target.fromDtype) + " to " + dtypeName(target.toDtype) +
                                      " failed: " + (why ? why : ""));
            }
        }
    } catch (...) {
        return failed(diopiErrorOccurred, "out of memory while converting " + name);
    }
    return diopiSuccess;
}

diopiError_t Call::input(const char* name, diopiConstTensorHandle_t& t, const Spec& spec) noexcept {
    if (t == nullptr || status_ != diopiSuccess) return status_;
    Target target;
    if (plan(name, t, spec, target) != diopiSuccess || !target.convert) return status_;
    diopiTensorHandle_t temp;
    if (makeTemp(name, t, target, true, true, temp) != diopiSuccess) return status_;
    t = temp;
    return diopiSuccess;
}

diopiError_t Call::output(const char* name, diopiTensorHandle_t& t, const Spec& spec, bool fill, bool reads) noexcept {
    if (t == nullptr || status_ != diopiSuccess) return status_;
    Target target;
    if (plan(name, t, spec, target) != diopiSuccess || !target.convert) return status_;
    diopiTensorHandle_t temp;
    if (makeTemp(name, t, target, fill, reads, temp) != diopiSuccess) return status_;
    try {
        copyBacks_.push_back(CopyBack{temp, t, name});
    } catch (...) {
        return failed(diopiErrorOccurred, std::string("out of memory while converting ") + name);
    }
    t = temp;
    return diopiSuccess;
}

diopiError_t Call::inputArray(const char* name, diopiConstTensorHandle_t*& arr, int64_t n, const Spec& spec) noexcept {
    if (arr == nullptr || status_ != diopiSuccess) return status_;
    std::vector<diopiConstTensorHandle_t>* copy = nullptr;
    try {
        for (int64_t i = 0; i < n; ++i) {
            if (arr[i] == nullptr) continue;
            Target target;
            std::string elem = std::string(name) + "[" + std::to_string(i) + "]";
            if (plan(elem.c_str(), arr[i], spec, target) != diopiSuccess) return status_;
            if (!target.convert) continue;
            diopiTensorHandle_t temp;
            if (makeTemp(elem, arr[i], target, true, true, temp) != diopiSuccess) return status_;
            if (copy == nullptr) {  // first converted element: switch to our own array
                inArrays_.emplace_back(new std::vector<diopiConstTensorHandle_t>(arr, arr + n));
                copy = inArrays_.back().get();
            }
            (*copy)[i] = temp;
        }
    } catch (...) {
        return failed(diopiErrorOccurred, std::string("out of memory while converting ") + name);
    }
    if (copy) arr = copy->data();
    return diopiSuccess;
}

diopiError_t Call::outputArray(const char* name, diopiTensorHandle_t*& arr, int64_t n, const Spec& spec, bool fill,
                                bool reads) noexcept {
    if (arr == nullptr || status_ != diopiSuccess) return status_;
    std::vector<diopiTensorHandle_t>* copy = nullptr;
    try {
        for (int64_t i = 0; i < n; ++i) {
            if (arr[i] == nullptr) continue;
            Target target;
            std::string elem = std::string(name) + "[" + std::to_string(i) + "]";
            if (plan(elem.c_str(), arr[i], spec, target) != diopiSuccess) return status_;
            if (!target.convert) continue;
            diopiTensorHandle_t temp;
            if (makeTemp(elem, arr[i], target, fill, reads, temp) != diopiSuccess) return status_;
            copyBacks_.push_back(CopyBack{temp, arr[i], elem});
            if (copy == nullptr) {
                outArrays_.emplace_back(new std::vector<diopiTensorHandle_t>(arr, arr + n));
                copy = outArrays_.back().get();
            }
            (*copy)[i] = temp;
        }
    } catch (...) {
        return failed(diopiErrorOccurred, std::string("out of memory while converting ") + name);
    }
    if (copy) arr = copy->data();
    return diopiSuccess;
}

diopiError_t Call::finish(diopiError_t kernelStatus) noexcept {
    if (record_.empty()) return kernelStatus;  // nothing was converted
    diopiError_t result = kernelStatus;
    if (kernelStatus == diopiSuccess) {
        for (const CopyBack& cb : copyBacks_) {
            diopiError_t st = vendorCopy(ctx_, cb.temp, cb.caller);
            if (st != diopiSuccess) {
                const char* why = vendorLastError();
                try {
                    result = failed(st, "copying the converted " + cb.name + " back failed: " + (why ? why : ""));
                } catch (...) {
                    result = failed(st, "copying a converted output back failed");
                }
                break;
            }
        }
    }
    try {
        t_lastConversions = record_;
    } catch (...) {
        t_lastConversions.clear();
    }
    if (logEnabled()) std::fprintf(stderr, "diopi adaptor: %s: %s\n", func_, record_.c_str());
    return result;
}

diopiError_t Call::exception() noexcept {
    if (status_ == diopiSuccess) failed(diopiErrorOccurred, "unexpected exception in the wrapper");
    return status_;
}

}  // namespace diopi_adaptor

extern "C" DIOPI_API const char* diopiAdaptorLastConversions(void) { return diopi_adaptor::t_lastConversions.c_str(); }
