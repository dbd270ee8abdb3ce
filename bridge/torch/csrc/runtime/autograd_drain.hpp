// Draining the device's autograd threads at interpreter exit.
#pragma once

#include <string>

namespace diopi_torch {

/// Runs one empty graph task through each device's autograd thread and waits
/// (autograd_drain.cpp says why); false with `why` when it could not.
bool drainAutogradThread(std::string& why);

}  // namespace diopi_torch
