// What a generated operator wrapper does: capture the call's arguments while
// the caller's handles are valid, then queue the kernel on the context's
// stream (or, for calls that must finish before they return, wait for the
// stream and run it at once).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>

#include "sim.hpp"

namespace sim {

class Launch {
public:
    /// `sync`: the call's results are needed when it returns (outputs the
    /// library allocates, numbers written to the host, generators).
    Launch(const char* func, diopiContextHandle_t ctx, bool sync) noexcept;

    diopiTensorHandle_t tensor(const char* name, diopiTensorHandle_t h) noexcept;
    diopiConstTensorHandle_t tensor(const char* name, diopiConstTensorHandle_t h) noexcept;
    /// A caller array of `n` tensors (NULL stays NULL).
    diopiTensorHandle_t* tensors(const char* name, diopiTensorHandle_t* arr, int64_t n) noexcept;
    diopiConstTensorHandle_t* tensors(const char* name, diopiConstTensorHandle_t* arr, int64_t n) noexcept;
    /// One output the library allocates: the kernel's slot, mapped back to `slot` after the call.
    diopiTensorHandle_t* allocated(diopiTensorHandle_t* slot) noexcept;
    const diopiScalar_t* scalar(const diopiScalar_t* s) noexcept;
    diopiSize_t size(diopiSize_t s) noexcept;
    diopiSize_t* size(const diopiSize_t* s) noexcept;
    const int64_t* value(const int64_t* p) noexcept;
    const double* value(const double* p) noexcept;
    const bool* value(const bool* p) noexcept;
    const char* string(const char* s) noexcept;
    /// An argument passed by value (number, enum; pointers pass untouched): it becomes part of the call's signature.
    template <class T>
    T plain(T v) noexcept {
        if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) {
            mix(static_cast<uint64_t>(v));
        } else if constexpr (std::is_floating_point_v<T>) {
            double d = static_cast<double>(v);
            uint64_t bits = 0;
            std::memcpy(&bits, &d, sizeof bits);
            mix(bits);
        }
        return v;
    }

    /// Runs `kernel` (with the simulator's context) in order on the stream; returns the status of the launch.
    diopiError_t run(std::function<diopiError_t(diopiContextHandle_t)> kernel) noexcept;

private:
    // The call's signature: function, every tensor's dtype, shape, strides and
    // aliasing, and every other argument's value. A call whose signature has
    // not yet run without error runs before it returns, so that an argument
    // error (shape, dtype, unsupported) fails the call that made it; repeats
    // of a call that worked are queued.
    uint64_t key_ = 0xcbf29ce484222325ULL;
    void mix(uint64_t v) noexcept { key_ = (key_ ^ v) * 0x100000001b3ULL; }
    const char* func_;
    diopiError_t status_ = diopiSuccess;
    bool sync_;
    std::shared_ptr<Stream> stream_;
    std::unique_ptr<KernelCtx> k_;
    std::vector<std::pair<diopiTensorHandle_t*, diopiTensorHandle_t*>> allocated_;  // (caller's slot, kernel's slot)
    bool fail(diopiError_t code, const std::string& msg) noexcept;
    diopiTensorHandle_t* array(const char* name, const void* const* arr, int64_t n) noexcept;
};

/// The kernels' own last error (impl/cpu's diopiGetLastErrorString on this thread).
const char* kernelLastError();

}  // namespace sim
