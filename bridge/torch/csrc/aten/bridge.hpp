// The `diopi` device's runtime as the generated operator kernels see it:
// the loaded vendor library, one DIOPI call (context, handles, argument
// conversions, status checking), counters and the CPU fallback.
#pragma once

#include <ATen/ATen.h>
#include <ATen/native/CPUFallback.h>
#include <c10/core/DeviceGuard.h>
#include <c10/util/SmallVector.h>
#include <diopi/diopirt.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <limits>
#include <memory>
#include <new>
#include <string_view>
#include <optional>
#include <string>
#include <vector>

#include "runtime/device_runtime.hpp"
#include "tools/tools.hpp"

// The caller-side objects behind the opaque handles of diopirt.h.
struct diopiTensor {
    at::Tensor t;
};

namespace diopi_torch {
/// Values whose addresses are handed to a vendor call and must stay put
/// while it runs. The first N live inside the object (a call uses two or
/// three of a kind), later ones in a std::deque made on first use: a small
/// operator made no heap allocation for these, where a std::deque per list
/// cost three (the deque, its map, a first block). Neither copied nor moved,
/// so addresses hold.
template <class T, size_t N = 4>
class StableList {
public:
    StableList() = default;
    StableList(const StableList&) = delete;
    StableList& operator=(const StableList&) = delete;
    ~StableList() {
        for (size_t i = std::min(n_, N); i > 0; --i) slot(i - 1)->~T();
    }
    template <class... A>
    T& emplace_back(A&&... a) {
        if (n_ < N) {
            T* p = new (slot(n_)) T(std::forward<A>(a)...);
            ++n_;
            return *p;
        }
        if (!more_) more_ = std::make_unique<std::deque<T>>();
        ++n_;
        return more_->emplace_back(std::forward<A>(a)...);
    }
    void push_back(T v) { emplace_back(std::move(v)); }
    T& back() { return n_ <= N ? *slot(n_ - 1) : more_->back(); }
    bool empty() const { return n_ == 0; }
    size_t size() const { return n_; }
    const T& operator[](size_t i) const { return i < N ? *slot(i) : (*more_)[i - N]; }

private:
    T* slot(size_t i) { return std::launder(reinterpret_cast<T*>(buf_) + i); }
    const T* slot(size_t i) const { return std::launder(reinterpret_cast<const T*>(buf_) + i); }
    alignas(T) unsigned char buf_[N * sizeof(T)];
    size_t n_ = 0;
    std::unique_ptr<std::deque<T>> more_;
};
}  // namespace diopi_torch

struct diopiContext {
    diopi_torch::StableList<diopiTensor, 8> handles;  // handles given out during one call (stable addresses)
    diopiStreamHandle_t stream = nullptr;
};

namespace diopi_torch {

/// What the generated code knows about one mapping entry, and its call counter.
struct OpInfo {
    const char* aten;   // "add.Tensor"
    const char* diopi;  // "diopiAdd"
    const char* where;  // "aten_to_diopi.yaml:12"
    const char* params;  // the DIOPI parameters after the context, comma-separated (names in the call log)
    mutable std::atomic<uint64_t> calls{0};
    mutable std::atomic<bool> listed{false};
    mutable std::atomic<uint32_t> namedGen{0};  // named fallback, cached: generation << 1 | named
};

/// The address of `name` in the loaded vendor library, or nullptr when the
/// library does not export it. Raises when no library is loaded.
void* symbol(const char* name);

// Counters (diopi_torch.stats()).
void countDiopi(const OpInfo& info);
void countFallback(const char* aten, const char* reason);
void countView(const char* aten);
void countCopy(const char* aten);

/// The boxed CPU fallback: counts the call, honours DIOPI_FALLBACK=error,
/// then computes on the CPU and copies results back.
void cpuFallback(const c10::OperatorHandle& op, torch::jit::Stack* stack, const char* reason);
void unmappedFallback(const c10::OperatorHandle& op, torch::jit::Stack* stack);
/// Counts a fallback a hand-written kernel takes (raises under DIOPI_FALLBACK=error).
void noteFallback(const std::string& aten, const char* reason);
/// An operator the fallback computes from calls the device serves before it goes to the CPU
/// (decompose.cpp): one without a mapping entry, or whose entries decline a call (_fused_adamw_ with
/// a grad scaler). Not taken for a fallback asked for by name, nor while the same operator is being
/// decomposed on this thread (its own fallback, or a call it declines, goes to the CPU).
void addDecomposition(const char* aten, c10::KernelFunction kernel);
/// Why the fallback was taken for the operator being decomposed on this thread: a decomposition that
/// declines a call passes it on to the CPU fallback.
const char* decomposedReason();

/// The device one operator call runs on: every tensor argument must be on it,
/// except 0-dim host tensors (scalars) and host index tensors, which CUDA
/// accepts too; anything else raises PyTorch's "Expected all tensors to be on
/// the same device" before the vendor sees a handle. The guard makes that
/// device (and its current stream) the one the DIOPI call uses.
class DeviceCheck {
public:
    DeviceCheck(const char* aten, bool strict) : aten_(aten), strict_(strict) {}
    void add(const at::Tensor& t, bool hostOk = false) {
        if (!t.defined()) return;
        const c10::Device d = t.device();
        if (d.is_cpu() && (hostOk || t.dim() == 0 || !strict_)) return;
        if (!device_) {
            device_ = d;
        } else if (*device_ != d && strict_) {
            TORCH_CHECK(false, "Expected all tensors to be on the same device, but found at least two devices, ", *device_, " and ", d,
                        "! (in aten::", aten_, ")");
        }
    }
    void add(const std::optional<at::Tensor>& t) { if (t.has_value()) add(*t); }
    void add(at::TensorList ts) { for (const auto& t : ts) add(t); }
    void add(const at::ITensorListRef& ts) { for (const at::Tensor& t : ts) add(t); }
    void add(const c10::List<std::optional<at::Tensor>>& ts) {  // index tensors
        for (std::optional<at::Tensor> t : ts) if (t.has_value()) add(*t, /*hostOk=*/true);
    }
    void add(const std::optional<at::Device>& d) {  // factory functions: the device they create on
        if (d.has_value() && d->type() == c10::DeviceType::PrivateUse1 && !device_) {
            if (d->has_index()) checkDeviceIndex(d->index());
            device_ = *d;
        }
    }
    template <class T>
    void add(const T&) {}
    std::optional<c10::Device> device() const { return device_; }

    template <class... Args>
    static c10::OptionalDeviceGuard scope(const char* aten, const Args&... args) {
        DeviceCheck c(aten, true);
        (c.add(args), ...);
        return c10::OptionalDeviceGuard(c.device_);
    }
    /// For copies between devices: the first device tensor's device, nothing checked.
    template <class... Args>
    static c10::OptionalDeviceGuard lenient(const char* aten, const Args&... args) {
        DeviceCheck c(aten, false);
        (c.add(args), ...);
        return c10::OptionalDeviceGuard(c.device_);
    }

private:
    const char* aten_;
    bool strict_;
    std::optional<c10::Device> device_;
};

/// Reason of the fallback being taken by the current typed kernel (thread-local).
void setFallbackReason(const char* reason);

template <class Op, class... Args>
decltype(auto) fallback(const char* reason, Args&&... args) {
    setFallbackReason(reason);
    return at::native::call_fallback_fn_symint<&unmappedFallback, Op>::call(std::forward<Args>(args)...);
}

/// Tensors on the meta device with the sizes, strides and dtype of the
/// arguments, so ATen's own meta kernels compute result shapes and dtypes.
at::Tensor toMeta(const at::Tensor& t);
// Mutable tensors (out=, in-place) must not reach the catch-all template below.
inline at::Tensor toMeta(at::Tensor& t) { return toMeta(static_cast<const at::Tensor&>(t)); }
inline std::optional<at::Tensor> toMeta(const std::optional<at::Tensor>& t) {
    if (!t.has_value() || !t->defined()) return t;
    return toMeta(*t);
}
std::vector<at::Tensor> toMeta(at::TensorList ts);
// Factory operators: the meta copy of a call creates its result on the meta device.
inline std::optional<at::Device> toMeta(std::optional<at::Device>) { return at::Device(at::kMeta); }
std::vector<at::Tensor> toMeta(const at::ITensorListRef& ts);
std::vector<std::optional<at::Tensor>> toMeta(const c10::List<std::optional<at::Tensor>>& ts);
template <class T>
decltype(auto) toMeta(T&& v) {
    return std::forward<T>(v);
}

/// A key describing every argument of a call (tensor sizes, strides, dtypes;
/// values of everything else), so result shapes computed once by the meta
/// kernels are reused for identical calls. Training repeats the same calls
/// every layer and every step, and ATen's meta kernels are mostly Python.
class MetaKey {
public:
    // On the stack up to 256 bytes (a call of three 4-d tensors): the key of
    // every call used to be a heap string regrown three or four times.
    c10::SmallVector<char, 256> bytes;
    bool cacheable = true;

    std::string_view view() const { return std::string_view(bytes.data(), bytes.size()); }
    template <class T>
    void pod(const T& v) { append(reinterpret_cast<const char*>(&v), sizeof(T)); }
    void append(const char* p, size_t n) { bytes.append(p, p + n); }
    void add(const at::Tensor& t) {
        if (!t.defined()) return pod(int8_t(-1));
        pod(static_cast<int8_t>(t.scalar_type()));
        pod(static_cast<int8_t>(t.device().type()));
        // A Python number promotes differently from a 0-dim tensor of the same dtype (int + 2.5 is float32).
        pod(static_cast<int8_t>(t.unsafeGetTensorImpl()->is_wrapped_number()));
        pod(static_cast<int64_t>(t.dim()));
        for (auto s : t.sizes()) pod(s);
        for (auto s : t.strides()) pod(s);
    }
    void add(const std::optional<at::Tensor>& t) { t.has_value() ? add(*t) : pod(int8_t(-2)); }
    void add(at::TensorList ts) { pod(ts.size()); for (const auto& t : ts) add(t); }
    void add(const at::ITensorListRef& ts) { pod(ts.size()); for (const at::Tensor& t : ts) add(t); }
    void add(const c10::List<std::optional<at::Tensor>>& ts) { pod(ts.size()); for (std::optional<at::Tensor> t : ts) add(t); }
    void add(const at::Scalar& s) {
        pod(static_cast<int8_t>(s.type()));
        if (s.isFloatingPoint()) pod(s.toDouble());
        else if (s.isIntegral(true)) pod(s.toLong());
        else cacheable = false;
    }
    void add(const std::optional<at::Scalar>& s) { s.has_value() ? add(*s) : pod(int8_t(-2)); }
    void add(at::IntArrayRef v) { pod(v.size()); for (auto x : v) pod(x); }
    void add(c10::SymIntArrayRef v) { add(C10_AS_INTARRAYREF_SLOW(v)); }
    void add(at::OptionalIntArrayRef v) { v.has_value() ? add(*v) : pod(int8_t(-2)); }
    void add(at::OptionalSymIntArrayRef v) { v.has_value() ? add(*v) : pod(int8_t(-2)); }
    void add(const c10::SymInt& v) { pod(v.expect_int()); }
    void add(int64_t v) { pod(v); }
    void add(double v) { pod(v); }
    void add(bool v) { pod(v); }
    void add(c10::string_view v) { pod(v.size()); append(v.data(), v.size()); }
    template <size_t N>
    void add(const std::array<bool, N>& v) { for (bool b : v) pod(b); }
    template <class T>
    void add(const std::optional<T>& v) { if (v.has_value()) { pod(int8_t(1)); add(*v); } else { pod(int8_t(-2)); } }
    void add(at::ScalarType v) { pod(static_cast<int8_t>(v)); }
    void add(at::Layout v) { pod(static_cast<int8_t>(v)); }
    void add(at::MemoryFormat v) { pod(static_cast<int8_t>(v)); }
    void add(at::Device v) { pod(static_cast<int8_t>(v.type())); }
    void add(const at::Generator&) {}
    template <class T>
    void add(const T&) { cacheable = false; }  // a type not described above: never reuse

    template <class... Args>
    static MetaKey of(const Args&... args) {
        MetaKey k;
        (k.add(args), ...);
        return k;
    }
};

/// Meta results by MetaKey, for one operator.
template <class R>
class MetaCache {
public:
    template <class F>
    R get(const MetaKey& key, F&& compute) {
        if (!key.cacheable) return compute();
        {
            std::lock_guard<std::mutex> g(mu_);
            auto it = map_.find(key.view());  // no std::string made for a lookup
            if (it != map_.end()) return it->second;
        }
        R r = compute();
        std::lock_guard<std::mutex> g(mu_);
        if (map_.size() >= 4096) map_.clear();  // bounded: shapes of one model fit many times over
        map_.emplace(std::string(key.view()), r);
        return r;
    }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
    };
    std::mutex mu_;
    std::unordered_map<std::string, R, Hash, std::equal_to<>> map_;
};

/// Guards the meta computation of a result shape: an argument left on the
/// device would dispatch back into the device's own kernel; the guard turns
/// that endless recursion into an error naming the operator.
class MetaScope {
public:
    explicit MetaScope(const char* aten);
    ~MetaScope();
};

/// Device tensors shaped like the meta results.
at::Tensor allocLike(const at::Tensor& meta);
template <class... Ts>
std::tuple<Ts...> allocLike(const std::tuple<Ts...>& metas) {
    return std::apply([](const auto&... m) { return std::tuple<Ts...>(allocLike(m)...); }, metas);
}
std::vector<at::Tensor> allocLike(const std::vector<at::Tensor>& metas);
at::Device currentDevice();

inline int64_t toIntValue(int64_t v) { return v; }
inline int64_t toIntValue(const c10::SymInt& v) { return v.expect_int(); }

/// Integer lists joined: `[1] + stride` in the mapping.
template <class A, class B>
std::vector<int64_t> concat(const A& a, const B& b) {
    std::vector<int64_t> out;
    for (auto v : a) out.push_back(toIntValue(v));
    for (auto v : b) out.push_back(toIntValue(v));
    return out;
}

// Numbers as DIOPI takes them.
inline int64_t toInt(int64_t v) { return v; }
inline int64_t toInt(const c10::SymInt& v) { return v.expect_int(); }
inline int64_t toInt(const std::optional<int64_t>& v) { return v.value_or(0); }
inline int64_t toInt(const std::optional<c10::SymInt>& v) { return v.has_value() ? v->expect_int() : 0; }  // slice_scatter's start/end
inline double toDouble(double v) { return v; }
inline double toDouble(const at::Scalar& v) { return v.toDouble(); }
inline double toDouble(const std::optional<double>& v) { return v.value_or(0.0); }
diopiDtype_t toDiopiDtype(at::ScalarType t);
inline diopiDtype_t toDiopiDtype(const std::optional<at::ScalarType>& t) { return t ? toDiopiDtype(*t) : diopi_dtype_unsupported; }

/// Whether a tensor argument is a Python number (`x * 0.5`): ATen's host 0-dim "wrapped number", not complex.
/// The mapping's is_number(); such a call is served by the DIOPI function that takes a scalar.
inline bool isNumber(const at::Tensor& t) {
    return t.defined() && t.unsafeGetTensorImpl()->is_wrapped_number() && !at::isComplexType(t.scalar_type());
}

/// A DIOPI value standing for "no value": NULL handle, empty size, NULL pointer.
struct None {};
inline bool present(const at::Tensor& t) { return t.defined(); }
inline bool present(const std::optional<at::Tensor>& t) { return t.has_value() && t->defined(); }
template <class T>
bool present(const std::optional<T>& v) { return v.has_value(); }
template <class T>
bool present(const T&) { return true; }
inline bool present(None) { return false; }

/// One DIOPI call: owns the context and every handle, string and list the
/// call's arguments point to until the call returns.
class Call {
public:
    explicit Call(const OpInfo& info) : info_(info) {
        refuseInBadFork();
        ctx_.stream = currentNativeStream();
        tool.mask = tools::active();
        if (C10_UNLIKELY(tool.mask & tools::kTimer)) tool.t0 = tools::now();
    }
    Call(const Call&) = delete;
    ~Call() {
        if (C10_UNLIKELY(tool.mask & tools::kTimer)) tools::finish(*this);
    }

    /// Calls the vendor's `fn` with the converted arguments. With a tool on
    /// (tools.hpp) the call is also a profiler event, timed, logged, or not
    /// made at all when its operator falls back by name (named() then says so).
    template <class Fn, class... Args>
    diopiError_t run(Fn fn, Args... args) {
        if (C10_LIKELY(!tool.mask)) {
            // The profiler's check, as the dispatcher makes it for every operator.
            auto step = at::getStepCallbacksUnlessEmpty(at::RecordScope::FUNCTION);
            if (C10_LIKELY(!step)) return fn(args...);
            return tooled(std::move(step), fn, args...);
        }
        return tooled(std::nullopt, fn, args...);
    }
    /// Whether run() declined the call because its operator falls back by name.
    bool named() const { return tool.named; }
    /// Entries of a tensor array this call built (ins/outs), or -1 for another pointer.
    int64_t arrayLength(const void* p) const;
    /// What the tools keep about this call.
    struct ToolState {
        unsigned mask = 0;
        bool named = false, ran = false;
        int8_t phase = 0;
        int64_t t0 = 0;
    } tool;

    const OpInfo& info() const { return info_; }
    diopiContextHandle_t ctx() { return &ctx_; }

    // Tensors (inputs and outputs): an undefined tensor is NULL.
    diopiTensorHandle_t tensor(const at::Tensor& t);
    diopiTensorHandle_t tensor(const std::optional<at::Tensor>& t) { return present(t) ? tensor(*t) : nullptr; }
    diopiTensorHandle_t tensor(None) { return nullptr; }
    diopiConstTensorHandle_t in(const at::Tensor& t) { return tensor(t); }
    diopiConstTensorHandle_t in(const std::optional<at::Tensor>& t) { return tensor(t); }
    diopiConstTensorHandle_t in(None) { return nullptr; }
    diopiConstTensorHandle_t in(const at::Scalar& s);  // a 0-dim tensor holding the scalar
    diopiTensorHandle_t out(const at::Tensor& t) { return tensor(t); }
    diopiTensorHandle_t out(const std::optional<at::Tensor>& t) { return tensor(t); }
    diopiTensorHandle_t out(None) { return nullptr; }

    // Tensor arrays.
    diopiConstTensorHandle_t* ins(at::TensorList ts);
    diopiConstTensorHandle_t* ins(const at::ITensorListRef& ts);
    diopiConstTensorHandle_t* ins(const c10::List<std::optional<at::Tensor>>& ts);
    diopiTensorHandle_t* outs(at::TensorList ts);

    // Scalars: at::Scalar, numbers, optionals (NULL when absent).
    const diopiScalar_t* scalar(const at::Scalar& s);
    const diopiScalar_t* scalar(const std::optional<at::Scalar>& s) { return s.has_value() ? scalar(*s) : nullptr; }
    const diopiScalar_t* scalar(double v) { return scalar(at::Scalar(v)); }
    const diopiScalar_t* scalar(int64_t v) { return scalar(at::Scalar(v)); }
    const diopiScalar_t* scalar(int v) { return scalar(at::Scalar(static_cast<int64_t>(v))); }
    const diopiScalar_t* scalar(None) { return nullptr; }
    const diopiScalar_t* scalar(const at::Tensor& t);  // a 0-dim tensor's value

    // Integer lists: empty when absent.
    diopiSize_t size(at::IntArrayRef v);
    diopiSize_t size(c10::SymIntArrayRef v);
    diopiSize_t size(at::OptionalIntArrayRef v) { return v.has_value() ? size(*v) : diopiSize_t{nullptr, 0}; }
    diopiSize_t size(at::OptionalSymIntArrayRef v) { return v.has_value() ? size(*v) : diopiSize_t{nullptr, 0}; }
    diopiSize_t size(const std::vector<int64_t>& v) { return size(at::IntArrayRef(v)); }
    diopiSize_t size(std::initializer_list<int64_t> v) { return size(std::vector<int64_t>(v)); }
    diopiSize_t size(int64_t v) { return size(std::vector<int64_t>{v}); }
    diopiSize_t size(const c10::SymInt& v) { return size(v.expect_int()); }
    diopiSize_t size(None) { return diopiSize_t{nullptr, 0}; }
    diopiSize_t* sizePtr(at::OptionalIntArrayRef v);
    diopiSize_t* sizePtr(at::OptionalSymIntArrayRef v);
    diopiSize_t* sizePtr(at::IntArrayRef v) { return sizePtr(at::OptionalIntArrayRef(v)); }
    diopiSize_t* sizePtr(c10::SymIntArrayRef v) { return sizePtr(at::OptionalSymIntArrayRef(v)); }
    diopiSize_t* sizePtr(None) { return nullptr; }

    // Pointers to optional numbers.
    const int64_t* intPtr(std::optional<int64_t> v);
    const int64_t* intPtr(None) { return nullptr; }
    const double* doublePtr(std::optional<double> v);
    const double* doublePtr(const at::Scalar& v) { return doublePtr(std::optional<double>(v.toDouble())); }  // constant_pad_nd's value
    const double* doublePtr(None) { return nullptr; }
    const bool* boolPtr(std::optional<bool> v);
    const bool* boolPtr(None) { return nullptr; }

    const char* string(c10::string_view s);
    const char* string(const char* s) { return string(c10::string_view(s)); }  // literals from the mapping
    const char* string(std::optional<c10::string_view> s) { return s.has_value() ? string(*s) : nullptr; }
    const char* string(None) { return nullptr; }

    diopiGeneratorHandle_t generator(const std::optional<at::Generator>& g);
    diopiGeneratorHandle_t generator(None) { return generator(std::optional<at::Generator>()); }

    /// The vendor's function, or nullptr when it does not export it.
    template <class Fn>
    Fn fn() {
        return reinterpret_cast<Fn>(symbol(info_.diopi));
    }

    /// Whether the status asks for the CPU fallback (diopiNoImplement,
    /// diopiDtypeNotSupported, diopiForceFallbackToCPU); gives its reason.
    static const char* fallbackReason(diopiError_t status);
    /// Raises a RuntimeError naming the DIOPI function, the ATen operator and
    /// the vendor's last error string when `status` is not diopiSuccess.
    void check(diopiError_t status);
    /// The tensor the vendor allocated into a diopiTensorHandle_t* output.
    at::Tensor owned(diopiTensorHandle_t h);

private:
    /// run() with a tool on: the arguments as the tools read them, and the call as a closure.
    template <class Fn, class... Args>
    diopiError_t tooled(std::optional<at::StepCallbacks> step, Fn fn, Args... args) {
        const tools::Arg views[] = {tools::view(args)...};
        auto invoke = [&] { return fn(args...); };
        return tools::run(*this, tool.mask, std::move(step), views, sizeof...(Args),
                          [](void* c) -> diopiError_t { return (*static_cast<decltype(invoke)*>(c))(); }, &invoke);
    }

    const OpInfo& info_;
    diopiContext ctx_;
    StableList<diopiScalar_t> scalars_;
    StableList<std::vector<int64_t>> ints_;
    StableList<diopiSize_t> sizes_;
    StableList<std::string> strings_;
    StableList<std::vector<diopiConstTensorHandle_t>> constArrays_;
    StableList<std::vector<diopiTensorHandle_t>> arrays_;
    StableList<int64_t> int_;
    StableList<double> double_;
    StableList<char> bool_;
};

}  // namespace diopi_torch
