// The loaded vendor library, the argument conversions of one DIOPI call,
// counters, the counted CPU fallback, and the C functions the Python
// package calls through ctypes.
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <unordered_map>

#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

namespace diopi_torch {
namespace {

struct Library {
    std::mutex mu;
    void* handle = nullptr;
    std::string path;
    std::unordered_map<std::string, void*> symbols;
    const char* (*lastError)() = nullptr;
};

Library& lib() {
    static Library l;
    return l;
}

// ---------------------------------------------------------------- counters

struct Counts {
    uint64_t diopi = 0, fallback = 0, view = 0, copy = 0;
    std::map<std::string, uint64_t> functions;  // DIOPI function -> calls
    std::map<std::string, uint64_t> reasons;    // fallback reason -> calls
};

std::mutex gStatsMu;
std::map<std::string, Counts> gStats;
std::atomic<uint64_t> gDiopiSeq{0};
std::atomic<const OpInfo*> gLastCall{nullptr};  // the latest DIOPI call (autocompare reads it)
std::vector<const OpInfo*> gInfos;              // every entry that has been called (guarded by gStatsMu)
std::atomic<bool> gFallbackError{false};
thread_local const char* tFallbackReason = nullptr;

std::string json(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            o += ' ';
            continue;
        }
        o += c;
    }
    return o + "\"";
}

std::string opName(const c10::OperatorHandle& op) {
    const auto& n = op.schema().operator_name();
    std::string s = n.name.substr(n.name.find("::") == std::string::npos ? 0 : n.name.find("::") + 2);
    return n.overload_name.empty() ? s : s + "." + n.overload_name;
}

}  // namespace

void requireLibrary() {
    TORCH_CHECK(lib().handle, "diopi: no vendor library is loaded; call diopi_torch.load(path) or set DIOPI_IMPL_LIB");
}

void* symbol(const char* name) {
    auto& l = lib();
    requireLibrary();
    std::lock_guard<std::mutex> g(l.mu);
    auto it = l.symbols.find(name);
    if (it != l.symbols.end()) return it->second;
    void* p = dlsym(l.handle, name);
    l.symbols.emplace(name, p);
    return p;
}

std::string lastVendorError() {
    auto f = lib().lastError;
    const char* s = f ? f() : nullptr;
    return s ? s : "";
}

// The hot path: one atomic increment; names are joined only when stats() is read.
void countDiopi(const OpInfo& info) {
    if (!info.listed.load(std::memory_order_acquire)) {
        std::lock_guard<std::mutex> g(gStatsMu);
        if (!info.listed.exchange(true)) gInfos.push_back(&info);
    }
    info.calls.fetch_add(1, std::memory_order_relaxed);
    gLastCall.store(&info, std::memory_order_relaxed);
    gDiopiSeq.fetch_add(1, std::memory_order_release);
}

void countFallback(const char* aten, const char* reason) {
    std::lock_guard<std::mutex> g(gStatsMu);
    auto& c = gStats[aten];
    c.fallback++;
    c.reasons[reason]++;
}

void countView(const char* aten) {
    std::lock_guard<std::mutex> g(gStatsMu);
    gStats[aten].view++;
}

void countCopy(const char* aten) {
    std::lock_guard<std::mutex> g(gStatsMu);
    gStats[aten].copy++;
}

void setFallbackReason(const char* reason) { tFallbackReason = reason; }

namespace {
thread_local int tMetaDepth = 0;
}
MetaScope::MetaScope(const char* aten) {
    TORCH_CHECK(tMetaDepth < 8, "diopi: computing the result shape of aten::", aten,
                " re-entered the device (an argument was not moved to the meta device)");
    ++tMetaDepth;
}
MetaScope::~MetaScope() { --tMetaDepth; }

// The device rule of the generated kernels (DeviceCheck) for operators that
// reach the fallback: a CUDA kernel would raise for operands on two devices.
void checkFallbackDevices(const c10::OperatorHandle& op, const torch::jit::Stack& stack, const std::string& name) {
    static const std::set<std::string> crossDevice = {"copy_", "_to_copy", "_copy_from", "_copy_from_and_resize", "to", "set_",
                                                      "lift_fresh", "_has_compatible_shallow_copy_type"};
    if (crossDevice.count(name.substr(0, name.find('.')))) return;
    size_t n = op.schema().arguments().size();
    DeviceCheck check(op.schema().name().c_str(), true);
    for (size_t i = stack.size() - std::min(n, stack.size()); i < stack.size(); ++i) {
        const c10::IValue& v = stack[i];
        if (v.isTensor()) {
            check.add(v.toTensor());
        } else if (v.isTensorList()) {
            for (const at::Tensor& t : v.toTensorVector()) check.add(t);
        } else if (v.isList()) {
            for (const c10::IValue& e : v.toListRef())
                if (e.isTensor()) check.add(e.toTensor(), /*hostOk=*/true);  // lists of optional tensors: indices
        }
    }
}

void noteFallback(const std::string& name, const char* reason) {
    // A fallback asked for by name (diopi_torch.fallback(ops=...)) is allowed under DIOPI_FALLBACK=error too.
    TORCH_CHECK(!gFallbackError.load() || std::strcmp(reason, "named") == 0, "aten::", name, " would run on the CPU (", reason,
                ") and DIOPI_FALLBACK=error forbids fallbacks");
    countFallback(name.c_str(), reason);
}

void cpuFallback(const c10::OperatorHandle& op, torch::jit::Stack* stack, const char* reason) {
    std::string name = opName(op);
    checkFallbackDevices(op, *stack, name);
    noteFallback(name, reason);
    const unsigned tooled = tools::active() & (tools::kTimer | tools::kLog);
    if (C10_LIKELY(!tooled)) {
        at::native::cpu_fallback(op, stack, /*error_on_views=*/false);
        return;
    }
    // Timed and logged like a DIOPI call; the arguments are read before the results replace them.
    const size_t first = stack->size() - std::min(op.schema().arguments().size(), stack->size());
    std::string shapes = tools::describeStack(*stack, first, false);
    std::string full = (tooled & tools::kLog) ? tools::describeStack(*stack, first, true) : "";
    const int64_t t0 = tools::now();
    at::native::cpu_fallback(op, stack, /*error_on_views=*/false);
    tools::fallbackDone(name, reason, shapes, full, tools::now() - t0);
}

void unmappedFallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
    const char* reason = tFallbackReason ? tFallbackReason : "no mapping entry";
    tFallbackReason = nullptr;
    cpuFallback(op, stack, reason);
}

// ---------------------------------------------------------------- one call

diopiTensorHandle_t Call::tensor(const at::Tensor& t) {
    if (!t.defined()) return nullptr;
    // Host scalars and index tensors (admitted by DeviceCheck) reach the vendor on its device.
    ctx_.handles.push_back(diopiTensor{t.is_cpu() ? t.to(currentDevice()) : t});
    return &ctx_.handles.back();
}

diopiConstTensorHandle_t Call::in(const at::Scalar& s) {
    at::Tensor t = at::scalar_tensor(s, at::TensorOptions().dtype(s.type()).device(at::kCPU)).to(currentDevice());
    return tensor(t);
}

// An empty tensor list is passed as NULL, the header's 'absent' (fused AdamW's
// max_exp_avg_sqs without amsgrad), never as a pointer a library might read
// nums entries from.
diopiConstTensorHandle_t* Call::ins(at::TensorList ts) {
    auto& v = constArrays_.emplace_back();
    for (const auto& t : ts) v.push_back(tensor(t));
    return v.empty() ? nullptr : v.data();
}

diopiConstTensorHandle_t* Call::ins(const c10::List<std::optional<at::Tensor>>& ts) {
    auto& v = constArrays_.emplace_back();
    for (std::optional<at::Tensor> t : ts) v.push_back(tensor(t));
    return v.empty() ? nullptr : v.data();
}

diopiConstTensorHandle_t* Call::ins(const at::ITensorListRef& ts) {
    auto& v = constArrays_.emplace_back();
    for (const at::Tensor& t : ts) v.push_back(tensor(t));
    return v.empty() ? nullptr : v.data();
}

int64_t Call::arrayLength(const void* p) const {
    for (const auto& v : constArrays_)
        if (!v.empty() && static_cast<const void*>(v.data()) == p) return static_cast<int64_t>(v.size());
    for (const auto& v : arrays_)
        if (!v.empty() && static_cast<const void*>(v.data()) == p) return static_cast<int64_t>(v.size());
    return -1;
}

diopiTensorHandle_t* Call::outs(at::TensorList ts) {
    auto& v = arrays_.emplace_back();
    for (const auto& t : ts) v.push_back(tensor(t));
    return v.empty() ? nullptr : v.data();
}

const diopiScalar_t* Call::scalar(const at::Scalar& s) {
    diopiScalar_t d{};
    if (s.isFloatingPoint()) {
        d.stype = diopi_dtype_float64;
        d.fval = s.toDouble();
    } else if (s.isBoolean()) {
        d.stype = diopi_dtype_bool;
        d.ival = s.toBool();
    } else if (s.isIntegral(false)) {
        d.stype = diopi_dtype_int64;
        d.ival = s.toLong();
    } else {
        TORCH_CHECK(false, info_.diopi, ": complex scalars cannot be passed to DIOPI");
    }
    scalars_.push_back(d);
    return &scalars_.back();
}

const diopiScalar_t* Call::scalar(const at::Tensor& t) {
    if (!t.defined()) return nullptr;
    return scalar(t.item());
}

diopiSize_t Call::size(at::IntArrayRef v) {
    auto& keep = ints_.emplace_back(v.begin(), v.end());
    return diopiSize_t{keep.data(), static_cast<int64_t>(keep.size())};
}

diopiSize_t Call::size(c10::SymIntArrayRef v) { return size(C10_AS_INTARRAYREF_SLOW(v)); }

diopiSize_t* Call::sizePtr(at::OptionalIntArrayRef v) {
    if (!v.has_value()) return nullptr;
    sizes_.push_back(size(*v));
    return &sizes_.back();
}

diopiSize_t* Call::sizePtr(at::OptionalSymIntArrayRef v) {
    if (!v.has_value()) return nullptr;
    sizes_.push_back(size(*v));
    return &sizes_.back();
}

const int64_t* Call::intPtr(std::optional<int64_t> v) {
    if (!v) return nullptr;
    int_.push_back(*v);
    return &int_.back();
}

const double* Call::doublePtr(std::optional<double> v) {
    if (!v) return nullptr;
    double_.push_back(*v);
    return &double_.back();
}

const bool* Call::boolPtr(std::optional<bool> v) {
    if (!v) return nullptr;
    bool_.push_back(*v);
    return reinterpret_cast<const bool*>(&bool_.back());
}

const char* Call::string(c10::string_view s) {
    strings_.emplace_back(s.data(), s.size());
    return strings_.back().c_str();
}

diopiGeneratorHandle_t Call::generator(const std::optional<at::Generator>& g) { return generatorHandle(g); }

const char* Call::fallbackReason(diopiError_t status) {
    switch (status) {
        case diopiNoImplement: return "diopiNoImplement";
        case diopiDtypeNotSupported: return "diopiDtypeNotSupported";
        case diopiForceFallbackToCPU: return "diopiForceFallbackToCPU";
        default: return nullptr;
    }
}

void Call::check(diopiError_t status) {
    if (status == diopiSuccess) return;
    std::string why = lastVendorError();
    TORCH_CHECK(false, info_.diopi, " failed (status ", static_cast<int>(status), ") serving aten::", info_.aten, ": ",
                why.empty() ? "the library gave no message" : why);
}

at::Tensor Call::owned(diopiTensorHandle_t h) {
    TORCH_CHECK(h, info_.diopi, " did not allocate its output (serving aten::", info_.aten, ")");
    return h->t;
}

// ---------------------------------------------------------------- dtypes

diopiDtype_t toDiopi(at::ScalarType t) {
    switch (t) {
        case at::kChar: return diopi_dtype_int8;
        case at::kByte: return diopi_dtype_uint8;
        case at::kShort: return diopi_dtype_int16;
        case at::kUInt16: return diopi_dtype_uint16;
        case at::kInt: return diopi_dtype_int32;
        case at::kUInt32: return diopi_dtype_uint32;
        case at::kLong: return diopi_dtype_int64;
        case at::kUInt64: return diopi_dtype_uint64;
        case at::kHalf: return diopi_dtype_float16;
        case at::kFloat: return diopi_dtype_float32;
        case at::kDouble: return diopi_dtype_float64;
        case at::kBool: return diopi_dtype_bool;
        case at::kBFloat16: return diopi_dtype_bfloat16;
        case at::kComplexHalf: return diopi_dtype_complex32;
        case at::kComplexFloat: return diopi_dtype_complex64;
        case at::kComplexDouble: return diopi_dtype_complex128;
        default: return diopi_dtype_unsupported;
    }
}

diopiDtype_t toDiopiDtype(at::ScalarType t) { return toDiopi(t); }

at::ScalarType toATen(diopiDtype_t t) {
    switch (t) {
        case diopi_dtype_int8: return at::kChar;
        case diopi_dtype_uint8: return at::kByte;
        case diopi_dtype_int16: return at::kShort;
        case diopi_dtype_uint16: return at::kUInt16;
        case diopi_dtype_int32: return at::kInt;
        case diopi_dtype_uint32: return at::kUInt32;
        case diopi_dtype_int64: return at::kLong;
        case diopi_dtype_uint64: return at::kUInt64;
        case diopi_dtype_float16: return at::kHalf;
        case diopi_dtype_float32: return at::kFloat;
        case diopi_dtype_float64: return at::kDouble;
        case diopi_dtype_bool: return at::kBool;
        case diopi_dtype_bfloat16: return at::kBFloat16;
        case diopi_dtype_tfloat32: return at::kFloat;
        case diopi_dtype_complex32: return at::kComplexHalf;
        case diopi_dtype_complex64: return at::kComplexFloat;
        case diopi_dtype_complex128: return at::kComplexDouble;
        default: TORCH_CHECK(false, "diopi: unknown dtype ", static_cast<int>(t));
    }
}

}  // namespace diopi_torch

// ---------------------------------------------------------------- C API (ctypes)

namespace {
thread_local std::string tError;
thread_local std::string tText;
}  // namespace

namespace diopi_torch {
void setError(const std::string& why) { tError = why; }
}  // namespace diopi_torch

extern "C" {

/// Loads the vendor library and its device runtime (device.h), from
/// `hooks_path` when given, else from the vendor library itself, else the
/// host runtime; 0 on success, else diopi_torch_error() says why.
__attribute__((visibility("default"))) int diopi_torch_load(const char* impl_path, const char* hooks_path) {
    using namespace diopi_torch;
    auto& l = lib();
    std::lock_guard<std::mutex> g(l.mu);
    if (l.handle) {
        if (l.path == impl_path) return 0;
        tError = "a vendor library is already loaded (" + l.path + "); one process serves one library";
        return 1;
    }
    void* h = dlopen(impl_path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* e = dlerror();
        tError = std::string("cannot load ") + impl_path + ": " + (e ? e : "unknown error");
        return 1;
    }
    std::string why;
    if (hooks_path && *hooks_path) {
        void* rt = dlopen(hooks_path, RTLD_NOW | RTLD_LOCAL);
        if (!rt) {
            const char* e = dlerror();
            tError = std::string("cannot load the device runtime: ") + (e ? e : "unknown error");
            return 1;
        }
        if (!dlsym(rt, "diopiGetDeviceRuntime") && !dlsym(rt, "diopiTorchDeviceHooks")) {
            tError = std::string(hooks_path) + " exports neither diopiGetDeviceRuntime() nor diopiTorchDeviceHooks()";
            return 1;
        }
        if (!installRuntime(rt, hooks_path, why)) {
            tError = why;
            return 1;
        }
    } else if (!installRuntime(h, impl_path, why)) {
        tError = why;
        return 1;
    }
    l.handle = h;
    l.path = impl_path;
    l.lastError = reinterpret_cast<const char* (*)()>(dlsym(h, "diopiGetLastErrorString"));
    return 0;
}

__attribute__((visibility("default"))) const char* diopi_torch_error() { return tError.c_str(); }

__attribute__((visibility("default"))) const char* diopi_torch_info() {
    using namespace diopi_torch;
    auto& l = lib();
    std::ostringstream o;
    auto str = [&](const char* sym) -> std::string {
        if (!l.handle) return "";
        auto f = reinterpret_cast<const char* (*)()>(dlsym(l.handle, sym));
        const char* s = f ? f() : nullptr;
        return s ? s : "";
    };
    o << "{\"library\": " << json(l.path) << ", \"vendor\": " << json(str("diopiGetVendorName")) << ", \"version\": "
      << json(str("diopiGetImplVersion")) << ", \"runtime\": " << json(runtimeName()) << ", \"devices\": "
      << static_cast<int>(deviceCount()) << "}";
    tText = o.str();
    return tText.c_str();
}

__attribute__((visibility("default"))) const char* diopi_torch_stats() {
    using namespace diopi_torch;
    std::lock_guard<std::mutex> g(gStatsMu);
    std::map<std::string, Counts> all = gStats;
    for (const OpInfo* info : gInfos) {
        uint64_t n = info->calls.load();
        if (!n) continue;
        auto& c = all[info->aten];
        c.diopi += n;
        c.functions[info->diopi] += n;
    }
    std::ostringstream o;
    o << "{";
    bool first = true;
    for (const auto& [op, c] : all) {
        o << (first ? "" : ", ") << json(op) << ": {\"diopi\": " << c.diopi << ", \"fallback\": " << c.fallback
          << ", \"view\": " << c.view << ", \"copy\": " << c.copy << ", \"functions\": {";
        bool f2 = true;
        for (const auto& [fn, n] : c.functions) {
            o << (f2 ? "" : ", ") << json(fn) << ": " << n;
            f2 = false;
        }
        o << "}, \"reasons\": {";
        f2 = true;
        for (const auto& [r, n] : c.reasons) {
            o << (f2 ? "" : ", ") << json(r) << ": " << n;
            f2 = false;
        }
        o << "}}";
        first = false;
    }
    o << "}";
    tText = o.str();
    return tText.c_str();
}

__attribute__((visibility("default"))) void diopi_torch_reset_stats() {
    std::lock_guard<std::mutex> g(diopi_torch::gStatsMu);
    diopi_torch::gStats.clear();
    for (const auto* info : diopi_torch::gInfos) info->calls.store(0);
}

__attribute__((visibility("default"))) void diopi_torch_set_fallback_error(int on) { diopi_torch::gFallbackError = on != 0; }

/// Number of DIOPI calls so far, and "aten|diopi" of the latest one.
__attribute__((visibility("default"))) uint64_t diopi_torch_call_seq() { return diopi_torch::gDiopiSeq.load(); }
__attribute__((visibility("default"))) const char* diopi_torch_last_call() {
    const diopi_torch::OpInfo* info = diopi_torch::gLastCall.load();
    tText = info ? std::string(info->aten) + "|" + info->diopi : "";
    return tText.c_str();
}

}  // extern "C"
