// The classic profiler's device timing (torch.autograd.profiler.profile(
// use_device="diopi")): PyTorch records a device event at each operator's
// start and end through the PrivateUse1 profiler stubs and reads the elapsed
// time between them, as it does with CUDA events. Without these stubs every
// operator warns "PrivateUse1 used in profiler but not enabled" and its device
// time is garbage. The events are the vendor runtime's timing events on the
// current stream (device.h), so the times are the device's own.
#include <c10/util/ApproximateClock.h>
#include <torch/csrc/profiler/stubs/base.h>

#include "runtime/device_runtime.hpp"

namespace diopi_torch {
namespace {

using torch::profiler::impl::ProfilerVoidEventStub;

struct DeviceStubs final : torch::profiler::impl::ProfilerStubs {
    void record(c10::DeviceIndex* device, ProfilerVoidEventStub* event, int64_t* cpu_ns) const override {
        const c10::DeviceIndex d = currentDeviceIndex();
        if (device) *device = d;
        void* ev = nullptr;
        recordEvent(&ev, currentStream(d), /*timing=*/true);
        *event = std::shared_ptr<void>(ev, [](void* e) {
            try {
                destroyEvent(e);
            } catch (...) {
            }
        });
        if (cpu_ns) *cpu_ns = c10::getTime();
    }
    // Microseconds, as CUDA's stub reports them.
    float elapsed(const ProfilerVoidEventStub* start, const ProfilerVoidEventStub* end) const override {
        synchronizeEvent(start->get());
        synchronizeEvent(end->get());
        return static_cast<float>(elapsedMs(start->get(), end->get()) * 1000.0);
    }
    // The runtime has no annotation ranges to forward names to.
    void mark(const char*) const override {}
    void rangePush(const char*) const override {}
    void rangePop() const override {}
    bool enabled() const override { return true; }
    void onEachDevice(std::function<void(int)> op) const override {
        const c10::DeviceIndex prev = currentDeviceIndex();
        for (c10::DeviceIndex i = 0; i < deviceCount(); ++i) {
            exchangeCurrentDevice(i);
            op(i);
        }
        exchangeCurrentDevice(prev);
    }
    void synchronize() const override { synchronizeDevice(currentDeviceIndex()); }
};

struct RegisterStubs {
    RegisterStubs() {
        static DeviceStubs stubs;
        torch::profiler::impl::registerPrivateUse1Methods(&stubs);
    }
} gRegisterStubs;

}  // namespace
}  // namespace diopi_torch
