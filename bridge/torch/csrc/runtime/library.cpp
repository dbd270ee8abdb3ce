// The loaded vendor library: one per process, opened by diopi_torch.load()
// (bindings/c_api.cpp), its symbols looked up once and kept.
#include "runtime/library.hpp"

#include <dlfcn.h>

#include <functional>
#include <mutex>
#include <string_view>
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
    // Looked up by the caller's C string as a string_view: a lookup made no std::string (a heap allocation for
    // names past 15 characters), and hand-written kernels look up on every call (device copies, attention).
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
    };
    std::unordered_map<std::string, void*, Hash, std::equal_to<>> symbols;
    const char* (*lastError)() = nullptr;
};

Library& lib() {
    static Library l;
    return l;
}

std::string dlError(const std::string& what) {
    const char* e = dlerror();
    return what + (e ? e : "unknown error");
}

}  // namespace

void requireLibrary() {
    TORCH_CHECK(lib().handle, "diopi: no vendor library is loaded; call diopi_torch.load(path) or set DIOPI_IMPL_LIB");
}

void* symbol(const char* name) {
    auto& l = lib();
    requireLibrary();
    std::lock_guard<std::mutex> g(l.mu);
    auto it = l.symbols.find(std::string_view(name));
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

bool loadLibrary(const char* impl, const char* hooks, std::string& why) {
    auto& l = lib();
    std::lock_guard<std::mutex> g(l.mu);
    if (l.handle) {
        if (l.path == impl) return true;
        why = "a vendor library is already loaded (" + l.path + "); one process serves one library";
        return false;
    }
    void* h = dlopen(impl, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        why = dlError(std::string("cannot load ") + impl + ": ");
        return false;
    }
    if (hooks && *hooks) {
        void* rt = dlopen(hooks, RTLD_NOW | RTLD_LOCAL);
        if (!rt) {
            why = dlError("cannot load the device runtime: ");
            return false;
        }
        if (!dlsym(rt, "diopiGetDeviceRuntime") && !dlsym(rt, "diopiTorchDeviceHooks")) {
            why = std::string(hooks) + " exports neither diopiGetDeviceRuntime() nor diopiTorchDeviceHooks()";
            return false;
        }
        if (!installRuntime(rt, hooks, why)) return false;
    } else if (!installRuntime(h, impl, why)) {
        return false;
    }
    l.handle = h;
    l.path = impl;
    l.lastError = reinterpret_cast<const char* (*)()>(dlsym(h, "diopiGetLastErrorString"));
    return true;
}

std::string libraryPath() {
    std::lock_guard<std::mutex> g(lib().mu);
    return lib().path;
}

std::string libraryString(const char* sym) {
    auto& l = lib();
    if (!l.handle) return "";
    auto f = reinterpret_cast<const char* (*)()>(dlsym(l.handle, sym));
    const char* s = f ? f() : nullptr;
    return s ? s : "";
}

}  // namespace diopi_torch
