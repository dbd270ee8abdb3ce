// Fork safety as CUDA has it: once the device is initialised (the device
// module's _lazy_init, on the first tensor made for it), a forked child is
// "in a bad fork": PyTorch's own fork handler for the device type marks it so
// and makes the child's next device use initialise again, which the device
// module refuses with CUDA's "Cannot re-initialize ... in forked subprocess".
// A child that never touches the device (a DataLoader worker) is unaffected.
// Tensors the child inherited do not go through that lazy initialisation: every
// DIOPI call, device allocation and copy refuses them the same way
// (refuseInBadFork), as a CUDA kernel on an inherited tensor fails in the child.
// A chip's driver state does not survive fork(); on a host vendor the refusal
// keeps code portable to one.
#include <torch/csrc/utils/device_lazy_init.h>

#include <c10/util/Exception.h>

#include "runtime/device_runtime.hpp"

namespace diopi_torch {

void refuseInBadFork() {
    TORCH_CHECK(!torch::utils::is_device_in_bad_fork(c10::DeviceType::PrivateUse1),
                "Cannot re-initialize diopi in forked subprocess. To use diopi with multiprocessing, you must use the "
                "'spawn' start method (this process was forked after the device was initialised, so the tensors it "
                "inherited cannot be used here either)");
}

}  // namespace diopi_torch

#define DIOPI_TORCH_API extern "C" __attribute__((visibility("default")))

DIOPI_TORCH_API int diopi_torch_poison_fork() {
    try {
        torch::utils::register_fork_handler_for_device_init(c10::DeviceType::PrivateUse1);
        return 0;
    } catch (...) {
        return 1;
    }
}

DIOPI_TORCH_API int diopi_torch_in_bad_fork() {
    try {
        return torch::utils::is_device_in_bad_fork(c10::DeviceType::PrivateUse1) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}
