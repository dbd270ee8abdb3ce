// Family copy_cast_memory: copies with dtype conversion and layout changes.
#include <cstring>

#include "common/common.hpp"

namespace impl::cpu {

namespace {
/// Strides of a dense tensor of `shape` in memory format `fmt`.
Shape formatStrides(const Shape& shape, int64_t fmt) {
    auto permuted = [&](std::initializer_list<int> order) {
        // `order` lists dims from outermost to innermost in memory.
        Shape st(shape.size());
        int64_t s = 1;
        std::vector<int> ord(order);
        for (int i = (int)ord.size() - 1; i >= 0; --i) {
            st[ord[i]] = s;
            s *= std::max<int64_t>(shape[ord[i]], 1);
        }
        return st;
    };
    if ((fmt == ChannelsLast && shape.size() == 4)) return permuted({0, 2, 3, 1});
    if ((fmt == ChannelsLast3d && shape.size() == 5)) return permuted({0, 2, 3, 4, 1});
    if ((fmt == ChannelsLast1d && shape.size() == 3)) return permuted({0, 2, 1});
    if (fmt == Contiguous || fmt == Preserve || fmt == ChannelsLast || fmt == ChannelsLast3d || fmt == ChannelsLast1d)
        return contiguousStrides(shape);
    fail("unknown memory format ", fmt);
}

bool isComplexDtype(diopiDtype_t dt) { return dt == diopi_dtype_complex64 || dt == diopi_dtype_complex128; }

/// The real (imag = false) or imaginary part of a complex64/complex128 view,
/// as a float32/float64 view of the same elements (the parts are adjacent).
TensorView complexPart(const TensorView& c, bool imag) {
    TensorView p = c;
    p.handle = nullptr;
    p.dtype = c.dtype == diopi_dtype_complex64 ? diopi_dtype_float32 : diopi_dtype_float64;
    p.itemsize = c.itemsize / 2;
    for (auto& s : p.strides) s *= 2;
    if (imag) p.data += p.itemsize;
    return p;
}

/// copyCast extended to complex64/complex128, with torch's cast rules: a real
/// value becomes re + 0i; a complex value cast to a real dtype keeps its real
/// part, and to bool is re != 0 || im != 0.
void copyCastAny(diopiContextHandle_t ctx, const TensorView& dst, const TensorView& src) {
    bool cd = isComplexDtype(dst.dtype), cs = isComplexDtype(src.dtype);
    if (!cd && !cs) return copyCast(dst, src);
    if (dst.numel == 0) return;
    if (cd && cs) {
        copyCast(complexPart(dst, false), complexPart(src, false));
        copyCast(complexPart(dst, true), complexPart(src, true));
    } else if (cd) {
        copyCast(complexPart(dst, false), src);
        TensorView zero = newTensor(ctx, Shape{}, complexPart(dst, true).dtype);
        std::memset(zero.data, 0, zero.itemsize);
        copyCast(complexPart(dst, true), zero);  // broadcast
    } else if (dst.dtype == diopi_dtype_bool) {
        TensorView re = newTensor(ctx, src.shape, diopi_dtype_bool), im = newTensor(ctx, src.shape, diopi_dtype_bool);
        copyCast(re, complexPart(src, false));
        copyCast(im, complexPart(src, true));
        bool* r = re.ptr<bool>();
        const bool* m = im.ptr<bool>();
        for (int64_t k = 0; k < re.numel; ++k) r[k] = r[k] || m[k];
        copyCast(dst, re);
    } else {
        copyCast(dst, complexPart(src, false));
    }
}

bool hasStrides(const TensorView& t, const Shape& st) {
    for (int64_t d = 0; d < t.dim(); ++d)
        if (t.shape[d] != 1 && t.strides[d] != st[d]) return false;
    return true;
}
}  // namespace

diopiError_t diopiCopyInp(diopiContextHandle_t ctx, diopiConstTensorHandle_t src, diopiTensorHandle_t dest) {
    return guard(__func__, [&] {
        TensorView s = view(src, "src"), d = view(dest, "dest");
        CPU_CHECK(s.numel == d.numel || s.numel == 1 || s.dim() <= d.dim(), "src shape ", shapeStr(s.shape),
                  " does not match dest shape ", shapeStr(d.shape));
        copyCast(d, s);
    });
}

diopiError_t diopiCastDtype(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView i = view(input, "input"), o = view(out, "out");
        CPU_CHECK(i.shape == o.shape || i.numel == o.numel, "out shape ", shapeStr(o.shape), " differs from input shape ",
                  shapeStr(i.shape));
        if (i.shape != o.shape) i = contiguousAs(ctx, i, i.dtype).reshaped(o.shape);
        copyCastAny(ctx, o, i);
    });
}

diopiError_t diopiContiguous(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input,
                             diopiMemoryFormat_t memoryFormat) {
    return guard(__func__, [&] {
        CPU_CHECK(out, "out is NULL");
        TensorView i = view(input, "input");
        TensorView o = newTensorStrided(ctx, i.shape, formatStrides(i.shape, memoryFormat), i.dtype);
        copyCastAny(ctx, o, i);
        *out = o.handle;
    });
}

// This library has no device-native layouts: the native format code is the
// diopiMemoryFormat_t value of the layout.
diopiError_t diopiNativeMemoryFormatCast(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiTensorHandle_t in, int64_t format) {
    return guard(__func__, [&] {
        CPU_CHECK(out, "out is NULL");
        TensorView i = view(in, "in");
        Shape st = formatStrides(i.shape, format);
        if (hasStrides(i, st)) {
            *out = in;
            return;
        }
        TensorView o = newTensorStrided(ctx, i.shape, st, i.dtype);
        copyCastAny(ctx, o, i);
        *out = o.handle;
    });
}

diopiError_t diopiGetNativeMemoryFormat(diopiContextHandle_t ctx, diopiConstTensorHandle_t input, int64_t* format) {
    return guard(__func__, [&] {
        CPU_CHECK(format, "format is NULL");
        TensorView i = view(input, "input");
        *format = Contiguous;
        if (i.dim() == 4 && !hasStrides(i, contiguousStrides(i.shape)) && hasStrides(i, formatStrides(i.shape, ChannelsLast)))
            *format = ChannelsLast;
        else if (i.dim() == 5 && !hasStrides(i, contiguousStrides(i.shape)) && hasStrides(i, formatStrides(i.shape, ChannelsLast3d)))
            *format = ChannelsLast3d;
    });
}

diopiError_t diopiTensorDestructionHook(diopiContextHandle_t ctx, void* ptr) {
    // No per-tensor bookkeeping to drop.
    return diopiSuccess;
}

}  // namespace impl::cpu
