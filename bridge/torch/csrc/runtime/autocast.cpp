// torch.autocast("diopi"): the operators that run in 16-bit, in float32, or
// in the widest input dtype under autocast. The lists are PyTorch's own
// (ATen's AT_FORALL_* lists, the ones CUDA registers), so the device casts
// exactly where CUDA does; ops in none of them pass through unchanged.
#include <ATen/autocast_mode.h>
#include <torch/library.h>

namespace at::autocast {  // the lists name Tensor, ScalarType, ... unqualified
namespace {

// PyTorch's own refusal (autocast_mode.cpp's, which it does not export), word for word: code that
// matches CUDA's message matches this one.
at::Tensor binaryCrossEntropyRefused(const at::Tensor&, const at::Tensor&, const std::optional<at::Tensor>&, int64_t) {
    TORCH_CHECK(false,
                "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
                "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
                "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
                "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
                "safe to autocast.");
}

TORCH_LIBRARY_IMPL(_, AutocastPrivateUse1, m) { m.fallback(torch::CppFunction::makeFallthrough()); }

TORCH_LIBRARY_IMPL(aten, AutocastPrivateUse1, m) {
#define DIOPI_LOWER_PRECISION(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, lower_precision_fp)
#define DIOPI_FP32(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32)
#define DIOPI_FP32_SET_OPT_DTYPE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32_set_opt_dtype)
#define DIOPI_PROMOTE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, promote)
    AT_FORALL_LOWER_PRECISION_FP(DIOPI_LOWER_PRECISION)
    AT_FORALL_FP32(DIOPI_FP32)
    AT_FORALL_FP32_SET_OPT_DTYPE(DIOPI_FP32_SET_OPT_DTYPE)
    AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE(KERNEL_DIFFERENT_REDISPATCH_SIGNATURE_PRIVATEUSEONE)
    AT_FORALL_PROMOTE(DIOPI_PROMOTE)
#undef DIOPI_LOWER_PRECISION
#undef DIOPI_FP32
#undef DIOPI_FP32_SET_OPT_DTYPE
#undef DIOPI_PROMOTE
    // As on CUDA: binary_cross_entropy is unsafe in 16-bit, and autocast refuses it with a message.
    m.impl(TORCH_SELECTIVE_NAME("aten::binary_cross_entropy"), TORCH_FN(binaryCrossEntropyRefused));
}

}  // namespace
}  // namespace at::autocast
