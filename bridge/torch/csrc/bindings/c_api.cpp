// The C functions the Python package calls through ctypes (diopi_torch's
// loader) for loading, library information and the counters. No exception
// crosses them: errors are return codes, and diopi_torch_error() says why.
#include <string>

#include "aten/bridge.hpp"
#include "aten/counters.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/library.hpp"
#include "runtime/state.hpp"

#include "diopi_support/json.hpp"

namespace {
thread_local std::string tError;
thread_local std::string tText;

const char* text(std::string s) {
    tText = std::move(s);
    return tText.c_str();
}
}  // namespace

namespace diopi_torch {
void setError(const std::string& why) { tError = why; }
}  // namespace diopi_torch

#define DIOPI_TORCH_API extern "C" __attribute__((visibility("default")))

/// Loads the vendor library and its device runtime (device.h), from
/// `hooks_path` when given, else from the vendor library itself, else the
/// host runtime; 0 on success, else diopi_torch_error() says why.
DIOPI_TORCH_API int diopi_torch_load(const char* impl_path, const char* hooks_path) {
    try {
        std::string why;
        if (diopi_torch::loadLibrary(impl_path, hooks_path, why)) return 0;
        tError = why;
    } catch (const std::exception& e) {
        tError = e.what();
    }
    return 1;
}

/// Why the last failing call of this thread failed.
DIOPI_TORCH_API const char* diopi_torch_error() { return tError.c_str(); }

/// The loaded library as JSON: {library, vendor, version, runtime, devices}.
DIOPI_TORCH_API const char* diopi_torch_info() {
    using namespace diopi_torch;
    try {
        diopi_support::JsonWriter w;
        w.beginObject();
        w.member("library", libraryPath()).member("vendor", libraryString("diopiGetVendorName"));
        w.member("version", libraryString("diopiGetImplVersion")).member("runtime", runtimeName());
        w.member("devices", static_cast<int>(deviceCount()));
        w.endObject();
        return text(w.str());
    } catch (const std::exception& e) {
        tError = e.what();
        return text("{}");
    }
}

/// The counters as JSON, per ATen operator (aten/counters.hpp).
DIOPI_TORCH_API const char* diopi_torch_stats() {
    try {
        return text(diopi_torch::statsJson());
    } catch (const std::exception& e) {
        tError = e.what();
        return text("{}");
    }
}

/// Sets every counter to zero.
DIOPI_TORCH_API void diopi_torch_reset_stats() { diopi_torch::resetStats(); }

/// DIOPI_FALLBACK=error when `on`: a fallback not asked for by name raises.
DIOPI_TORCH_API void diopi_torch_set_fallback_error(int on) { diopi_torch::setFallbackError(on != 0); }

/// Number of DIOPI calls so far, and "aten|diopi" of the latest one.
DIOPI_TORCH_API uint64_t diopi_torch_call_seq() { return diopi_torch::callSeq(); }
DIOPI_TORCH_API const char* diopi_torch_last_call() {
    const diopi_torch::OpInfo* info = diopi_torch::lastCall();
    return text(info ? std::string(info->aten) + "|" + info->diopi : "");
}
