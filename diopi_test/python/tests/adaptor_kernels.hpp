// What the small vendor kernels of the adaptor tests (test_adaptor.py,
// test_adaptor_narrowing.py) share: a tensor as bytes and the byte offsets
// of its elements in row-major order. Each test keeps its own loads and
// stores, since how a value is converted is what it tests.
#pragma once

#include <diopi/diopirt.h>

#include <vector>

namespace adaptor_test {

struct View {
    char* data = nullptr;
    diopiDtype_t dtype{};
    diopiSize_t shape{}, stride{};
    int64_t numel = 1;
};

inline View view(diopiConstTensorHandle_t t) {
    View v;
    const void* p = nullptr;
    diopiGetTensorDataConst(t, &p);
    v.data = static_cast<char*>(const_cast<void*>(p));
    diopiGetTensorDtype(t, &v.dtype);
    diopiGetTensorShape(t, &v.shape);
    diopiGetTensorStride(t, &v.stride);
    diopiGetTensorNumel(t, &v.numel);
    return v;
}

inline int64_t itemsize(diopiDtype_t d) {
    switch (d) {
        case diopi_dtype_float64: case diopi_dtype_int64: return 8;
        case diopi_dtype_float32: case diopi_dtype_int32: return 4;
        case diopi_dtype_int16: return 2;
        default: return 1;
    }
}

// Element offsets (in bytes) in row-major index order.
inline std::vector<int64_t> offsets(const View& v) {
    std::vector<int64_t> out;
    std::vector<int64_t> idx(v.shape.len, 0);
    for (int64_t n = 0; n < v.numel; ++n) {
        int64_t off = 0;
        for (int64_t d = 0; d < v.shape.len; ++d) off += idx[d] * v.stride.data[d];
        out.push_back(off * itemsize(v.dtype));
        for (int64_t d = v.shape.len - 1; d >= 0; --d) {
            if (++idx[d] < v.shape.data[d]) break;
            idx[d] = 0;
        }
    }
    return out;
}

}  // namespace adaptor_test
