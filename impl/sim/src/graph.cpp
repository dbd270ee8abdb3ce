// The simulated chip's graph compiler (diopi/graph.h): impl/cpu's, built in
// here, with its runs queued on the device as every kernel is.
//
// compile() is host work on the graph's description (no tensor memory), so it
// is impl/cpu's own. run() captures the input and output handles and the
// symbols as an operator wrapper captures its arguments, and queues one task
// that runs the executable on the device's worker: its fused loops and its
// calls (impl/cpu's kernels, not the exported wrappers, which would queue them
// again) reach device memory through the simulator's runtime, and its
// intermediates come from the run's kernel context. An executable destroyed
// while runs of it are queued lives until the last of them has run.
#include <diopi/graph.h>

#include <memory>
#include <vector>

#include "graph/thunks.hpp"
#include "launch.hpp"

namespace {

struct SimExecutable {
    std::shared_ptr<diopiGraphExecutable> inner;  // impl/cpu's executable, released by its destroy()
    int32_t inputs = 0, outputs = 0, symbols = 0;
};

const diopiGraphCompiler_t* inner() { return impl::cpu::graph::innerCompiler(); }

diopiError_t compileGraph(diopiContextHandle_t ctx, const diopiGraph_t* graph, diopiGraphExecutableHandle_t* executable, int32_t* declined,
                          int32_t* numDeclined) {
    if (!graph || !executable || !numDeclined) return sim::failWith(diopiErrorOccurred, "diopiGraphCompiler.compile: NULL argument");
    *executable = nullptr;
    diopiGraphExecutableHandle_t made = nullptr;
    // The context is only the caller's: impl/cpu's compile() allocates nothing on it.
    diopiError_t rc = inner()->compile(ctx, graph, &made, declined, numDeclined);
    if (rc != diopiSuccess) return sim::failWith(rc, sim::kernelLastError());
    if (!made) return diopiSuccess;
    try {
        auto* ex = new SimExecutable;
        ex->inner = std::shared_ptr<diopiGraphExecutable>(made, [](diopiGraphExecutableHandle_t e) { inner()->destroy(e); });
        ex->inputs = graph->num_inputs;
        ex->outputs = graph->num_outputs;
        ex->symbols = graph->num_symbols;
        *executable = reinterpret_cast<diopiGraphExecutableHandle_t>(ex);
        return diopiSuccess;
    } catch (...) {
        inner()->destroy(made);
        return sim::failWith(diopiErrorOccurred, "diopiGraphCompiler.compile: out of host memory");
    }
}

diopiError_t runGraph(diopiContextHandle_t ctx, diopiGraphExecutableHandle_t executable, const diopiConstTensorHandle_t* inputs,
                      const diopiTensorHandle_t* outputs, const int64_t* symbols) {
    try {
        auto* ex = reinterpret_cast<SimExecutable*>(executable);
        if (!ex) return sim::failWith(diopiErrorOccurred, "diopiGraphCompiler.run: NULL executable");
        sim::Launch launch("diopiGraphCompiler.run", ctx, /*sync=*/false);
        // The executable is part of the call's signature: a new one is tried once before its runs are queued.
        launch.plain(reinterpret_cast<uintptr_t>(ex));
        auto* ins = launch.tensors("inputs", const_cast<diopiConstTensorHandle_t*>(inputs), ex->inputs);
        auto* outs = launch.tensors("outputs", const_cast<diopiTensorHandle_t*>(outputs), ex->outputs);
        std::vector<int64_t> syms(symbols ? symbols : nullptr, symbols ? symbols + ex->symbols : nullptr);
        for (int64_t s : syms) launch.plain(s);
        std::shared_ptr<diopiGraphExecutable> held = ex->inner;
        return launch.run([held, ins, outs, syms](diopiContextHandle_t k) {
            return inner()->run(k, held.get(), ins, outs, syms.empty() ? nullptr : syms.data());
        });
    } catch (...) {
        return sim::failWith(diopiErrorOccurred, "diopiGraphCompiler.run: out of host memory");
    }
}

diopiError_t destroyGraph(diopiGraphExecutableHandle_t executable) {
    delete reinterpret_cast<SimExecutable*>(executable);  // queued runs hold the inner executable until they are done
    return diopiSuccess;
}

const diopiGraphCompiler_t kCompiler = {DIOPI_GRAPH_VERSION, sizeof(diopiGraphCompiler_t),
                                        "impl/sim: impl/cpu's fused loops + calls, queued on the device", compileGraph, runGraph,
                                        destroyGraph};

}  // namespace

extern "C" DIOPI_API const diopiGraphCompiler_t* diopiGetGraphCompiler(void) { return &kCompiler; }
