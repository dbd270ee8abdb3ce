// The simulated chip's internals, shared by its device runtime (device.cpp),
// the runtime its kernels call (simrt.cpp) and the generated operator
// wrappers (launch.hpp).
#pragma once

#include <diopi/device.h>
#include <diopi/diopirt.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace sim {

using Clock = std::chrono::steady_clock;

/// The knobs, read once from the environment (see impl/sim/README.md).
struct Config {
    int devices = 1;               // DIOPI_SIM_DEVICES
    size_t memory = 0;             // DIOPI_SIM_MEMORY: bytes per device
    int64_t jitter_us = 0;         // DIOPI_SIM_JITTER=1: delays up to this many µs before queued work starts
    int64_t fail_alloc = 0;        // DIOPI_SIM_FAIL=alloc:K: the K-th malloc fails (0: none)
    int64_t fail_launch = 0;       // DIOPI_SIM_FAIL=launch:K: the K-th operator launch fails
    int64_t kernel_us = 0;         // DIOPI_SIM_KERNEL_US: minimum device time of a kernel
};
const Config& config();

/// This thread's last error (diopiGetLastErrorString of the library).
void setLastError(const std::string& msg);
const char* lastError();
/// Records `msg` and returns `code`.
diopiError_t failWith(diopiError_t code, const std::string& msg);

/* ---------------------------------------------------------------- memory */

/// Device whose memory holds `p` (-1: not device memory).
int deviceOf(const void* p);
/// The simulator's private address of the device byte at `p` (device memory only).
char* shadowOf(const void* p);
/// Whether [p, p + n) lies in the device memory of `device`.
bool inDevice(int device, const void* p, size_t n);
/// Allocates / frees device memory (the runtime's malloc and free, also used for kernel scratch).
diopiError_t deviceMalloc(int device, void** ptr, size_t nbytes, bool count_for_faults);
/// Frees at once: for blocks no queued work uses (a finished kernel's scratch).
diopiError_t deviceFree(int device, void* ptr);
/// The runtime's free: the block returns once the work queued before the call is done.
diopiError_t deviceFreeWhenIdle(int device, void* ptr);
void memInfo(int device, size_t* free_bytes, size_t* total_bytes);

/* ---------------------------------------------------------------- work */

struct Stream;

/// Work queued on a stream waits until `stream` has completed its `seq`-th item.
struct Dep {
    std::shared_ptr<Stream> stream;
    uint64_t seq;
};

/// One item of a stream's queue: an operator, a copy, a memset or a marker.
struct Task {
    std::string name;                         // the DIOPI function or the runtime call, for messages
    std::function<diopiError_t()> run;        // the work; a failure's message is the worker's lastError()
    std::function<void(int64_t)> stamp;       // markers: told the device time when they are reached
    std::vector<Dep> deps;
    uint64_t seq = 0;
    Clock::time_point not_before{};
    bool kernel = false;                      // counts DIOPI_SIM_KERNEL_US
};

struct Stream {
    int device = 0;
    bool is_default = false;
    std::deque<std::unique_ptr<Task>> queue;
    uint64_t enqueued = 0;                    // seq of the last task queued
    std::atomic<uint64_t> completed{0};       // seq of the last task done (in order)
};

/// The device a stream handle belongs to: NULL is the current device's default stream.
/// Returns nullptr (and sets the error) for a handle that is no stream of the simulator.
std::shared_ptr<Stream> streamOf(diopiStreamHandle_t handle, const char* what);
int currentDevice();

/// Queues `task` on `stream` (default-stream ordering and jitter applied); returns its seq.
uint64_t enqueue(const std::shared_ptr<Stream>& stream, std::unique_ptr<Task> task);
/// Waits until `stream` completed `seq`; then reports (and clears) the device's sticky error, if any.
diopiError_t waitFor(const std::shared_ptr<Stream>& stream, uint64_t seq);
/// Reports (and clears) the sticky error of `device` (diopiSuccess when none).
diopiError_t takeSticky(int device);
/// Counts an operator launch; true when DIOPI_SIM_FAIL=launch:K picks this one.
bool launchFails();
/// The device's clock (ns), and makes a kernel that ran `elapsed` last at least DIOPI_SIM_KERNEL_US.
void occupy(Clock::time_point started);
/// Counts the time since `started` as busy time of `device` (work run outside its worker: synchronous calls).
void addBusy(int device, Clock::time_point started);

/// Starts the devices (memory, workers, fault handler) once; false when that failed.
bool ensureStarted();

/* ---------------------------------------------------------------- kernels' view */

/// A tensor as the simulator's kernels see it: captured when the call was
/// queued, addressing the simulator's private view of device memory.
struct SimTensor {
    std::vector<int64_t> shape, stride;
    diopiDtype_t dtype = diopi_dtype_float32;
    diopiDevice_t where = diopi_device;
    int device = -1;                          // -1: host memory
    char* data = nullptr;                     // first element
    char* storage = nullptr;                  // storage start
    int64_t offset = 0;                       // elements from storage to data
    size_t storage_nbytes = 0;
    diopiTensorHandle_t caller = nullptr;     // the caller's handle (an argument, or a tensor required through the caller)
};

/// What a kernel gets as its diopiContextHandle_t: the call's captured
/// arguments and the temporaries it requires (freed when the call is done).
struct KernelCtx {
    int device = 0;
    diopiStreamHandle_t stream = nullptr;
    diopiContextHandle_t caller = nullptr;    // synchronous calls: the caller's context, valid during the call
    std::deque<SimTensor> tensors;
    std::deque<std::vector<int64_t>> ints;
    std::deque<std::vector<diopiTensorHandle_t>> arrays;
    std::deque<diopiScalar_t> scalars;
    std::deque<diopiSize_t> sizes;
    std::deque<std::string> strings;
    std::deque<double> doubles;
    std::deque<bool> bools;
    std::vector<std::pair<int, void*>> scratch;   // (device, address) of device temporaries; -1: host
    ~KernelCtx();
};

/// Captures the caller's tensor `h` for a call on `device`; nullptr (error set) when it cannot be used there.
SimTensor* capture(KernelCtx& k, const char* func, const char* name, const void* h, int device);
int64_t dtypeSize(diopiDtype_t dtype);

}  // namespace sim
