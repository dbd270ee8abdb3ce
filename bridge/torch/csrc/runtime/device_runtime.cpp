// The device runtime in use, the host runtime, the adapter for old hooks
// libraries, and the current device / stream state of each thread.
#include "runtime/device_runtime.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <ATen/Parallel.h>
#include <c10/core/AutogradState.h>
#include <c10/util/Exception.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "diopi_support/host_runtime.hpp"
#include "legacy_hooks.h"
#include "runtime/state.hpp"

namespace diopi_torch {
namespace {

using namespace diopi_support::host;

// ---------------------------------------------------------------- old hooks libraries

const diopiTorchDeviceHooks_t* gLegacy = nullptr;

diopiError_t legacy(int rc, const char* what) {
    if (rc == 0) return diopiSuccess;
    tHostError = std::string(gLegacy->name ? gLegacy->name : "hooks") + ": " + what + " failed (status " + std::to_string(rc) + ")";
    return diopiErrorOccurred;
}
diopiError_t legacyCount(int32_t* n) {
    *n = 1;
    return diopiSuccess;
}
diopiError_t legacyMalloc(diopiDeviceIndex_t, void** p, size_t n) { return legacy(gLegacy->malloc_fn(p, n), "malloc"); }
diopiError_t legacyFree(diopiDeviceIndex_t, void* p) { return legacy(gLegacy->free_fn(p), "free"); }
diopiError_t legacyH2d(void* d, const void* s, size_t n, diopiStreamHandle_t st) { return legacy(gLegacy->h2d(d, s, n, st), "h2d"); }
diopiError_t legacyD2h(void* d, const void* s, size_t n, diopiStreamHandle_t st) { return legacy(gLegacy->d2h(d, s, n, st), "d2h"); }
diopiError_t legacyD2d(void* d, const void* s, size_t n, diopiStreamHandle_t st) { return legacy(gLegacy->d2d(d, s, n, st), "d2d"); }
diopiError_t legacySync(diopiStreamHandle_t s) { return legacy(gLegacy->sync(s), "sync"); }

diopiDeviceRuntime_t adaptLegacy(const diopiTorchDeviceHooks_t* h) {
    gLegacy = h;
    diopiDeviceRuntime_t r = emptyRuntime(h->name ? h->name : "device hooks");
    r.device_count = legacyCount;
    r.malloc = legacyMalloc;
    r.free = legacyFree;
    r.memcpy_h2d_async = legacyH2d;
    r.memcpy_d2h_async = legacyD2h;
    r.memcpy_d2d_async = legacyD2d;
    r.stream_synchronize = legacySync;
    return r;
}

// ---------------------------------------------------------------- the table in use

struct State {
    std::mutex mu;
    diopiDeviceRuntime_t rt = hostRuntime();
    std::string name = "host memory";
    std::string from;             // library the table came from ("" for the host runtime)
    const char* (*lastError)() = nullptr;
    std::atomic<bool> used{false};
};

State& state() {
    static State s;
    return s;
}

std::string vendorError() {
    auto& s = state();
    const char* e = nullptr;
    if (s.lastError) e = s.lastError();
    if ((!e || !*e) && !tHostError.empty()) return tHostError;
    return e ? e : "";
}

}  // namespace

const diopiDeviceRuntime_t& runtime() { return state().rt; }

std::string runtimeName() { return state().name; }

void markRuntimeUsed() { state().used.store(true, std::memory_order_relaxed); }

// PyTorch runs the backward of a device other than the CPU on an autograd thread of its own, one per device index, as
// CUDA's: the calling thread hands the graph over and sleeps until it is done. On a 2-core virtual machine that costs
// two thread wake-ups per backward (a one-operator backward took 180 us against 30 us on the CPU) and runs every
// backward kernel on the other core, away from the activations the forward left in this core's cache: the suite's
// one-thread training steps on impl/torch took 1.62x eager CPU's time, 1.33x with the backward on the calling thread
// (same process, alternating). So a thread that allocates on the device runs its backward itself, the first time it
// does, when ATen computes with one intra-op thread (OMP_NUM_THREADS=1 / torch.set_num_threads(1)). With several, a
// host vendor's backward kernels then run in the caller's own OpenMP team: with both cores taken by other work, each
// small matmul of the backward waited for a descheduled team member (about 16 ms a call, the README's walk-through
// under load), which the device's thread did not. `torch.autograd.set_multithreading_enabled` still chooses per
// block; DIOPI_AUTOGRAD_THREAD=1 always keeps the device's thread, =0 never does.
void backwardOnThisThread() {
    thread_local bool done = false;
    if (done) return;
    done = true;
    static const char* policy = std::getenv("DIOPI_AUTOGRAD_THREAD");
    bool caller = policy != nullptr && std::string(policy) == "0"   ? true
                  : policy != nullptr && std::string(policy) == "1" ? false
                                                                    : at::get_num_threads() == 1;
    if (caller) c10::AutogradState::get_tls_state().set_multithreading_enabled(false);
}

bool installRuntime(void* handle, const std::string& from, std::string& why) {
    auto& s = state();
    std::lock_guard<std::mutex> g(s.mu);
    if (!handle) return true;
    diopiDeviceRuntime_t table{};
    std::string name;
    if (auto fn = reinterpret_cast<diopiGetDeviceRuntimeFn>(dlsym(handle, "diopiGetDeviceRuntime"))) {
        const diopiDeviceRuntime_t* t = fn();
        if (!t) {
            why = from + ": diopiGetDeviceRuntime() returned NULL";
            return false;
        }
        if (t->size < offsetof(diopiDeviceRuntime_t, memset_async) || t->version < 1) {
            why = from + ": its device runtime table is too small (size " + std::to_string(t->size) + ", version " +
                  std::to_string(t->version) + ")";
            return false;
        }
        // Read only the fields the provider was built with; newer ones stay NULL.
        std::memcpy(&table, t, std::min<size_t>(t->size, sizeof(table)));
        table.size = sizeof(table);
        const char* missing = !table.device_count ? "device_count" : !table.malloc ? "malloc" : !table.free ? "free"
                              : !table.memcpy_h2d_async ? "memcpy_h2d_async" : !table.memcpy_d2h_async ? "memcpy_d2h_async"
                              : !table.memcpy_d2d_async ? "memcpy_d2d_async" : !table.stream_synchronize ? "stream_synchronize"
                              : (table.host_malloc && !table.host_free) ? "host_free" : nullptr;
        if (missing) {
            why = from + ": its device runtime lacks the required function " + missing;
            return false;
        }
        name = table.name ? table.name : from;
    } else if (auto legacyFn = reinterpret_cast<diopiTorchDeviceHooksFn>(dlsym(handle, "diopiTorchDeviceHooks"))) {
        const diopiTorchDeviceHooks_t* h = legacyFn();
        if (!h || !h->malloc_fn || !h->free_fn || !h->h2d || !h->d2h || !h->d2d || !h->sync) {
            why = from + ": diopiTorchDeviceHooks() returned an incomplete table";
            return false;
        }
        table = adaptLegacy(h);
        name = table.name;
    } else {
        return true;  // the library brings no runtime: keep the host runtime
    }
    if (s.used.load()) {
        why = "device memory was allocated with the " + s.name + " runtime before " + from +
              " brought its own; load the library before creating diopi tensors";
        return false;
    }
    s.rt = table;
    s.name = name;
    s.from = from;
    s.lastError = reinterpret_cast<const char* (*)()>(dlsym(handle, "diopiGetLastErrorString"));
    return true;
}

void checkRuntime(diopiError_t status, const char* what) {
    if (status == diopiSuccess) return;
    std::string why = vendorError();
    TORCH_CHECK(false, "diopi: ", what, " failed (status ", static_cast<int>(status), ", runtime ", runtimeName(), ")",
                why.empty() ? std::string() : ": " + why);
}

// ---------------------------------------------------------------- devices

c10::DeviceIndex deviceCount() {
    int32_t n = 1;
    if (runtime().device_count(&n) != diopiSuccess || n < 1) return 1;
    return static_cast<c10::DeviceIndex>(std::min<int32_t>(n, 64));
}

void checkDeviceIndex(c10::DeviceIndex index) {
    // The wording of CUDA's error for the same mistake.
    TORCH_CHECK(index >= 0 && index < deviceCount(), "diopi error: invalid device ordinal ", static_cast<int>(index),
                " (", static_cast<int>(deviceCount()), " device", deviceCount() == 1 ? "" : "s", " available)");
}

namespace {
thread_local c10::DeviceIndex tDevice = 0;
}

c10::DeviceIndex currentDeviceIndex() { return tDevice; }

c10::DeviceIndex exchangeCurrentDevice(c10::DeviceIndex index) {
    c10::DeviceIndex prev = tDevice;
    if (index != prev) {
        checkDeviceIndex(index);
        if (auto set = runtime().set_device) checkRuntime(set(index), "set_device");
        tDevice = index;
    }
    return prev;
}

// ---------------------------------------------------------------- streams

namespace {

constexpr int kPoolSize = 8;  // streams per device and priority class, handed out round-robin

struct DeviceStreams {
    std::once_flag once;
    // [0, kPoolSize): normal priority; [kPoolSize, 2*kPoolSize): high priority.
    std::array<diopiStreamHandle_t, 2 * kPoolSize> handles{};
    std::atomic<uint32_t> next[2] = {0, 0};
};

std::array<DeviceStreams, 64>& streams() {
    static std::array<DeviceStreams, 64> s;
    return s;
}

DeviceStreams& streamsOf(c10::DeviceIndex d) {
    auto& ds = streams()[d];
    std::call_once(ds.once, [&] {
        auto create = runtime().stream_create;
        for (int i = 0; i < 2 * kPoolSize; ++i) {
            ds.handles[i] = nullptr;  // without stream_create every stream is the default stream
            if (create) checkRuntime(create(d, i < kPoolSize ? 0 : -1, &ds.handles[i]), "stream_create");
        }
    });
    return ds;
}

thread_local std::array<c10::StreamId, 64> tStream{};  // current stream id per device (0: default)

}  // namespace

c10::Stream defaultStream(c10::DeviceIndex index) {
    return c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::PrivateUse1, index), 0);
}

c10::Stream poolStream(c10::DeviceIndex index, int priority) {
    checkDeviceIndex(index);
    auto& ds = streamsOf(index);
    int cls = priority < 0 ? 1 : 0;
    int slot = static_cast<int>(ds.next[cls].fetch_add(1) % kPoolSize) + cls * kPoolSize;
    return c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::PrivateUse1, index), slot + 1);
}

c10::Stream currentStream(c10::DeviceIndex index) {
    if (index < 0) index = tDevice;
    return c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::PrivateUse1, index), tStream[index]);
}

c10::Stream exchangeCurrentStream(c10::Stream s) {
    c10::DeviceIndex d = s.device_index();
    checkDeviceIndex(d);
    c10::Stream prev = currentStream(d);
    tStream[d] = s.id();
    return prev;
}

diopiStreamHandle_t nativeStream(const c10::Stream& s) {
    if (s.id() == 0) return nullptr;
    TORCH_CHECK(s.id() > 0 && s.id() <= 2 * kPoolSize, "diopi: unknown stream id ", s.id());
    return streamsOf(s.device_index()).handles[s.id() - 1];
}

diopiStreamHandle_t currentNativeStream() {
    c10::StreamId id = tStream[tDevice];
    return id == 0 ? nullptr : streamsOf(tDevice).handles[id - 1];
}

bool queryStream(const c10::Stream& s) {
    auto q = runtime().stream_query;
    if (!q) {
        synchronizeStream(s);
        return true;
    }
    bool done = false;
    checkRuntime(q(nativeStream(s), &done), "stream_query");
    return done;
}

void synchronizeStream(const c10::Stream& s) { checkRuntime(runtime().stream_synchronize(nativeStream(s)), "stream_synchronize"); }

void synchronizeDevice(c10::DeviceIndex index) {
    if (index < 0) index = tDevice;
    checkDeviceIndex(index);
    if (auto sync = runtime().device_synchronize) return checkRuntime(sync(index), "device_synchronize");
    synchronizeStream(defaultStream(index));
    auto& ds = streamsOf(index);
    for (auto h : ds.handles)
        if (h) checkRuntime(runtime().stream_synchronize(h), "stream_synchronize");
}

// ---------------------------------------------------------------- events

namespace {

// What PyTorch holds for a diopi event: the vendor's event, or, when the
// runtime has none, the stream it was recorded on (waiting on it means
// synchronizing that stream) and the host time of the recording.
struct Event {
    c10::DeviceIndex device;
    bool timing;
    diopiEventHandle_t vendor = nullptr;
    bool recorded = false;
    c10::Stream stream = defaultStream(0);
    std::chrono::steady_clock::time_point when;
};

}  // namespace

void recordEvent(void** slot, const c10::Stream& s, bool timing) {
    auto& rt = runtime();
    auto* ev = static_cast<Event*>(*slot);
    if (!ev) {
        ev = new Event{s.device_index(), timing};
        if (rt.event_create) {
            diopiError_t st = rt.event_create(s.device_index(), timing ? diopi_event_timing : diopi_event_default, &ev->vendor);
            if (st != diopiSuccess) {
                delete ev;
                checkRuntime(st, "event_create");
            }
        }
        *slot = ev;
    }
    TORCH_CHECK(ev->device == s.device_index(), "diopi: an event created on diopi:", static_cast<int>(ev->device),
                " cannot be recorded on a stream of diopi:", static_cast<int>(s.device_index()));
    if (ev->vendor) {
        checkRuntime(rt.event_record(ev->vendor, nativeStream(s)), "event_record");
    } else {
        synchronizeStream(s);  // no vendor events: the work before the record is done once the stream is
        ev->when = std::chrono::steady_clock::now();
    }
    ev->recorded = true;
    ev->stream = s;
}

void blockStream(void* event, const c10::Stream& s) {
    auto* ev = static_cast<Event*>(event);
    if (!ev || !ev->recorded) return;
    if (ev->vendor) return checkRuntime(runtime().stream_wait_event(nativeStream(s), ev->vendor), "stream_wait_event");
    // Without events the recording already waited for the work it marks.
}

bool queryEvent(void* event) {
    auto* ev = static_cast<Event*>(event);
    if (!ev || !ev->recorded || !ev->vendor) return true;
    if (!runtime().event_query) {
        synchronizeEvent(event);
        return true;
    }
    bool done = false;
    checkRuntime(runtime().event_query(ev->vendor, &done), "event_query");
    return done;
}

void synchronizeEvent(void* event) {
    auto* ev = static_cast<Event*>(event);
    if (!ev || !ev->recorded || !ev->vendor) return;
    checkRuntime(runtime().event_synchronize(ev->vendor), "event_synchronize");
}

void destroyEvent(void* event) {
    auto* ev = static_cast<Event*>(event);
    if (!ev) return;
    if (ev->vendor && runtime().event_destroy) runtime().event_destroy(ev->vendor);
    delete ev;
}

double elapsedMs(void* start, void* end) {
    auto* a = static_cast<Event*>(start);
    auto* b = static_cast<Event*>(end);
    TORCH_CHECK(a && b && a->recorded && b->recorded, "diopi: both events must be recorded before asking for the time between them");
    TORCH_CHECK(a->timing && b->timing, "diopi: both events must be created with enable_timing=True");
    if (a->vendor && b->vendor) {
        TORCH_CHECK(runtime().event_elapsed_time, "diopi: the device runtime ", runtimeName(), " cannot time events");
        float ms = 0;
        checkRuntime(runtime().event_elapsed_time(a->vendor, b->vendor, &ms), "event_elapsed_time");
        return ms;
    }
    return std::chrono::duration<double, std::milli>(b->when - a->when).count();
}

}  // namespace diopi_torch
