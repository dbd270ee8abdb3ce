// The dtypes of the standard as one table: element size, name, and the ATen
// scalar type that holds the same elements. Every caller and the ATen-based
// vendor read it from here instead of keeping their own switch statements.
// Header-only and free of ATen (the ATen column is a bare token that
// aten_dtypes.hpp expands), usable from C++17.
#pragma once

#include <diopi/diopirt.h>

#include <cstdint>

// X(dtype, element bytes, name, ATen ScalarType, primary): `primary` marks
// the one dtype an ATen type converts back to (tfloat32 is stored as float32
// but float32 tensors are diopi_dtype_float32).
#define DIOPI_SUPPORT_DTYPES(X)                                  \
    X(diopi_dtype_int8, 1, "int8", Char, 1)                      \
    X(diopi_dtype_uint8, 1, "uint8", Byte, 1)                    \
    X(diopi_dtype_int16, 2, "int16", Short, 1)                   \
    X(diopi_dtype_uint16, 2, "uint16", UInt16, 1)                \
    X(diopi_dtype_int32, 4, "int32", Int, 1)                     \
    X(diopi_dtype_uint32, 4, "uint32", UInt32, 1)                \
    X(diopi_dtype_int64, 8, "int64", Long, 1)                    \
    X(diopi_dtype_uint64, 8, "uint64", UInt64, 1)                \
    X(diopi_dtype_float16, 2, "float16", Half, 1)                \
    X(diopi_dtype_float32, 4, "float32", Float, 1)               \
    X(diopi_dtype_float64, 8, "float64", Double, 1)              \
    X(diopi_dtype_bool, 1, "bool", Bool, 1)                      \
    X(diopi_dtype_bfloat16, 2, "bfloat16", BFloat16, 1)          \
    X(diopi_dtype_tfloat32, 4, "tfloat32", Float, 0)             \
    X(diopi_dtype_complex32, 4, "complex32", ComplexHalf, 1)     \
    X(diopi_dtype_complex64, 8, "complex64", ComplexFloat, 1)    \
    X(diopi_dtype_complex128, 16, "complex128", ComplexDouble, 1)

namespace diopi_support {

/// Bytes of one element; 0 for a value that is not a dtype of the standard.
constexpr int64_t dtypeSize(int32_t dtype) {
    switch (dtype) {
#define DIOPI_SUPPORT_SIZE_CASE(d, bytes, name, aten, primary) \
    case d: return bytes;
        DIOPI_SUPPORT_DTYPES(DIOPI_SUPPORT_SIZE_CASE)
#undef DIOPI_SUPPORT_SIZE_CASE
        default: return 0;
    }
}

/// "float32", ...; nullptr for a value that is not a dtype of the standard.
constexpr const char* dtypeName(int32_t dtype) {
    switch (dtype) {
#define DIOPI_SUPPORT_NAME_CASE(d, bytes, name, aten, primary) \
    case d: return name;
        DIOPI_SUPPORT_DTYPES(DIOPI_SUPPORT_NAME_CASE)
#undef DIOPI_SUPPORT_NAME_CASE
        default: return nullptr;
    }
}

}  // namespace diopi_support
