/*
 * What the deliberately defective test libraries (faulty/, hostile/,
 * planted/) share: a float32 tensor read through diopirt.h and its elements
 * walked in row-major order over any strides. Each library keeps only its
 * kernels and their defects.
 */
#ifndef DIOPI_TEST_LIBRARY_H
#define DIOPI_TEST_LIBRARY_H

#include <diopi/functions.h>

/* One tensor as the kernels see it. */
typedef struct {
    diopiSize_t shape, stride;
    int64_t numel;
    float* data;
} tl_tensor;

/* Offset (in elements) of the i-th element in row-major order. */
static inline int64_t tl_offset(int64_t i, diopiSize_t shape, diopiSize_t stride) {
    int64_t off = 0;
    for (int64_t d = shape.len - 1; d >= 0; --d) {
        off += (i % shape.data[d]) * stride.data[d];
        i /= shape.data[d];
    }
    return off;
}

/* Reads t's shape, strides, size and data (whatever its dtype, for the defects that write regardless);
 * diopiDtypeNotSupported unless float32. */
static inline diopiError_t tl_get(diopiConstTensorHandle_t t, tl_tensor* v) {
    diopiDtype_t dt;
    const void* p;
    diopiGetTensorDtype(t, &dt);
    diopiGetTensorShape(t, &v->shape);
    diopiGetTensorStride(t, &v->stride);
    diopiGetTensorNumel(t, &v->numel);
    diopiGetTensorDataConst(t, &p);
    v->data = (float*)p; /* the libraries that write into an input do so on purpose */
    return dt == diopi_dtype_float32 ? diopiSuccess : diopiDtypeNotSupported;
}

/* The i-th element in row-major order. */
static inline float* tl_at(const tl_tensor* t, int64_t i) { return t->data + tl_offset(i, t->shape, t->stride); }

/* Offset of the last element: the storage a tensor spans is [0, tl_last] (the elements and the gaps between them). */
static inline int64_t tl_last(const tl_tensor* t) {
    int64_t last = 0;
    for (int64_t d = 0; d < t->shape.len; ++d) last += (t->shape.data[d] - 1) * t->stride.data[d];
    return last;
}

#endif
