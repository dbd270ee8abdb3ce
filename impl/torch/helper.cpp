#include "helper.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/EmptyTensor.h>
#include <ATen/ExpandUtils.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/TypeProperties.h>

#include "diopi_support/aten_dtypes.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <algorithm>
#include <sstream>

namespace impl::aten {

namespace {
thread_local std::string g_last_error;
}

const char* lastError() { return g_last_error.c_str(); }

void fail(const std::string& msg, diopiError_t code) { throw DiopiException(code, msg); }

void setLastError(const char* func, const std::string& msg) { g_last_error = std::string(func) + ": " + msg; }

// The dtype table is the standard's support piece (proto/support), shared with the `diopi` device.
at::ScalarType toATen(diopiDtype_t dtype) {
    // tfloat32 is a compute mode, not a storage type this library takes.
    auto type = dtype == diopi_dtype_tfloat32 ? std::nullopt : diopi_support::toScalarType(dtype);
    if (!type) fail("unsupported dtype " + std::to_string(static_cast<int>(dtype)), diopiDtypeNotSupported);
    return *type;
}

diopiDtype_t fromATen(at::ScalarType type) {
    diopiDtype_t dtype = diopi_support::fromScalarType(type);
    if (dtype == diopi_dtype_unsupported)
        fail(std::string("ATen dtype without a DIOPI equivalent: ") + c10::toString(type), diopiDtypeNotSupported);
    return dtype;
}

at::Tensor optTensor(diopiConstTensorHandle_t h) {
    if (h == nullptr) return at::Tensor();
    const void* data = nullptr;
    diopiSize_t shape, stride;
    diopiDtype_t dtype;
    if (diopiGetTensorDataConst(h, &data) != diopiSuccess || diopiGetTensorShape(h, &shape) != diopiSuccess ||
        diopiGetTensorStride(h, &stride) != diopiSuccess || diopiGetTensorDtype(h, &dtype) != diopiSuccess)
        fail("the runtime rejected a tensor handle");
    if (shape.len != stride.len) fail("tensor shape and stride lengths differ");
    for (int64_t i = 0; i < shape.len; ++i)
        if (shape.data[i] < 0) fail("tensor with a negative dimension");
    // Device memory is CUDA memory when this LibTorch has CUDA; otherwise
    // the test runtime's "device" is host memory.
    diopiDevice_t device = diopi_host;
    if (diopiGetTensorDevice) diopiGetTensorDevice(h, &device);
    static const bool cuda = at::hasCUDA();
    at::Device where = (device == diopi_device && cuda) ? at::Device(at::kCUDA) : at::Device(at::kCPU);
    // Wraps without copying and without a deleter: the caller keeps ownership, and a deleter would cost a heap
    // context per tensor on every call. The device is given, so ATen does not ask where the pointer lives.
    return at::for_blob(const_cast<void*>(data), at::IntArrayRef(shape.data, shape.len))
        .strides(at::IntArrayRef(stride.data, stride.len))
        .options(at::TensorOptions().dtype(toATen(dtype)).device(where))
        .target_device(where)
        .make_tensor();
}

at::Tensor tensor(diopiConstTensorHandle_t h, const char* name) {
    if (h == nullptr) fail(std::string(name) + " is NULL");
    return optTensor(h);
}

std::optional<at::Tensor> optional(diopiConstTensorHandle_t h) {
    if (h == nullptr) return std::nullopt;
    return optTensor(h);
}

std::vector<at::Tensor> tensors(const diopiConstTensorHandle_t* hs, int64_t n, const char* name) {
    if (n < 0) fail(std::string(name) + ": negative tensor count");
    if (n > 0 && hs == nullptr) fail(std::string(name) + " is NULL");
    std::vector<at::Tensor> out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.push_back(tensor(hs[i], name));
    return out;
}

std::vector<at::Tensor> tensors(diopiTensorHandle_t* hs, int64_t n, const char* name) {
    if (n < 0) fail(std::string(name) + ": negative tensor count");
    if (n > 0 && hs == nullptr) fail(std::string(name) + " is NULL");
    std::vector<at::Tensor> out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.push_back(tensor(hs[i], name));
    return out;
}

at::ScalarType scalarDtype(const diopiScalar_t* s) { return toATen(s->stype); }

at::Scalar scalar(const diopiScalar_t* s, const char* name) {
    if (s == nullptr) fail(std::string(name) + " is NULL");
    switch (s->stype) {
        case diopi_dtype_float16:
        case diopi_dtype_float32:
        case diopi_dtype_float64:
        case diopi_dtype_bfloat16:
        case diopi_dtype_tfloat32:
            return at::Scalar(s->fval);
        case diopi_dtype_bool:
            return at::Scalar(s->ival != 0);
        case diopi_dtype_int8:
        case diopi_dtype_uint8:
        case diopi_dtype_int16:
        case diopi_dtype_uint16:
        case diopi_dtype_int32:
        case diopi_dtype_uint32:
        case diopi_dtype_int64:
        case diopi_dtype_uint64:
            return at::Scalar(s->ival);
        default:
            fail(std::string(name) + ": unsupported scalar dtype", diopiDtypeNotSupported);
    }
}

at::IntArrayRef ints(diopiSize_t s) {
    if (s.len < 0 || (s.len > 0 && s.data == nullptr)) fail("invalid size list");
    return at::IntArrayRef(s.data, static_cast<size_t>(s.len));
}

void assign(diopiTensorHandle_t out, const at::Tensor& src, const char* name) { assign(tensor(out, name), src, name); }

void assign(const at::Tensor& o, const at::Tensor& src, const char* name) {
    if (o.sizes() != src.sizes()) {
        // Shapes must agree exactly: outputs are never resized by a library.
        std::ostringstream msg;
        msg << name << " has shape " << o.sizes() << " but the result has shape " << src.sizes();
        fail(msg.str());
    }
    copyInto(o, src);
}

namespace {

// The byte range [lo, hi) the elements of a non-empty strided tensor can occupy.
struct ByteRange {
    std::uintptr_t lo, hi;
};

std::optional<ByteRange> byteRange(const at::Tensor& t) {
    if (!t.defined() || t.numel() == 0) return std::nullopt;
    int64_t below = 0, above = 0;  // element offsets reachable from the first element, downwards and upwards
    for (int64_t d = 0; d < t.dim(); ++d) {
        int64_t reach = t.stride(d) * (t.size(d) - 1);
        (reach < 0 ? below : above) += reach;
    }
    auto first = reinterpret_cast<std::uintptr_t>(t.const_data_ptr());
    auto item = static_cast<int64_t>(t.itemsize());
    return ByteRange{first + below * item, first + (above + 1) * item};
}

// The strides ATen gives a tensor it allocates without a layout to follow (size-1 dims included).
bool rowMajor(const at::Tensor& t) {
    int64_t expected = 1;
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
        if (t.stride(d) != expected) return false;
        expected *= std::max<int64_t>(t.size(d), 1);
    }
    return true;
}

// Whether TensorIterator keeps a tensor's dims in their own order: its strides decrease from the first dim to the
// last, leaving out broadcast (stride 0) and size-1 dims, which never decide the order. Expanded and sliced tensors
// qualify, so an elementwise result ATen allocates for them is row-major, as for contiguous inputs.
bool rowMajorOrder(const at::Tensor& t) {
    int64_t last = std::numeric_limits<int64_t>::max();
    for (int64_t d = 0; d < t.dim(); ++d) {
        int64_t s = t.stride(d);
        if (t.size(d) < 2 || s == 0) continue;
        if (s < 0 || s >= last) return false;
        last = s;
    }
    return true;
}

}  // namespace

bool mayOverlap(const at::Tensor& a, const at::Tensor& b) {
    if (!a.defined() || !b.defined()) return false;
    // Only strided tensors have a byte range to compare; anything else is taken to overlap.
    if (a.layout() != at::kStrided || b.layout() != at::kStrided) return true;
    auto ra = byteRange(a), rb = byteRange(b);
    return ra && rb && ra->lo < rb->hi && rb->lo < ra->hi;
}

void copyInto(const at::Tensor& dst, const at::Tensor& src) {
    // Most results are host tensors laid out like the caller's output: one memcpy then, not a dispatched copy_ with its
    // TensorIterator (about 1.5 us a call at the sizes of a training step). Anything else, or any overlap, takes copy_.
    // Equal strides on a dense tensor (its elements fill [data, data + nbytes) exactly once) make the two byte images
    // the same permutation of the elements, so one memcpy copies a transposed result into a transposed output too.
    if (dst.is_cpu() && src.is_cpu() && dst.scalar_type() == src.scalar_type() && dst.sizes() == src.sizes() &&
        dst.layout() == at::kStrided && src.layout() == at::kStrided && !src.is_conj() && !src.is_neg() && !dst.is_conj() &&
        !dst.is_neg()) {
        bool same = dst.is_contiguous() && src.is_contiguous();
        if (!same && dst.strides() == src.strides()) {
            same = dst.is_non_overlapping_and_dense();
            for (int64_t d = 0; same && d < dst.dim(); ++d) same = dst.size(d) < 2 || dst.stride(d) > 0;  // the first element lowest
        }
        if (same && !mayOverlap(dst, src)) {
            if (size_t n = dst.nbytes()) std::memcpy(dst.data_ptr(), src.const_data_ptr(), n);
            return;
        }
    }
    dst.copy_(src);
}

at::Tensor permuted(const at::Tensor& t, at::IntArrayRef order) {
    const int64_t n = t.dim();
    if (static_cast<int64_t>(order.size()) != n) fail("permuted: the order does not name every dim");
    c10::SmallVector<int64_t, 6> sizes(n), strides(n);
    uint64_t seen = 0;
    for (int64_t i = 0; i < n; ++i) {
        int64_t d = order[i];
        if (d < 0 || d >= n || d >= 64 || (seen >> d & 1)) fail("permuted: the order is not a permutation of the dims");
        seen |= uint64_t(1) << d;
        sizes[i] = t.size(d);
        strides[i] = t.stride(d);
    }
    // As ATen makes a view (alias_with_sizes_and_strides): the same storage and dispatch keys (conj / neg included).
    auto impl = c10::make_intrusive<c10::TensorImpl>(c10::TensorImpl::VIEW, c10::Storage(t.storage()), t.key_set(), t.dtype());
    impl->set_sizes_and_strides(sizes, strides, t.storage_offset());
    return at::Tensor(std::move(impl));
}

at::Tensor directOut(const at::Tensor& out, at::IntArrayRef shape, at::ScalarType dtype, TensorRefs inputs) {
    if (out.scalar_type() != dtype || out.sizes() != shape || out.layout() != at::kStrided || !rowMajor(out)) return at::Tensor();
    for (const at::Tensor& in : inputs)
        if (mayOverlap(out, in)) return at::Tensor();
    return out;
}

at::Tensor directOut(diopiTensorHandle_t out, at::IntArrayRef shape, at::ScalarType dtype, TensorRefs inputs, const char* name) {
    return directOut(tensor(out, name), shape, dtype, inputs);
}

at::Tensor elementwiseOut(diopiTensorHandle_t out, at::ScalarType dtype, TensorRefs inputs, const char* name) {
    at::DimVector shape;
    bool first = true, contiguous = true;
    for (const at::Tensor& in : inputs) {
        contiguous = contiguous && in.is_contiguous();
        // infer_size_dimvector raises the error ATen's own broadcasting raises for incompatible shapes.
        shape = first ? at::DimVector(in.sizes()) : at::infer_size_dimvector(shape, in.sizes());
        first = false;
    }
    at::Tensor o = tensor(out, name);
    if (contiguous || std::all_of(inputs.begin(), inputs.end(), [](const at::Tensor& in) { return rowMajorOrder(in); }))
        return directOut(o, shape, dtype, inputs);
    // A permuted layout, such as attention's heads viewed out of (batch, seq, heads, dim): direct when `out` is dense
    // and every input of the result's full shape has exactly its strides (smaller inputs broadcast, contiguous).
    // ATen's own result would then be laid out as `out` is (it follows the full-shape inputs), and its kernel walks
    // the same loops over the same memory order.
    if (o.scalar_type() != dtype || o.sizes() != at::IntArrayRef(shape) || o.layout() != at::kStrided || !o.is_non_overlapping_and_dense())
        return at::Tensor();
    bool full = false;
    for (const at::Tensor& in : inputs) {
        if (in.sizes() == o.sizes()) {
            if (in.strides() != o.strides()) return at::Tensor();
            full = true;
        } else if (!in.is_contiguous()) {
            return at::Tensor();
        }
    }
    if (!full) return at::Tensor();
    for (const at::Tensor& in : inputs)
        if (mayOverlap(o, in)) return at::Tensor();
    return o;
}

at::ScalarType resultType(const at::Tensor& a, const at::Tensor& b) {
    if (a.scalar_type() == b.scalar_type()) return a.scalar_type();
    at::native::ResultTypeState state;
    state = at::native::update_result_type_state(a, state);
    state = at::native::update_result_type_state(b, state);
    return at::native::result_type(state);
}

at::ScalarType resultType(const at::Tensor& a, const at::Scalar& b) {
    at::native::ResultTypeState state;
    state = at::native::update_result_type_state(a, state);
    state = at::native::update_result_type_state(b, state);
    return at::native::result_type(state);
}

at::ScalarType floatResult(at::ScalarType type) {
    return at::isIntegralType(type, /*includeBool=*/true) ? at::typeMetaToScalarType(at::get_default_dtype()) : type;
}

at::Tensor wrappedScalar(const at::Scalar& s, at::ScalarType common) {
    // A double wrapped number next to a float32 tensor is converted by TensorIterator (an allocation and a copy_)
    // before the kernel reads it; made in the common dtype it is read as it is. The value is the same one rounding
    // from the number either way. Only for float32 / float64: 16-bit kernels read the number in float32, so rounding
    // it to their own dtype first would change the result.
    if ((common == at::kFloat || common == at::kDouble) && (s.isFloatingPoint() || (s.isIntegral(false)))) {
        at::Tensor t = at::detail::empty_cpu({}, common, std::nullopt, std::nullopt, std::nullopt, std::nullopt);
        if (common == at::kFloat)
            *t.data_ptr<float>() = s.isFloatingPoint() ? static_cast<float>(s.toDouble()) : static_cast<float>(s.toLong());
        else
            *t.data_ptr<double>() = s.isFloatingPoint() ? s.toDouble() : static_cast<double>(s.toLong());
        // Not flagged as a wrapped number: ATen's Python bridge (a dispatch mode the caller runs under) only converts
        // double, long and bool ones. In the common dtype, promotion gives the same result dtype without the flag.
        return t;
    }
    return at::native::wrapped_scalar_tensor(s);
}

diopiTensorHandle_t requireLike(diopiContextHandle_t ctx, const at::Tensor& src) {
    diopiTensorHandle_t h = nullptr;
    auto sizes = src.sizes();
    diopiSize_t size{sizes.data(), static_cast<int64_t>(sizes.size())};
    // A result handed back to the caller lives in device memory, like every tensor the caller passes in
    // (for a framework, host memory would be a tensor on another device).
    if (diopiRequireTensor(ctx, &h, &size, nullptr, fromATen(src.scalar_type()), diopi_device) != diopiSuccess || h == nullptr)
        fail("diopiRequireTensor failed");
    copyInto(tensor(h, "required"), src);
    return h;
}

namespace {

// SplitMix64: a 64-bit state stepped by a constant and mixed; its outputs for consecutive states are independent
// enough to seed a generator with.
uint64_t splitMix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void seedAndOffset(diopiGeneratorHandle_t h, uint64_t* seed, uint64_t* offset) {
    if (!diopiGeneratorGetSeedAndOffset || !diopiGeneratorSetSeedAndOffset) fail("the runtime provides no generator functions");
    if (diopiGeneratorGetSeedAndOffset(h, seed, offset) != diopiSuccess) fail("cannot read the generator's seed and offset");
}

}  // namespace

// A runtime generator is counter-based here, as a chip's Philox generator is (and as impl/cpu's is): its state is the
// pair (seed, offset). A call draws from an mt19937 whose whole 624-word state is derived from the pair, then
// advances the offset by one, so each call has a stream of its own and the same pair gives the same bits. Only two
// numbers travel per call: keeping ATen's 5 KB mt19937 state in the handle cost three copies and two tensor
// allocations per random call, more than a small dropout itself. ATen's own seeding takes 32 bits of a seed, which
// would make two of 10^5 calls share a stream; the derived state depends on all 128 bits.
at::Generator generator(diopiContextHandle_t ctx, diopiGeneratorHandle_t h) {
    if (h == nullptr) return at::detail::getDefaultCPUGenerator();
    uint64_t seed = 0, offset = 0;
    seedAndOffset(h, &seed, &offset);
    uint64_t x = seed;
    uint64_t key = splitMix64(x) ^ offset;  // distinct offsets of one seed give distinct keys
    at::mt19937_data_pod pod{};
    pod.seed_ = seed;
    pod.seeded_ = true;
    pod.left_ = 1;  // the first draw twists the state, as after ATen's own seeding
    pod.next_ = 0;
    for (size_t i = 0; i < pod.state_.size(); i += 2) {
        uint64_t v = splitMix64(key);
        pod.state_[i] = static_cast<uint32_t>(v);
        if (i + 1 < pod.state_.size()) pod.state_[i + 1] = static_cast<uint32_t>(v >> 32);
    }
    at::mt19937 engine;
    engine.set_data(pod);
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
    gen.get<at::CPUGeneratorImpl>()->set_engine(engine);
    return gen;
}

void saveGenerator(diopiContextHandle_t ctx, diopiGeneratorHandle_t h, const at::Generator& gen) {
    if (h == nullptr) return;
    uint64_t seed = 0, offset = 0;
    seedAndOffset(h, &seed, &offset);
    if (diopiGeneratorSetSeedAndOffset(h, seed, offset + 1) != diopiSuccess) fail("cannot advance the generator");
}

}  // namespace impl::aten

extern "C" {

DIOPI_API const char* diopiGetVendorName() { return "torch"; }
DIOPI_API const char* diopiGetImplVersion() { return "diopi-torch 1.0.0 (ATen " DIOPI_TORCH_VERSION ")"; }
DIOPI_API const char* diopiGetLastErrorString() { return impl::aten::lastError(); }

}
