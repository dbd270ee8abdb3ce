// What the device counts (diopi_torch.stats()): DIOPI calls per mapping
// entry, CPU fallbacks with their reasons, views and copies per operator.
// The counting functions the kernels call are declared in bridge.hpp.
#pragma once

#include <cstdint>
#include <string>

namespace diopi_torch {

struct OpInfo;

/// {"aten op": {"diopi", "fallback", "view", "copy", "functions": {...}, "reasons": {...}}, ...}
std::string statsJson();
/// Moves one fallback of `aten` from one reason to another (a call that took another way than first counted).
void recountFallback(const char* aten, const char* from, const char* to);
void resetStats();
/// DIOPI_FALLBACK=error: a fallback not asked for by name raises.
void setFallbackError(bool on);
bool fallbackError();
/// Number of DIOPI calls so far, and the latest one (nullptr before the first).
uint64_t callSeq();
const OpInfo* lastCall();

}  // namespace diopi_torch
