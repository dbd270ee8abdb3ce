// The conformance test runtime: the caller side of diopirt.h for the harness.
//
// Tensors are plain records (shape, strides, dtype, offset) over a storage
// whose device memory comes from the vendor's device runtime (diopi/device.h),
// or from the host when the vendor has none. The runtime never reads or
// writes device memory itself: every byte moves through the vendor's copies,
// ordered on a stream and synchronized before the host looks at it. Each
// storage is padded with guard zones so that out-of-bounds writes by an
// operator can be detected after the call.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "diopi_support/caller_runtime.hpp"
#include "diopi_support/host_runtime.hpp"
#include "diopi_test/testrt.h"

namespace {

constexpr size_t kGuardBytes = 64;
constexpr unsigned char kGuardByte = 0xA5;

thread_local std::string g_error;

int32_t fail(const std::string& msg) {
    g_error = msg;
    return 1;
}

// What a vendor without a device runtime gets: host memory, and no queues (the
// vendor's calls and the harness's copies all run on the default stream).
const diopiDeviceRuntime_t kHostRuntime = diopi_support::host::hostRuntime(/*streams=*/false);

// The runtime in use (fixed by dt_init / dt_init_device) and the vendor's error string.
const diopiDeviceRuntime_t* g_rt = &kHostRuntime;
const char* (*g_vendor_error)(void) = nullptr;
diopiDeviceIndex_t g_device = 0;  // where new storages and contexts go (dt_set_device)

// A field of the vendor's table, or NULL when it lies beyond the size the vendor was built with.
#define RT_FIELD(name) (offsetof(diopiDeviceRuntime_t, name) + sizeof(g_rt->name) <= g_rt->size ? g_rt->name : nullptr)

std::string vendorError() {
    const char* msg = g_vendor_error ? g_vendor_error() : nullptr;
    if ((!msg || !*msg) && g_rt == &kHostRuntime && !diopi_support::host::tHostError.empty()) return diopi_support::host::tHostError;
    return msg && *msg ? msg : "no message";
}

// Fails with "<what> failed (status N): <vendor's message>" when `rc` is an error.
int32_t check(diopiError_t rc, const char* what) {
    if (rc == diopiSuccess) return 0;
    g_error = std::string(what) + " failed (status " + std::to_string(static_cast<int>(rc)) + "): " + vendorError();
    return static_cast<int32_t>(rc);
}

int32_t streamSync(diopiStreamHandle_t stream) { return check(g_rt->stream_synchronize(stream), "stream synchronize"); }

struct Storage {
    void* base = nullptr;  // address of the front guard (device memory, or host memory for a host tensor)
    size_t nbytes = 0;     // usable bytes, between the guards
    bool host = false;     // diopi_host storage: plain host memory, read and written directly
    diopiDeviceIndex_t device = 0;
    diopiStreamHandle_t stream = nullptr;

    void* data() const { return static_cast<unsigned char*>(base) + kGuardBytes; }
    ~Storage() {
        if (!base) return;
        if (host)
            std::free(base);
        else
            g_rt->free(device, base);
    }
};

// The stream the harness's own copies are ordered on. Not the default stream: a
// reader that skips the synchronization of the operator's stream must race it.
diopiStreamHandle_t storageStream(diopiDeviceIndex_t device) {
    static std::mutex mu;
    static std::vector<diopiStreamHandle_t> streams;  // per device, made on first use
    std::lock_guard<std::mutex> lk(mu);
    if (streams.size() <= static_cast<size_t>(device)) streams.resize(static_cast<size_t>(device) + 1, nullptr);
    diopiStreamHandle_t& s = streams[static_cast<size_t>(device)];
    auto create = RT_FIELD(stream_create);
    if (!s && create && create(device, 0, &s) != diopiSuccess) s = nullptr;
    return s;
}

// Copies between a storage and host memory, synchronized before returning.
int32_t toStorage(const Storage& st, void* dst, const void* src, size_t n) {
    if (n == 0) return 0;
    if (st.host) {
        std::memmove(dst, src, n);
        return 0;
    }
    if (int32_t rc = check(g_rt->memcpy_h2d_async(dst, src, n, st.stream), "host to device copy")) return rc;
    return streamSync(st.stream);
}
int32_t fromStorage(const Storage& st, void* dst, const void* src, size_t n) {
    if (n == 0) return 0;
    if (st.host) {
        std::memmove(dst, src, n);
        return 0;
    }
    if (int32_t rc = check(g_rt->memcpy_d2h_async(dst, src, n, st.stream), "device to host copy")) return rc;
    return streamSync(st.stream);
}

std::shared_ptr<Storage> allocStorage(size_t nbytes, bool host) {
    auto st = std::make_shared<Storage>();
    st->nbytes = nbytes;
    st->host = host || g_rt == &kHostRuntime;
    st->device = g_device;
    st->stream = storageStream(st->device);
    size_t total = nbytes + 2 * kGuardBytes;
    if (st->host) {
        if (diopi_support::host::hostMalloc(0, &st->base, total) != diopiSuccess) {
            st->base = nullptr;
            fail("host malloc of " + std::to_string(total) + " bytes failed");
            return nullptr;
        }
    } else if (check(g_rt->malloc(st->device, &st->base, total), "device malloc") != 0) {
        st->base = nullptr;
        return nullptr;
    }
    // Guards carry the pattern, the payload starts zeroed.
    std::vector<unsigned char> host_bytes(total, 0);
    std::memset(host_bytes.data(), kGuardByte, kGuardBytes);
    std::memset(host_bytes.data() + kGuardBytes + nbytes, kGuardByte, kGuardBytes);
    if (toStorage(*st, st->base, host_bytes.data(), total) != 0) return nullptr;
    return st;
}

using diopi_support::dtypeSize;

}  // namespace

struct diopiTensor {
    std::vector<int64_t> shape;
    std::vector<int64_t> stride;
    diopiDtype_t dtype = diopi_dtype_float32;
    diopiDevice_t device = diopi_device;
    int64_t offset = 0;  // in elements
    std::shared_ptr<Storage> storage;

    int64_t numel() const {
        int64_t n = 1;
        for (auto s : shape) n *= s;
        return n;
    }
    void* data() const { return static_cast<unsigned char*>(storage->data()) + offset * dtypeSize(dtype); }
};

struct diopiContext {
    diopiStreamHandle_t stream = nullptr;
    std::vector<std::unique_ptr<diopiTensor>> owned;
};

struct diopiGenerator {
    uint64_t seed = 0;
    uint64_t offset = 0;
    std::vector<uint8_t> state;
};

namespace {

// Contiguous strides, and the number of storage elements a view needs.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape) {
    std::vector<int64_t> st(shape.size());
    int64_t acc = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        st[i] = acc;
        acc *= shape[i] > 0 ? shape[i] : 1;
    }
    return st;
}

int64_t neededElems(const std::vector<int64_t>& shape, const std::vector<int64_t>& stride, int64_t offset) {
    int64_t last = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) return offset;
        last += (shape[i] - 1) * stride[i];
    }
    return offset + last + 1;
}

diopiTensor* makeTensor(const int64_t* shape, const int64_t* stride, int64_t ndim, int32_t dtype, int64_t offset, int64_t elems,
                        int32_t device) {
    if (ndim < 0 || (ndim > 0 && shape == nullptr)) {
        fail("invalid shape");
        return nullptr;
    }
    int64_t esize = dtypeSize(dtype);
    if (esize == 0) {
        fail("unknown dtype " + std::to_string(dtype));
        return nullptr;
    }
    auto t = std::make_unique<diopiTensor>();
    t->shape.assign(shape, shape + ndim);
    for (auto s : t->shape)
        if (s < 0) {
            fail("negative dimension in shape");
            return nullptr;
        }
    t->stride = stride ? std::vector<int64_t>(stride, stride + ndim) : contiguousStrides(t->shape);
    t->dtype = static_cast<diopiDtype_t>(dtype);
    t->device = static_cast<diopiDevice_t>(device);
    t->offset = offset;
    int64_t need = neededElems(t->shape, t->stride, offset);
    if (elems < 0) elems = need;
    if (elems < need) {
        fail("storage too small for the view");
        return nullptr;
    }
    t->storage = allocStorage(static_cast<size_t>(elems * esize), device == diopi_host);
    if (!t->storage) return nullptr;
    return t.release();
}

}  // namespace

/* ---------------------------------------------------------------------------
 * diopirt.h: the runtime functions operator libraries call. Their checks,
 * status codes and exception barrier are proto/support's caller runtime;
 * here is only what this runtime's tensor record answers.
 * ------------------------------------------------------------------------- */
namespace {

struct TestTensors {
    static void* data(diopiTensorHandle_t t) { return t->data(); }
    static const void* constData(diopiConstTensorHandle_t t) { return t->data(); }
    static diopiSize_t shape(diopiConstTensorHandle_t t) { return {t->shape.data(), static_cast<int64_t>(t->shape.size())}; }
    static diopiSize_t stride(diopiConstTensorHandle_t t) { return {t->stride.data(), static_cast<int64_t>(t->stride.size())}; }
    static diopiDtype_t dtype(diopiConstTensorHandle_t t) { return t->dtype; }
    static diopiDevice_t device(diopiConstTensorHandle_t t) { return t->device; }
    static int64_t numel(diopiConstTensorHandle_t t) { return t->numel(); }
    static void* storagePtr(diopiConstTensorHandle_t t) { return t->storage->data(); }
    static int64_t storageOffset(diopiConstTensorHandle_t t) { return t->offset; }
    static size_t storageNbytes(diopiConstTensorHandle_t t) { return t->storage->nbytes; }
    static diopiDeviceIndex_t deviceIndex(diopiConstTensorHandle_t t) { return t->storage->device; }
    static diopiDeviceIndex_t currentDeviceIndex() { return 0; }
    static diopiStreamHandle_t stream(diopiContextHandle_t ctx) { return ctx->stream; }
    static diopiTensorHandle_t requireTensor(diopiContextHandle_t ctx, const diopiSize_t& size, const diopiSize_t* stride,
                                             diopiDtype_t dtype, diopiDevice_t device) {
        diopiTensor* t = makeTensor(size.data, stride ? stride->data : nullptr, size.len, dtype, 0, -1, device);
        if (t) ctx->owned.emplace_back(t);
        return t;
    }
    // The payload moves through the vendor's copy: the runtime never reads device memory itself.
    static std::vector<uint8_t> hostBytes(diopiConstTensorHandle_t t) {
        std::vector<uint8_t> bytes(static_cast<size_t>(t->numel() * dtypeSize(t->dtype)));
        if (fromStorage(*t->storage, bytes.data(), t->data(), bytes.size()) != 0) throw std::runtime_error(g_error);
        return bytes;
    }
    static std::vector<uint8_t> generatorState(diopiConstGeneratorHandle_t g) { return g->state; }
    static void setGeneratorState(diopiGeneratorHandle_t g, std::vector<uint8_t> s) { g->state = std::move(s); }
    static void seedAndOffset(diopiGeneratorHandle_t g, uint64_t* seed, uint64_t* offset) {
        *seed = g->seed;
        *offset = g->offset;
    }
    static void setSeedAndOffset(diopiGeneratorHandle_t g, uint64_t seed, uint64_t offset) {
        g->seed = seed;
        g->offset = offset;
    }
    static void error(const char* why) { fail(why); }
};

}  // namespace

DIOPI_SUPPORT_DEFINE_CALLER_RUNTIME(TestTensors)

extern "C" {

/* ---------------------------------------------------------------------------
 * testrt.h: the harness's API.
 * ------------------------------------------------------------------------- */

DIOPI_RT_API int32_t dt_init_device(const diopiDeviceRuntime_t* runtime, const char* (*last_error)(void)) {
    static std::once_flag once;
    static int32_t rc = 0;
    std::call_once(once, [&] {
        if (runtime == nullptr) return;  // host memory
        // The fields every caller needs (device.h marks them required).
        if (runtime->size < offsetof(diopiDeviceRuntime_t, memset_async) || !runtime->device_count || !runtime->malloc ||
            !runtime->free || !runtime->memcpy_h2d_async || !runtime->memcpy_d2h_async || !runtime->memcpy_d2d_async) {
            rc = fail("the vendor's device runtime lacks a required field (device_count, malloc, free or a copy)");
            return;
        }
        g_rt = runtime;
        g_vendor_error = last_error;
        if (!RT_FIELD(stream_synchronize)) {
            rc = fail("the vendor's device runtime has no stream_synchronize");
            g_rt = &kHostRuntime;
            return;
        }
        int32_t count = 0;
        if ((rc = check(g_rt->device_count(&count), "device_count")) != 0) return;
        if (count < 1) {
            rc = fail("the vendor's device runtime reports no device");
            return;
        }
        if (auto set = RT_FIELD(set_device))
            if ((rc = check(set(0), "set_device(0)")) != 0) return;
    });
    return rc;
}

DIOPI_RT_API int32_t dt_init(void) {
    // A program linked with the vendor library finds its table here; one that
    // loads the library itself passes the table to dt_init_device().
    auto get = reinterpret_cast<diopiGetDeviceRuntimeFn>(dlsym(RTLD_DEFAULT, "diopiGetDeviceRuntime"));
    auto err = reinterpret_cast<const char* (*)(void)>(dlsym(RTLD_DEFAULT, "diopiGetLastErrorString"));
    return dt_init_device(get ? get() : nullptr, err);
}

DIOPI_RT_API int32_t dt_set_device(int32_t device) {
    int32_t count = 0;
    if (check(g_rt->device_count(&count), "device_count") != 0) return 1;
    if (device < 0 || device >= count) return fail("no device " + std::to_string(device) + " (" + std::to_string(count) + " visible)");
    if (auto set = RT_FIELD(set_device))
        if (check(set(static_cast<diopiDeviceIndex_t>(device)), "set_device") != 0) return 1;
    g_device = static_cast<diopiDeviceIndex_t>(device);
    return 0;
}

DIOPI_RT_API const char* dt_device_runtime_name(void) { return g_rt->name ? g_rt->name : ""; }

DIOPI_RT_API void dt_finalize(void) {
    if (auto sync = RT_FIELD(device_synchronize)) sync(0);
}

DIOPI_RT_API const char* dt_last_error(void) { return g_error.c_str(); }

DIOPI_RT_API int64_t dt_dtype_size(int32_t dtype) { return dtypeSize(dtype); }

DIOPI_RT_API diopiContextHandle_t dt_context_create(void) {
    auto* ctx = new (std::nothrow) diopiContext();
    if (!ctx) return nullptr;
    // A vendor without streams orders everything on its default stream (NULL).
    if (auto create = RT_FIELD(stream_create))
        if (check(create(g_device, 0, &ctx->stream), "stream create") != 0) {
            delete ctx;
            return nullptr;
        }
    return ctx;
}

DIOPI_RT_API void dt_context_destroy(diopiContextHandle_t ctx) {
    if (!ctx) return;
    g_rt->stream_synchronize(ctx->stream);  // an error here was the caller's to read with dt_context_sync
    ctx->owned.clear();
    if (ctx->stream)
        if (auto destroy = RT_FIELD(stream_destroy)) destroy(ctx->stream);
    delete ctx;
}

DIOPI_RT_API int32_t dt_context_sync(diopiContextHandle_t ctx) {
    if (!ctx) return fail("NULL context");
    return streamSync(ctx->stream);
}

DIOPI_RT_API int64_t dt_context_required_count(diopiContextHandle_t ctx) { return ctx ? static_cast<int64_t>(ctx->owned.size()) : -1; }

DIOPI_RT_API diopiTensorHandle_t dt_tensor_create(const int64_t* shape, const int64_t* stride, int64_t ndim, int32_t dtype,
                                                  int64_t storage_offset, int64_t storage_elems, int32_t device) {
    return makeTensor(shape, stride, ndim, dtype, storage_offset, storage_elems, device);
}

DIOPI_RT_API void dt_tensor_destroy(diopiTensorHandle_t t) { delete t; }

DIOPI_RT_API int64_t dt_tensor_storage_nbytes(diopiConstTensorHandle_t t) { return t ? static_cast<int64_t>(t->storage->nbytes) : -1; }

DIOPI_RT_API int32_t dt_tensor_write_storage(diopiTensorHandle_t t, const void* src, int64_t nbytes) {
    if (!t || nbytes < 0 || static_cast<size_t>(nbytes) > t->storage->nbytes) return fail("write_storage: bad tensor or size");
    return toStorage(*t->storage, t->storage->data(), src, static_cast<size_t>(nbytes));
}

DIOPI_RT_API int32_t dt_tensor_read_storage(diopiConstTensorHandle_t t, void* dst, int64_t nbytes) {
    if (!t || nbytes < 0 || static_cast<size_t>(nbytes) > t->storage->nbytes) return fail("read_storage: bad tensor or size");
    return fromStorage(*t->storage, dst, t->storage->data(), static_cast<size_t>(nbytes));
}

DIOPI_RT_API int32_t dt_tensor_guard_ok(diopiConstTensorHandle_t t) {
    if (!t) return -1;
    const Storage& st = *t->storage;
    std::vector<unsigned char> front(kGuardBytes), back(kGuardBytes);
    if (fromStorage(st, front.data(), st.base, kGuardBytes) != 0 ||
        fromStorage(st, back.data(), static_cast<unsigned char*>(st.data()) + st.nbytes, kGuardBytes) != 0)
        return -1;
    for (size_t i = 0; i < kGuardBytes; ++i)
        if (front[i] != kGuardByte || back[i] != kGuardByte) return 0;
    return 1;
}

DIOPI_RT_API int64_t dt_tensor_ndim(diopiConstTensorHandle_t t) { return t ? static_cast<int64_t>(t->shape.size()) : -1; }
DIOPI_RT_API int64_t dt_tensor_dim_size(diopiConstTensorHandle_t t, int64_t i) { return t ? t->shape.at(static_cast<size_t>(i)) : -1; }
DIOPI_RT_API int64_t dt_tensor_dim_stride(diopiConstTensorHandle_t t, int64_t i) { return t ? t->stride.at(static_cast<size_t>(i)) : -1; }
DIOPI_RT_API int32_t dt_tensor_dtype(diopiConstTensorHandle_t t) { return t ? static_cast<int32_t>(t->dtype) : -1; }
DIOPI_RT_API int64_t dt_tensor_storage_offset(diopiConstTensorHandle_t t) { return t ? t->offset : -1; }

DIOPI_RT_API diopiGeneratorHandle_t dt_generator_create(uint64_t seed) {
    auto* g = new (std::nothrow) diopiGenerator();
    if (g) g->seed = seed;
    return g;
}

DIOPI_RT_API void dt_generator_destroy(diopiGeneratorHandle_t gen) { delete gen; }

}  // extern "C"
