// The C functions the Python package calls through ctypes (diopi_torch's
// loader) for loading, library information, the counters, devices, seeds and
// generator state. No exception crosses them: errors are return codes, and
// diopi_torch_error() says why. (The tools' own C functions are in
// tools/tools.cpp, next to the state they read.)
#include <cstring>
#include <mutex>
#include <string>

#include "aten/bridge.hpp"
#include "aten/counters.hpp"
#include "runtime/autograd_drain.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/library.hpp"
#include "runtime/state.hpp"

#include "diopi_support/json.hpp"

namespace {
thread_local std::string tError;
thread_local std::string tText;
thread_local std::string tDrainError;

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

// ---------------------------------------------------------------- devices and generators

/// Waits until the device's autograd thread holds no graph task (see
/// drainAutogradThread). Must be called without the GIL (ctypes.CDLL releases
/// it). 0 on success, else diopi_torch_drain_error() says why.
DIOPI_TORCH_API int diopi_torch_drain_autograd() {
    return diopi_torch::drainAutogradThread(tDrainError) ? 0 : 1;
}
DIOPI_TORCH_API const char* diopi_torch_drain_error() { return tDrainError.c_str(); }

/// Number of devices of the runtime in use.
DIOPI_TORCH_API int diopi_torch_device_count() {
    try {
        return diopi_torch::deviceCount();
    } catch (...) {
        return 1;
    }
}

/// Seeds the default generator of diopi:`device` (torch.manual_seed reaches it through torch.diopi.manual_seed_all).
/// (A device index out of range leaves every generator as it was; diopi_torch_error() says why.)
DIOPI_TORCH_API void diopi_torch_manual_seed(int device, uint64_t seed) {
    try {
        auto& g = diopi_torch::defaultGenerator(device);
        std::lock_guard<std::mutex> lock(g.mutex());
        g.set_current_seed(seed);
    } catch (const std::exception& e) {
        tError = e.what();
    }
}
/// Seeds the default generator of diopi:`device` from a non-deterministic source.
DIOPI_TORCH_API void diopi_torch_seed(int device) {
    try {
        auto& g = diopi_torch::defaultGenerator(device);
        std::lock_guard<std::mutex> lock(g.mutex());
        g.seed();
    } catch (const std::exception& e) {
        tError = e.what();
    }
}
/// The seed of diopi:`device`'s default generator (0 for a device index out of range).
DIOPI_TORCH_API uint64_t diopi_torch_initial_seed(int device) {
    try {
        return diopi_torch::defaultGenerator(device).current_seed();
    } catch (const std::exception& e) {
        tError = e.what();
        return 0;
    }
}

/// The state of diopi:`device`'s default generator (seed, offset, the vendor's bytes): copies up to
/// `cap` bytes into `buf` and returns the state's size, or -1 (diopi_torch_error() says why).
DIOPI_TORCH_API int64_t diopi_torch_rng_state(int device, uint8_t* buf, int64_t cap) {
    try {
        auto& g = diopi_torch::defaultGenerator(device);
        std::lock_guard<std::mutex> lock(g.mutex());
        c10::intrusive_ptr<c10::TensorImpl> state = g.get_state().getIntrusivePtr();
        int64_t n = static_cast<int64_t>(state->numel());
        if (buf && cap > 0) std::memcpy(buf, state->data(), static_cast<size_t>(std::min(n, cap)));
        return n;
    } catch (const std::exception& e) {
        tError = e.what();
        return -1;
    }
}

/// Restores diopi:`device`'s default generator from a state diopi_torch_rng_state gave; 0 on success.
DIOPI_TORCH_API int diopi_torch_set_rng_state(int device, const uint8_t* buf, int64_t n) {
    try {
        auto& g = diopi_torch::defaultGenerator(device);
        at::Tensor t = at::empty({n}, at::kByte);
        if (n) std::memcpy(t.data_ptr(), buf, static_cast<size_t>(n));
        std::lock_guard<std::mutex> lock(g.mutex());
        g.set_state(t);
        return 0;
    } catch (const std::exception& e) {
        tError = e.what();
        return 1;
    }
}
