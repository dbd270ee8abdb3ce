// Device hooks of the CPU vendor for the conformance test runtime: the
// "device" is host memory. Allocations are 64-byte aligned so vectorised
// kernels never see a misaligned base pointer, and stream work is
// synchronous, so a stream is just a token.
#include <cstdlib>
#include <cstring>
#include <string>

#include "diopi_test/device_hooks.h"

namespace {
thread_local std::string g_error;
constexpr size_t kAlign = 64;

int32_t failWith(const char* msg) {
    g_error = msg;
    return 1;
}

int32_t copyBytes(void* dst, const void* src, size_t n) {
    if (n == 0) return 0;
    if (!dst || !src) return failWith("memcpy with a NULL pointer");
    std::memmove(dst, src, n);
    return 0;
}

// Every created stream gets a distinct non-NULL token.
char g_stream_tokens[1];
}  // namespace

extern "C" {

int32_t dt_device_init(void) { return 0; }
int32_t dt_device_finalize(void) { return 0; }

int32_t dt_device_malloc(void** ptr, size_t nbytes) {
    if (!ptr) return failWith("dt_device_malloc: ptr is NULL");
    // aligned_alloc needs a size that is a multiple of the alignment; a
    // zero-byte request still gets a real, freeable block.
    size_t rounded = (nbytes + kAlign - 1) / kAlign * kAlign;
    if (rounded == 0) rounded = kAlign;
    void* p = std::aligned_alloc(kAlign, rounded);
    if (!p) return failWith("dt_device_malloc: out of host memory");
    *ptr = p;
    return 0;
}

int32_t dt_device_free(void* ptr) {
    std::free(ptr);
    return 0;
}

int32_t dt_memcpy_h2d(diopiStreamHandle_t, void* dst, const void* src, size_t n) { return copyBytes(dst, src, n); }
int32_t dt_memcpy_d2h(diopiStreamHandle_t, void* dst, const void* src, size_t n) { return copyBytes(dst, src, n); }
int32_t dt_memcpy_d2d(diopiStreamHandle_t, void* dst, const void* src, size_t n) { return copyBytes(dst, src, n); }

int32_t dt_stream_create(diopiStreamHandle_t* stream) {
    if (!stream) return failWith("dt_stream_create: stream is NULL");
    *stream = static_cast<void*>(g_stream_tokens);
    return 0;
}
int32_t dt_stream_sync(diopiStreamHandle_t) { return 0; }
int32_t dt_stream_destroy(diopiStreamHandle_t) { return 0; }

const char* dt_device_last_error(void) { return g_error.c_str(); }

}  // extern "C"
