// Shared infrastructure of the CPU vendor: error state, library info,
// tensor views, temporaries, copies with conversion, scalars, reductions.
#include "common.hpp"
#include "fastmath.hpp"
#include "isa.hpp"

#include <diopi_tables.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <type_traits>

namespace impl::cpu {

namespace {
thread_local std::string g_last_error;
}

void setLastErrorString(const char* msg) { g_last_error = msg ? msg : ""; }
const char* lastErrorString() { return g_last_error.c_str(); }

const char* diopiGetVendorName() { return "cpu"; }
// The kernel level chosen at load time is part of the version: reports then say which path was judged.
const char* diopiGetImplVersion() {
    static const std::string version = std::string("cpu-1.0.0 (") + isaName(isa()) + ")";
    return version.c_str();
}
const char* diopiGetLastErrorString() { return g_last_error.c_str(); }

// ---------------------------------------------------------------- dtypes
// Names come from diopi_tables.h, generated from diopiDtype_t (cmake/DiopiHeaderTables.cmake).
const char* dtypeName(diopiDtype_t dt) {
    const char* name = diopiTablesDtypeName(dt);
    return name != nullptr && dt != diopi_dtype_unsupported ? name : "unsupported";
}

int64_t itemSize(diopiDtype_t dt) {
    switch (dt) {
        case diopi_dtype_int8: case diopi_dtype_uint8: case diopi_dtype_bool: return 1;
        case diopi_dtype_int16: case diopi_dtype_uint16: case diopi_dtype_float16: case diopi_dtype_bfloat16: return 2;
        case diopi_dtype_int32: case diopi_dtype_uint32: case diopi_dtype_float32: case diopi_dtype_tfloat32: return 4;
        case diopi_dtype_int64: case diopi_dtype_uint64: case diopi_dtype_float64: case diopi_dtype_complex64: return 8;
        case diopi_dtype_complex32: return 4;
        case diopi_dtype_complex128: return 16;
        default: return 0;
    }
}

bool isFloatingDtype(diopiDtype_t dt) {
    return dt == diopi_dtype_float16 || dt == diopi_dtype_float32 || dt == diopi_dtype_float64 || dt == diopi_dtype_bfloat16;
}
bool isIntegralDtype(diopiDtype_t dt) {
    switch (dt) {
        case diopi_dtype_int8: case diopi_dtype_uint8: case diopi_dtype_int16: case diopi_dtype_uint16:
        case diopi_dtype_int32: case diopi_dtype_uint32: case diopi_dtype_int64: case diopi_dtype_uint64: return true;
        default: return false;
    }
}

diopiDtype_t promoteTypes(diopiDtype_t a, diopiDtype_t b) {
    if (a == b) return a;
    auto rank = [](diopiDtype_t d) {
        switch (d) {
            case diopi_dtype_bool: return 0;
            case diopi_dtype_uint8: case diopi_dtype_int8: return 1;
            case diopi_dtype_int16: return 2;
            case diopi_dtype_int32: return 3;
            case diopi_dtype_int64: return 4;
            case diopi_dtype_float16: case diopi_dtype_bfloat16: return 5;
            case diopi_dtype_float32: return 6;
            case diopi_dtype_float64: return 7;
            default: failCode(diopiDtypeNotSupported, "dtype ", dtypeName(d), " cannot be promoted");
        }
    };
    int ra = rank(a), rb = rank(b);
    if (ra == rb) {
        if (ra == 1) return diopi_dtype_int16;     // uint8 with int8
        if (ra == 5) return diopi_dtype_float32;   // float16 with bfloat16
    }
    return ra > rb ? a : b;
}

// ---------------------------------------------------------------- views
int64_t TensorView::wrapDim(int64_t d) const {
    int64_t n = dim();
    int64_t m = n == 0 ? 1 : n;
    if (d < -m || d >= m) fail("dim ", d, " out of range for a ", n, "-d tensor");
    return d < 0 ? d + m : d;
}

bool TensorView::isContiguous() const {
    int64_t expect = 1;
    for (int64_t d = dim() - 1; d >= 0; --d) {
        if (shape[d] == 1) continue;
        if (strides[d] != expect) return false;
        expect *= shape[d];
    }
    return true;
}

TensorView TensorView::restrided(Shape newShape, Shape newStrides, int64_t elemOffset) const {
    TensorView v = *this;
    v.handle = nullptr;
    v.data = data + elemOffset * itemsize;
    v.shape = std::move(newShape);
    v.strides = std::move(newStrides);
    v.numel = shapeNumel(v.shape);
    return v;
}

TensorView TensorView::reshaped(Shape newShape) const {
    CPU_CHECK(isContiguous(), "reshape of a non-contiguous tensor");
    CPU_CHECK(shapeNumel(newShape) == numel, "cannot reshape ", shapeStr(shape), " to ", shapeStr(newShape));
    Shape st = contiguousStrides(newShape);
    return restrided(std::move(newShape), std::move(st));
}

Shape contiguousStrides(const Shape& shape) {
    Shape st(shape.size());
    int64_t s = 1;
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
        st[d] = s;
        s *= std::max<int64_t>(shape[d], 1);
    }
    return st;
}

int64_t shapeNumel(const Shape& shape) {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
}

std::string shapeStr(const Shape& shape) {
    std::ostringstream os;
    os << "[";
    for (size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
    os << "]";
    return os.str();
}

TensorView view(diopiConstTensorHandle_t h, const char* name) {
    if (!h) fail(name, " is NULL");
    TensorView v;
    diopiTensorHandle_t mh = const_cast<diopiTensorHandle_t>(h);
    void* p = nullptr;
    diopiSize_t shape, stride;
    if (diopiGetTensorData(mh, &p) != diopiSuccess || diopiGetTensorShape(h, &shape) != diopiSuccess ||
        diopiGetTensorStride(h, &stride) != diopiSuccess || diopiGetTensorDtype(h, &v.dtype) != diopiSuccess)
        fail("the runtime rejected the handle of ", name);
    v.handle = mh;
    v.data = static_cast<char*>(p);
    v.shape = toShape(shape);
    v.strides = toShape(stride);
    if (v.strides.size() != v.shape.size()) v.strides = contiguousStrides(v.shape);
    v.numel = shapeNumel(v.shape);
    v.itemsize = itemSize(v.dtype);
    if (v.itemsize == 0) failCode(diopiDtypeNotSupported, name, " has dtype ", dtypeName(v.dtype), " which this library cannot store");
    return v;
}

TensorView viewOpt(diopiConstTensorHandle_t h, const char* name) {
    if (!h) return TensorView{};
    return view(h, name);
}

std::vector<TensorView> views(const diopiConstTensorHandle_t* hs, int64_t n, const char* name) {
    CPU_CHECK(n == 0 || hs, name, " array is NULL");
    std::vector<TensorView> out;
    out.reserve(n);
    for (int64_t i = 0; i < n; ++i) out.push_back(view(hs[i], name));
    return out;
}

TensorView newTensorStrided(diopiContextHandle_t ctx, const Shape& shape, const Shape& strides, diopiDtype_t dtype) {
    diopiTensorHandle_t h = nullptr;
    diopiSize_t sz{shape.data(), (int64_t)shape.size()};
    diopiSize_t st{strides.data(), (int64_t)strides.size()};
    // Device memory: temporaries and results handed back to the caller (nonzero, unique) alike; this vendor's
    // device memory is host memory, but a caller tells the two apart.
    if (diopiRequireTensor(ctx, &h, &sz, strides.empty() && !shape.empty() ? nullptr : &st, dtype, diopi_device) != diopiSuccess || !h)
        fail("could not allocate a temporary of shape ", shapeStr(shape), " and dtype ", dtypeName(dtype));
    return view(h, "temporary");
}

TensorView newTensor(diopiContextHandle_t ctx, const Shape& shape, diopiDtype_t dtype) {
    return newTensorStrided(ctx, shape, contiguousStrides(shape), dtype);
}

// ---------------------------------------------------------------- copies
namespace {
/// One dim of a copy plan: size and byte strides of destination and source.
struct CopyDim {
    int64_t size, dst, src;
};

/// Converts one run of n elements with byte strides ds (destination) and ss (source).
/// The only code compiled per (To, From) pair: the copy plans below call it
/// through a pointer, once per run of up to a row (or a 32-element tile row),
/// so the 169 dtype pairs do not each carry their own tiling and threading.
template <class To, class From>
void copyRun(char* d, const char* s, int64_t n, int64_t ds, int64_t ss) {
    if (ds == (int64_t)sizeof(To) && ss == (int64_t)sizeof(From)) {
        if constexpr (std::is_same_v<To, From>) {
            std::memcpy(d, s, n * sizeof(To));
        } else if constexpr (std::is_same_v<To, float> && is_reduced_float_v<From>) {
            // 16-bit floats <-> float (castTo of every 16-bit operand): the
            // branch-free conversions in the per-level loops.
            simd::map1(reinterpret_cast<float*>(d), reinterpret_cast<const From*>(s), n, [](From v) { return float(v); });
        } else if constexpr (std::is_same_v<From, float> && is_reduced_float_v<To>) {
            simd::map1(reinterpret_cast<uint16_t*>(d), reinterpret_cast<const float*>(s), n, [](float v) { return To(v).bits; });
        } else if constexpr ((std::is_same_v<To, float> && std::is_same_v<From, double>) ||
                             (std::is_same_v<To, double> && std::is_same_v<From, float>)) {
            simd::map1(reinterpret_cast<To*>(d), reinterpret_cast<const From*>(s), n, [](From v) { return To(v); });
        } else {
            To* o = reinterpret_cast<To*>(d);
            const From* i = reinterpret_cast<const From*>(s);
            for (int64_t k = 0; k < n; ++k) o[k] = convert<To>(i[k]);
        }
        return;
    }
    for (int64_t k = 0; k < n; ++k, d += ds, s += ss)
        *reinterpret_cast<To*>(d) = convert<To>(*reinterpret_cast<const From*>(s));
}

using CopyRunFn = void (*)(char*, const char*, int64_t, int64_t, int64_t);

/// Byte offsets of the outer index `lin` (row-major over dims[0..n)).
inline void outerOffsets(const std::vector<CopyDim>& dims, size_t n, int64_t lin, int64_t& od, int64_t& os) {
    od = os = 0;
    for (size_t k = n; k-- > 0;) {
        int64_t i = lin % dims[k].size;
        lin /= dims[k].size;
        od += i * dims[k].dst;
        os += i * dims[k].src;
    }
}

/// Copies over dims ordered by the destination's memory layout (innermost last).
/// When the source is dense along another dim than the destination, that dim
/// and the innermost one are copied as cache-sized 2-D tiles (a blocked
/// transpose) so that both sides are read/written along contiguous runs.
void copyPlanned(CopyRunFn run, int64_t tsz, int64_t fsz, char* dbase, const char* sbase, std::vector<CopyDim> dims) {
    const CopyDim in = dims.back();
    dims.pop_back();
    // Source dim to tile against the innermost: dense in the source, not dense inner already.
    int64_t tdim = -1;
    if (in.src != fsz) {
        for (size_t k = 0; k < dims.size(); ++k)
            if (dims[k].src == fsz && dims[k].size > 1) tdim = (int64_t)k;
    }
    if (tdim < 0) {
        if (dims.empty()) {
            // One dense run: split it across threads.
            parallelFor(in.size, kParallelGrain, [&](int64_t b, int64_t e) {
                run(dbase + b * in.dst, sbase + b * in.src, e - b, in.dst, in.src);
            });
            return;
        }
        // Rows along the innermost dim.
        int64_t rows = 1;
        for (auto& d : dims) rows *= d.size;
        int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(in.size, 1));
        parallelFor(rows, grain, [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) {
                int64_t od, os;
                outerOffsets(dims, dims.size(), r, od, os);
                run(dbase + od, sbase + os, in.size, in.dst, in.src);
            }
        });
        return;
    }
    const CopyDim tr = dims[tdim];
    dims.erase(dims.begin() + tdim);
    constexpr int64_t T = 32;
    const int64_t nb = (tr.size + T - 1) / T, ni = (in.size + T - 1) / T;
    int64_t outer = 1;
    for (auto& d : dims) outer *= d.size;
    const int64_t blocks = outer * nb * ni;
    int64_t grain = std::max<int64_t>(1, kParallelGrain / (T * T));
    parallelFor(blocks, grain, [&](int64_t b, int64_t e) {
        for (int64_t blk = b; blk < e; ++blk) {
            int64_t bi = blk % ni, bb = (blk / ni) % nb, o = blk / (ni * nb);
            int64_t od, os;
            outerOffsets(dims, dims.size(), o, od, os);
            int64_t b0 = bb * T, b1 = std::min(tr.size, b0 + T);
            int64_t i0 = bi * T, i1 = std::min(in.size, i0 + T);
            char* d = dbase + od + b0 * tr.dst + i0 * in.dst;
            const char* s = sbase + os + b0 * tr.src + i0 * in.src;
            const int64_t nI = i1 - i0;
            // Row x of the tile: the destination dense (or nearly) along the innermost dim.
            for (int64_t x = b0; x < b1; ++x, d += tr.dst, s += tr.src) run(d, s, nI, in.dst, in.src);
        }
    });
}

/// Builds the copy plan: broadcast and coalesce (StridedPlan), then order dims
/// by the destination's memory layout and coalesce again. Returns false when
/// the destination layout is not a plain positive-stride one (the generic
/// element loop handles it).
bool buildCopyPlan(const TensorView& dst, const TensorView& src, std::vector<CopyDim>& dims, char*& db, const char*& sb) {
    StridedPlan<2> plan(dst.shape, {&dst, &src});
    db = plan.base[0];
    sb = plan.base[1];
    dims.clear();
    for (size_t k = 0; k < plan.shape.size(); ++k) {
        if (plan.strides[0][k] <= 0 || plan.strides[1][k] < 0) return false;
        dims.push_back({plan.shape[k], plan.strides[0][k], plan.strides[1][k]});
    }
    std::stable_sort(dims.begin(), dims.end(), [](const CopyDim& a, const CopyDim& b) { return a.dst > b.dst; });
    std::vector<CopyDim> merged;
    for (const CopyDim& d : dims) {
        if (!merged.empty()) {
            CopyDim& m = merged.back();
            if (m.dst == d.dst * d.size && m.src == d.src * d.size) {
                m.size *= d.size;
                m.dst = d.dst;
                m.src = d.src;
                continue;
            }
        }
        merged.push_back(d);
    }
    if (merged.empty()) merged.push_back({1, dst.itemsize, src.itemsize});
    dims.swap(merged);
    return true;
}

/// copyRun<To, From> for a pair of dtypes (both must be in AllTypes).
CopyRunFn copyRunFor(const TensorView& dst, const TensorView& src) {
    CopyRunFn fn = nullptr;
    dispatch<AllTypes>(dst.dtype, "destination", [&](auto td) {
        using To = typename decltype(td)::type;
        dispatch<AllTypes>(src.dtype, "source", [&](auto ts) { fn = &copyRun<To, typename decltype(ts)::type>; });
    });
    return fn;
}
}  // namespace

void copyCast(const TensorView& dst, const TensorView& src) {
    if (dst.numel == 0) return;
    const CopyRunFn run = copyRunFor(dst, src);
    std::vector<CopyDim> dims;
    char* db = nullptr;
    const char* sb = nullptr;
    if (buildCopyPlan(dst, src, dims, db, sb)) {
        // Copying a tensor onto itself is a no-op (and memcpy must not overlap).
        if (dst.dtype == src.dtype && db == sb && dims.size() == 1 && dims[0].dst == dims[0].src) return;
        copyPlanned(run, dst.itemsize, src.itemsize, db, sb, std::move(dims));
    } else {
        // Layouts with zero or negative destination strides: runs of the innermost dim, any strides.
        StridedPlan<2> plan(dst.shape, {&dst, &src});
        plan.runAll([&](char** p, int64_t n, const int64_t* s) { run(p[0], p[1], n, s[0], s[1]); });
    }
}

TensorView castTo(diopiContextHandle_t ctx, const TensorView& v, diopiDtype_t dtype) {
    if (v.dtype == dtype) return v;
    TensorView t = newTensor(ctx, v.shape, dtype);
    copyCast(t, v);
    return t;
}

TensorView contiguousAs(diopiContextHandle_t ctx, const TensorView& v, diopiDtype_t dtype) {
    if (v.dtype == dtype && v.isContiguous()) return v;
    TensorView t = newTensor(ctx, v.shape, dtype);
    copyCast(t, v);
    return t;
}

// ---------------------------------------------------------------- scalars
double scalarDouble(const diopiScalar_t* s, const char* name) {
    if (!s) fail(name, " is NULL");
    return scalarIsFloat(s) ? s->fval : (double)s->ival;
}
int64_t scalarInt(const diopiScalar_t* s, const char* name) {
    if (!s) fail(name, " is NULL");
    return scalarIsFloat(s) ? (int64_t)s->fval : s->ival;
}
bool scalarIsFloat(const diopiScalar_t* s) { return s && isFloatingDtype(s->stype); }

Shape broadcastShapes(const Shape& a, const Shape& b) {
    size_t n = std::max(a.size(), b.size());
    Shape out(n);
    for (size_t i = 0; i < n; ++i) {
        int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
        int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
        if (x != y && x != 1 && y != 1) fail("shapes ", shapeStr(a), " and ", shapeStr(b), " do not broadcast");
        out[i] = x == 1 ? y : x;
    }
    return out;
}

// ---------------------------------------------------------------- reductions
std::vector<bool> reduceMask(const TensorView& in, const std::vector<int64_t>& dims) {
    std::vector<bool> mask(in.dim(), dims.empty());
    for (int64_t d : dims) {
        if (in.dim() == 0) {
            in.wrapDim(d);  // validates 0 / -1
            continue;
        }
        int64_t w = in.wrapDim(d);
        CPU_CHECK(!mask[w], "dim ", d, " appears more than once");
        mask[w] = true;
    }
    return mask;
}

std::vector<bool> reduceMask(const TensorView& in, diopiSize_t dims) { return reduceMask(in, toShape(dims)); }

Shape keptShape(const TensorView& in, const std::vector<bool>& mask) {
    Shape s = in.shape;
    for (size_t d = 0; d < s.size(); ++d)
        if (mask[d]) s[d] = 1;
    return s;
}

Shape squeezedShape(const TensorView& in, const std::vector<bool>& mask) {
    Shape s;
    for (size_t d = 0; d < in.shape.size(); ++d)
        if (!mask[d]) s.push_back(in.shape[d]);
    return s;
}

TensorView asKeepdim(const TensorView& out, const TensorView& in, const std::vector<bool>& mask, const char* name) {
    Shape kept = keptShape(in, mask);
    if (out.shape == kept) return out;
    Shape sq = squeezedShape(in, mask);
    if (out.shape != sq) {
        // A full reduction may also be given a 1-element output of another rank.
        if (!(shapeNumel(kept) == 1 && out.numel == 1))
            fail(name, " has shape ", shapeStr(out.shape), ", expected ", shapeStr(kept), " or ", shapeStr(sq));
        return out.restrided(kept, Shape(kept.size(), 0));
    }
    Shape st(kept.size(), 0);
    size_t j = 0;
    for (size_t d = 0; d < kept.size(); ++d)
        if (!mask[d]) st[d] = out.strides[j++];
    return out.restrided(kept, st);
}

ReduceWindow makeWindow(const TensorView& in, const std::vector<bool>& mask) {
    ReduceWindow w;
    for (size_t d = 0; d < mask.size(); ++d) {
        if (!mask[d] || in.shape[d] == 1) continue;
        int64_t sz = in.shape[d], st = in.strides[d] * in.itemsize;
        if (!w.sizes.empty() && w.strides.back() == st * sz) {
            w.sizes.back() *= sz;
            w.strides.back() = st;
        } else {
            w.sizes.push_back(sz);
            w.strides.push_back(st);
        }
    }
    w.numel = shapeNumel(w.sizes);
    return w;
}

}  // namespace impl::cpu
