// The simulated chip's device runtime (diopi/device.h): memory the host
// cannot address, streams worked off later by one worker thread per device,
// events on a device clock, capacity and injected faults.
//
// Device memory: each device reserves a range of addresses with no access
// (PROT_NONE); malloc hands out addresses from it, so a host load or store
// through a device pointer faults at once. The bytes live in a second,
// private mapping of the same size; the simulator reaches a device byte at
// the same offset there. A SIGSEGV inside a device range is reported as a
// host access to device memory, then the process aborts.
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "sim.hpp"

namespace sim {

namespace {

int64_t envInt(const char* name, int64_t fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    long long x = std::strtoll(v, &end, 10);
    if (end && (*end == 'k' || *end == 'K')) x <<= 10;
    if (end && (*end == 'm' || *end == 'M')) x <<= 20;
    if (end && (*end == 'g' || *end == 'G')) x <<= 30;
    return x;
}

Config readConfig() {
    Config c;
    c.devices = static_cast<int>(std::clamp<int64_t>(envInt("DIOPI_SIM_DEVICES", 1), 1, 16));
    c.memory = static_cast<size_t>(std::max<int64_t>(envInt("DIOPI_SIM_MEMORY", int64_t(16) << 30), 1 << 20));
    int64_t jitter = envInt("DIOPI_SIM_JITTER", 0);
    // 1 turns it on with the default spread; a larger value is the spread in µs.
    c.jitter_us = jitter == 1 ? 300 : std::max<int64_t>(jitter, 0);
    c.kernel_us = std::max<int64_t>(envInt("DIOPI_SIM_KERNEL_US", 0), 0);
    if (const char* f = std::getenv("DIOPI_SIM_FAIL")) {
        std::string s(f);
        size_t pos = 0;
        while (pos < s.size()) {
            size_t comma = s.find(',', pos);
            std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
            size_t colon = item.find(':');
            if (colon != std::string::npos) {
                int64_t k = std::strtoll(item.c_str() + colon + 1, nullptr, 10);
                if (item.compare(0, colon, "alloc") == 0) c.fail_alloc = k;
                if (item.compare(0, colon, "launch") == 0) c.fail_launch = k;
            }
            if (comma == std::string::npos) break;
            pos = comma + 1;
        }
    }
    return c;
}

thread_local std::string t_error;
thread_local int t_device = 0;
thread_local bool t_worker = false;  // this thread is a device's worker

constexpr size_t kAlign = 256;

/* ---------------------------------------------------------------- memory */

struct Memory {
    char* dev = nullptr;      // PROT_NONE: the device addresses
    char* shadow = nullptr;   // read-write: the bytes
    size_t size = 0;
    size_t used = 0;
    std::map<size_t, size_t> free_blocks;   // offset -> size, address order (first fit keeps resident memory low)
    std::map<size_t, size_t> blocks;        // offset -> size of every live allocation
    // Blocks the host freed while queued work may still use them: released
    // once every stream has completed what was queued before the free.
    struct Deferred {
        size_t off;
        std::vector<Dep> deps;
    };
    std::vector<Deferred> deferred;
};

struct Device {
    int index = 0;
    Memory mem;
    std::shared_ptr<Stream> default_stream;
    std::vector<std::shared_ptr<Stream>> streams;   // created streams
    std::thread worker;
    diopiError_t sticky = diopiSuccess;
    std::string sticky_msg;
    int64_t clock_ns = 0;                           // device time at the end of its last work
    std::atomic<int64_t> busy_ns{0};                // time spent running work (kernels, copies, memsets)
    std::mt19937_64 rng;
};

// One lock for every device: dependencies cross devices (events), and the
// simulator's own work is small next to the kernels it runs. Never destroyed:
// the workers wait on them until the process ends (destroying a condition
// variable with waiters would hang the exit).
std::mutex& g_mu = *new std::mutex;
std::condition_variable& g_work = *new std::condition_variable;   // workers wait here for runnable work
std::condition_variable& g_done = *new std::condition_variable;   // host threads wait here for completions
std::vector<std::unique_ptr<Device>>& g_devices = *new std::vector<std::unique_ptr<Device>>;
std::set<Stream*>& g_streams = *new std::set<Stream*>;           // live created streams, for validating handles
std::atomic<int64_t> g_allocs{0}, g_launches{0};
bool g_started = false, g_start_failed = false;
struct sigaction g_previous_segv {};

int64_t nowNs() { return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count(); }

// ---- the fault handler: only async-signal-safe calls.
void writeStr(const char* s) {
    ssize_t r = write(STDERR_FILENO, s, std::strlen(s));
    (void)r;
}
void writeHex(uintptr_t v) {
    char buf[2 + 16 + 1];
    buf[0] = '0';
    buf[1] = 'x';
    for (int i = 0; i < 16; ++i) buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xf];
    buf[18] = 0;
    writeStr(buf);
}

void onSegv(int sig, siginfo_t* info, void* uctx) {
    const char* addr = static_cast<const char*>(info ? info->si_addr : nullptr);
    for (const auto& d : g_devices) {
        if (d && addr >= d->mem.dev && addr < d->mem.dev + d->mem.size) {
            writeStr("diopi sim: host access to device memory at ");
            writeHex(reinterpret_cast<uintptr_t>(addr));
            writeStr(" (device ");
            char idx[4] = {static_cast<char>('0' + d->index / 10 % 10), static_cast<char>('0' + d->index % 10), 0, 0};
            writeStr(d->index < 10 ? idx + 1 : idx);
            writeStr(", offset ");
            writeHex(static_cast<uintptr_t>(addr - d->mem.dev));
            writeStr("): the host cannot read or write device memory; copy it with the device runtime's "
                     "memcpy_d2h_async / memcpy_h2d_async and synchronize\n");
            signal(SIGABRT, SIG_DFL);
            abort();
        }
    }
    // Not ours: whatever handled SIGSEGV before the simulator does.
    if (g_previous_segv.sa_flags & SA_SIGINFO) {
        if (g_previous_segv.sa_sigaction) return g_previous_segv.sa_sigaction(sig, info, uctx);
    } else if (g_previous_segv.sa_handler != SIG_DFL && g_previous_segv.sa_handler != SIG_IGN) {
        return g_previous_segv.sa_handler(sig);
    }
    // Default action: the faulting instruction runs again and kills the process.
    signal(SIGSEGV, SIG_DFL);
}

void workerLoop(Device* dev);
void freeLocked(Memory& m, size_t off);

bool depsDone(const std::vector<Dep>& deps) {
    for (const Dep& d : deps)
        if (d.stream->completed.load() < d.seq) return false;
    return true;
}

// Releases every deferred free whose queued work has completed (g_mu held).
void releaseDeferredLocked() {
    for (auto& d : g_devices) {
        auto& q = d->mem.deferred;
        for (size_t i = 0; i < q.size();) {
            if (!depsDone(q[i].deps)) {
                ++i;
                continue;
            }
            freeLocked(d->mem, q[i].off);
            q[i] = std::move(q.back());
            q.pop_back();
        }
    }
}

bool startLocked() {
    if (g_started) return !g_start_failed;
    g_started = true;
    const Config& c = config();
    size_t size = (c.memory + (size_t(2) << 20) - 1) / (size_t(2) << 20) * (size_t(2) << 20);
    for (int i = 0; i < c.devices; ++i) {
        auto d = std::make_unique<Device>();
        d->index = i;
        void* dev = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        void* shadow = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (dev == MAP_FAILED || shadow == MAP_FAILED) {
            g_start_failed = true;
            t_error = "diopi sim: cannot reserve " + std::to_string(size) + " bytes of address space for device " + std::to_string(i);
            return false;
        }
        d->mem.dev = static_cast<char*>(dev);
        d->mem.shadow = static_cast<char*>(shadow);
        d->mem.size = size;
        d->mem.free_blocks[0] = size;
        d->default_stream = std::make_shared<Stream>();
        d->default_stream->device = i;
        d->default_stream->is_default = true;
        d->rng.seed(0x5eed + i);
        g_devices.push_back(std::move(d));
    }
    struct sigaction sa {};
    sa.sa_sigaction = onSegv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous_segv);
    for (auto& d : g_devices) d->worker = std::thread(workerLoop, d.get());
    // Workers live as long as the process; they are never joined (a library
    // unloaded with threads running would crash, so the library stays loaded).
    for (auto& d : g_devices) d->worker.detach();
    return true;
}

Device* device(int i) { return i >= 0 && i < static_cast<int>(g_devices.size()) ? g_devices[i].get() : nullptr; }

/* ---------------------------------------------------------------- the worker */

bool ready(const Task& t) { return depsDone(t.deps); }

void workerLoop(Device* dev) {
    t_worker = true;
    const Config& c = config();
    std::unique_lock<std::mutex> lk(g_mu);
    size_t rotate = 0;
    for (;;) {
        std::vector<Stream*> order;
        order.push_back(dev->default_stream.get());
        for (auto& s : dev->streams) order.push_back(s.get());
        // Which stream goes first: round robin, or at random under jitter.
        if (c.jitter_us > 0)
            std::shuffle(order.begin(), order.end(), dev->rng);
        else if (!order.empty())
            std::rotate(order.begin(), order.begin() + (rotate++ % order.size()), order.end());
        Stream* pick = nullptr;
        Clock::time_point earliest = Clock::time_point::max();
        auto now = Clock::now();
        for (Stream* s : order) {
            if (s->queue.empty()) continue;
            const Task& t = *s->queue.front();
            if (!ready(t)) continue;
            if (t.not_before <= now) {
                pick = s;
                break;
            }
            earliest = std::min(earliest, t.not_before);
        }
        if (!pick) {
            if (earliest == Clock::time_point::max())
                g_work.wait(lk);
            else
                g_work.wait_until(lk, earliest);
            continue;
        }
        std::unique_ptr<Task> task = std::move(pick->queue.front());
        pick->queue.pop_front();
        dev->clock_ns = std::max(dev->clock_ns, nowNs());
        lk.unlock();
        diopiError_t rc = diopiSuccess;
        std::string msg;
        auto started = Clock::now();
        if (task->run) {
            t_device = dev->index;
            rc = task->run();
            if (rc != diopiSuccess) msg = lastError();
        }
        if (task->kernel) occupy(started);
        if (task->run) dev->busy_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - started).count();
        lk.lock();
        dev->clock_ns = std::max(dev->clock_ns, nowNs());
        if (task->stamp) task->stamp(dev->clock_ns);
        if (rc != diopiSuccess && dev->sticky == diopiSuccess) {
            dev->sticky = rc;
            dev->sticky_msg = (msg.empty() ? task->name + ": failed with status " + std::to_string(rc) : msg) +
                              " (queued work on device " + std::to_string(dev->index) +
                              " that failed after its call returned; reported at the next synchronization)";
        }
        pick->completed.store(task->seq);
        task.reset();
        releaseDeferredLocked();
        g_done.notify_all();
        g_work.notify_all();  // another device may wait for this stream
    }
}

diopiError_t takeStickyLocked(Device* d) {
    if (d->sticky == diopiSuccess) return diopiSuccess;
    diopiError_t rc = d->sticky;
    t_error = d->sticky_msg;
    d->sticky = diopiSuccess;
    d->sticky_msg.clear();
    return rc;
}

/* ---------------------------------------------------------------- runtime table */

diopiError_t checkDevice(diopiDeviceIndex_t device, const char* what) {
    if (!ensureStarted()) return diopiErrorOccurred;
    if (!sim::device(device))
        return failWith(diopiErrorOccurred, std::string(what) + ": no device " + std::to_string(device) + " (DIOPI_SIM_DEVICES=" +
                                                std::to_string(config().devices) + ")");
    return diopiSuccess;
}

diopiError_t rtDeviceCount(int32_t* count) {
    if (!count) return failWith(diopiErrorOccurred, "device_count: count is NULL");
    if (!ensureStarted()) return diopiErrorOccurred;
    *count = config().devices;
    return diopiSuccess;
}

diopiError_t rtSetDevice(diopiDeviceIndex_t device) {
    if (diopiError_t rc = checkDevice(device, "set_device")) return rc;
    t_device = device;
    return diopiSuccess;
}

diopiError_t waitAll(Device* d) {
    std::unique_lock<std::mutex> lk(g_mu);
    std::vector<std::pair<std::shared_ptr<Stream>, uint64_t>> targets{{d->default_stream, d->default_stream->enqueued}};
    for (auto& s : d->streams) targets.emplace_back(s, s->enqueued);
    for (auto& [s, seq] : targets) g_done.wait(lk, [&] { return s->completed.load() >= seq; });
    return takeStickyLocked(d);
}

diopiError_t rtDeviceSynchronize(diopiDeviceIndex_t device) {
    if (diopiError_t rc = checkDevice(device, "device_synchronize")) return rc;
    return waitAll(sim::device(device));
}

diopiError_t rtMalloc(diopiDeviceIndex_t device, void** ptr, size_t nbytes) {
    if (diopiError_t rc = checkDevice(device, "malloc")) return rc;
    return deviceMalloc(device, ptr, nbytes, true);
}

diopiError_t rtFree(diopiDeviceIndex_t device, void* ptr) {
    if (!ptr) return diopiSuccess;
    if (diopiError_t rc = checkDevice(device, "free")) return rc;
    return deviceFreeWhenIdle(device, ptr);
}

diopiError_t rtMemGetInfo(diopiDeviceIndex_t device, size_t* free_bytes, size_t* total_bytes) {
    if (diopiError_t rc = checkDevice(device, "mem_get_info")) return rc;
    if (!free_bytes || !total_bytes) return failWith(diopiErrorOccurred, "mem_get_info: NULL argument");
    memInfo(device, free_bytes, total_bytes);
    return diopiSuccess;
}

diopiError_t rtHostMalloc(void** ptr, size_t nbytes) {
    if (!ptr) return failWith(diopiErrorOccurred, "host_malloc: ptr is NULL");
    size_t rounded = (nbytes + 63) / 64 * 64;
    *ptr = std::aligned_alloc(64, rounded ? rounded : 64);
    return *ptr ? diopiSuccess : failWith(diopiErrorOccurred, "host_malloc: out of host memory");
}

diopiError_t rtHostFree(void* ptr) {
    std::free(ptr);
    return diopiSuccess;
}

std::string hex(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

// Checks one side of a copy: device memory of some device, or host memory (not device memory).
diopiError_t checkSide(const char* what, const char* side, const void* p, size_t n, bool device_side) {
    int d = deviceOf(p);
    if (device_side) {
        if (d < 0 || !inDevice(d, p, n))
            return failWith(diopiErrorOccurred, std::string(what) + ": " + side + " " + hex(p) + " (" + std::to_string(n) +
                                                    " bytes) is not device memory of the simulator");
    } else if (d >= 0) {
        return failWith(diopiErrorOccurred, std::string(what) + ": " + side + " " + hex(p) +
                                                " is device memory, where the call takes host memory");
    } else if (!p) {
        return failWith(diopiErrorOccurred, std::string(what) + ": " + side + " is NULL");
    }
    return diopiSuccess;
}

diopiError_t queueCopy(const char* what, void* dst, const void* src, size_t n, diopiStreamHandle_t stream, bool dst_dev, bool src_dev) {
    if (!ensureStarted()) return diopiErrorOccurred;
    if (n == 0) return diopiSuccess;
    if (diopiError_t rc = checkSide(what, "destination", dst, n, dst_dev)) return rc;
    if (diopiError_t rc = checkSide(what, "source", src, n, src_dev)) return rc;
    auto s = streamOf(stream, what);
    if (!s) return diopiErrorOccurred;
    char* d = dst_dev ? shadowOf(dst) : static_cast<char*>(dst);
    const char* from = src_dev ? shadowOf(src) : static_cast<const char*>(src);
    auto task = std::make_unique<Task>();
    task->name = what;
    // Host memory is read and written when the copy runs, not when it is queued:
    // it must stay valid (and, for a destination, unread) until the stream is synchronized.
    task->run = [d, from, n] {
        std::memmove(d, from, n);
        return diopiSuccess;
    };
    enqueue(s, std::move(task));
    return diopiSuccess;
}

diopiError_t rtH2D(void* dst, const void* src, size_t n, diopiStreamHandle_t stream) {
    return queueCopy("memcpy_h2d_async", dst, src, n, stream, true, false);
}
diopiError_t rtD2H(void* dst, const void* src, size_t n, diopiStreamHandle_t stream) {
    return queueCopy("memcpy_d2h_async", dst, src, n, stream, false, true);
}
diopiError_t rtD2D(void* dst, const void* src, size_t n, diopiStreamHandle_t stream) {
    return queueCopy("memcpy_d2d_async", dst, src, n, stream, true, true);
}

diopiError_t rtMemset(void* dst, int32_t value, size_t n, diopiStreamHandle_t stream) {
    if (!ensureStarted()) return diopiErrorOccurred;
    if (n == 0) return diopiSuccess;
    if (diopiError_t rc = checkSide("memset_async", "destination", dst, n, true)) return rc;
    auto s = streamOf(stream, "memset_async");
    if (!s) return diopiErrorOccurred;
    char* d = shadowOf(dst);
    auto task = std::make_unique<Task>();
    task->name = "memset_async";
    task->run = [d, value, n] {
        std::memset(d, value, n);
        return diopiSuccess;
    };
    enqueue(s, std::move(task));
    return diopiSuccess;
}

diopiError_t rtStreamCreate(diopiDeviceIndex_t device, int32_t, diopiStreamHandle_t* stream) {
    if (diopiError_t rc = checkDevice(device, "stream_create")) return rc;
    if (!stream) return failWith(diopiErrorOccurred, "stream_create: stream is NULL");
    auto s = std::make_shared<Stream>();
    s->device = device;
    std::lock_guard<std::mutex> lk(g_mu);
    sim::device(device)->streams.push_back(s);
    g_streams.insert(s.get());
    *stream = s.get();
    return diopiSuccess;
}

diopiError_t rtStreamSynchronize(diopiStreamHandle_t stream) {
    if (!ensureStarted()) return diopiErrorOccurred;
    auto s = streamOf(stream, "stream_synchronize");
    if (!s) return diopiErrorOccurred;
    uint64_t seq;
    {
        std::lock_guard<std::mutex> lk(g_mu);
        seq = s->enqueued;
    }
    return waitFor(s, seq);
}

diopiError_t rtStreamDestroy(diopiStreamHandle_t stream) {
    if (!stream) return failWith(diopiErrorOccurred, "stream_destroy: the default stream cannot be destroyed");
    auto s = streamOf(stream, "stream_destroy");
    if (!s) return diopiErrorOccurred;
    std::unique_lock<std::mutex> lk(g_mu);
    uint64_t seq = s->enqueued;
    g_done.wait(lk, [&] { return s->completed.load() >= seq; });
    Device* d = sim::device(s->device);
    d->streams.erase(std::remove(d->streams.begin(), d->streams.end(), s), d->streams.end());
    g_streams.erase(s.get());
    return diopiSuccess;
}

diopiError_t rtStreamQuery(diopiStreamHandle_t stream, bool* done) {
    if (!done) return failWith(diopiErrorOccurred, "stream_query: done is NULL");
    auto s = streamOf(stream, "stream_query");
    if (!s) return diopiErrorOccurred;
    std::lock_guard<std::mutex> lk(g_mu);
    *done = s->completed.load() >= s->enqueued;
    return diopiSuccess;
}

}  // namespace

}  // namespace sim

/// An event: where it was last recorded (stream and position) and the device time it was reached.
struct diopiEvent {
    int device = 0;
    int32_t flags = 0;
    std::shared_ptr<sim::Stream> stream;   // NULL: never recorded
    uint64_t seq = 0;
    std::shared_ptr<int64_t> time_ns = std::make_shared<int64_t>(-1);
};

namespace sim {
namespace {

// Never destroyed, like the devices: a caller's static objects (a caching host
// allocator's events) may destroy events while the process exits, after this
// library's own statics would have been torn down.
std::mutex& g_events_mu = *new std::mutex;
std::set<diopiEventHandle_t>& g_events = *new std::set<diopiEventHandle_t>;

bool validEvent(diopiEventHandle_t e, const char* what) {
    std::lock_guard<std::mutex> lk(g_events_mu);
    if (e && g_events.count(e)) return true;
    failWith(diopiErrorOccurred, std::string(what) + ": not an event of the simulator");
    return false;
}

diopiError_t rtEventCreate(diopiDeviceIndex_t device, int32_t flags, diopiEventHandle_t* event) {
    if (diopiError_t rc = checkDevice(device, "event_create")) return rc;
    if (!event) return failWith(diopiErrorOccurred, "event_create: event is NULL");
    auto* e = new (std::nothrow) diopiEvent();
    if (!e) return failWith(diopiErrorOccurred, "event_create: out of host memory");
    e->device = device;
    e->flags = flags;
    std::lock_guard<std::mutex> lk(g_events_mu);
    g_events.insert(e);
    *event = e;
    return diopiSuccess;
}

diopiError_t rtEventDestroy(diopiEventHandle_t event) {
    if (!event) return diopiSuccess;
    if (!validEvent(event, "event_destroy")) return diopiErrorOccurred;
    {
        std::lock_guard<std::mutex> lk(g_events_mu);
        g_events.erase(event);
    }
    delete event;  // a marker still queued keeps its own reference to the time slot
    return diopiSuccess;
}

diopiError_t rtEventRecord(diopiEventHandle_t event, diopiStreamHandle_t stream) {
    if (!validEvent(event, "event_record")) return diopiErrorOccurred;
    auto s = streamOf(stream, "event_record");
    if (!s) return diopiErrorOccurred;
    auto slot = std::make_shared<int64_t>(-1);
    auto task = std::make_unique<Task>();
    task->name = "event_record";
    task->stamp = [slot](int64_t t) { *slot = t; };
    uint64_t seq = enqueue(s, std::move(task));
    std::lock_guard<std::mutex> lk(g_mu);
    event->stream = s;
    event->seq = seq;
    event->time_ns = slot;
    return diopiSuccess;
}

diopiError_t rtStreamWaitEvent(diopiStreamHandle_t stream, diopiEventHandle_t event) {
    if (!validEvent(event, "stream_wait_event")) return diopiErrorOccurred;
    auto s = streamOf(stream, "stream_wait_event");
    if (!s) return diopiErrorOccurred;
    auto task = std::make_unique<Task>();
    task->name = "stream_wait_event";
    {
        std::lock_guard<std::mutex> lk(g_mu);
        if (event->stream) task->deps.push_back(Dep{event->stream, event->seq});  // the record as it is now
    }
    enqueue(s, std::move(task));
    return diopiSuccess;
}

diopiError_t rtEventQuery(diopiEventHandle_t event, bool* done) {
    if (!done) return failWith(diopiErrorOccurred, "event_query: done is NULL");
    if (!validEvent(event, "event_query")) return diopiErrorOccurred;
    std::lock_guard<std::mutex> lk(g_mu);
    *done = !event->stream || event->stream->completed.load() >= event->seq;
    return diopiSuccess;
}

diopiError_t rtEventSynchronize(diopiEventHandle_t event) {
    if (!validEvent(event, "event_synchronize")) return diopiErrorOccurred;
    std::shared_ptr<Stream> s;
    uint64_t seq;
    {
        std::lock_guard<std::mutex> lk(g_mu);
        s = event->stream;
        seq = event->seq;
    }
    if (!s) return diopiSuccess;
    return waitFor(s, seq);
}

diopiError_t rtEventElapsed(diopiEventHandle_t start, diopiEventHandle_t end, float* ms) {
    if (!ms) return failWith(diopiErrorOccurred, "event_elapsed_time: milliseconds is NULL");
    if (!validEvent(start, "event_elapsed_time") || !validEvent(end, "event_elapsed_time")) return diopiErrorOccurred;
    if (!(start->flags & diopi_event_timing) || !(end->flags & diopi_event_timing))
        return failWith(diopiErrorOccurred, "event_elapsed_time: both events need diopi_event_timing");
    std::lock_guard<std::mutex> lk(g_mu);
    if (!start->stream || !end->stream) return failWith(diopiErrorOccurred, "event_elapsed_time: an event was never recorded");
    if (start->device != end->device) return failWith(diopiErrorOccurred, "event_elapsed_time: events of two devices");
    int64_t a = *start->time_ns, b = *end->time_ns;
    if (a < 0 || b < 0) return failWith(diopiErrorOccurred, "event_elapsed_time: an event has not completed");
    *ms = static_cast<float>(static_cast<double>(b - a) / 1e6);
    return diopiSuccess;
}

const diopiDeviceRuntime_t kRuntime = [] {
    diopiDeviceRuntime_t rt{};
    rt.version = DIOPI_DEVICE_RUNTIME_VERSION;
    rt.size = sizeof(diopiDeviceRuntime_t);
    rt.name = "diopi sim (simulated chip)";
    rt.device_count = rtDeviceCount;
    rt.set_device = rtSetDevice;
    rt.device_synchronize = rtDeviceSynchronize;
    rt.malloc = rtMalloc;
    rt.free = rtFree;
    rt.mem_get_info = rtMemGetInfo;
    rt.host_malloc = rtHostMalloc;
    rt.host_free = rtHostFree;
    rt.memcpy_h2d_async = rtH2D;
    rt.memcpy_d2h_async = rtD2H;
    rt.memcpy_d2d_async = rtD2D;
    rt.memset_async = rtMemset;
    rt.stream_create = rtStreamCreate;
    rt.stream_destroy = rtStreamDestroy;
    rt.stream_synchronize = rtStreamSynchronize;
    rt.stream_query = rtStreamQuery;
    rt.event_create = rtEventCreate;
    rt.event_destroy = rtEventDestroy;
    rt.event_record = rtEventRecord;
    rt.stream_wait_event = rtStreamWaitEvent;
    rt.event_query = rtEventQuery;
    rt.event_synchronize = rtEventSynchronize;
    rt.event_elapsed_time = rtEventElapsed;
    return rt;
}();

}  // namespace

/* ---------------------------------------------------------------- shared internals */

const Config& config() {
    static const Config c = readConfig();
    return c;
}

void setLastError(const std::string& msg) { t_error = msg; }
const char* lastError() { return t_error.c_str(); }
diopiError_t failWith(diopiError_t code, const std::string& msg) {
    t_error = msg;
    return code;
}

bool ensureStarted() {
    std::lock_guard<std::mutex> lk(g_mu);
    return startLocked();
}

int currentDevice() { return t_device; }

int deviceOf(const void* p) {
    const char* c = static_cast<const char*>(p);
    for (const auto& d : g_devices)
        if (c >= d->mem.dev && c < d->mem.dev + d->mem.size) return d->index;
    return -1;
}

char* shadowOf(const void* p) {
    int i = deviceOf(p);
    if (i < 0) return nullptr;
    const Memory& m = g_devices[i]->mem;
    return m.shadow + (static_cast<const char*>(p) - m.dev);
}

bool inDevice(int device, const void* p, size_t n) {
    Device* d = sim::device(device);
    const char* c = static_cast<const char*>(p);
    return d && c >= d->mem.dev && n <= d->mem.size && static_cast<size_t>(c - d->mem.dev) <= d->mem.size - n;
}

diopiError_t deviceMalloc(int device, void** ptr, size_t nbytes, bool count_for_faults) {
    if (!ptr) return failWith(diopiErrorOccurred, "malloc: ptr is NULL");
    const Config& c = config();
    if (count_for_faults) {
        int64_t k = ++g_allocs;
        if (c.fail_alloc > 0 && k == c.fail_alloc)
            return failWith(diopiErrorOccurred, "malloc of " + std::to_string(nbytes) + " bytes on device " + std::to_string(device) +
                                                    " failed: simulated failure of allocation " + std::to_string(k) + " (DIOPI_SIM_FAIL=alloc:" +
                                                    std::to_string(c.fail_alloc) + ")");
    }
    size_t want = std::max<size_t>((nbytes + kAlign - 1) / kAlign * kAlign, kAlign);
    std::unique_lock<std::mutex> lk(g_mu);
    Memory& m = sim::device(device)->mem;
    for (;;) {
        // Capacity is DIOPI_SIM_MEMORY exactly, whatever the rounding of the range.
        if (m.used + want <= c.memory && want <= m.size) {
            for (auto it = m.free_blocks.begin(); it != m.free_blocks.end(); ++it) {
                if (it->second < want) continue;
                size_t off = it->first, size = it->second;
                m.free_blocks.erase(it);
                if (size > want) m.free_blocks[off + want] = size - want;
                m.blocks[off] = want;
                m.used += want;
                *ptr = m.dev + off;
                return diopiSuccess;
            }
        }
        // Blocks freed while queued work still used them come back when that
        // work is done: wait for them before failing (not on a worker, whose
        // own queue they may wait for).
        if (m.deferred.empty() || t_worker) break;
        size_t before = m.deferred.size();
        g_done.wait(lk, [&] { return m.deferred.size() < before; });
    }
    if (m.used + want > c.memory || want > m.size) {
        return failWith(diopiErrorOccurred, "malloc of " + std::to_string(nbytes) + " bytes on device " + std::to_string(device) +
                                                " failed: out of device memory (" + std::to_string(c.memory - std::min(c.memory, m.used)) +
                                                " of " + std::to_string(c.memory) + " bytes free, DIOPI_SIM_MEMORY)");
    }
    return failWith(diopiErrorOccurred, "malloc of " + std::to_string(nbytes) + " bytes on device " + std::to_string(device) +
                                            " failed: device memory too fragmented for the request");
}

namespace {

// The live block at `ptr` of `device` (its offset), or an error.
diopiError_t findBlockLocked(int device, void* ptr, size_t* off) {
    Memory& m = sim::device(device)->mem;
    char* c = static_cast<char*>(ptr);
    auto it = c >= m.dev && c < m.dev + m.size ? m.blocks.find(static_cast<size_t>(c - m.dev)) : m.blocks.end();
    if (it == m.blocks.end())
        return failWith(diopiErrorOccurred, "free: " + hex(ptr) + " is not an allocation of device " + std::to_string(device));
    for (const auto& d : m.deferred)
        if (d.off == it->first) return failWith(diopiErrorOccurred, "free: " + hex(ptr) + " of device " + std::to_string(device) + " was freed already");
    *off = it->first;
    return diopiSuccess;
}

}  // namespace

namespace {
void freeLocked(Memory& m, size_t off) {
    auto it = m.blocks.find(off);
    size_t size = it->second;
    m.blocks.erase(it);
    m.used -= size;
    // Coalesce with the free neighbours, then give every whole page of the
    // merged hole that this block touched back to the host: device memory is
    // not host memory, so a freed block must not stay in the process's
    // resident set (the harness's leak check reads it, and first fit places
    // a later call's blocks elsewhere, touching new pages every time).
    size_t start = off, end = off + size;
    auto next = m.free_blocks.lower_bound(off);
    if (next != m.free_blocks.end() && end == next->first) {
        end += next->second;
        next = m.free_blocks.erase(next);
    }
    auto prev = next == m.free_blocks.begin() ? m.free_blocks.end() : std::prev(next);
    if (prev != m.free_blocks.end() && prev->first + prev->second == off) {
        start = prev->first;
        prev->second = end - start;
    } else {
        m.free_blocks[off] = end - off;
    }
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_t lo = (std::max(start, off / page * page) + page - 1) / page * page;
    size_t hi = std::min(end, (off + size + page - 1) / page * page) / page * page;
    if (hi > lo) madvise(m.shadow + lo, hi - lo, MADV_DONTNEED);
}
}  // namespace

diopiError_t deviceFree(int device, void* ptr) {
    std::lock_guard<std::mutex> lk(g_mu);
    size_t off = 0;
    if (diopiError_t rc = findBlockLocked(device, ptr, &off)) return rc;
    freeLocked(sim::device(device)->mem, off);
    return diopiSuccess;
}

diopiError_t deviceFreeWhenIdle(int device, void* ptr) {
    std::lock_guard<std::mutex> lk(g_mu);
    size_t off = 0;
    if (diopiError_t rc = findBlockLocked(device, ptr, &off)) return rc;
    // Work queued before the free may still read or write the block (on any
    // device: copies cross devices): like a chip's free, the memory returns
    // once that work is done, never under it.
    std::vector<Dep> deps;
    for (auto& d : g_devices) {
        if (d->default_stream->completed.load() < d->default_stream->enqueued)
            deps.push_back(Dep{d->default_stream, d->default_stream->enqueued});
        for (auto& s : d->streams)
            if (s->completed.load() < s->enqueued) deps.push_back(Dep{s, s->enqueued});
    }
    Memory& m = sim::device(device)->mem;
    if (deps.empty())
        freeLocked(m, off);
    else
        m.deferred.push_back(Memory::Deferred{off, std::move(deps)});
    return diopiSuccess;
}

void memInfo(int device, size_t* free_bytes, size_t* total_bytes) {
    std::lock_guard<std::mutex> lk(g_mu);
    const Memory& m = sim::device(device)->mem;
    *total_bytes = config().memory;
    *free_bytes = config().memory - std::min(config().memory, m.used);
}

std::shared_ptr<Stream> streamOf(diopiStreamHandle_t handle, const char* what) {
    std::lock_guard<std::mutex> lk(g_mu);
    if (!handle) {
        Device* d = sim::device(t_device);
        if (!d) {
            failWith(diopiErrorOccurred, std::string(what) + ": the current device does not exist");
            return nullptr;
        }
        return d->default_stream;
    }
    Stream* s = static_cast<Stream*>(handle);
    if (!g_streams.count(s)) {
        failWith(diopiErrorOccurred, std::string(what) + ": " + hex(handle) + " is not a live stream of the simulator");
        return nullptr;
    }
    for (auto& p : sim::device(s->device)->streams)
        if (p.get() == s) return p;
    return nullptr;
}

uint64_t enqueue(const std::shared_ptr<Stream>& stream, std::unique_ptr<Task> task) {
    const Config& c = config();
    std::lock_guard<std::mutex> lk(g_mu);
    Device* d = sim::device(stream->device);
    // The default stream's rule: its work waits for all earlier work of the
    // device's other streams, and theirs waits for its earlier work.
    if (stream->is_default) {
        for (auto& s : d->streams)
            if (s->completed.load() < s->enqueued) task->deps.push_back(Dep{s, s->enqueued});
    } else if (d->default_stream->completed.load() < d->default_stream->enqueued) {
        task->deps.push_back(Dep{d->default_stream, d->default_stream->enqueued});
    }
    task->not_before = Clock::now();
    if (c.jitter_us > 0) task->not_before += std::chrono::microseconds(std::uniform_int_distribution<int64_t>(0, c.jitter_us)(d->rng));
    task->seq = ++stream->enqueued;
    uint64_t seq = task->seq;
    stream->queue.push_back(std::move(task));
    g_work.notify_all();
    return seq;
}

diopiError_t waitFor(const std::shared_ptr<Stream>& stream, uint64_t seq) {
    std::unique_lock<std::mutex> lk(g_mu);
    g_done.wait(lk, [&] { return stream->completed.load() >= seq; });
    return takeStickyLocked(sim::device(stream->device));
}

diopiError_t takeSticky(int device) {
    std::lock_guard<std::mutex> lk(g_mu);
    Device* d = sim::device(device);
    return d ? takeStickyLocked(d) : diopiSuccess;
}

bool launchFails() {
    int64_t k = ++g_launches;
    return config().fail_launch > 0 && k == config().fail_launch;
}

void addBusy(int device, Clock::time_point started) {
    if (Device* d = sim::device(device)) d->busy_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - started).count();
}

void occupy(Clock::time_point started) {
    int64_t us = config().kernel_us;
    if (us <= 0) return;
    auto until = started + std::chrono::microseconds(us);
    // Sleep most of it, spin the rest: sleeps overshoot by tens of µs.
    if (until - Clock::now() > std::chrono::microseconds(200)) std::this_thread::sleep_until(until - std::chrono::microseconds(100));
    while (Clock::now() < until) {
    }
}

}  // namespace sim

// The simulator's own instrument (not part of device.h): nanoseconds device
// `device` has spent running work since the library started (-1: no such
// device). Busy time over wall time is the share of a step the chip is busy.
extern "C" DIOPI_API int64_t diopiSimBusyNs(int32_t device) {
    if (!sim::ensureStarted()) return -1;
    sim::Device* d = sim::device(device);
    return d ? d->busy_ns.load() : -1;
}

extern "C" DIOPI_API const diopiDeviceRuntime_t* diopiGetDeviceRuntime(void) {
    sim::ensureStarted();
    return &sim::kRuntime;
}
