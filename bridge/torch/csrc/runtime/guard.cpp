// PyTorch's PrivateUse1 backend, named `diopi`, as the framework sees it:
// the device guard (devices, streams, events over device_runtime.hpp) and the
// backend hooks (generators, pinned memory, storage resizing).
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include "diopi_support/aten_dtypes.hpp"

#include "aten/bridge.hpp"
#include "runtime/allocator.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/generator.hpp"
#include "runtime/state.hpp"

namespace diopi_torch {
namespace {

constexpr c10::DeviceType kDiopi = c10::DeviceType::PrivateUse1;

// ---------------------------------------------------------------- guard

struct Guard final : c10::impl::DeviceGuardImplInterface {
    c10::DeviceType type() const override { return kDiopi; }
    c10::Device exchangeDevice(c10::Device d) const override {
        return c10::Device(kDiopi, exchangeCurrentDevice(d.index() < 0 ? currentDeviceIndex() : d.index()));
    }
    c10::Device getDevice() const override { return c10::Device(kDiopi, currentDeviceIndex()); }
    void setDevice(c10::Device d) const override { exchangeCurrentDevice(d.index() < 0 ? currentDeviceIndex() : d.index()); }
    void uncheckedSetDevice(c10::Device d) const noexcept override {
        try {
            exchangeCurrentDevice(d.index());
        } catch (...) {
        }
    }
    c10::Stream getStream(c10::Device d) const override { return currentStream(d.index()); }
    c10::Stream getDefaultStream(c10::Device d) const override { return defaultStream(d.index() < 0 ? currentDeviceIndex() : d.index()); }
    c10::Stream getStreamFromGlobalPool(c10::Device d, bool isHighPriority) const override {
        return poolStream(d.index() < 0 ? currentDeviceIndex() : d.index(), isHighPriority ? -1 : 0);
    }
    c10::Stream getNewStream(c10::Device d, int priority) const override {
        return poolStream(d.index() < 0 ? currentDeviceIndex() : d.index(), priority);
    }
    c10::Stream exchangeStream(c10::Stream s) const override { return exchangeCurrentStream(s); }
    void* getStreamNativeHandle(const c10::Stream s) const override { return nativeStream(s); }
    void destroyEvent(void* event, const c10::DeviceIndex) const noexcept override {
        try {
            diopi_torch::destroyEvent(event);
        } catch (...) {
        }
    }
    void record(void** event, const c10::Stream& stream, const c10::DeviceIndex index, const c10::EventFlag flag) const override {
        TORCH_CHECK(index == -1 || index == stream.device_index(), "diopi: event device index ", static_cast<int>(index),
                    " does not match the recording stream's device ", static_cast<int>(stream.device_index()));
        // PyTorch asks for timing with BACKEND_DEFAULT (torch.Event(enable_timing=True)).
        recordEvent(event, stream, flag == c10::EventFlag::BACKEND_DEFAULT);
    }
    void block(void* event, const c10::Stream& stream) const override { blockStream(event, stream); }
    bool queryEvent(void* event) const override { return diopi_torch::queryEvent(event); }
    c10::DeviceIndex deviceCount() const noexcept override {
        try {
            return diopi_torch::deviceCount();
        } catch (...) {
            return 1;
        }
    }
    bool queryStream(const c10::Stream& stream) const override { return diopi_torch::queryStream(stream); }
    void synchronizeStream(const c10::Stream& stream) const override { diopi_torch::synchronizeStream(stream); }
    void synchronizeEvent(void* event) const override { diopi_torch::synchronizeEvent(event); }
    void synchronizeDevice(const c10::DeviceIndex index) const override { diopi_torch::synchronizeDevice(index); }
    void recordDataPtrOnStream(const c10::DataPtr& data_ptr, const c10::Stream& stream) const override {
        deviceAllocator()->recordStream(data_ptr, stream);
    }
    double elapsedTime(void* start, void* end, const c10::DeviceIndex) const override { return elapsedMs(start, end); }
    // torch.accelerator.get_device_capability: the dtypes a tensor of the device can have, the standard's
    // (diopiDtype_t); others (quantized, float8, ...) have no DIOPI dtype to reach a vendor with.
    c10::DeviceCapability getDeviceCapability(c10::Device d) const override {
        if (d.has_index()) checkDeviceIndex(d.index());
        c10::DeviceCapability cap;
        cap.capability_data.capability_bits = 0;
#define DIOPI_TORCH_CAPABILITY(_, n) \
    cap.capability_data.supported_scalar_types.has_##n = diopi_support::fromScalarType(c10::ScalarType::n) != diopi_dtype_unsupported;
        AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(DIOPI_TORCH_CAPABILITY)
#undef DIOPI_TORCH_CAPABILITY
        return cap;
    }
};
C10_REGISTER_GUARD_IMPL(PrivateUse1, Guard);

// ---------------------------------------------------------------- hooks

struct Hooks final : at::PrivateUse1HooksInterface {
    bool isBuilt() const override { return true; }
    bool isAvailable() const override { return true; }
    const at::Generator& getDefaultGenerator(c10::DeviceIndex index) const override { return defaultGenerator(index); }
    at::Generator getNewGenerator(c10::DeviceIndex index) const override { return newGenerator(index); }
    at::Device getDeviceFromPtr(void*) const override { return at::Device(kDiopi, currentDeviceIndex()); }
    bool isPinnedPtr(const void* data) const override { return isPinned(data); }
    at::Allocator* getPinnedMemoryAllocator() const override { return pinnedAllocator(); }
    bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
    c10::DeviceIndex deviceCount() const override { return diopi_torch::deviceCount(); }
    c10::DeviceIndex getCurrentDevice() const override { return currentDeviceIndex(); }
    void setCurrentDevice(c10::DeviceIndex index) const override { exchangeCurrentDevice(index); }
    c10::DeviceIndex exchangeDevice(c10::DeviceIndex index) const override { return exchangeCurrentDevice(index); }
    c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex index) const override { return exchangeCurrentDevice(index); }
    void resizePrivateUse1Bytes(const c10::Storage& storage, size_t newsize) const override {
        // Grow by copying into a new allocation, as resize_ of a CPU storage does.
        auto* impl = storage.unsafeGetStorageImpl();
        c10::DeviceGuard guard(impl->device());
        at::DataPtr fresh = deviceAllocator()->allocate(newsize);
        size_t keep = std::min(newsize, impl->nbytes());
        if (keep) checkRuntime(runtime().memcpy_d2d_async(fresh.get(), impl->data(), keep, currentNativeStream()), "memcpy_d2d_async");
        impl->set_data_ptr_noswap(std::move(fresh));
        impl->set_nbytes(newsize);
    }
};

struct RegisterHooks {
    RegisterHooks() { at::RegisterPrivateUse1HooksInterface(new Hooks()); }
} gRegisterHooks;

}  // namespace
}  // namespace diopi_torch
