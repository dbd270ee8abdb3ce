// The kernels every backend must provide itself (empty tensors, views,
// resizing, copies between host and device) and the meta / allocation
// helpers of the generated kernels. Operator kernels are generated from
// aten_to_diopi.yaml; anything else reaches the counted CPU fallback.
#include <ATen/EmptyTensor.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/as_strided_cpu_dispatch.h>
#include <ATen/ops/set_cpu_dispatch.h>
#include <ATen/native/transformers/sdp_utils_cpp.h>
#include <torch/library.h>

#include <array>
#include <cstring>

#include "runtime/allocator.hpp"
#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

namespace diopi_torch {
namespace {

constexpr c10::DeviceType kDiopi = c10::DeviceType::PrivateUse1;

// ---------------------------------------------------------------- kernels

c10::OptionalDeviceGuard guardFor(std::optional<c10::Device> device) {
    if (device.has_value()) {
        TORCH_CHECK(device->type() == kDiopi, "diopi: cannot create a diopi tensor on ", *device);
        if (device->has_index()) checkDeviceIndex(device->index());
    }
    return c10::OptionalDeviceGuard(device);
}

at::Tensor emptyMemoryFormat(c10::IntArrayRef size, std::optional<c10::ScalarType> dtype, std::optional<c10::Layout> layout,
                             std::optional<c10::Device> device, std::optional<bool> pin, std::optional<c10::MemoryFormat> fmt) {
    TORCH_CHECK(c10::layout_or_default(layout) == c10::Layout::Strided, "diopi tensors are strided");
    auto guard = guardFor(device);
    return at::detail::empty_generic(size, deviceAllocator(), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                     c10::dtype_or_default(dtype), fmt);
}

at::Tensor emptyStrided(c10::IntArrayRef size, c10::IntArrayRef stride, std::optional<c10::ScalarType> dtype,
                        std::optional<c10::Layout> layout, std::optional<c10::Device> device, std::optional<bool> pin) {
    TORCH_CHECK(c10::layout_or_default(layout) == c10::Layout::Strided, "diopi tensors are strided");
    auto guard = guardFor(device);
    return at::detail::empty_strided_generic(size, stride, deviceAllocator(), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                             c10::dtype_or_default(dtype));
}

at::Tensor asStrided(const at::Tensor& self, c10::SymIntArrayRef size, c10::SymIntArrayRef stride, std::optional<c10::SymInt> offset) {
    countView("as_strided");
    return at::cpu::as_strided_symint(self, size, stride, std::move(offset));
}

at::Tensor view(const at::Tensor& self, c10::SymIntArrayRef size) {
    countView("view");
    return at::native::view(self, C10_AS_INTARRAYREF_SLOW(size));
}

at::Tensor reshapeAlias(const at::Tensor& self, c10::SymIntArrayRef size, c10::SymIntArrayRef stride) {
    countView("_reshape_alias");
    return at::native::_reshape_alias(self, C10_AS_INTARRAYREF_SLOW(size), C10_AS_INTARRAYREF_SLOW(stride));
}

at::Tensor unfold(const at::Tensor& self, int64_t dim, int64_t size, int64_t step) {
    countView("unfold");
    return at::native::unfold(self, dim, size, step);
}

const at::Tensor& resize(const at::Tensor& self, c10::SymIntArrayRef size, std::optional<at::MemoryFormat> fmt) {
    countView("resize_");
    c10::DeviceGuard guard(self.device());
    return at::native::resize_(self, C10_AS_INTARRAYREF_SLOW(size), fmt);
}

at::Tensor& setSourceTensor(at::Tensor& self, const at::Tensor& source) {
    countView("set_.source_Tensor");
    return at::native::set_tensor_(self, source);
}

at::Tensor& setSourceStorage(at::Tensor& self, at::Storage source) {
    countView("set_.source_Storage");
    return at::native::set_(self, source);
}

at::Tensor& setSourceStorageOffset(at::Tensor& self, at::Storage source, int64_t offset, c10::IntArrayRef size, c10::IntArrayRef stride) {
    countView("set_.source_Storage_storage_offset");
    return at::cpu::set_(self, source, offset, size, stride);
}

// Bytes of a dense tensor between the host and diopi:`device`, ordered on
// that device's current stream. A blocking copy waits for the stream. A
// non-blocking one returns at once when the host side is pinned (the pinned
// block is kept until the copy is done); pageable host memory might be
// freed or reused before an asynchronous copy reads it, so that copy waits.
void transfer(void* dst, const void* src, size_t n, bool toDevice, c10::DeviceIndex device, bool nonBlocking,
              const at::Tensor* pinnedHost = nullptr) {
    if (!n) return;
    refuseInBadFork();
    c10::DeviceGuard guard(c10::Device(kDiopi, device));
    c10::Stream stream = currentStream(device);
    diopiStreamHandle_t s = nativeStream(stream);
    if (toDevice) checkRuntime(runtime().memcpy_h2d_async(dst, src, n, s), "memcpy_h2d_async (host-to-device copy)");
    else checkRuntime(runtime().memcpy_d2h_async(dst, src, n, s), "memcpy_d2h_async (device-to-host copy)");
    if (nonBlocking && pinnedHost && isPinned(pinnedHost->storage().data())) {
        const auto& dp = pinnedHost->storage().data_ptr();
        pinnedAllocator()->record_event(dp.get(), dp.get_context(), stream);
        return;
    }
    synchronizeStream(stream);
}

bool dense(const at::Tensor& t) { return t.is_contiguous() && t.is_non_overlapping_and_dense(); }

const OpInfo kCopyInfo{"_copy_from", "diopiCopyInp", "bridge/torch/csrc/aten/kernels.cpp (device-to-device copy)", "src,dest"};

// dst <- src on the device through the vendor's diopiCopyInp (broadcast and
// dtype conversion included); false when the library cannot do it. Both on one device.
bool deviceCopy(const at::Tensor& src, const at::Tensor& dst) {
    using Fn = diopiError_t (*)(diopiContextHandle_t, diopiConstTensorHandle_t, diopiTensorHandle_t);
    auto fn = reinterpret_cast<Fn>(symbol("diopiCopyInp"));
    if (!fn) return false;
    c10::DeviceGuard guard(dst.device());
    Call call(kCopyInfo);
    diopiError_t st = call.run(fn, call.ctx(), call.in(src), call.out(dst));
    if (Call::fallbackReason(st)) return false;
    call.check(st);
    countDiopi(kCopyInfo);
    return true;
}

at::Tensor toHost(const at::Tensor& src) {
    at::Tensor s = src;
    if (!dense(s)) {
        at::Tensor tmp = at::empty(s.sizes(), s.options());
        if (deviceCopy(s, tmp)) {
            s = tmp;
        } else {  // no device copy: bring the whole storage over and view it on the host
            countFallback("_copy_from", "diopiCopyInp unavailable: strided copy on the host");
            at::Tensor whole = at::empty({static_cast<int64_t>(s.storage().nbytes())}, at::kByte);
            transfer(whole.data_ptr(), s.storage().data(), whole.numel(), false, s.device().index(), false);
            return whole.view(s.scalar_type()).as_strided(s.sizes(), s.strides(), s.storage_offset()).clone();
        }
    }
    at::Tensor host = at::empty(s.sizes(), s.options().device(at::kCPU));
    transfer(host.data_ptr(), s.const_data_ptr(), host.nbytes(), false, s.device().index(), false);
    return host;
}

at::Tensor copyFrom(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
    const at::Tensor& src = self;
    if (dst.numel() == 0) return dst;
    if (src.is_cpu() && !dst.is_cpu()) {  // host -> device
        countCopy("_copy_from");
        at::Tensor host = src.to(dst.scalar_type()).expand(dst.sizes()).contiguous();
        // The caller's own pinned tensor may be copied from asynchronously; a temporary may not.
        const at::Tensor* pinned = host.is_same(src) ? &src : nullptr;
        if (dense(dst)) {
            transfer(dst.data_ptr(), host.const_data_ptr(), dst.nbytes(), true, dst.device().index(), non_blocking, pinned);
        } else {
            c10::DeviceGuard guard(dst.device());
            at::Tensor tmp = at::empty(dst.sizes(), dst.options().memory_format(at::MemoryFormat::Contiguous));
            transfer(tmp.data_ptr(), host.const_data_ptr(), tmp.nbytes(), true, dst.device().index(), false);
            if (!deviceCopy(tmp, dst)) {
                countFallback("_copy_from", "diopiCopyInp unavailable: strided copy on the host");
                at::Tensor whole = toHost(dst.as_strided({static_cast<int64_t>(dst.storage().nbytes() / dst.element_size())}, {1}, 0));
                whole.as_strided(dst.sizes(), dst.strides(), dst.storage_offset()).copy_(host);
                transfer(dst.storage().mutable_data(), whole.const_data_ptr(), whole.nbytes(), true, dst.device().index(), false);
            }
        }
        return dst;
    }
    if (!src.is_cpu() && dst.is_cpu()) {  // device -> host
        countCopy("_copy_from");
        if (non_blocking && dense(src) && dense(dst) && src.scalar_type() == dst.scalar_type() && dst.sizes() == src.sizes() &&
            isPinned(dst.storage().data())) {
            transfer(dst.data_ptr(), src.const_data_ptr(), dst.nbytes(), false, src.device().index(), true, &dst);
            return dst;
        }
        at::Tensor host = toHost(src);
        dst.copy_(host);
        return dst;
    }
    TORCH_CHECK(!src.is_cpu() && !dst.is_cpu(), "diopi: _copy_from between ", src.device(), " and ", dst.device());
    if (src.device() != dst.device()) {
        // Between two devices: the bytes move with the runtime's copy, then
        // the vendor converts on the destination device.
        countCopy("_copy_from");
        c10::DeviceGuard guard(dst.device());
        at::Tensor staged = src;
        if (!dense(src)) {
            staged = at::empty(src.sizes(), src.options());
            TORCH_CHECK(deviceCopy(src, staged), "diopi: a strided copy between devices needs the vendor's diopiCopyInp");
        }
        at::Tensor here = at::empty(staged.sizes(), staged.options().device(dst.device()));
        synchronizeStream(currentStream(src.device().index()));  // the source's pending writes come first
        checkRuntime(runtime().memcpy_d2d_async(here.data_ptr(), staged.const_data_ptr(), here.nbytes(), currentNativeStream()),
                     "memcpy_d2d_async (copy between devices)");
        if (!non_blocking) synchronizeStream(currentStream(dst.device().index()));
        if (!deviceCopy(here, dst)) copyFrom(toHost(here), dst, false);
        return dst;
    }
    if (deviceCopy(src, dst)) return dst;
    // The library has no copy: stage through the host.
    countFallback("_copy_from", "diopiCopyInp unavailable or refused: staged through the host");
    at::Tensor host = toHost(src).to(dst.scalar_type());
    at::Tensor cpuDst = toHost(dst);
    cpuDst.copy_(host);
    copyFrom(cpuDst, dst, non_blocking);
    return dst;
}

at::Tensor copyFromAndResize(const at::Tensor& self, const at::Tensor& dst) {
    at::native::resize_(dst, self.sizes(), std::nullopt);
    return copyFrom(self, dst, false);
}

at::Scalar localScalarDense(const at::Tensor& self) {
    countCopy("_local_scalar_dense");
    at::Tensor host = toHost(self);
    return at::_local_scalar_dense(host);
}

// PyTorch sends every convolution of a backend without its own convolution
// kernel to these two "overrideable" operators, whose default only raises.
// The convolutions the mapping serves never get here; the rest (transposed
// 1-d and 3-d, ...) run on the CPU, counted like any fallback.
std::optional<at::Tensor> onHost(const std::optional<at::Tensor>& t) {
    if (!t.has_value() || !t->defined()) return t;
    return t->cpu();
}

at::Tensor convolutionOverrideable(const at::Tensor& input, const at::Tensor& weight, const std::optional<at::Tensor>& bias,
                                   c10::SymIntArrayRef stride, c10::SymIntArrayRef padding, c10::SymIntArrayRef dilation,
                                   bool transposed, c10::SymIntArrayRef output_padding, c10::SymInt groups) {
    noteFallback("convolution_overrideable", "no mapping entry");
    return at::convolution_symint(input.cpu(), weight.cpu(), onHost(bias), stride, padding, dilation, transposed, output_padding,
                                  std::move(groups))
        .to(input.device());
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolutionBackwardOverrideable(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight, c10::SymIntArrayRef stride,
    c10::SymIntArrayRef padding, c10::SymIntArrayRef dilation, bool transposed, c10::SymIntArrayRef output_padding, c10::SymInt groups,
    std::array<bool, 3> output_mask) {
    noteFallback("convolution_backward_overrideable", "no mapping entry");
    std::vector<c10::SymInt> biasSizes{weight.sym_size(transposed ? 1 : 0) * (transposed ? groups : c10::SymInt(1))};
    auto [gi, gw, gb] = at::convolution_backward_symint(grad_output.cpu(), input.cpu(), weight.cpu(), c10::SymIntArrayRef(biasSizes),
                                                        stride, padding, dilation, transposed, output_padding, std::move(groups),
                                                        output_mask);
    auto back = [&](const at::Tensor& t) { return t.defined() ? t.to(input.device()) : t; };
    return {back(gi), back(gw), back(gb)};
}

// `t.data = x`, module.to() and load_state_dict(assign=...) ask whether one
// tensor's storage may be swapped into the other (a shallow copy) with this
// operator. PyTorch's default answers yes for two dense tensors only on the
// backends it knows (CPU, CUDA, ...), so a CPU parameter moved to this device
// would be replaced, not updated: ties broken, optimizers left holding the
// old tensors. Dense tensors of this device and of any dense backend are as
// compatible as CPU and CUDA tensors are; everything else keeps PyTorch's answer.
bool hasCompatibleShallowCopyType(const at::Tensor& self, const at::Tensor& from) {
    auto dense = [](c10::DispatchKeySet ks) {
        constexpr auto backends = c10::DispatchKeySet({c10::BackendComponent::CPUBit, c10::BackendComponent::CUDABit,
                                                       c10::BackendComponent::MPSBit, c10::BackendComponent::HIPBit,
                                                       c10::BackendComponent::XPUBit, c10::BackendComponent::HPUBit,
                                                       c10::BackendComponent::MTIABit, c10::BackendComponent::PrivateUse1Bit});
        return ks.has_any(c10::DispatchKeySet(c10::DispatchKey::Dense)) && ks.has_any(backends);
    };
    if (dense(self.key_set()) && dense(from.key_set())) return true;
    return self.unsafeGetTensorImpl()->has_compatible_shallow_copy_type(from.key_set());
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("empty.memory_format", emptyMemoryFormat);
    m.impl("empty_strided", emptyStrided);
    m.impl("as_strided", asStrided);
    m.impl("view", view);
    m.impl("_reshape_alias", reshapeAlias);
    m.impl("unfold", unfold);
    m.impl("resize_", resize);
    m.impl("set_.source_Tensor", setSourceTensor);
    m.impl("set_.source_Storage", setSourceStorage);
    m.impl("set_.source_Storage_storage_offset", setSourceStorageOffset);
    m.impl("_copy_from", copyFrom);
    m.impl("_copy_from_and_resize", copyFromAndResize);
    m.impl("_local_scalar_dense", localScalarDense);
    m.impl("_has_compatible_shallow_copy_type", hasCompatibleShallowCopyType);
    m.impl("convolution_overrideable", convolutionOverrideable);
    m.impl("convolution_backward_overrideable", convolutionBackwardOverrideable);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
    m.fallback(torch::CppFunction::makeFromBoxedFunction<&unmappedFallback>());
}

}  // namespace

at::Device currentDevice() { return at::Device(kDiopi, currentDeviceIndex()); }

// ---------------------------------------------------------------- meta / allocation

at::Tensor toMeta(const at::Tensor& t) {
    if (!t.defined()) return t;
    at::Tensor m = at::empty_strided(t.sizes(), t.strides(), t.options().device(at::kMeta));
    // A Python number (`ints + 2.5`) promotes as a number, not as a 0-dim float64 tensor.
    if (t.unsafeGetTensorImpl()->is_wrapped_number()) m.unsafeGetTensorImpl()->set_wrapped_number(true);
    return m;
}

std::vector<at::Tensor> toMeta(at::TensorList ts) {
    std::vector<at::Tensor> out;
    out.reserve(ts.size());
    for (const auto& t : ts) out.push_back(toMeta(t));
    return out;
}

std::vector<at::Tensor> toMeta(const at::ITensorListRef& ts) {
    std::vector<at::Tensor> out;
    for (const at::Tensor& t : ts) out.push_back(toMeta(t));
    return out;
}

std::vector<std::optional<at::Tensor>> toMeta(const c10::List<std::optional<at::Tensor>>& ts) {
    std::vector<std::optional<at::Tensor>> out;
    for (std::optional<at::Tensor> t : ts) out.push_back(toMeta(t));
    return out;
}

at::Tensor allocLike(const at::Tensor& meta) {
    if (!meta.defined()) return meta;
    return at::detail::empty_strided_generic(meta.sizes(), meta.strides(), deviceAllocator(),
                                             c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), meta.scalar_type());
}

std::vector<at::Tensor> allocLike(const std::vector<at::Tensor>& metas) {
    std::vector<at::Tensor> out;
    for (const auto& m : metas) out.push_back(allocLike(m));
    return out;
}

}  // namespace diopi_torch
