// Memory of the `diopi` device: a caching allocator for device memory (the
// c10::DeviceAllocator behind torch.diopi.memory_* and torch.accelerator's
// memory API) and a caching allocator for pinned host memory.
//
// Device blocks are kept per device and stream after they are freed and
// handed out again for a request of the same size class, so a training step
// after the first allocates nothing from the vendor. A block used on another
// stream (record_stream) is reused only after events recorded on those
// streams at free time have completed. DIOPI_ALLOC_CACHE=0 returns every
// block to the vendor at once (for memory checkers).
#include "runtime/allocator.hpp"

#include <ATen/core/CachingHostAllocator.h>
#include <c10/core/CachingDeviceAllocator.h>
#include <c10/util/Exception.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <deque>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "runtime/device_runtime.hpp"

namespace diopi_torch {
namespace {

using c10::CachingAllocator::Stat;
using c10::CachingAllocator::StatType;
using c10::CachingDeviceAllocator::DeviceStats;

constexpr c10::DeviceType kDiopi = c10::DeviceType::PrivateUse1;
constexpr size_t kSmall = 1 << 20;  // blocks below 1 MiB count as the small pool in the statistics

// Size classes: 512-byte steps below 1 MiB, then eight classes per doubling
// (at most 12.5% rounding waste for large tensors).
size_t roundSize(size_t n) {
    if (n < kSmall) return (n + 511) / 512 * 512;
    size_t p = 1;
    while (p * 2 <= n) p *= 2;
    size_t step = p / 8;
    return (n + step - 1) / step * step;
}

std::string bytes(int64_t n) {
    std::ostringstream o;
    double v = static_cast<double>(n);
    const char* unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    o.precision(u ? 2 : 0);
    o << std::fixed << v << " " << unit[u];
    return o.str();
}

struct Block {
    c10::DeviceIndex device;
    c10::StreamId stream;        // the stream it was allocated on
    size_t size;                 // rounded size, what the vendor allocated
    size_t requested;
    void* ptr;
    std::vector<c10::Stream> uses;  // other streams recorded with record_stream
    std::vector<void*> events;      // outstanding events before the block may be reused
};

struct Device {
    std::unordered_map<uint64_t, std::vector<Block*>> free;  // key: stream id, size class
    std::deque<Block*> pending;  // freed, waiting for events of other streams
    DeviceStats stats;
    bool touched = false;
};

uint64_t key(c10::StreamId s, size_t size) { return (static_cast<uint64_t>(s) << 48) ^ size; }

void freeBlockPtr(void* ctx);

class CachingAllocator final : public c10::DeviceAllocator {
public:
    CachingAllocator() {
        const char* s = std::getenv("DIOPI_ALLOC_CACHE");
        caching_ = !(s && std::string(s) == "0");
    }

    at::DataPtr allocate(size_t n) override {
        refuseInBadFork();
        c10::DeviceIndex d = currentDeviceIndex();
        markRuntimeUsed();
        backwardOnThisThread();
        if (n == 0) return {nullptr, nullptr, &freeBlockPtr, c10::Device(kDiopi, d)};
        size_t size = roundSize(n);
        c10::StreamId stream = currentStream(d).id();
        std::lock_guard<std::mutex> g(mu_);
        Device& dev = device(d);
        processPending(dev);
        Block* b = nullptr;
        auto it = dev.free.find(key(stream, size));
        if (it != dev.free.end() && !it->second.empty()) {
            b = it->second.back();
            it->second.pop_back();
        } else {
            b = new Block{d, stream, size, n, vendorMalloc(dev, d, size, n)};
            update(dev.stats.segment, size, +1, true);
            update(dev.stats.reserved_bytes, size, static_cast<int64_t>(size), true);
            dev.stats.num_device_alloc++;
        }
        b->requested = n;
        update(dev.stats.allocation, size, +1, true);
        update(dev.stats.active, size, +1, true);
        update(dev.stats.allocated_bytes, size, static_cast<int64_t>(size), true);
        update(dev.stats.active_bytes, size, static_cast<int64_t>(size), true);
        update(dev.stats.requested_bytes, size, static_cast<int64_t>(n), true);
        return {b->ptr, b, &freeBlockPtr, c10::Device(kDiopi, d)};
    }

    at::DeleterFnPtr raw_deleter() const override { return nullptr; }  // blocks need their context

    void copy_data(void* dest, const void* src, std::size_t count) const override {
        checkRuntime(runtime().memcpy_d2d_async(dest, src, count, currentNativeStream()), "memcpy_d2d_async");
    }

    void release(Block* b) {
        std::lock_guard<std::mutex> g(mu_);
        Device& dev = device(b->device);
        update(dev.stats.allocation, b->size, -1, false);
        update(dev.stats.allocated_bytes, b->size, -static_cast<int64_t>(b->size), false);
        update(dev.stats.requested_bytes, b->size, -static_cast<int64_t>(b->requested), false);
        if (!b->uses.empty()) {
            // Its last use on other streams may still be running: reuse it after them.
            for (const c10::Stream& s : b->uses) {
                void* ev = nullptr;
                recordEvent(&ev, s, false);
                b->events.push_back(ev);
            }
            b->uses.clear();
            dev.pending.push_back(b);
            return;
        }
        retire(dev, b);
    }

    bool initialized() override { return true; }

    void emptyCache(c10::MempoolId_t) override {
        std::lock_guard<std::mutex> g(mu_);
        for (c10::DeviceIndex d = 0; d < static_cast<c10::DeviceIndex>(devices_.size()); ++d) {
            if (devices_[d]) releaseCached(*devices_[d], d, /*waitPending=*/true);
        }
    }

    void recordStream(const at::DataPtr& ptr, c10::Stream stream) override {
        if (!ptr.get_context() || ptr.get_deleter() != &freeBlockPtr) return;
        auto* b = static_cast<Block*>(ptr.get_context());
        if (stream.id() == b->stream) return;
        std::lock_guard<std::mutex> g(mu_);
        for (const auto& s : b->uses)
            if (s == stream) return;
        b->uses.push_back(stream);
    }

    DeviceStats getDeviceStats(c10::DeviceIndex d) override {
        std::lock_guard<std::mutex> g(mu_);
        return device(d).stats;
    }

    void resetAccumulatedStats(c10::DeviceIndex d) override {
        std::lock_guard<std::mutex> g(mu_);
        auto& s = device(d).stats;
        for (auto* a : {&s.allocation, &s.segment, &s.active, &s.inactive_split, &s.allocated_bytes, &s.reserved_bytes,
                        &s.active_bytes, &s.inactive_split_bytes, &s.requested_bytes})
            for (auto& st : *a) st.reset_accumulated();
        s.num_alloc_retries = s.num_ooms = s.num_device_alloc = s.num_device_free = 0;
    }

    void resetPeakStats(c10::DeviceIndex d) override {
        std::lock_guard<std::mutex> g(mu_);
        auto& s = device(d).stats;
        for (auto* a : {&s.allocation, &s.segment, &s.active, &s.inactive_split, &s.allocated_bytes, &s.reserved_bytes,
                        &s.active_bytes, &s.inactive_split_bytes, &s.requested_bytes})
            for (auto& st : *a) st.reset_peak();
    }

    std::pair<size_t, size_t> getMemoryInfo(c10::DeviceIndex d) override {
        checkDeviceIndex(d);
        size_t freeBytes = 0, total = 0;
        if (auto info = runtime().mem_get_info) checkRuntime(info(d, &freeBytes, &total), "mem_get_info");
        return {freeBytes, total};
    }

private:
    Device& device(c10::DeviceIndex d) {
        if (!devices_[d]) devices_[d] = std::make_unique<Device>();
        return *devices_[d];
    }

    static void update(c10::CachingAllocator::StatArray& a, size_t blockSize, int64_t amount, bool up) {
        auto apply = [&](Stat& s) {
            if (up) s.increase(static_cast<size_t>(amount));
            else s.decrease(static_cast<size_t>(-amount));
        };
        apply(a[static_cast<size_t>(StatType::AGGREGATE)]);
        apply(a[static_cast<size_t>(blockSize < kSmall ? StatType::SMALL_POOL : StatType::LARGE_POOL)]);
    }

    // A block no stream uses any more: cached for its stream, or returned to the vendor.
    void retire(Device& dev, Block* b) {
        update(dev.stats.active, b->size, -1, false);
        update(dev.stats.active_bytes, b->size, -static_cast<int64_t>(b->size), false);
        if (caching_) {
            dev.free[key(b->stream, b->size)].push_back(b);
        } else {
            vendorFree(dev, b);
        }
    }

    void processPending(Device& dev) {
        for (size_t i = 0; i < dev.pending.size();) {
            Block* b = dev.pending[i];
            bool done = true;
            for (void* ev : b->events) done = done && queryEvent(ev);
            if (!done) {
                ++i;
                continue;
            }
            for (void* ev : b->events) destroyEvent(ev);
            b->events.clear();
            dev.pending.erase(dev.pending.begin() + static_cast<std::ptrdiff_t>(i));
            retire(dev, b);
        }
    }

    void releaseCached(Device& dev, c10::DeviceIndex d, bool waitPending) {
        if (waitPending) {
            for (Block* b : dev.pending)
                for (void* ev : b->events) synchronizeEvent(ev);
        }
        processPending(dev);
        for (auto& [k, blocks] : dev.free) {
            for (Block* b : blocks) vendorFree(dev, b);
            blocks.clear();
        }
        dev.free.clear();
    }

    void vendorFree(Device& dev, Block* b) {
        runtime().free(b->device, b->ptr);
        update(dev.stats.segment, b->size, -1, false);
        update(dev.stats.reserved_bytes, b->size, -static_cast<int64_t>(b->size), false);
        dev.stats.num_device_free++;
        delete b;
    }

    void* vendorMalloc(Device& dev, c10::DeviceIndex d, size_t size, size_t requested) {
        void* p = nullptr;
        diopiError_t st = runtime().malloc(d, &p, size);
        if (st != diopiSuccess || !p) {
            // Give the cache back to the vendor and try once more.
            dev.stats.num_alloc_retries++;
            releaseCached(dev, d, /*waitPending=*/true);
            p = nullptr;
            st = runtime().malloc(d, &p, size);
        }
        if (st != diopiSuccess || !p) {
            dev.stats.num_ooms++;
            auto [freeBytes, total] = getMemoryInfoNoThrow(d);
            auto agg = [](const c10::CachingAllocator::StatArray& a) { return a[static_cast<size_t>(StatType::AGGREGATE)].current; };
            TORCH_CHECK_WITH(OutOfMemoryError, false, "diopi out of memory. Tried to allocate ", bytes(static_cast<int64_t>(requested)),
                             " on diopi:", static_cast<int>(d), " (device runtime ", runtimeName(), "). ",
                             bytes(agg(dev.stats.allocated_bytes)), " is allocated by PyTorch and ",
                             bytes(agg(dev.stats.reserved_bytes)), " reserved in all; the device reports ",
                             bytes(static_cast<int64_t>(freeBytes)), " free of ", bytes(static_cast<int64_t>(total)), ".");
        }
        dev.touched = true;
        return p;
    }

    std::pair<size_t, size_t> getMemoryInfoNoThrow(c10::DeviceIndex d) {
        size_t f = 0, t = 0;
        if (auto info = runtime().mem_get_info) info(d, &f, &t);
        return {f, t};
    }

    std::mutex mu_;
    std::array<std::unique_ptr<Device>, 64> devices_;
    bool caching_ = true;
};

CachingAllocator gAllocator;

void freeBlockPtr(void* ctx) {
    if (ctx) gAllocator.release(static_cast<Block*>(ctx));
}

// ---------------------------------------------------------------- pinned host memory

// An event for the pinned pool: destroyed with its last copy.
struct PinnedEvent {
    void* ev = nullptr;
    explicit PinnedEvent(const c10::Stream& s) { recordEvent(&ev, s, false); }
    ~PinnedEvent() { destroyEvent(ev); }
};
using PinnedEventPtr = std::shared_ptr<PinnedEvent>;

// PyTorch's own caching host allocator, on the runtime's host_malloc (or
// aligned host memory) and on the device's events.
struct PinnedImpl final : public at::CachingHostAllocatorImpl<c10::Stream, PinnedEventPtr> {
    void allocate_host_memory(size_t size, void** ptr) override {
        *ptr = nullptr;
        if (auto hm = runtime().host_malloc) {
            checkRuntime(hm(ptr, size), "host_malloc");
        } else if (posix_memalign(ptr, 64, (size + 63) / 64 * 64) != 0) {
            TORCH_CHECK_WITH(OutOfMemoryError, false, "diopi: cannot allocate ", bytes(static_cast<int64_t>(size)), " of pinned host memory");
        }
        std::lock_guard<std::mutex> g(rangesMu_);
        ranges_.emplace(reinterpret_cast<uintptr_t>(*ptr), size);
    }
    void free_block(at::HostBlock<c10::Stream>* block) override {
        {
            std::lock_guard<std::mutex> g(rangesMu_);
            ranges_.erase(reinterpret_cast<uintptr_t>(block->ptr_));
        }
        if (auto hf = runtime().host_free) hf(block->ptr_);
        else std::free(block->ptr_);
    }
    void record_stream(std::optional<std::vector<PinnedEventPtr>>& events, c10::Stream stream) override {
        events->push_back(std::make_shared<PinnedEvent>(stream));
    }
    bool query_event(PinnedEventPtr& event) override { return queryEvent(event->ev); }
    c10::Stream get_current_stream() const override { return currentStream(currentDeviceIndex()); }
    bool stream_is_capturing(c10::Stream) const override { return false; }
    // The default waits for a background thread pool; events here are polled when blocks are requested.
    bool pinned_use_background_threads() override { return false; }

    bool contains(const void* p) {
        auto a = reinterpret_cast<uintptr_t>(p);
        std::lock_guard<std::mutex> g(rangesMu_);
        auto it = ranges_.upper_bound(a);
        if (it == ranges_.begin()) return false;
        --it;
        return a < it->first + it->second;
    }

    std::mutex rangesMu_;
    std::map<uintptr_t, size_t> ranges_;  // every live pinned allocation: start -> size
};

void pinnedDeleter(void* ctx);
struct PinnedAllocator final : public at::CachingHostAllocatorInterface<PinnedImpl, pinnedDeleter> {
    void copy_data(void* dest, const void* src, std::size_t count) const override { std::memcpy(dest, src, count); }
};
PinnedAllocator gPinned;
void pinnedDeleter(void* ctx) { gPinned.free(ctx); }

}  // namespace

c10::DeviceAllocator* deviceAllocator() { return &gAllocator; }
at::HostAllocator* pinnedAllocator() { return &gPinned; }
bool isPinned(const void* p) { return p && gPinned.impl_->contains(p); }

}  // namespace diopi_torch

REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, diopi_torch::deviceAllocator());
REGISTER_HOST_ALLOCATOR(at::kPrivateUse1, diopi_torch::pinnedAllocator());
