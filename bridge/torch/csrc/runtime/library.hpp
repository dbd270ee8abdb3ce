// The loaded vendor library: opening it (and the device runtime it brings),
// its symbols and its last error string.
#pragma once

#include <string>

namespace diopi_torch {

/// Opens the vendor library `impl` and installs the device runtime from
/// `hooks` when given, else from the vendor library itself, else the host
/// runtime. One process serves one library: loading the same path again is
/// a no-op, another path an error. False with `why` on failure.
bool loadLibrary(const char* impl, const char* hooks, std::string& why);
/// The loaded library's path ("" before loading).
std::string libraryPath();
/// What the vendor's `const char* fn(void)` named `sym` returns ("" when absent or not loaded).
std::string libraryString(const char* sym);

}  // namespace diopi_torch
