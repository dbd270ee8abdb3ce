// The call thunks of impl/cpu's graph compiler (generated: gen_thunks.py).
#pragma once

#include <diopi/diopirt.h>
#include <diopi/graph.h>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace impl::cpu::graph {

/// One prepared argument; the thunk reads the member its C parameter type needs.
struct Slot {
    void* p = nullptr;
    int64_t i = 0;
    double d = 0.0;
    diopiSize_t z{nullptr, 0};
};

using GenericFn = void (*)();
using Thunk = diopiError_t (*)(GenericFn f, diopiContextHandle_t ctx, const Slot* args);

/// A thunk and the slot member of each parameter after the context
/// ('t' tensor, 'l' tensor list, 'p' other pointer, 'z' size, 'i' integer or bool, 'd' floating,
/// 'B' / 'N' / 'F' a pointer to one bool / int64 / double, 'S' a pointer to a diopiSize_t).
struct ThunkInfo {
    Thunk thunk;
    const char* kinds;
    int dropout;  // index of a dropout-probability parameter (-1: none): at 0 the generator is not drawn from
};

const std::unordered_map<std::string, ThunkInfo>& thunks();

#ifdef DIOPI_GRAPH_KERNEL_TABLE
// A library that embeds the compiler (impl/sim) resolves nodes to its kernels itself: its exported operators queue
// work, the executable's steps must call the kernels directly. NULL: no kernel of that name.
GenericFn kernelOf(const char* name);
// The compiler's table, for the embedding library to wrap and export.
const diopiGraphCompiler_t* innerCompiler();
#endif

}  // namespace impl::cpu::graph
