// The runtime the simulator's kernels call, and the launch of an operator.
//
// impl/cpu's kernels are linked in with every diopirt.h runtime function
// they call renamed to simrt_<name> (objcopy --redefine-syms, list generated
// from the header model): on the worker the caller's runtime and handles are
// long gone, so the kernels read the descriptors captured at the call
// (SimTensor) and allocate temporaries from the device.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <unordered_set>

#include "diopi_support/caller_runtime.hpp"
#include "launch.hpp"

namespace impl::cpu {
const char* diopiGetLastErrorString();
const char* diopiGetImplVersion();
}  // namespace impl::cpu

namespace sim {

namespace {
thread_local KernelCtx* t_kernel = nullptr;  // the call running on this thread (its device for simrt queries)

std::vector<int64_t> contiguous(const std::vector<int64_t>& shape) {
    std::vector<int64_t> st(shape.size());
    int64_t acc = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        st[i] = acc;
        acc *= shape[i] > 0 ? shape[i] : 1;
    }
    return st;
}

// Elements a view reaches past its first one, +1 (0 for an empty view).
int64_t extent(const std::vector<int64_t>& shape, const std::vector<int64_t>& stride) {
    int64_t last = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) return 0;
        last += (shape[i] - 1) * stride[i];
    }
    return last + 1;
}

std::string hexOf(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

SimTensor* asSim(const void* h) { return const_cast<SimTensor*>(static_cast<const SimTensor*>(h)); }
}  // namespace

const char* kernelLastError() { return impl::cpu::diopiGetLastErrorString(); }

int64_t dtypeSize(diopiDtype_t dtype) {
    switch (dtype) {
        case diopi_dtype_int8:
        case diopi_dtype_uint8:
        case diopi_dtype_bool:
            return 1;
        case diopi_dtype_int16:
        case diopi_dtype_uint16:
        case diopi_dtype_float16:
        case diopi_dtype_bfloat16:
            return 2;
        case diopi_dtype_int32:
        case diopi_dtype_uint32:
        case diopi_dtype_float32:
        case diopi_dtype_tfloat32:
        case diopi_dtype_complex32:
            return 4;
        case diopi_dtype_int64:
        case diopi_dtype_uint64:
        case diopi_dtype_float64:
        case diopi_dtype_complex64:
            return 8;
        case diopi_dtype_complex128:
            return 16;
        default:
            return 0;
    }
}

KernelCtx::~KernelCtx() {
    for (auto& [dev, p] : scratch) {
        if (dev < 0)
            std::free(p);
        else
            deviceFree(dev, p);
    }
}

SimTensor* capture(KernelCtx& k, const char* func, const char* name, const void* handle, int device) {
    auto h = static_cast<diopiConstTensorHandle_t>(handle);
    SimTensor t;
    diopiSize_t shape{}, stride{};
    const void* data = nullptr;
    if (diopiGetTensorDataConst(h, &data) != diopiSuccess || diopiGetTensorShape(h, &shape) != diopiSuccess ||
        diopiGetTensorStride(h, &stride) != diopiSuccess || diopiGetTensorDtype(h, &t.dtype) != diopiSuccess) {
        failWith(diopiErrorOccurred, std::string(func) + ": the caller's runtime cannot describe tensor " + name);
        return nullptr;
    }
    t.shape.assign(shape.data, shape.data + shape.len);
    t.stride = stride.data && stride.len == shape.len ? std::vector<int64_t>(stride.data, stride.data + stride.len) : contiguous(t.shape);
    if (diopiGetTensorDevice) diopiGetTensorDevice(h, &t.where);
    int64_t esize = dtypeSize(t.dtype);
    int64_t ext = extent(t.shape, t.stride);
    const void* storage = data;
    int64_t offset = 0;
    size_t nbytes = static_cast<size_t>(ext * esize);
    if (diopiGetTensorStoragePtr && diopiGetTensorStorageOffset && diopiGetTensorStorageNbytes) {
        void* sp = nullptr;
        if (diopiGetTensorStoragePtr(h, &sp) == diopiSuccess && diopiGetTensorStorageOffset(h, &offset) == diopiSuccess &&
            diopiGetTensorStorageNbytes(h, &nbytes) == diopiSuccess && sp) {
            storage = sp;
        } else {
            storage = data, offset = 0, nbytes = static_cast<size_t>(ext * esize);
        }
    }
    t.offset = offset;
    t.storage_nbytes = nbytes;
    if (data == nullptr || ext == 0) {
        // Nothing to read or write: the kernel gets the pointer as it is.
        int d = deviceOf(data);
        t.device = d;
        t.data = d >= 0 ? shadowOf(data) : static_cast<char*>(const_cast<void*>(data));
        t.storage = d >= 0 && storage ? shadowOf(storage) : static_cast<char*>(const_cast<void*>(storage));
    } else {
        int d = deviceOf(data);
        if (d < 0) {
            failWith(diopiErrorOccurred, std::string(func) + ": tensor " + name + " is at host address " + hexOf(data) +
                                             "; the simulated device computes only on device memory (its malloc)");
            return nullptr;
        }
        if (d != device) {
            failWith(diopiErrorOccurred, std::string(func) + ": tensor " + name + " is in the memory of device " + std::to_string(d) +
                                             ", the call runs on device " + std::to_string(device));
            return nullptr;
        }
        // Every element the view reaches must be device memory of this device (a view from another
        // allocation is fine: a chip does not check that either).
        int64_t lo = 0, hi = 0;
        for (size_t i = 0; i < t.shape.size(); ++i) (t.stride[i] < 0 ? lo : hi) += (t.shape[i] - 1) * t.stride[i];
        const char* first = static_cast<const char*>(data) + lo * esize;
        if (!inDevice(d, first, static_cast<size_t>((hi - lo + 1) * esize))) {
            failWith(diopiErrorOccurred, std::string(func) + ": tensor " + name + " reaches beyond the device memory of device " +
                                             std::to_string(d));
            return nullptr;
        }
        t.device = d;
        t.data = shadowOf(data);
        t.storage = deviceOf(storage) == d ? shadowOf(storage) : t.data;
    }
    // A kernel may hand an argument back as an output the library "allocates" (a cast to the format it already has).
    t.caller = const_cast<diopiTensorHandle_t>(h);
    k.tensors.push_back(std::move(t));
    return &k.tensors.back();
}

/* ---------------------------------------------------------------- Launch */

namespace {

// Runs `kernel` at once on zero-filled host copies of the call's tensors and
// undoes what it did; true when it succeeded.
bool trial(KernelCtx& k, const std::function<diopiError_t(diopiContextHandle_t)>& kernel) noexcept {
    const size_t tensors = k.tensors.size(), scratch = k.scratch.size();
    std::vector<std::pair<char*, char*>> saved;  // (data, storage) of each captured tensor
    std::map<char*, char*> copies;                // device storage -> its zero-filled host copy
    bool mapped = true;
    try {
    saved.reserve(k.tensors.size());
    for (SimTensor& t : k.tensors) {
        saved.emplace_back(t.data, t.storage);
        if (t.device < 0 || !t.data) continue;    // nothing in device memory to stand in for
        int64_t ext = extent(t.shape, t.stride);
        if (!t.storage || t.data < t.storage || ext < 0) {
            mapped = false;
            break;
        }
        size_t off = static_cast<size_t>(t.data - t.storage);
        size_t need = std::max(t.storage_nbytes, off + static_cast<size_t>(ext * dtypeSize(t.dtype)));
        char*& copy = copies[t.storage];
        if (!copy) copy = static_cast<char*>(std::calloc(std::max<size_t>(need, 1), 1));  // untouched pages stay unmapped
        if (!copy) {
            mapped = false;
            break;
        }
        t.storage = copy;
        t.data = copy + off;
    }
    } catch (...) {  // out of host memory: no trial (tensors seen so far are restored below)
        mapped = false;
    }
    diopiError_t rc = diopiErrorOccurred;
    if (mapped) {
        KernelCtx* prev = t_kernel;
        t_kernel = &k;
        try {
            rc = kernel(reinterpret_cast<diopiContextHandle_t>(&k));
        } catch (...) {
            rc = diopiErrorOccurred;
        }
        t_kernel = prev;
    }
    // Undo everything the trial did: tensors and temporaries it required, the stand-ins.
    for (size_t i = scratch; i < k.scratch.size(); ++i) {
        if (k.scratch[i].first < 0)
            std::free(k.scratch[i].second);
        else
            deviceFree(k.scratch[i].first, k.scratch[i].second);
    }
    k.scratch.resize(scratch);
    while (k.tensors.size() > tensors) k.tensors.pop_back();
    for (size_t i = 0; i < saved.size() && i < k.tensors.size(); ++i) {
        k.tensors[i].data = saved[i].first;
        k.tensors[i].storage = saved[i].second;
    }
    for (auto& [storage, copy] : copies) std::free(copy);
    return rc == diopiSuccess;
}

}  // namespace

namespace {

// Never destroyed: calls may still come while the process exits.
std::mutex& g_proven_mu = *new std::mutex;
std::unordered_set<uint64_t>& g_proven = *new std::unordered_set<uint64_t>;  // signatures of calls that ran without error

bool provenSignature(uint64_t key) {
    std::lock_guard<std::mutex> lk(g_proven_mu);
    return g_proven.count(key) != 0;
}

void rememberSignature(uint64_t key) {
    std::lock_guard<std::mutex> lk(g_proven_mu);
    if (g_proven.size() >= (size_t(1) << 20)) g_proven.clear();  // bounded: a forgotten signature only runs once more before returning
    g_proven.insert(key);
}

}  // namespace

Launch::Launch(const char* func, diopiContextHandle_t ctx, bool sync) noexcept : func_(func), sync_(sync) {
    try {
        if (!ensureStarted()) {
            status_ = diopiErrorOccurred;
            return;
        }
        k_ = std::make_unique<KernelCtx>();
        diopiStreamHandle_t handle = nullptr;
        if (ctx == nullptr) {
            fail(diopiErrorOccurred, std::string(func) + ": ctx is NULL");
            return;
        }
        if (diopiGetStream(ctx, &handle) != diopiSuccess) {
            fail(diopiErrorOccurred, std::string(func) + ": the caller's runtime gave no stream");
            return;
        }
        stream_ = streamOf(handle, func);
        if (!stream_) {
            status_ = diopiErrorOccurred;
            return;
        }
        k_->device = stream_->device;
        k_->stream = handle;
        if (sync_) k_->caller = ctx;
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func) + ": out of host memory");
    }
}

bool Launch::fail(diopiError_t code, const std::string& msg) noexcept {
    if (status_ == diopiSuccess) {
        status_ = code;
        try {
            setLastError(msg);
        } catch (...) {
        }
    }
    return false;
}

diopiTensorHandle_t Launch::tensor(const char* name, diopiTensorHandle_t h) noexcept {
    return const_cast<diopiTensorHandle_t>(tensor(name, static_cast<diopiConstTensorHandle_t>(h)));
}

diopiConstTensorHandle_t Launch::tensor(const char* name, diopiConstTensorHandle_t h) noexcept {
    if (status_ != diopiSuccess) return nullptr;
    mix(h != nullptr);
    if (h == nullptr) return nullptr;
    try {
        SimTensor* t = capture(*k_, func_, name, h, k_->device);
        if (!t) {
            status_ = diopiErrorOccurred;  // capture set the message
            return nullptr;
        }
        mix(static_cast<uint64_t>(t->dtype));
        mix(t->shape.size());
        for (size_t i = 0; i < t->shape.size(); ++i) {
            mix(static_cast<uint64_t>(t->shape[i]));
            mix(static_cast<uint64_t>(t->stride[i]));
        }
        // Aliasing (in-place calls, overlapping outputs): which earlier tensor shares the storage, and where.
        size_t index = 0;
        for (const SimTensor& other : k_->tensors) {
            if (&other != t && other.storage == t->storage && t->storage) {
                mix(index);
                mix(static_cast<uint64_t>(t->data - other.data));
                break;
            }
            ++index;
        }
        return reinterpret_cast<diopiConstTensorHandle_t>(t);
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

diopiTensorHandle_t* Launch::tensors(const char* name, diopiTensorHandle_t* arr, int64_t n) noexcept {
    return array(name, reinterpret_cast<const void* const*>(arr), n);
}

diopiConstTensorHandle_t* Launch::tensors(const char* name, diopiConstTensorHandle_t* arr, int64_t n) noexcept {
    return static_cast<diopiConstTensorHandle_t*>(static_cast<void*>(array(name, reinterpret_cast<const void* const*>(arr), n)));
}

diopiTensorHandle_t* Launch::array(const char* name, const void* const* arr, int64_t n) noexcept {
    if (status_ != diopiSuccess) return nullptr;
    mix(arr != nullptr);
    mix(static_cast<uint64_t>(n));
    if (arr == nullptr) return nullptr;
    try {
        if (n < 0) {
            fail(diopiErrorOccurred, std::string(func_) + ": " + name + " has a negative length");
            return nullptr;
        }
        k_->arrays.emplace_back(static_cast<size_t>(n) + 1, nullptr);
        auto& out = k_->arrays.back();
        for (int64_t i = 0; i < n; ++i) {
            std::string label = std::string(name) + "[" + std::to_string(i) + "]";
            out[i] = const_cast<diopiTensorHandle_t>(tensor(label.c_str(), static_cast<diopiConstTensorHandle_t>(arr[i])));
            if (status_ != diopiSuccess) return nullptr;
        }
        return out.data();
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

diopiTensorHandle_t* Launch::allocated(diopiTensorHandle_t* slot) noexcept {
    if (status_ != diopiSuccess || slot == nullptr) return slot;
    try {
        k_->arrays.emplace_back(1, nullptr);
        diopiTensorHandle_t* mine = k_->arrays.back().data();
        allocated_.emplace_back(slot, mine);
        return mine;
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

const diopiScalar_t* Launch::scalar(const diopiScalar_t* s) noexcept {
    if (status_ != diopiSuccess) return nullptr;
    mix(s != nullptr);
    if (s == nullptr) return nullptr;
    try {
        mix(static_cast<uint64_t>(s->stype));
        uint64_t bits = 0;
        std::memcpy(&bits, &s->fval, sizeof bits);  // the union's eight bytes, whichever member is set
        mix(bits);
        k_->scalars.push_back(*s);
        return &k_->scalars.back();
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

diopiSize_t Launch::size(diopiSize_t s) noexcept {
    if (status_ != diopiSuccess) return s;
    mix(s.data != nullptr);
    mix(static_cast<uint64_t>(s.len));
    if (s.data == nullptr) return s;
    try {
        for (int64_t i = 0; i < s.len; ++i) mix(static_cast<uint64_t>(s.data[i]));
        k_->ints.emplace_back(s.data, s.data + (s.len > 0 ? s.len : 0));
        return diopiSize_t{k_->ints.back().data(), s.len};
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return s;
    }
}

diopiSize_t* Launch::size(const diopiSize_t* s) noexcept {
    if (status_ != diopiSuccess) return nullptr;
    mix(s != nullptr);
    if (s == nullptr) return nullptr;
    try {
        k_->sizes.push_back(size(*s));
        return &k_->sizes.back();
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

const int64_t* Launch::value(const int64_t* p) noexcept {
    if (status_ != diopiSuccess) return nullptr;
    mix(p != nullptr);
    if (p == nullptr) return nullptr;
    try {
        mix(static_cast<uint64_t>(*p));
        k_->ints.emplace_back(1, *p);
        return k_->ints.back().data();
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

const double* Launch::value(const double* p) noexcept {
    if (status_ != diopiSuccess) return nullptr;
    mix(p != nullptr);
    if (p == nullptr) return nullptr;
    try {
        uint64_t bits = 0;
        std::memcpy(&bits, p, sizeof bits);
        mix(bits);
        k_->doubles.push_back(*p);
        return &k_->doubles.back();
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

const bool* Launch::value(const bool* p) noexcept {
    if (status_ != diopiSuccess) return nullptr;
    mix(p != nullptr);
    if (p == nullptr) return nullptr;
    try {
        mix(*p);
        k_->bools.push_back(*p);
        return &k_->bools.back();
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

const char* Launch::string(const char* s) noexcept {
    if (status_ != diopiSuccess) return nullptr;
    mix(s != nullptr);
    if (s == nullptr) return nullptr;
    try {
        for (const char* c = s; *c; ++c) mix(static_cast<unsigned char>(*c));
        mix(0x100);
        k_->strings.emplace_back(s);
        return k_->strings.back().c_str();
    } catch (...) {
        fail(diopiErrorOccurred, std::string(func_) + ": out of host memory");
        return nullptr;
    }
}

diopiError_t Launch::run(std::function<diopiError_t(diopiContextHandle_t)> kernel) noexcept {
    if (status_ != diopiSuccess) return status_;
    try {
        const bool fails = launchFails();
        std::string func = func_;
        mix(reinterpret_cast<uintptr_t>(func_));
        // A call not yet seen to work is first tried at once on zero-filled host
        // copies of its tensors: its argument errors are the call's own status,
        // and the real work is still queued. When the trial fails (an argument
        // error, or one the zeros caused), the call runs for real before it
        // returns and reports its own status.
        bool first = false;
        if (!sync_ && !provenSignature(key_)) {
            if (trial(*k_, kernel))
                rememberSignature(key_);
            else
                first = true;
        }
        if (sync_ || first) {
            // The results are read when the call returns: everything queued before it first.
            uint64_t seq;
            {
                auto marker = std::make_unique<Task>();
                marker->name = func + " (synchronizing)";
                seq = enqueue(stream_, std::move(marker));
            }
            if (diopiError_t rc = waitFor(stream_, seq)) return rc;
            if (fails)
                return failWith(diopiErrorOccurred, func + ": simulated launch failure (DIOPI_SIM_FAIL=launch:" +
                                                        std::to_string(config().fail_launch) + ")");
            KernelCtx* prev = t_kernel;
            t_kernel = k_.get();
            auto started = Clock::now();
            diopiError_t rc = kernel(reinterpret_cast<diopiContextHandle_t>(k_.get()));
            occupy(started);
            addBusy(k_->device, started);
            t_kernel = prev;
            if (rc != diopiSuccess) return failWith(rc, kernelLastError());
            if (first) rememberSignature(key_);
            for (auto& [callers, mine] : allocated_) {
                SimTensor* t = asSim(*mine);
                if (t && !t->caller) return failWith(diopiErrorOccurred, func + ": the kernel returned a tensor the caller did not allocate");
                *callers = t ? t->caller : nullptr;
            }
            return diopiSuccess;
        }
        auto task = std::make_unique<Task>();
        task->name = func;
        task->kernel = true;
        std::shared_ptr<KernelCtx> k(std::move(k_));
        task->run = [k, kernel = std::move(kernel), func, fails]() -> diopiError_t {
            if (fails)
                return failWith(diopiErrorOccurred, func + ": simulated launch failure (DIOPI_SIM_FAIL=launch:" +
                                                        std::to_string(config().fail_launch) + ")");
            t_kernel = k.get();
            diopiError_t rc = kernel(reinterpret_cast<diopiContextHandle_t>(k.get()));
            t_kernel = nullptr;
            if (rc != diopiSuccess) setLastError(kernelLastError());
            // Temporaries go back to the device as soon as the kernel is done.
            for (auto& [dev, p] : k->scratch) {
                if (dev < 0)
                    std::free(p);
                else
                    deviceFree(dev, p);
            }
            k->scratch.clear();
            return rc;
        };
        enqueue(stream_, std::move(task));
        return diopiSuccess;
    } catch (...) {
        return failWith(diopiErrorOccurred, std::string(func_) + ": out of host memory");
    }
}

}  // namespace sim

/* ---------------------------------------------------------------------------
 * The kernels' runtime: diopirt.h's functions under the names impl/cpu's
 * objects were given (simrt_<name>). Handles are SimTensor / KernelCtx.
 * ------------------------------------------------------------------------- */
using sim::KernelCtx;
using sim::SimTensor;

namespace {
const SimTensor* T(diopiConstTensorHandle_t h) { return reinterpret_cast<const SimTensor*>(h); }
KernelCtx* K(diopiContextHandle_t c) { return reinterpret_cast<KernelCtx*>(c); }

diopiTensorHandle_t makeTensor(KernelCtx* k, const diopiSize_t* size, const diopiSize_t* stride, diopiDtype_t dtype, diopiDevice_t where) {
    SimTensor t;
    t.shape.assign(size->data, size->data + size->len);
    for (int64_t s : t.shape)
        if (s < 0) return nullptr;
    t.stride = stride ? std::vector<int64_t>(stride->data, stride->data + stride->len) : std::vector<int64_t>();
    if (!stride) {
        t.stride.resize(t.shape.size());
        int64_t acc = 1;
        for (size_t i = t.shape.size(); i-- > 0;) {
            t.stride[i] = acc;
            acc *= t.shape[i] > 0 ? t.shape[i] : 1;
        }
    }
    t.dtype = dtype;
    t.where = where;
    int64_t ext = 1;
    for (size_t i = 0; i < t.shape.size(); ++i) {
        if (t.shape[i] == 0) {
            ext = 0;
            break;
        }
        ext += (t.shape[i] - 1) * t.stride[i];
    }
    size_t nbytes = static_cast<size_t>(ext * sim::dtypeSize(dtype));
    void* p = nullptr;
    if (where == diopi_host) {
        p = std::aligned_alloc(64, (nbytes + 63) / 64 * 64 + 64);
        if (!p) return nullptr;
        k->scratch.emplace_back(-1, p);
        t.data = t.storage = static_cast<char*>(p);
        t.device = -1;
    } else {
        if (sim::deviceMalloc(k->device, &p, nbytes, false) != diopiSuccess) return nullptr;
        k->scratch.emplace_back(k->device, p);
        t.data = t.storage = sim::shadowOf(p);
        t.device = k->device;
    }
    t.storage_nbytes = nbytes;
    k->tensors.push_back(std::move(t));
    return reinterpret_cast<diopiTensorHandle_t>(&k->tensors.back());
}
// What a SimTensor answers of the getters of diopirt.h (the generators are the caller's: below).
struct SimTensors {
    static void* data(diopiTensorHandle_t th) { return T(th)->data; }
    static const void* constData(diopiConstTensorHandle_t th) { return T(th)->data; }
    static diopiSize_t shape(diopiConstTensorHandle_t th) { return {T(th)->shape.data(), static_cast<int64_t>(T(th)->shape.size())}; }
    static diopiSize_t stride(diopiConstTensorHandle_t th) { return {T(th)->stride.data(), static_cast<int64_t>(T(th)->stride.size())}; }
    static diopiDtype_t dtype(diopiConstTensorHandle_t th) { return T(th)->dtype; }
    static diopiDevice_t device(diopiConstTensorHandle_t th) { return T(th)->where; }
    static int64_t numel(diopiConstTensorHandle_t th) {
        int64_t n = 1;
        for (int64_t s : T(th)->shape) n *= s;
        return n;
    }
    static void* storagePtr(diopiConstTensorHandle_t th) { return T(th)->storage; }
    static int64_t storageOffset(diopiConstTensorHandle_t th) { return T(th)->offset; }
    static size_t storageNbytes(diopiConstTensorHandle_t th) { return T(th)->storage_nbytes; }
    static diopiDeviceIndex_t deviceIndex(diopiConstTensorHandle_t th) {
        return static_cast<diopiDeviceIndex_t>(T(th)->device < 0 ? 0 : T(th)->device);
    }
    static diopiDeviceIndex_t currentDeviceIndex() { return static_cast<diopiDeviceIndex_t>(sim::currentDevice()); }
    static diopiStreamHandle_t stream(diopiContextHandle_t ctx) { return K(ctx)->stream; }
    static diopiTensorHandle_t requireTensor(diopiContextHandle_t ctx, const diopiSize_t& size, const diopiSize_t* stride,
                                             diopiDtype_t dtype, diopiDevice_t device) {
        if (sim::dtypeSize(dtype) == 0) return nullptr;
        KernelCtx* k = K(ctx);
        if (k->caller && device != diopi_host) {
            // A call that finishes before it returns: what it allocates is the caller's
            // (an output the library allocates, or a temporary the caller frees with its context).
            diopiTensorHandle_t mine = nullptr;
            if (diopiRequireTensor(k->caller, &mine, &size, stride, dtype, device) != diopiSuccess || !mine) return nullptr;
            SimTensor* t = sim::capture(*k, "diopiRequireTensor", "the required tensor", mine, k->device);
            if (!t) return nullptr;
            t->caller = mine;
            return reinterpret_cast<diopiTensorHandle_t>(t);
        }
        return makeTensor(k, &size, stride, dtype, device);
    }
    static void error(const char* why) { sim::setLastError(why); }
};
}  // namespace

extern "C" {

// The getters' checks, status codes and exception barrier are proto/support's
// caller runtime; SimTensors (above) says what a SimTensor answers.
using SimRt = diopi_support::CallerRuntime<SimTensors>;

const char* simrt_diopiGetVersion(void) { return "1.0.0"; }
diopiError_t simrt_diopiGetTensorData(diopiTensorHandle_t th, void** p) { return SimRt::tensorData(th, p); }
diopiError_t simrt_diopiGetTensorDataConst(diopiConstTensorHandle_t th, const void** p) { return SimRt::tensorDataConst(th, p); }
diopiError_t simrt_diopiGetTensorShape(diopiConstTensorHandle_t th, diopiSize_t* size) { return SimRt::tensorShape(th, size); }
diopiError_t simrt_diopiGetTensorStride(diopiConstTensorHandle_t th, diopiSize_t* stride) { return SimRt::tensorStride(th, stride); }
diopiError_t simrt_diopiGetTensorDtype(diopiConstTensorHandle_t th, diopiDtype_t* dtype) { return SimRt::tensorDtype(th, dtype); }
diopiError_t simrt_diopiGetTensorDevice(diopiConstTensorHandle_t th, diopiDevice_t* device) { return SimRt::tensorDevice(th, device); }
diopiError_t simrt_diopiGetTensorNumel(diopiConstTensorHandle_t th, int64_t* numel) { return SimRt::tensorNumel(th, numel); }
diopiError_t simrt_diopiGetTensorElemSize(diopiConstTensorHandle_t th, int64_t* itemsize) { return SimRt::tensorElemSize(th, itemsize); }
diopiError_t simrt_diopiGetTensorStoragePtr(diopiConstTensorHandle_t th, void** p) { return SimRt::storagePtr(th, p); }
diopiError_t simrt_diopiGetTensorStorageOffset(diopiConstTensorHandle_t th, int64_t* off) { return SimRt::storageOffset(th, off); }
diopiError_t simrt_diopiGetTensorStorageNbytes(diopiConstTensorHandle_t th, size_t* n) { return SimRt::storageNbytes(th, n); }
diopiError_t simrt_diopiGetTensorDeviceIndex(diopiConstTensorHandle_t th, diopiDeviceIndex_t* idx) { return SimRt::deviceIndex(th, idx); }
diopiError_t simrt_diopiGetTensorCrowIndices(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; }
diopiError_t simrt_diopiGetTensorColIndices(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; }
diopiError_t simrt_diopiGetTensorValues(diopiConstTensorHandle_t, diopiConstTensorHandle_t*) { return diopiNoImplement; }
diopiError_t simrt_diopiIsTensorSparse(diopiConstTensorHandle_t th, bool* is_sparse) { return SimRt::isSparse(th, is_sparse); }
diopiError_t simrt_diopiGetCurrentDeviceIndex(diopiDeviceIndex_t* idx) { return SimRt::currentDeviceIndex(idx); }
diopiError_t simrt_diopiGetStream(diopiContextHandle_t ctx, diopiStreamHandle_t* stream) { return SimRt::stream(ctx, stream); }
diopiError_t simrt_diopiRequireTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor, const diopiSize_t* size,
                                      const diopiSize_t* stride, const diopiDtype_t dtype, const diopiDevice_t device) {
    return SimRt::requireTensor(ctx, tensor, size, stride, dtype, device);
}
diopiError_t simrt_diopiRequireBuffer(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor, int64_t num_bytes, diopiDevice_t device) {
    return SimRt::requireBuffer(ctx, tensor, num_bytes, device);
}

// Generators: only calls that run before they return (sync) see the caller's generator.
diopiError_t simrt_diopiGeneratorGetSeedAndOffset(diopiGeneratorHandle_t th, uint64_t* seed, uint64_t* offset) {
    if (!diopiGeneratorGetSeedAndOffset) return diopiNoImplement;
    return diopiGeneratorGetSeedAndOffset(th, seed, offset);
}
diopiError_t simrt_diopiGeneratorSetSeedAndOffset(diopiGeneratorHandle_t th, uint64_t seed, uint64_t offset) {
    if (!diopiGeneratorSetSeedAndOffset) return diopiNoImplement;
    return diopiGeneratorSetSeedAndOffset(th, seed, offset);
}
diopiError_t simrt_diopiGeneratorGetState(diopiContextHandle_t ctx, diopiConstGeneratorHandle_t th, diopiTensorHandle_t* data) {
    KernelCtx* k = K(ctx);
    if (!diopiGeneratorGetState || !k || !k->caller || !data) return diopiNoImplement;
    diopiTensorHandle_t state = nullptr;
    if (diopiGeneratorGetState(k->caller, th, &state) != diopiSuccess || !state) return diopiErrorOccurred;
    // The caller's state tensor is host memory: described as it is.
    const void* p = nullptr;
    int64_t n = 0;
    if (diopiGetTensorDataConst(state, &p) != diopiSuccess || diopiGetTensorNumel(state, &n) != diopiSuccess) return diopiErrorOccurred;
    SimTensor t;
    t.shape = {n};
    t.stride = {1};
    t.dtype = diopi_dtype_uint8;
    t.where = diopi_host;
    t.data = t.storage = static_cast<char*>(const_cast<void*>(p));
    t.storage_nbytes = static_cast<size_t>(n);
    t.caller = state;
    k->tensors.push_back(std::move(t));
    *data = reinterpret_cast<diopiTensorHandle_t>(&k->tensors.back());
    return diopiSuccess;
}
diopiError_t simrt_diopiGeneratorSetState(diopiGeneratorHandle_t th, diopiConstTensorHandle_t state) {
    if (!diopiGeneratorSetState || !state) return diopiNoImplement;
    const SimTensor* t = T(state);
    if (!t->caller) return diopiNoImplement;
    return diopiGeneratorSetState(th, t->caller);
}

diopiError_t simrt_diopiRecordStart(const char*, void** record) {
    if (record) *record = nullptr;
    return diopiSuccess;
}
diopiError_t simrt_diopiRecordEnd(void** record) {
    if (record) *record = nullptr;
    return diopiSuccess;
}

/* ---------------------------------------------------------------------------
 * The library's own entry points.
 * ------------------------------------------------------------------------- */
DIOPI_API const char* diopiGetVendorName(void) { return "sim"; }
DIOPI_API const char* diopiGetImplVersion(void) {
    static const std::string version = std::string("sim-1.0.0 on ") + impl::cpu::diopiGetImplVersion();
    return version.c_str();
}
DIOPI_API const char* diopiGetLastErrorString(void) { return sim::lastError(); }

}  // extern "C"
