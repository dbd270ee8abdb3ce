// The caller's half of diopirt.h written once: the functions a vendor library
// calls back into its caller for (tensor data, shapes, strides, dtypes,
// scratch tensors, generator state). A caller keeps its own tensor type and
// says in a small traits struct only what differs between tensor types; the
// checks of every argument, the error codes, the exception barrier and the
// functions that follow from others (element sizes from the dtype, buffers,
// generator state as a host tensor) are here.
//
// Use (one translation unit of the caller, C++17 or later):
//
//   struct MyTraits { ... the static functions listed below ... };
//   DIOPI_SUPPORT_DEFINE_CALLER_RUNTIME(MyTraits)
//
// Traits (handles are the caller's own objects behind the opaque pointers;
// any of them may throw, which becomes diopiErrorOccurred):
//   static void* data(diopiTensorHandle_t);                  first element, to be written
//   static const void* constData(diopiConstTensorHandle_t);  first element, to be read
//   static diopiSize_t shape(diopiConstTensorHandle_t);      storage lives with the tensor
//   static diopiSize_t stride(diopiConstTensorHandle_t);
//   static diopiDtype_t dtype(diopiConstTensorHandle_t);     diopi_dtype_unsupported when none
//   static diopiDevice_t device(diopiConstTensorHandle_t);
//   static int64_t numel(diopiConstTensorHandle_t);
//   static void* storagePtr(diopiConstTensorHandle_t);
//   static int64_t storageOffset(diopiConstTensorHandle_t);  in elements
//   static size_t storageNbytes(diopiConstTensorHandle_t);
//   static diopiDeviceIndex_t deviceIndex(diopiConstTensorHandle_t);
//   static diopiDeviceIndex_t currentDeviceIndex();
//   static diopiStreamHandle_t stream(diopiContextHandle_t);
//   static diopiTensorHandle_t requireTensor(diopiContextHandle_t, const diopiSize_t& size, const diopiSize_t* stride,
//                                            diopiDtype_t, diopiDevice_t);  owned by the context; nullptr: failed
//   static std::vector<uint8_t> hostBytes(diopiConstTensorHandle_t);  the tensor's bytes, read on the host
//   static std::vector<uint8_t> generatorState(diopiConstGeneratorHandle_t);
//   static void setGeneratorState(diopiGeneratorHandle_t, std::vector<uint8_t>);
//   static void seedAndOffset(diopiGeneratorHandle_t, uint64_t* seed, uint64_t* offset);
//   static void setSeedAndOffset(diopiGeneratorHandle_t, uint64_t seed, uint64_t offset);
//   static void error(const char* why);                      remembers why a call failed
#pragma once

#include <diopi/diopirt.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <vector>

#include "diopi_support/dtypes.hpp"

namespace diopi_support {

template <class Traits>
struct CallerRuntime {
    using T = Traits;

    // No exception crosses the C ABI: whatever the traits throw is a status.
    template <class F>
    static diopiError_t guarded(F&& body) noexcept {
        try {
            return body();
        } catch (const std::exception& e) {
            T::error(e.what());
        } catch (...) {
            T::error("unknown C++ exception");
        }
        return diopiErrorOccurred;
    }

    // A getter of one value of a tensor handle: NULL arguments are an error.
    template <class Out, class Read>
    static diopiError_t get(const void* th, Out* out, Read&& read) noexcept {
        if (!th || !out) return diopiErrorOccurred;
        return guarded([&] {
            *out = read();
            return diopiSuccess;
        });
    }

    static diopiError_t tensorData(diopiTensorHandle_t th, void** p) noexcept { return get(th, p, [&] { return T::data(th); }); }
    static diopiError_t tensorDataConst(diopiConstTensorHandle_t th, const void** p) noexcept {
        return get(th, p, [&] { return T::constData(th); });
    }
    static diopiError_t tensorShape(diopiConstTensorHandle_t th, diopiSize_t* s) noexcept { return get(th, s, [&] { return T::shape(th); }); }
    static diopiError_t tensorStride(diopiConstTensorHandle_t th, diopiSize_t* s) noexcept { return get(th, s, [&] { return T::stride(th); }); }
    static diopiError_t tensorDtype(diopiConstTensorHandle_t th, diopiDtype_t* d) noexcept {
        diopiError_t status = get(th, d, [&] { return T::dtype(th); });
        return status == diopiSuccess && *d == diopi_dtype_unsupported ? diopiDtypeNotSupported : status;
    }
    static diopiError_t tensorDevice(diopiConstTensorHandle_t th, diopiDevice_t* d) noexcept { return get(th, d, [&] { return T::device(th); }); }
    static diopiError_t tensorNumel(diopiConstTensorHandle_t th, int64_t* n) noexcept { return get(th, n, [&] { return T::numel(th); }); }
    static diopiError_t tensorElemSize(diopiConstTensorHandle_t th, int64_t* n) noexcept {
        diopiError_t status = get(th, n, [&] { return dtypeSize(T::dtype(th)); });
        return status == diopiSuccess && *n == 0 ? diopiDtypeNotSupported : status;
    }
    static diopiError_t storagePtr(diopiConstTensorHandle_t th, void** p) noexcept { return get(th, p, [&] { return T::storagePtr(th); }); }
    static diopiError_t storageOffset(diopiConstTensorHandle_t th, int64_t* o) noexcept {
        return get(th, o, [&] { return T::storageOffset(th); });
    }
    static diopiError_t storageNbytes(diopiConstTensorHandle_t th, size_t* n) noexcept {
        return get(th, n, [&] { return T::storageNbytes(th); });
    }
    static diopiError_t deviceIndex(diopiConstTensorHandle_t th, diopiDeviceIndex_t* i) noexcept {
        return get(th, i, [&] { return T::deviceIndex(th); });
    }
    static diopiError_t currentDeviceIndex(diopiDeviceIndex_t* i) noexcept {
        if (!i) return diopiErrorOccurred;
        return guarded([&] {
            *i = T::currentDeviceIndex();
            return diopiSuccess;
        });
    }
    // Callers of this project create dense tensors only.
    static diopiError_t isSparse(diopiConstTensorHandle_t th, bool* sparse) noexcept { return get(th, sparse, [] { return false; }); }

    static diopiError_t stream(diopiContextHandle_t ctx, diopiStreamHandle_t* s) noexcept {
        return get(ctx, s, [&] { return T::stream(ctx); });
    }

    static diopiError_t requireTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor, const diopiSize_t* size,
                                      const diopiSize_t* stride, diopiDtype_t dtype, diopiDevice_t device) noexcept {
        if (!ctx || !tensor || !size || size->len < 0 || (size->len && !size->data)) return diopiErrorOccurred;
        if (stride && stride->data && stride->len != size->len) return diopiErrorOccurred;
        for (int64_t i = 0; i < size->len; ++i)
            if (size->data[i] < 0) return diopiErrorOccurred;
        return guarded([&] {
            diopiTensorHandle_t t = T::requireTensor(ctx, *size, stride && stride->data ? stride : nullptr, dtype, device);
            if (!t) return diopiErrorOccurred;
            *tensor = t;
            return diopiSuccess;
        });
    }
    static diopiError_t requireBuffer(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor, int64_t bytes, diopiDevice_t device) noexcept {
        if (bytes < 0) return diopiErrorOccurred;
        diopiSize_t size{&bytes, 1};
        return requireTensor(ctx, tensor, &size, nullptr, diopi_dtype_int8, device);
    }

    // Generator state travels as a host uint8 tensor the context owns.
    static diopiError_t generatorGetState(diopiContextHandle_t ctx, diopiConstGeneratorHandle_t gen, diopiTensorHandle_t* data) noexcept {
        if (!ctx || !gen || !data) return diopiErrorOccurred;
        return guarded([&] {
            std::vector<uint8_t> bytes = T::generatorState(gen);
            int64_t n = static_cast<int64_t>(bytes.size());
            diopiSize_t size{&n, 1};
            diopiError_t status = requireTensor(ctx, data, &size, nullptr, diopi_dtype_uint8, diopi_host);
            if (status != diopiSuccess) return status;
            if (n) std::memcpy(T::data(*data), bytes.data(), bytes.size());
            return diopiSuccess;
        });
    }
    static diopiError_t generatorSetState(diopiGeneratorHandle_t gen, diopiConstTensorHandle_t state) noexcept {
        if (!gen || !state) return diopiErrorOccurred;
        return guarded([&] {
            T::setGeneratorState(gen, T::hostBytes(state));
            return diopiSuccess;
        });
    }
    static diopiError_t seedAndOffset(diopiGeneratorHandle_t gen, uint64_t* seed, uint64_t* offset) noexcept {
        if (!gen || !seed || !offset) return diopiErrorOccurred;
        return guarded([&] {
            T::seedAndOffset(gen, seed, offset);
            return diopiSuccess;
        });
    }
    static diopiError_t setSeedAndOffset(diopiGeneratorHandle_t gen, uint64_t seed, uint64_t offset) noexcept {
        if (!gen) return diopiErrorOccurred;
        return guarded([&] {
            T::setSeedAndOffset(gen, seed, offset);
            return diopiSuccess;
        });
    }
};

}  // namespace diopi_support

// One exported function of diopirt.h forwarding to CallerRuntime<Traits>.
#define DIOPI_SUPPORT_FORWARD_(name, impl, params, args) \
    DIOPI_RT_API diopiError_t name params { return DiopiCallerRuntime_::impl args; }

/// Defines the C functions of diopirt.h's caller half over `Traits` (see the
/// top of this file). Profiling ranges are accepted and ignored; sparse
/// accessors answer diopiNoImplement.
#define DIOPI_SUPPORT_DEFINE_CALLER_RUNTIME(Traits)                                                                                      \
    extern "C" {                                                                                                                         \
    using DiopiCallerRuntime_ = ::diopi_support::CallerRuntime<Traits>;                                                                  \
    DIOPI_RT_API const char* diopiGetVersion(void) { return "1.0.0"; }                                                                   \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorData, tensorData, (diopiTensorHandle_t th, void** p), (th, p))                                  \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorDataConst, tensorDataConst, (diopiConstTensorHandle_t th, const void** p), (th, p))             \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorShape, tensorShape, (diopiConstTensorHandle_t th, diopiSize_t* s), (th, s))                     \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorStride, tensorStride, (diopiConstTensorHandle_t th, diopiSize_t* s), (th, s))                   \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorDtype, tensorDtype, (diopiConstTensorHandle_t th, diopiDtype_t* d), (th, d))                    \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorDevice, tensorDevice, (diopiConstTensorHandle_t th, diopiDevice_t* d), (th, d))                 \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorNumel, tensorNumel, (diopiConstTensorHandle_t th, int64_t* n), (th, n))                         \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorElemSize, tensorElemSize, (diopiConstTensorHandle_t th, int64_t* n), (th, n))                   \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorStoragePtr, storagePtr, (diopiConstTensorHandle_t th, void** p), (th, p))                       \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorStorageOffset, storageOffset, (diopiConstTensorHandle_t th, int64_t* o), (th, o))               \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorStorageNbytes, storageNbytes, (diopiConstTensorHandle_t th, size_t* n), (th, n))                \
    DIOPI_SUPPORT_FORWARD_(diopiGetTensorDeviceIndex, deviceIndex, (diopiConstTensorHandle_t th, diopiDeviceIndex_t* i), (th, i))        \
    DIOPI_SUPPORT_FORWARD_(diopiGetCurrentDeviceIndex, currentDeviceIndex, (diopiDeviceIndex_t* i), (i))                                 \
    DIOPI_SUPPORT_FORWARD_(diopiIsTensorSparse, isSparse, (diopiConstTensorHandle_t th, bool* s), (th, s))                               \
    DIOPI_RT_API diopiError_t diopiGetTensorCrowIndices(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; } \
    DIOPI_RT_API diopiError_t diopiGetTensorColIndices(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; }  \
    DIOPI_RT_API diopiError_t diopiGetTensorValues(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; }      \
    DIOPI_SUPPORT_FORWARD_(diopiGetStream, stream, (diopiContextHandle_t ctx, diopiStreamHandle_t* s), (ctx, s))                         \
    DIOPI_SUPPORT_FORWARD_(diopiRequireTensor, requireTensor,                                                                            \
                           (diopiContextHandle_t ctx, diopiTensorHandle_t* t, const diopiSize_t* size, const diopiSize_t* stride,        \
                            const diopiDtype_t dtype, const diopiDevice_t device),                                                      \
                           (ctx, t, size, stride, dtype, device))                                                                        \
    DIOPI_SUPPORT_FORWARD_(diopiRequireBuffer, requireBuffer, (diopiContextHandle_t ctx, diopiTensorHandle_t* t, int64_t n, diopiDevice_t d), \
                           (ctx, t, n, d))                                                                                               \
    DIOPI_SUPPORT_FORWARD_(diopiGeneratorGetState, generatorGetState,                                                                    \
                           (diopiContextHandle_t ctx, diopiConstGeneratorHandle_t g, diopiTensorHandle_t* d), (ctx, g, d))               \
    DIOPI_SUPPORT_FORWARD_(diopiGeneratorSetState, generatorSetState, (diopiGeneratorHandle_t g, diopiConstTensorHandle_t s), (g, s))   \
    DIOPI_SUPPORT_FORWARD_(diopiGeneratorGetSeedAndOffset, seedAndOffset, (diopiGeneratorHandle_t g, uint64_t* seed, uint64_t* offset), \
                           (g, seed, offset))                                                                                            \
    DIOPI_SUPPORT_FORWARD_(diopiGeneratorSetSeedAndOffset, setSeedAndOffset, (diopiGeneratorHandle_t g, uint64_t seed, uint64_t offset), \
                           (g, seed, offset))                                                                                            \
    DIOPI_RT_API diopiError_t diopiRecordStart(const char*, void** record) {                                                             \
        if (record) *record = nullptr;                                                                                                   \
        return diopiSuccess;                                                                                                             \
    }                                                                                                                                    \
    DIOPI_RT_API diopiError_t diopiRecordEnd(void** record) {                                                                            \
        if (record) *record = nullptr;                                                                                                   \
        return diopiSuccess;                                                                                                             \
    }                                                                                                                                    \
    }
