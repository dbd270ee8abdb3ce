// PyTorch's PrivateUse1 backend, named `diopi`: allocator, device guard,
// hooks, generator, and the kernels every backend must provide itself
// (empty tensors, views, resizing, copies between host and device).
// Operator kernels are generated from aten_to_diopi.yaml; anything else
// reaches the counted CPU fallback.
#include <ATen/EmptyTensor.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/as_strided_cpu_dispatch.h>
#include <ATen/ops/set_cpu_dispatch.h>
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <ATen/core/GeneratorForPrivateuseone.h>
#include <ATen/native/transformers/sdp_utils_cpp.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/function.h>
#include <torch/library.h>

#include <array>
#include <cstring>
#include <mutex>
#include <thread>

#include "runtime/allocator.hpp"
#include "aten/bridge.hpp"
#include "runtime/device_runtime.hpp"
#include "runtime/state.hpp"

// The device generator: an opaque seed, offset and state the vendor library
// interprets (through diopiGenerator{Get,Set}State and ...SeedAndOffset).
struct diopiGenerator : public c10::GeneratorImpl {
    uint64_t seed_ = 67280421310721ULL;
    uint64_t offset_ = 0;
    std::vector<uint8_t> state_;

    explicit diopiGenerator(c10::DeviceIndex index = 0)
        : c10::GeneratorImpl(c10::Device(c10::DeviceType::PrivateUse1, index), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)) {}
    void set_current_seed(uint64_t seed) override {
        seed_ = seed;
        offset_ = 0;
        state_.clear();  // a new seed restarts the vendor's stream
    }
    void set_offset(uint64_t offset) override { offset_ = offset; }
    uint64_t get_offset() const override { return offset_; }
    uint64_t current_seed() const override { return seed_; }
    uint64_t seed() override {
        set_current_seed(c10::detail::getNonDeterministicRandom());
        return seed_;
    }
    // Framework-visible state: seed, offset, then the vendor's bytes.
    void set_state(const c10::TensorImpl& new_state) override {
        const auto* p = static_cast<const uint8_t*>(new_state.data());
        size_t n = new_state.numel();
        TORCH_CHECK(n >= 16, "diopi generator state must hold at least 16 bytes");
        std::memcpy(&seed_, p, 8);
        std::memcpy(&offset_, p + 8, 8);
        state_.assign(p + 16, p + n);
    }
    c10::intrusive_ptr<c10::TensorImpl> get_state() const override {
        auto t = at::empty({static_cast<int64_t>(16 + state_.size())}, at::kByte);
        auto* p = t.data_ptr<uint8_t>();
        std::memcpy(p, &seed_, 8);
        std::memcpy(p + 8, &offset_, 8);
        if (!state_.empty()) std::memcpy(p + 16, state_.data(), state_.size());
        return t.getIntrusivePtr();
    }
    diopiGenerator* clone_impl() const override {
        auto* g = new diopiGenerator(device().index());
        g->seed_ = seed_;
        g->offset_ = offset_;
        g->state_ = state_;
        return g;
    }
};

namespace diopi_torch {

at::Generator& defaultGenerator(c10::DeviceIndex index) {
    if (index < 0) index = currentDeviceIndex();
    checkDeviceIndex(index);
    static std::array<at::Generator, 64> gens;
    static std::array<std::once_flag, 64> once;
    std::call_once(once[index], [&] { gens[index] = at::make_generator<diopiGenerator>(index); });
    return gens[index];
}

namespace {

constexpr c10::DeviceType kDiopi = c10::DeviceType::PrivateUse1;

// ---------------------------------------------------------------- guard

struct Guard final : c10::impl::DeviceGuardImplInterface {
    c10::DeviceType type() const override { return kDiopi; }
    c10::Device exchangeDevice(c10::Device d) const override {
        return c10::Device(kDiopi, exchangeCurrentDevice(d.index() < 0 ? currentDeviceIndex() : d.index()));
    }
    c10::Device getDevice() const override { return c10::Device(kDiopi, currentDeviceIndex()); }
    void setDevice(c10::Device d) const override { exchangeCurrentDevice(d.index() < 0 ? currentDeviceIndex() : d.index()); }
    void uncheckedSetDevice(c10::Device d) const noexcept override {
        try {
            exchangeCurrentDevice(d.index());
        } catch (...) {
        }
    }
    c10::Stream getStream(c10::Device d) const override { return currentStream(d.index()); }
    c10::Stream getDefaultStream(c10::Device d) const override { return defaultStream(d.index() < 0 ? currentDeviceIndex() : d.index()); }
    c10::Stream getStreamFromGlobalPool(c10::Device d, bool isHighPriority) const override {
        return poolStream(d.index() < 0 ? currentDeviceIndex() : d.index(), isHighPriority ? -1 : 0);
    }
    c10::Stream getNewStream(c10::Device d, int priority) const override {
        return poolStream(d.index() < 0 ? currentDeviceIndex() : d.index(), priority);
    }
    c10::Stream exchangeStream(c10::Stream s) const override { return exchangeCurrentStream(s); }
    void* getStreamNativeHandle(const c10::Stream s) const override { return nativeStream(s); }
    void destroyEvent(void* event, const c10::DeviceIndex) const noexcept override {
        try {
            diopi_torch::destroyEvent(event);
        } catch (...) {
        }
    }
    void record(void** event, const c10::Stream& stream, const c10::DeviceIndex index, const c10::EventFlag flag) const override {
        TORCH_CHECK(index == -1 || index == stream.device_index(), "diopi: event device index ", static_cast<int>(index),
                    " does not match the recording stream's device ", static_cast<int>(stream.device_index()));
        // PyTorch asks for timing with BACKEND_DEFAULT (torch.Event(enable_timing=True)).
        recordEvent(event, stream, flag == c10::EventFlag::BACKEND_DEFAULT);
    }
    void block(void* event, const c10::Stream& stream) const override { blockStream(event, stream); }
    bool queryEvent(void* event) const override { return diopi_torch::queryEvent(event); }
    c10::DeviceIndex deviceCount() const noexcept override {
        try {
            return diopi_torch::deviceCount();
        } catch (...) {
            return 1;
        }
    }
    bool queryStream(const c10::Stream& stream) const override { return diopi_torch::queryStream(stream); }
    void synchronizeStream(const c10::Stream& stream) const override { diopi_torch::synchronizeStream(stream); }
    void synchronizeEvent(void* event) const override { diopi_torch::synchronizeEvent(event); }
    void synchronizeDevice(const c10::DeviceIndex index) const override { diopi_torch::synchronizeDevice(index); }
    void recordDataPtrOnStream(const c10::DataPtr& data_ptr, const c10::Stream& stream) const override {
        deviceAllocator()->recordStream(data_ptr, stream);
    }
    double elapsedTime(void* start, void* end, const c10::DeviceIndex) const override { return elapsedMs(start, end); }
};
C10_REGISTER_GUARD_IMPL(PrivateUse1, Guard);

// ---------------------------------------------------------------- hooks

struct Hooks final : at::PrivateUse1HooksInterface {
    bool isBuilt() const override { return true; }
    bool isAvailable() const override { return true; }
    const at::Generator& getDefaultGenerator(c10::DeviceIndex index) const override { return defaultGenerator(index); }
    at::Generator getNewGenerator(c10::DeviceIndex index) const override {
        return at::make_generator<diopiGenerator>(index < 0 ? currentDeviceIndex() : index);
    }
    at::Device getDeviceFromPtr(void*) const override { return at::Device(kDiopi, currentDeviceIndex()); }
    bool isPinnedPtr(const void* data) const override { return isPinned(data); }
    at::Allocator* getPinnedMemoryAllocator() const override { return pinnedAllocator(); }
    bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
    c10::DeviceIndex deviceCount() const override { return diopi_torch::deviceCount(); }
    c10::DeviceIndex getCurrentDevice() const override { return currentDeviceIndex(); }
    void setCurrentDevice(c10::DeviceIndex index) const override { exchangeCurrentDevice(index); }
    c10::DeviceIndex exchangeDevice(c10::DeviceIndex index) const override { return exchangeCurrentDevice(index); }
    c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex index) const override { return exchangeCurrentDevice(index); }
    void resizePrivateUse1Bytes(const c10::Storage& storage, size_t newsize) const override {
        // Grow by copying into a new allocation, as resize_ of a CPU storage does.
        auto* impl = storage.unsafeGetStorageImpl();
        c10::DeviceGuard guard(impl->device());
        at::DataPtr fresh = deviceAllocator()->allocate(newsize);
        size_t keep = std::min(newsize, impl->nbytes());
        if (keep) checkRuntime(runtime().memcpy_d2d_async(fresh.get(), impl->data(), keep, currentNativeStream()), "memcpy_d2d_async");
        impl->set_data_ptr_noswap(std::move(fresh));
        impl->set_nbytes(newsize);
    }
};

struct RegisterHooks {
    RegisterHooks() { at::RegisterPrivateUse1HooksInterface(new Hooks()); }
} gRegisterHooks;

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

// Attention on this device takes PyTorch's math path, which decomposes into
// matmuls, softmax and elementwise operators that DIOPI functions serve.
int64_t fusedSdpChoice(const at::Tensor&, const at::Tensor&, const at::Tensor&, const std::optional<at::Tensor>&, double, bool,
                       std::optional<double>, bool) {
    return static_cast<int64_t>(sdp::SDPBackend::math);
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
    m.impl("_fused_sdp_choice", fusedSdpChoice);
    m.impl("convolution_overrideable", convolutionOverrideable);
    m.impl("convolution_backward_overrideable", convolutionBackwardOverrideable);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
    m.fallback(torch::CppFunction::makeFromBoxedFunction<&unmappedFallback>());
}

}  // namespace

at::Device currentDevice() { return at::Device(kDiopi, currentDeviceIndex()); }

// ---------------------------------------------------------------- generators

diopiGeneratorHandle_t generatorHandle(const std::optional<at::Generator>& g) {
    const at::Generator& gen = g.has_value() && g->defined() ? *g : defaultGenerator(currentDeviceIndex());
    TORCH_CHECK(gen.device().type() == kDiopi, "diopi operators need a diopi generator, got one for ", gen.device());
    return static_cast<diopiGenerator*>(gen.unsafeGetGeneratorImpl());
}

std::vector<uint8_t> generatorState(diopiConstGeneratorHandle_t g) { return g->state_; }
void setGeneratorState(diopiGeneratorHandle_t g, std::vector<uint8_t> state) { g->state_ = std::move(state); }
void generatorSeedAndOffset(diopiGeneratorHandle_t g, uint64_t* seed, uint64_t* offset) {
    *seed = g->seed_;
    *offset = g->offset_;
}
void setGeneratorSeedAndOffset(diopiGeneratorHandle_t g, uint64_t seed, uint64_t offset) {
    g->seed_ = seed;
    g->offset_ = offset;
}

// ---------------------------------------------------------------- meta / allocation

at::Tensor toMeta(const at::Tensor& t) {
    if (!t.defined()) return t;
    return at::empty_strided(t.sizes(), t.strides(), t.options().device(at::kMeta));
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

// ---------------------------------------------------------------- autograd at exit

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
                at::Tensor grad = at::empty({0}, at::TensorOptions().device(at::Device(kDiopi, d)));
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

namespace {
thread_local std::string tDrainError;
}

extern "C" {
/// Waits until the device's autograd thread holds no graph task (see
/// drainAutogradThread). Must be called without the GIL (ctypes.CDLL releases
/// it). 0 on success, else diopi_torch_drain_error() says why.
__attribute__((visibility("default"))) int diopi_torch_drain_autograd() {
    return diopi_torch::drainAutogradThread(tDrainError) ? 0 : 1;
}
__attribute__((visibility("default"))) const char* diopi_torch_drain_error() { return tDrainError.c_str(); }

/// Number of devices of the runtime in use.
__attribute__((visibility("default"))) int diopi_torch_device_count() {
    try {
        return diopi_torch::deviceCount();
    } catch (...) {
        return 1;
    }
}

/// Seeds the default generator of diopi:`device` (torch.manual_seed reaches it through torch.diopi.manual_seed_all).
__attribute__((visibility("default"))) void diopi_torch_manual_seed(int device, uint64_t seed) {
    auto& g = diopi_torch::defaultGenerator(device);
    std::lock_guard<std::mutex> lock(g.mutex());
    g.set_current_seed(seed);
}
__attribute__((visibility("default"))) void diopi_torch_seed(int device) {
    auto& g = diopi_torch::defaultGenerator(device);
    std::lock_guard<std::mutex> lock(g.mutex());
    g.seed();
}
__attribute__((visibility("default"))) uint64_t diopi_torch_initial_seed(int device) {
    return diopi_torch::defaultGenerator(device).current_seed();
}

/// The state of diopi:`device`'s default generator (seed, offset, the vendor's bytes): copies up to
/// `cap` bytes into `buf` and returns the state's size, or -1 (diopi_torch_error() says why).
__attribute__((visibility("default"))) int64_t diopi_torch_rng_state(int device, uint8_t* buf, int64_t cap) {
    try {
        auto& g = diopi_torch::defaultGenerator(device);
        std::lock_guard<std::mutex> lock(g.mutex());
        c10::intrusive_ptr<c10::TensorImpl> state = g.get_state().getIntrusivePtr();
        int64_t n = static_cast<int64_t>(state->numel());
        if (buf && cap > 0) std::memcpy(buf, state->data(), static_cast<size_t>(std::min(n, cap)));
        return n;
    } catch (const std::exception& e) {
        diopi_torch::setError(e.what());
        return -1;
    }
}

/// Restores diopi:`device`'s default generator from a state diopi_torch_rng_state gave; 0 on success.
__attribute__((visibility("default"))) int diopi_torch_set_rng_state(int device, const uint8_t* buf, int64_t n) {
    try {
        auto& g = diopi_torch::defaultGenerator(device);
        at::Tensor t = at::empty({n}, at::kByte);
        if (n) std::memcpy(t.data_ptr(), buf, static_cast<size_t>(n));
        std::lock_guard<std::mutex> lock(g.mutex());
        g.set_state(t);
        return 0;
    } catch (const std::exception& e) {
        diopi_torch::setError(e.what());
        return 1;
    }
}
}
