// The device runtime the `diopi` device drives (proto/include/diopi/device.h):
// the vendor's table, or the built-in host runtime, or an old hooks library
// adapted to the table; plus the per-thread current device and stream, and
// the streams and events handed to PyTorch.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/Stream.h>
#include <diopi/device.h>

#include <cstddef>
#include <string>

namespace diopi_torch {

/// The runtime in use: every field of the current revision readable (absent
/// ones are NULL). Fixed once the first device memory is allocated.
const diopiDeviceRuntime_t& runtime();
/// Raises CUDA's "Cannot re-initialize ... in forked subprocess" error in a child forked after the device was
/// initialised (fork.cpp): every DIOPI call, allocation and copy checks it, so a tensor the child inherited
/// cannot be used either. Releasing memory does not (a destructor may not raise).
void refuseInBadFork();
/// Installs the vendor's runtime found in `handle` (diopiGetDeviceRuntime, or
/// an old diopiTorchDeviceHooks); false with `why` when it is unusable.
/// A NULL handle keeps the host runtime.
bool installRuntime(void* handle, const std::string& from, std::string& why);
/// Name of the runtime ("host memory", the vendor's name).
std::string runtimeName();
/// Whether device memory has been allocated (the runtime can no longer change).
void markRuntimeUsed();
/// Makes this thread run its backward passes itself, as the CPU's run, when ATen computes with one intra-op thread
/// (DIOPI_AUTOGRAD_THREAD=0 / =1: always / never; device_runtime.cpp says why). Once per thread; the allocator calls it.
void backwardOnThisThread();

/// Raises unless a runtime call succeeded, naming `what` and the vendor's last error.
void checkRuntime(diopiError_t status, const char* what);

c10::DeviceIndex deviceCount();
/// Raises "invalid device ordinal" unless 0 <= index < deviceCount().
void checkDeviceIndex(c10::DeviceIndex index);
c10::DeviceIndex currentDeviceIndex();
/// Makes `index` current on this thread (tells the vendor when it changes); returns the previous one.
c10::DeviceIndex exchangeCurrentDevice(c10::DeviceIndex index);

// Streams: id 0 is the device's default stream (the vendor's NULL stream);
// ids from 1 name streams of a per-device pool created on first use.
c10::Stream currentStream(c10::DeviceIndex index);
c10::Stream defaultStream(c10::DeviceIndex index);
c10::Stream poolStream(c10::DeviceIndex index, int priority);
/// Makes `s` current for its device on this thread; returns the previous one.
c10::Stream exchangeCurrentStream(c10::Stream s);
diopiStreamHandle_t nativeStream(const c10::Stream& s);
/// The stream a DIOPI call on the current device is ordered on.
diopiStreamHandle_t currentNativeStream();
bool queryStream(const c10::Stream& s);
void synchronizeStream(const c10::Stream& s);
void synchronizeDevice(c10::DeviceIndex index);

// Events (PyTorch owns the void* it gets from recordEvent).
void recordEvent(void** event, const c10::Stream& s, bool timing);
void blockStream(void* event, const c10::Stream& s);
bool queryEvent(void* event);
void synchronizeEvent(void* event);
void destroyEvent(void* event);
double elapsedMs(void* start, void* end);

}  // namespace diopi_torch
