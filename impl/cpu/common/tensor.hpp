// TensorView: a plain description of a caller tensor (pointer, dtype, shape,
// strides in elements) built from runtime handles, plus context temporaries
// and scalar helpers.
#pragma once

#include <diopi/diopirt.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dtype.hpp"
#include "error.hpp"

namespace impl::cpu {

using Shape = std::vector<int64_t>;

struct TensorView {
    char* data = nullptr;            ///< first element (storage + offset)
    diopiDtype_t dtype = diopi_dtype_unsupported;
    Shape shape;                     ///< sizes
    Shape strides;                   ///< strides, in elements
    int64_t numel = 0;
    int64_t itemsize = 0;            ///< bytes per element
    diopiTensorHandle_t handle = nullptr;  ///< the handle it came from (NULL for derived views)

    bool defined() const { return handle != nullptr || data != nullptr || !shape.empty() || numel > 0; }
    int64_t dim() const { return (int64_t)shape.size(); }
    int64_t size(int64_t d) const { return shape[wrapDim(d)]; }
    int64_t stride(int64_t d) const { return strides[wrapDim(d)]; }
    /// Wraps a possibly negative dim into [0, dim()); a 0-d tensor accepts 0 and -1.
    int64_t wrapDim(int64_t d) const;
    bool isContiguous() const;
    template <class T> T* ptr() const { return reinterpret_cast<T*>(data); }
    /// A view with other shape/strides on the same data (no copy).
    TensorView restrided(Shape newShape, Shape newStrides, int64_t elemOffset = 0) const;
    /// Reshapes a contiguous view (fails if not contiguous).
    TensorView reshaped(Shape newShape) const;
};

/// View of a required tensor; fails with "<name> is NULL" for NULL.
TensorView view(diopiConstTensorHandle_t h, const char* name);
/// View of an optional tensor: undefined view for NULL.
TensorView viewOpt(diopiConstTensorHandle_t h, const char* name);
/// Views of a caller array of tensors.
std::vector<TensorView> views(const diopiConstTensorHandle_t* hs, int64_t n, const char* name);

/// Row-major contiguous strides for `shape`.
Shape contiguousStrides(const Shape& shape);
int64_t shapeNumel(const Shape& shape);
std::string shapeStr(const Shape& shape);
inline Shape toShape(diopiSize_t s) { return s.len > 0 && s.data ? Shape(s.data, s.data + s.len) : Shape{}; }

/// A contiguous temporary owned by `ctx` (released with the context).
TensorView newTensor(diopiContextHandle_t ctx, const Shape& shape, diopiDtype_t dtype);
/// A temporary with explicit strides.
TensorView newTensorStrided(diopiContextHandle_t ctx, const Shape& shape, const Shape& strides, diopiDtype_t dtype);

/// Elementwise copy with dtype conversion between any two storable dtypes,
/// arbitrary strides on both sides; `src` broadcasts to `dst`'s shape.
void copyCast(const TensorView& dst, const TensorView& src);
/// `v` itself if it already has `dtype`, else a contiguous converted temporary.
TensorView castTo(diopiContextHandle_t ctx, const TensorView& v, diopiDtype_t dtype);
/// `v` if contiguous with `dtype`, else a contiguous (converted) temporary.
TensorView contiguousAs(diopiContextHandle_t ctx, const TensorView& v, diopiDtype_t dtype);

/// Scalar reading: fails for NULL (name used in the message).
double scalarDouble(const diopiScalar_t* s, const char* name);
int64_t scalarInt(const diopiScalar_t* s, const char* name);
bool scalarIsFloat(const diopiScalar_t* s);
/// Scalar converted to element type T (floats keep their fraction only for float T).
template <class T>
T scalarAs(const diopiScalar_t* s, const char* name) {
    if (scalarIsFloat(s)) return convert<T>(scalarDouble(s, name));
    return convert<T>(scalarInt(s, name));
}

/// Broadcast shape of two shapes (fails if incompatible).
Shape broadcastShapes(const Shape& a, const Shape& b);
/// Type promotion of two tensor dtypes (torch rules for the native dtypes).
diopiDtype_t promoteTypes(diopiDtype_t a, diopiDtype_t b);

}  // namespace impl::cpu
