// diopiDtype_t <-> at::ScalarType from the one dtype table (dtypes.hpp), for
// the ATen-based sides: the `diopi` device and the ATen reference vendor.
// Each side keeps its own error policy: these functions only say "none".
#pragma once

#include <c10/core/ScalarType.h>

#include <optional>

#include "diopi_support/dtypes.hpp"

namespace diopi_support {

/// The ATen type that holds elements of `dtype` (tfloat32: float); none for
/// a value that is not a dtype of the standard.
inline std::optional<c10::ScalarType> toScalarType(diopiDtype_t dtype) {
    switch (dtype) {
#define DIOPI_SUPPORT_TO_ATEN(d, bytes, name, aten, primary) \
    case d: return c10::ScalarType::aten;
        DIOPI_SUPPORT_DTYPES(DIOPI_SUPPORT_TO_ATEN)
#undef DIOPI_SUPPORT_TO_ATEN
        default: return std::nullopt;
    }
}

/// The dtype of the standard for an ATen type; diopi_dtype_unsupported when it has none.
inline diopiDtype_t fromScalarType(c10::ScalarType type) {
#define DIOPI_SUPPORT_FROM_ATEN(d, bytes, name, aten, primary) \
    if (primary && type == c10::ScalarType::aten) return d;
    DIOPI_SUPPORT_DTYPES(DIOPI_SUPPORT_FROM_ATEN)
#undef DIOPI_SUPPORT_FROM_ATEN
    return diopi_dtype_unsupported;
}

}  // namespace diopi_support
