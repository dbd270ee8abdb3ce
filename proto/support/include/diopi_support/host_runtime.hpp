// The host runtime: the device runtime table (diopi/device.h) a caller of the
// standard (the device, the test runtime) uses for a vendor that has none,
// whose device memory is host memory.
//
// Work is synchronous: every copy is done when the call returns, so streams
// and events are always complete; an event's time is taken when it is
// recorded. DIOPI_HOST_DEVICES=N exposes N devices (all host memory) so that
// multi-device code is tested on one machine.
#pragma once

#include <diopi/device.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

namespace diopi_support {
namespace host {
// Each library that includes this gets its own copy (its own error string).
namespace {

struct HostStream {
    diopiDeviceIndex_t device;
    int32_t priority;
};

struct HostEvent {
    diopiDeviceIndex_t device;
    bool recorded = false;
    std::chrono::steady_clock::time_point when{};
};

thread_local std::string tHostError;

diopiError_t hostFail(const std::string& why) {
    tHostError = why;
    return diopiErrorOccurred;
}

int32_t hostDeviceCount() {
    static const int32_t n = [] {
        const char* s = std::getenv("DIOPI_HOST_DEVICES");
        int v = s && *s ? std::atoi(s) : 1;
        return v >= 1 && v <= 64 ? v : 1;
    }();
    return n;
}

diopiError_t hostCount(int32_t* n) {
    if (!n) return hostFail("device_count: NULL argument");
    *n = hostDeviceCount();
    return diopiSuccess;
}
diopiError_t hostMalloc(diopiDeviceIndex_t, void** p, size_t n) {
    if (!p) return hostFail("malloc: NULL argument");
    *p = nullptr;
    if (!n) return diopiSuccess;
    // 64-byte alignment suits every vector width the vendors here use.
    if (posix_memalign(p, 64, (n + 63) / 64 * 64) != 0) return hostFail("host memory exhausted: cannot allocate " + std::to_string(n) + " bytes");
    return diopiSuccess;
}
diopiError_t hostFree(diopiDeviceIndex_t, void* p) {
    std::free(p);
    return diopiSuccess;
}
diopiError_t hostMemInfo(diopiDeviceIndex_t, size_t* freeBytes, size_t* total) {
    long page = sysconf(_SC_PAGESIZE);
    *freeBytes = static_cast<size_t>(sysconf(_SC_AVPHYS_PAGES)) * page;
    *total = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * page;
    return diopiSuccess;
}
diopiError_t hostCopy(void* dst, const void* src, size_t n, diopiStreamHandle_t) {
    if (n == 0) return diopiSuccess;
    if (!dst || !src) return hostFail("copy: NULL pointer");
    std::memmove(dst, src, n);  // a copy within one device may overlap
    return diopiSuccess;
}
diopiError_t hostMemset(void* dst, int32_t v, size_t n, diopiStreamHandle_t) {
    if (n) std::memset(dst, v, n);
    return diopiSuccess;
}
diopiError_t hostStreamCreate(diopiDeviceIndex_t d, int32_t priority, diopiStreamHandle_t* s) {
    *s = new HostStream{d, priority};
    return diopiSuccess;
}
diopiError_t hostStreamDestroy(diopiStreamHandle_t s) {
    delete static_cast<HostStream*>(s);
    return diopiSuccess;
}
diopiError_t hostStreamSync(diopiStreamHandle_t) { return diopiSuccess; }
diopiError_t hostStreamQuery(diopiStreamHandle_t, bool* done) {
    *done = true;
    return diopiSuccess;
}
diopiError_t hostEventCreate(diopiDeviceIndex_t d, int32_t, diopiEventHandle_t* e) {
    *e = reinterpret_cast<diopiEventHandle_t>(new HostEvent{d});
    return diopiSuccess;
}
diopiError_t hostEventDestroy(diopiEventHandle_t e) {
    delete reinterpret_cast<HostEvent*>(e);
    return diopiSuccess;
}
diopiError_t hostEventRecord(diopiEventHandle_t e, diopiStreamHandle_t) {
    auto* ev = reinterpret_cast<HostEvent*>(e);
    ev->recorded = true;
    ev->when = std::chrono::steady_clock::now();
    return diopiSuccess;
}
diopiError_t hostWait(diopiStreamHandle_t, diopiEventHandle_t) { return diopiSuccess; }
diopiError_t hostEventQuery(diopiEventHandle_t, bool* done) {
    *done = true;
    return diopiSuccess;
}
diopiError_t hostEventSync(diopiEventHandle_t) { return diopiSuccess; }
diopiError_t hostElapsed(diopiEventHandle_t a, diopiEventHandle_t b, float* ms) {
    auto* x = reinterpret_cast<HostEvent*>(a);
    auto* y = reinterpret_cast<HostEvent*>(b);
    if (!x->recorded || !y->recorded) return hostFail("elapsed time of an event that was not recorded");
    *ms = std::chrono::duration<float, std::milli>(y->when - x->when).count();
    return diopiSuccess;
}
diopiError_t hostDeviceSync(diopiDeviceIndex_t) { return diopiSuccess; }

/// A table with only its version, size and name set, for a caller to fill.
diopiDeviceRuntime_t emptyRuntime(const char* name) {
    diopiDeviceRuntime_t r{};
    r.version = DIOPI_DEVICE_RUNTIME_VERSION;
    r.size = sizeof(diopiDeviceRuntime_t);
    r.name = name;
    return r;
}

/// The host runtime. Without `streams` it has no stream or event functions:
/// everything runs on the default stream (NULL), which is all a vendor that
/// never reads its stream sees from a caller without queues.
diopiDeviceRuntime_t hostRuntime(bool streams = true) {
    diopiDeviceRuntime_t r = emptyRuntime("host memory");
    r.device_count = hostCount;
    r.device_synchronize = hostDeviceSync;
    r.malloc = hostMalloc;
    r.free = hostFree;
    r.mem_get_info = hostMemInfo;
    // No host_malloc: host memory is already what the device reads, so pinned
    // buffers are ordinary aligned host memory.
    r.memcpy_h2d_async = hostCopy;
    r.memcpy_d2h_async = hostCopy;
    r.memcpy_d2d_async = hostCopy;
    r.memset_async = hostMemset;
    r.stream_synchronize = hostStreamSync;
    if (!streams) return r;
    r.stream_create = hostStreamCreate;
    r.stream_destroy = hostStreamDestroy;
    r.stream_query = hostStreamQuery;
    r.event_create = hostEventCreate;
    r.event_destroy = hostEventDestroy;
    r.event_record = hostEventRecord;
    r.stream_wait_event = hostWait;
    r.event_query = hostEventQuery;
    r.event_synchronize = hostEventSync;
    r.event_elapsed_time = hostElapsed;
    return r;
}

}  // namespace
}  // namespace host
}  // namespace diopi_support
