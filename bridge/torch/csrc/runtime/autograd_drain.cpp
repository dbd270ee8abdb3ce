// Draining the device's autograd threads at interpreter exit (why: below).
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/function.h>

#include <thread>

#include "runtime/autograd_drain.hpp"
#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

namespace diopi_torch {

namespace {

// A backward node that does nothing. When the device's autograd thread has
// run it, that thread has finished every graph task it was given before.
struct DrainNode final : torch::autograd::Node {
    torch::autograd::variable_list apply(torch::autograd::variable_list&&) override { return {}; }
    std::string name() const override { return "diopi_torch::DrainNode"; }
};

}  // namespace

// Why this exists: a backward on this device runs on PyTorch's autograd
// thread for the device. That thread wakes the caller when the graph is done
// and only then drops its own reference to the graph task, which owns Python
// objects (every backward started from Python stashes a contextvars copy in
// the task's thread-local state). When the script ends right after backward,
// the interpreter may already be finalizing when the thread drops that
// reference; the decref then asks for the GIL, CPython ends the thread with
// pthread_exit, the forced unwind meets a noexcept destructor and the process
// aborts ("terminate called without an active exception"). CPU backward runs
// on the calling thread and never races.
//
// Called from an atexit handler (interpreter alive) with the GIL released, it
// runs one empty graph task through the device's autograd thread and waits for
// it, on each device (PyTorch runs one autograd thread per device index). The
// task is started from a fresh thread, so its thread-local state holds no
// Python object, and the thread's previous graph task is released before the
// empty one starts: afterwards the autograd threads hold nothing of Python's.
// Returns false (and says why in `why`) if the drain could not run.
bool drainAutogradThread(std::string& why) {
    bool ok = false;
    std::thread t([&] {
        try {
            for (c10::DeviceIndex d = 0; d < deviceCount(); ++d) {
                at::Tensor grad = at::empty({0}, at::TensorOptions().device(at::Device(c10::DeviceType::PrivateUse1, d)));
                auto node = c10::make_intrusive<DrainNode>();
                node->add_input_metadata(grad);
                torch::autograd::Engine::get_default_engine().execute({torch::autograd::Edge(node, 0)}, {grad},
                                                                      /*keep_graph=*/false, /*create_graph=*/false,
                                                                      /*accumulate_grad=*/true);
            }
            ok = true;
        } catch (const std::exception& e) {
            why = e.what();
        } catch (...) {
            why = "unknown error";
        }
    });
    t.join();
    return ok;
}

}  // namespace diopi_torch
