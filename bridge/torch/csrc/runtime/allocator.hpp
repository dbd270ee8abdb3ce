// The device's allocators (allocator.cpp).
#pragma once

#include <ATen/core/CachingHostAllocator.h>
#include <c10/core/CachingDeviceAllocator.h>

namespace diopi_torch {

/// The caching allocator of device memory (registered for PrivateUse1).
c10::DeviceAllocator* deviceAllocator();
/// The caching allocator of pinned host memory (pin_memory(), DataLoader(pin_memory=True)).
at::HostAllocator* pinnedAllocator();
/// Whether `p` points into a live pinned host allocation.
bool isPinned(const void* p);

}  // namespace diopi_torch
