// The tools' view of one DIOPI call (profiler events, op timer, call log,
// named fallback; diopi_torch/tools/ in Python). Call::run hands every
// argument to the tools as an `Arg`, a tagged value that needs no template
// beyond this file, and only when a tool is on: with none on, a call costs
// one relaxed atomic load and the profiler's check the dispatcher makes for
// every operator (at::getStepCallbacksUnlessEmpty) more.
#pragma once

#include <ATen/core/stack.h>
#include <ATen/record_function.h>
#include <diopi/diopirt.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace diopi_torch {

struct OpInfo;
class Call;

namespace tools {

enum : unsigned {
    kTimer = 1u,        // op_timer(): per-call times into the timer's table
    kLog = 2u,          // DIOPI_LOG_CALLS / log_calls(): one line per call
    kNamed = 4u,        // fallback(ops=...): some operators go to the CPU by name
    kDeviceTrace = 8u,  // the profiler's PrivateUse1 activity is recording
};

extern std::atomic<unsigned> gActive;

/// The tools switched on now (kTimer | kLog | kNamed | kDeviceTrace).
inline unsigned active() { return gActive.load(std::memory_order_relaxed); }

/// Whether fallback(ops=...) names this call's operator or function now (what Call::run declines for it).
bool named(const OpInfo& info);

/// One argument of a DIOPI call, as the tools read it.
struct Arg {
    enum Kind : uint8_t {
        Context, Tensor, TensorArray, OutSlot, Scalar, Size, SizePtr, Int, Float, Bool, Enum, String, Generator,
        IntPtr, FloatPtr, BoolPtr, Other
    };
    Kind kind = Other;
    const void* p = nullptr;  // handle, array, diopiScalar_t*, diopiSize_t*, string or pointee
    int64_t i = 0;            // Int, Bool, Enum
    double d = 0.0;           // Float
    diopiSize_t size{nullptr, 0};
};

inline Arg view(diopiContextHandle_t) { return {Arg::Context}; }
inline Arg view(diopiConstTensorHandle_t h) { return {Arg::Tensor, h}; }
inline Arg view(diopiTensorHandle_t h) { return {Arg::Tensor, h}; }
inline Arg view(const diopiConstTensorHandle_t* a) { return {Arg::TensorArray, a}; }
inline Arg view(diopiTensorHandle_t* a) { return {Arg::TensorArray, a}; }  // or an OutSlot: the call tells which
inline Arg view(const diopiScalar_t* s) { return {Arg::Scalar, s}; }
inline Arg view(diopiSize_t s) {
    Arg a{Arg::Size};
    a.size = s;
    return a;
}
inline Arg view(diopiSize_t* s) { return {Arg::SizePtr, s}; }
inline Arg view(const int64_t* v) { return {Arg::IntPtr, v}; }
inline Arg view(const double* v) { return {Arg::FloatPtr, v}; }
inline Arg view(const bool* v) { return {Arg::BoolPtr, v}; }
inline Arg view(const char* s) { return {Arg::String, s}; }
inline Arg view(diopiGeneratorHandle_t g) { return {Arg::Generator, g}; }
inline Arg view(bool v) { return {Arg::Bool, nullptr, v ? 1 : 0}; }
inline Arg view(double v) {
    Arg a{Arg::Float};
    a.d = v;
    return a;
}
inline Arg view(float v) { return view(static_cast<double>(v)); }
inline Arg view(int64_t v) { return {Arg::Int, nullptr, v}; }
inline Arg view(int32_t v) { return {Arg::Int, nullptr, v}; }
inline Arg view(diopiRoundMode_t v) { return {Arg::Enum, nullptr, static_cast<int64_t>(v)}; }
inline Arg view(diopiReduction_t v) { return {Arg::Enum, nullptr, static_cast<int64_t>(v)}; }
inline Arg view(diopiMemoryFormat_t v) { return {Arg::Enum, nullptr, static_cast<int64_t>(v)}; }
inline Arg view(diopiDtype_t v) { return {Arg::Enum, nullptr, static_cast<int64_t>(v)}; }
template <class T>
Arg view(const T&) {
    return {Arg::Other};
}

/// The tooled path of Call::run: named fallback, profiler event (`step`: the
/// profiler's callbacks when the caller already asked for them), timing and
/// log line around `invoke` (which makes the vendor call).
diopiError_t run(Call& call, unsigned mask, std::optional<at::StepCallbacks> step, const Arg* args, size_t n,
                 diopiError_t (*invoke)(void*), void* closure);
/// Called when a timed Call ends: adds the kernel's whole time to the timer.
void finish(Call& call);
/// Monotonic nanoseconds.
int64_t now();

// The profiler's PrivateUse1 activity (profiler.cpp): device-side spans of the calls.
/// The profiler's clock (ns), for spans that line up with its CPU events.
int64_t traceClock();
/// The correlation id of the innermost profiler event open on this thread (0: none).
uint64_t deviceCorrelation();
/// Marks the device's stream before a traced call: the span's start on the device (an event, null without one).
void* deviceSpanBegin();
/// The span of a traced call launched between host times `start` and `end`; `begin` is deviceSpanBegin()'s
/// event: an event recorded now after the call's work times the span on the device when profiling ends.
void deviceSpan(const OpInfo& info, int64_t start, int64_t end, uint64_t correlation, void* begin);

// The CPU fallback's part (library.cpp): a fallback is timed and logged like a call.
/// The tensors (and with `full` strides and the other values) of a boxed call's arguments from stack[first].
std::string describeStack(const torch::jit::Stack& stack, size_t first, bool full);
void fallbackDone(const std::string& aten, const char* reason, const std::string& shapes, const std::string& full, int64_t ns);

}  // namespace tools
}  // namespace diopi_torch
