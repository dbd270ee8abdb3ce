// Result-dtype rules of elementwise operators (torch's type promotion, seen
// through the adaptor's narrowing of 64-bit dtypes) and the "compute in one
// dtype, store in another" pattern they need.
#pragma once

#include "tensor.hpp"

namespace impl::cpu {

/// 0 = bool, 1 = integer, 2 = floating point.
inline int dtypeCategory(diopiDtype_t dt) {
    if (dt == diopi_dtype_bool) return 0;
    return isFloatingDtype(dt) ? 2 : 1;
}

/// The dtype kernels compute in for a (possibly 64-bit) dtype.
inline diopiDtype_t narrowDtype(diopiDtype_t dt) {
    if (dt == diopi_dtype_int64) return diopi_dtype_int32;
    if (dt == diopi_dtype_float64) return diopi_dtype_float32;
    return dt;
}

/// Category of a scalar: its stype decides (bool, integer or floating).
inline int scalarCategory(const diopiScalar_t* s) {
    if (!s) return 0;
    if (s->stype == diopi_dtype_bool) return 0;
    return isFloatingDtype(s->stype) ? 2 : 1;
}

/// Result dtype of two tensors: a 0-d tensor only decides the dtype when its
/// category is higher than the other's (or both are 0-d).
/// 64-bit dtypes only appear when the adaptor passes them through unnarrowed,
/// so they are kept (the kernel then decides whether it supports them).
inline diopiDtype_t resultType(const TensorView& a, const TensorView& b) {
    bool za = a.dim() == 0, zb = b.dim() == 0;
    if (za == zb) return promoteTypes(a.dtype, b.dtype);
    const TensorView& dimmed = za ? b : a;
    const TensorView& zero = za ? a : b;
    if (dtypeCategory(zero.dtype) > dtypeCategory(dimmed.dtype)) return zero.dtype;
    return dimmed.dtype;
}

/// Result dtype of a tensor and a scalar: the scalar only raises the category
/// (float scalar -> default float32, integer scalar on bool -> int64, narrowed).
inline diopiDtype_t resultTypeScalar(diopiDtype_t t, const diopiScalar_t* s) {
    int cs = scalarCategory(s), ct = dtypeCategory(t);
    if (cs > ct) return cs == 2 ? diopi_dtype_float32 : diopi_dtype_int32;
    return t;
}

/// Runs body(dst) with a destination of dtype `dt`: `out` itself when it has
/// that dtype, else a temporary copied (with conversion) into `out` afterwards.
template <class Body>
void computeAs(diopiContextHandle_t ctx, const TensorView& out, diopiDtype_t dt, Body&& body) {
    if (out.dtype == dt) {
        body(out);
        return;
    }
    TensorView tmp = newTensor(ctx, out.shape, dt);
    body(tmp);
    copyCast(out, tmp);
}

/// Fails unless `out` has exactly the broadcast shape of the inputs.
inline void checkOutShape(const TensorView& out, const Shape& expect, const char* outName = "out") {
    if (out.shape != expect)
        fail(outName, " has shape ", shapeStr(out.shape), " but the result has shape ", shapeStr(expect));
}

/// Scalar value converted to the compute type A of element type T (16-bit
/// floats compute in float, so the scalar keeps float precision there).
template <class T>
acc_t<T> scalarAcc(const diopiScalar_t* s, const char* name) {
    using A = acc_t<T>;
    if (scalarIsFloat(s)) return convert<A>(scalarDouble(s, name));
    return convert<A>(scalarInt(s, name));
}

}  // namespace impl::cpu
