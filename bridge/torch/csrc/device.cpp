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

#include <cstring>
#include <mutex>
#include <thread>

#include "bridge.hpp"
#include "state.hpp"

// The device generator: an opaque seed, offset and state the vendor library
// interprets (through diopiGenerator{Get,Set}State and ...SeedAndOffset).
struct diopiGenerator : public c10::GeneratorImpl {
    uint64_t seed_ = 67280421310721ULL;
    uint64_t offset_ = 0;
    std::vector<uint8_t> state_;

    diopiGenerator()
        : c10::GeneratorImpl(c10::Device(c10::DeviceType::PrivateUse1, 0), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1)) {}
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
        auto* g = new diopiGenerator();
        g->seed_ = seed_;
        g->offset_ = offset_;
        g->state_ = state_;
        return g;
    }
};

namespace diopi_torch {

at::Generator& defaultGenerator() {
    static at::Generator g = at::make_generator<diopiGenerator>();
    return g;
}

namespace {

constexpr c10::DeviceType kDiopi = c10::DeviceType::PrivateUse1;

// ---------------------------------------------------------------- memory

void freeDevice(void* p) {
    if (p) hooks().free_fn(p);
}

struct Allocator final : at::Allocator {
    at::DataPtr allocate(size_t nbytes) override {
        void* p = nullptr;
        if (nbytes) TORCH_CHECK(hooks().malloc_fn(&p, nbytes) == 0 && p, "diopi: cannot allocate ", nbytes, " bytes of device memory");
        return {p, p, &freeDevice, c10::Device(kDiopi, 0)};
    }
    at::DeleterFnPtr raw_deleter() const override { return &freeDevice; }
    void copy_data(void* dest, const void* src, std::size_t count) const override {
        TORCH_CHECK(hooks().d2d(dest, src, count, nullptr) == 0, "diopi: device-to-device copy failed");
    }
};

Allocator gAllocator;
REGISTER_ALLOCATOR(kDiopi, &gAllocator);

// ---------------------------------------------------------------- guard

struct Guard final : c10::impl::DeviceGuardImplInterface {
    c10::DeviceType type() const override { return kDiopi; }
    c10::Device exchangeDevice(c10::Device) const override { return c10::Device(kDiopi, 0); }
    c10::Device getDevice() const override { return c10::Device(kDiopi, 0); }
    void setDevice(c10::Device d) const override { TORCH_CHECK(d.index() <= 0, "diopi has one device, index 0"); }
    void uncheckedSetDevice(c10::Device) const noexcept override {}
    c10::Stream getStream(c10::Device) const noexcept override { return c10::Stream(c10::Stream::DEFAULT, c10::Device(kDiopi, 0)); }
    c10::Stream exchangeStream(c10::Stream) const noexcept override { return c10::Stream(c10::Stream::DEFAULT, c10::Device(kDiopi, 0)); }
    c10::DeviceIndex deviceCount() const noexcept override { return 1; }
    void synchronizeDevice(const c10::DeviceIndex) const override { hooks().sync(nullptr); }
};
C10_REGISTER_GUARD_IMPL(PrivateUse1, Guard);

// ---------------------------------------------------------------- hooks

struct Hooks final : at::PrivateUse1HooksInterface {
    bool isBuilt() const override { return true; }
    bool isAvailable() const override { return true; }
    const at::Generator& getDefaultGenerator(c10::DeviceIndex) const override { return defaultGenerator(); }
    at::Generator getNewGenerator(c10::DeviceIndex) const override { return at::make_generator<diopiGenerator>(); }
    at::Device getDeviceFromPtr(void*) const override { return at::Device(kDiopi, 0); }
    bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
    c10::DeviceIndex deviceCount() const override { return 1; }
    c10::DeviceIndex getCurrentDevice() const override { return 0; }
    void resizePrivateUse1Bytes(const c10::Storage& storage, size_t newsize) const override {
        // Grow by copying into a new allocation, as resize_ of a CPU storage does.
        auto* impl = storage.unsafeGetStorageImpl();
        at::DataPtr fresh = gAllocator.allocate(newsize);
        size_t keep = std::min(newsize, impl->nbytes());
        if (keep) TORCH_CHECK(hooks().d2d(fresh.get(), impl->data(), keep, nullptr) == 0, "diopi: copy while resizing failed");
        impl->set_data_ptr_noswap(std::move(fresh));
        impl->set_nbytes(newsize);
    }
};

struct RegisterHooks {
    RegisterHooks() { at::RegisterPrivateUse1HooksInterface(new Hooks()); }
} gRegisterHooks;

// ---------------------------------------------------------------- kernels

at::Tensor emptyMemoryFormat(c10::IntArrayRef size, std::optional<c10::ScalarType> dtype, std::optional<c10::Layout> layout,
                             std::optional<c10::Device> device, std::optional<bool> pin, std::optional<c10::MemoryFormat> fmt) {
    TORCH_CHECK(c10::layout_or_default(layout) == c10::Layout::Strided, "diopi tensors are strided");
    return at::detail::empty_generic(size, &gAllocator, c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                     c10::dtype_or_default(dtype), fmt);
}

at::Tensor emptyStrided(c10::IntArrayRef size, c10::IntArrayRef stride, std::optional<c10::ScalarType> dtype,
                        std::optional<c10::Layout> layout, std::optional<c10::Device> device, std::optional<bool> pin) {
    TORCH_CHECK(c10::layout_or_default(layout) == c10::Layout::Strided, "diopi tensors are strided");
    return at::detail::empty_strided_generic(size, stride, &gAllocator, c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
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

// Bytes of a dense tensor between host and device.
void transfer(void* dst, const void* src, size_t n, bool toDevice) {
    if (!n) return;
    int rc = toDevice ? hooks().h2d(dst, src, n, nullptr) : hooks().d2h(dst, src, n, nullptr);
    TORCH_CHECK(rc == 0, "diopi: ", toDevice ? "host-to-device" : "device-to-host", " copy of ", n, " bytes failed");
}

bool dense(const at::Tensor& t) { return t.is_contiguous() && t.is_non_overlapping_and_dense(); }

const OpInfo kCopyInfo{"_copy_from", "diopiCopyInp", "bridge/torch/csrc/device.cpp (device-to-device copy)"};

// dst <- src on the device through the vendor's diopiCopyInp (broadcast and
// dtype conversion included); false when the library cannot do it.
bool deviceCopy(const at::Tensor& src, const at::Tensor& dst) {
    using Fn = diopiError_t (*)(diopiContextHandle_t, diopiConstTensorHandle_t, diopiTensorHandle_t);
    auto fn = reinterpret_cast<Fn>(symbol("diopiCopyInp"));
    if (!fn) return false;
    Call call(kCopyInfo);
    diopiError_t st = fn(call.ctx(), call.in(src), call.out(dst));
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
            transfer(whole.data_ptr(), s.storage().data(), whole.numel(), false);
            return whole.view(s.scalar_type()).as_strided(s.sizes(), s.strides(), s.storage_offset()).clone();
        }
    }
    at::Tensor host = at::empty(s.sizes(), s.options().device(at::kCPU));
    transfer(host.data_ptr(), s.const_data_ptr(), host.nbytes(), false);
    return host;
}

at::Tensor copyFrom(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
    const at::Tensor& src = self;
    if (dst.numel() == 0) return dst;
    if (src.is_cpu() && !dst.is_cpu()) {  // host -> device
        countCopy("_copy_from");
        at::Tensor host = src.to(dst.scalar_type()).expand(dst.sizes()).contiguous();
        if (dense(dst)) {
            transfer(dst.data_ptr(), host.const_data_ptr(), dst.nbytes(), true);
        } else {
            at::Tensor tmp = at::empty(dst.sizes(), dst.options().memory_format(at::MemoryFormat::Contiguous));
            transfer(tmp.data_ptr(), host.const_data_ptr(), tmp.nbytes(), true);
            if (!deviceCopy(tmp, dst)) {
                countFallback("_copy_from", "diopiCopyInp unavailable: strided copy on the host");
                at::Tensor whole = toHost(dst.as_strided({static_cast<int64_t>(dst.storage().nbytes() / dst.element_size())}, {1}, 0));
                whole.as_strided(dst.sizes(), dst.strides(), dst.storage_offset()).copy_(host);
                transfer(dst.storage().mutable_data(), whole.const_data_ptr(), whole.nbytes(), true);
            }
        }
        return dst;
    }
    if (!src.is_cpu() && dst.is_cpu()) {  // device -> host
        countCopy("_copy_from");
        at::Tensor host = toHost(src);
        dst.copy_(host);
        return dst;
    }
    TORCH_CHECK(!src.is_cpu() && !dst.is_cpu(), "diopi: _copy_from between ", src.device(), " and ", dst.device());
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
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
    m.fallback(torch::CppFunction::makeFromBoxedFunction<&unmappedFallback>());
}

}  // namespace

at::Device currentDevice() { return at::Device(kDiopi, 0); }

// ---------------------------------------------------------------- generators

diopiGeneratorHandle_t generatorHandle(const std::optional<at::Generator>& g) {
    const at::Generator& gen = g.has_value() && g->defined() ? *g : defaultGenerator();
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
    return at::detail::empty_strided_generic(meta.sizes(), meta.strides(), &gAllocator,
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
// it. The task is started from a fresh thread, so its thread-local state holds
// no Python object, and the thread's previous graph task is released before the
// empty one starts: afterwards the autograd thread holds nothing of Python's.
// Returns false (and says why in `why`) if the drain could not run.
bool drainAutogradThread(std::string& why) {
    bool ok = false;
    std::thread t([&] {
        try {
            at::Tensor grad = at::empty({0}, at::TensorOptions().device(currentDevice()));
            auto node = c10::make_intrusive<DrainNode>();
            node->add_input_metadata(grad);
            torch::autograd::Engine::get_default_engine().execute({torch::autograd::Edge(node, 0)}, {grad},
                                                                  /*keep_graph=*/false, /*create_graph=*/false,
                                                                  /*accumulate_grad=*/true);
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

/// Seeds the device's default generator (torch.manual_seed reaches it through torch.diopi.manual_seed_all).
__attribute__((visibility("default"))) void diopi_torch_manual_seed(uint64_t seed) {
    auto& g = diopi_torch::defaultGenerator();
    std::lock_guard<std::mutex> lock(g.mutex());
    g.set_current_seed(seed);
}
__attribute__((visibility("default"))) uint64_t diopi_torch_initial_seed() { return diopi_torch::defaultGenerator().current_seed(); }
}
