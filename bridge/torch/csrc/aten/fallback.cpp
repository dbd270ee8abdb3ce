// The counted CPU fallback: operators without a mapping entry, calls the
// vendor declines (diopiNoImplement, ...) and operators named in
// diopi_torch.fallback(ops=...) compute on the CPU and copy results back.
#include <cstring>
#include <set>
#include <unordered_map>

#include "aten/bridge.hpp"
#include "aten/counters.hpp"

namespace diopi_torch {
namespace {

thread_local const char* tFallbackReason = nullptr;
thread_local int tMetaDepth = 0;
thread_local const std::string* tDecomposing = nullptr;  // the operator decomposed on this thread
thread_local const char* tDecomposedReason = nullptr;    // and why it reached the fallback

// Filled at load time by the static registrations of decompose.cpp, read-only afterwards.
std::unordered_map<std::string, c10::KernelFunction>& decompositions() {
    static std::unordered_map<std::string, c10::KernelFunction> table;
    return table;
}

std::string opName(const c10::OperatorHandle& op) {
    const auto& n = op.schema().operator_name();
    std::string s = n.name.substr(n.name.find("::") == std::string::npos ? 0 : n.name.find("::") + 2);
    return n.overload_name.empty() ? s : s + "." + n.overload_name;
}

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

}  // namespace

void setFallbackReason(const char* reason) { tFallbackReason = reason; }

MetaScope::MetaScope(const char* aten) {
    TORCH_CHECK(tMetaDepth < 8, "diopi: computing the result shape of aten::", aten,
                " re-entered the device (an argument was not moved to the meta device)");
    ++tMetaDepth;
}
MetaScope::~MetaScope() { --tMetaDepth; }

void noteFallback(const std::string& name, const char* reason) {
    // A fallback asked for by name (diopi_torch.fallback(ops=...)) is allowed under DIOPI_FALLBACK=error too.
    TORCH_CHECK(!fallbackError() || std::strcmp(reason, "named") == 0, "aten::", name, " would run on the CPU (", reason,
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

const char* decomposedReason() { return tDecomposedReason ? tDecomposedReason : "no mapping entry"; }

void addDecomposition(const char* aten, c10::KernelFunction kernel) { decompositions().emplace(aten, std::move(kernel)); }

void unmappedFallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
    const char* reason = tFallbackReason ? tFallbackReason : "no mapping entry";
    tFallbackReason = nullptr;
    if (std::strcmp(reason, "named") != 0 && !decompositions().empty()) {
        std::string name = opName(op);
        auto it = decompositions().find(name);
        if (it != decompositions().end() && tDecomposing != &it->first) {
            checkFallbackDevices(op, *stack, name);
            struct Restore {
                const std::string* op;
                const char* reason;
                ~Restore() { tDecomposing = op, tDecomposedReason = reason; }
            } restore{tDecomposing, tDecomposedReason};
            tDecomposing = &it->first;
            tDecomposedReason = reason;
            it->second.callBoxed(op, c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), stack);
            return;
        }
    }
    cpuFallback(op, stack, reason);
}

}  // namespace diopi_torch
