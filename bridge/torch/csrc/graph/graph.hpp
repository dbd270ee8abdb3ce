// Compiled graphs (torch.compile(backend="diopi")): what the plan runner
// (graph_runner.cpp) and the generated call thunks (graph_thunks.cpp, from
// codegen/thunks.py) share.
#pragma once

#include <diopi/diopirt.h>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace diopi_torch::graph {

/// One prepared argument of a DIOPI call; the thunk of the function reads
/// the member its C parameter type needs.
struct Arg {
    void* p = nullptr;      // handles, arrays, scalars, size pointers, strings, generators
    int64_t i = 0;          // integers and enums
    double d = 0.0;         // double and float
    bool b = false;
    diopiSize_t z{nullptr, 0};
};

using GenericFn = void (*)();
/// Calls `fn` (a DIOPI function of the header) with the prepared arguments after the context.
using Thunk = diopiError_t (*)(GenericFn fn, diopiContextHandle_t ctx, const Arg* args);

/// Thunks by DIOPI function name (generated).
const std::unordered_map<std::string, Thunk>& thunks();

/// Signature of the function a compiled graph library exports as `diopi_graph_run`:
/// runs steps from `start` until one is marked eager in `eager` or returns an error;
/// `*stop` is that step, or the number of steps when all ran.
using CompiledRun = diopiError_t (*)(diopiContextHandle_t ctx, diopiTensorHandle_t const* tensors, diopiTensorHandle_t* cells,
                                     void (*const* fns)(void), void* const* runtime, const unsigned char* eager, int start,
                                     int* stop);

}  // namespace diopi_torch::graph
