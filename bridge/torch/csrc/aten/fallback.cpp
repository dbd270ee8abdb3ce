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

// The CPU lacks kernels CUDA has for some 16-bit dtypes (avg_pool3d, multi_margin_loss, ctc_loss, cdist in
// float16): ATen raises NotImplementedError "... not implemented for 'Half'". The dtype that message names,
// when it is one of these, is the one a retry widens: float16 and bfloat16 to float32, complex32 to complex64.
std::optional<std::pair<c10::ScalarType, c10::ScalarType>> widening(const c10::NotImplementedError& e) {
    const std::string msg = e.what_without_backtrace();
    for (auto [narrow, wide] : {std::pair{at::kHalf, at::kFloat}, std::pair{at::kBFloat16, at::kFloat},
                                std::pair{at::kComplexHalf, at::kComplexFloat}})
        if (msg.find(std::string("not implemented for '") + c10::toString(narrow) + "'") != std::string::npos)
            return std::pair{narrow, wide};
    return std::nullopt;
}

// Applies f to every tensor of an argument or result (a tensor, a list of tensors, a list of optional tensors).
template <class F>
c10::IValue mapTensors(const c10::IValue& v, F f) {
    if (v.isTensor()) return f(v.toTensor());
    if (v.isTensorList()) {
        std::vector<at::Tensor> ts = v.toTensorVector();
        for (at::Tensor& t : ts) t = f(t);
        return c10::IValue(ts);
    }
    if (v.isList() && v.type()->cast<c10::ListType>()->getElementType()->isSubtypeOf(*c10::OptionalType::ofTensor())) {
        c10::List<std::optional<at::Tensor>> ts;
        for (const c10::IValue& e : v.toListRef()) ts.push_back(e.isTensor() ? std::optional<at::Tensor>(f(e.toTensor())) : std::nullopt);
        return c10::IValue(ts);
    }
    return v;
}

std::vector<at::Tensor> tensorsOf(const c10::IValue& v) {
    std::vector<at::Tensor> ts;
    mapTensors(v, [&](const at::Tensor& t) { ts.push_back(t); return t; });
    return ts;
}

// Runs the call on the CPU; a call the CPU refuses for a 16-bit dtype is retried widened (see widening()):
// results narrowed back to that dtype, arguments it writes (in place, out=) written back from their wide copies.
// Returns whether it widened.
bool computeOnCpu(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
    const auto& schema = op.schema();
    const size_t n = std::min(schema.arguments().size(), stack->size()), base = stack->size() - n;
    const std::vector<c10::IValue> args(stack->end() - n, stack->end());
    std::pair<c10::ScalarType, c10::ScalarType> dtypes;
    try {
        at::native::cpu_fallback(op, stack, /*error_on_views=*/false);
        return false;
    } catch (const c10::NotImplementedError& e) {
        auto w = widening(e);
        bool any = false;
        if (w) for (const c10::IValue& a : args) for (const at::Tensor& t : tensorsOf(a)) any = any || (t.defined() && t.scalar_type() == w->first);
        if (!any) throw;
        dtypes = *w;
    }
    const auto [narrow, wide] = dtypes;
    std::vector<c10::IValue> wideArgs;
    for (const c10::IValue& a : args)
        wideArgs.push_back(mapTensors(a, [&](const at::Tensor& t) { return t.defined() && t.scalar_type() == narrow ? t.to(wide) : t; }));
    stack->resize(base);
    stack->insert(stack->end(), wideArgs.begin(), wideArgs.end());
    at::native::cpu_fallback(op, stack, /*error_on_views=*/false);
    // Arguments the operator writes: the wide copies' values (and sizes, for out=) into the caller's tensors.
    for (size_t i = 0; i < n; ++i) {
        const c10::AliasInfo* alias = schema.arguments()[i].alias_info();
        if (!alias || !alias->isWrite()) continue;
        std::vector<at::Tensor> mine = tensorsOf(args[i]), theirs = tensorsOf(wideArgs[i]);
        for (size_t k = 0; k < mine.size() && k < theirs.size(); ++k) {
            if (!mine[k].defined() || mine[k].is_same(theirs[k])) continue;
            if (mine[k].sizes() != theirs[k].sizes()) mine[k].resize_(theirs[k].sizes());
            mine[k].copy_(theirs[k]);
        }
    }
    // Results: one that aliases a written argument is that argument; the others narrowed back, a float32 or
    // complex64 result taken as the widened dtype's (angle of complex32 is float16, as on CUDA).
    const auto& returns = schema.returns();
    const size_t m = std::min(returns.size(), stack->size());
    for (size_t r = 0; r < m; ++r) {
        c10::IValue& v = (*stack)[stack->size() - m + r];
        const c10::AliasInfo* alias = returns[r].alias_info();
        if (alias && alias->isWrite()) {
            for (size_t i = 0; i < n; ++i) {
                const c10::AliasInfo* a = schema.arguments()[i].alias_info();
                if (a && a->beforeSets() == alias->beforeSets()) v = args[i];
            }
            continue;
        }
        v = mapTensors(v, [&](const at::Tensor& t) {
            if (!t.defined()) return t;
            const bool half = narrow == at::kHalf || narrow == at::kComplexHalf;
            if (t.scalar_type() == at::kFloat) return t.to(half ? at::kHalf : narrow);
            if (t.scalar_type() == at::kComplexFloat && half) return t.to(at::kComplexHalf);
            return t;
        });
    }
    return true;
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
    // A widened call is counted under its own reason, the one it was counted under moved there.
    std::string widened;
    auto recount = [&] {
        widened = std::string("widened to 32 bits (") + reason + ")";
        recountFallback(name.c_str(), reason, widened.c_str());
        return widened.c_str();
    };
    if (C10_LIKELY(!tooled)) {
        if (computeOnCpu(op, stack)) recount();
        return;
    }
    // Timed and logged like a DIOPI call; the arguments are read before the results replace them.
    const size_t first = stack->size() - std::min(op.schema().arguments().size(), stack->size());
    std::string shapes = tools::describeStack(*stack, first, false);
    std::string full = (tooled & tools::kLog) ? tools::describeStack(*stack, first, true) : "";
    const int64_t t0 = tools::now();
    if (computeOnCpu(op, stack)) reason = recount();
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
