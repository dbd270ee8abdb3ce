// Default device hooks for vendors whose device memory is host memory.
#include <cstdlib>
#include <cstring>

#include "diopi_test/device_hooks.h"

namespace {
thread_local const char* g_error = "";
}

extern "C" {

int32_t dt_device_init(void) { return 0; }
int32_t dt_device_finalize(void) { return 0; }

int32_t dt_device_malloc(void** ptr, size_t nbytes) {
    // malloc(0) may return NULL; always hand out a real address.
    *ptr = std::malloc(nbytes ? nbytes : 1);
    if (*ptr == nullptr) {
        g_error = "host malloc failed";
        return 1;
    }
    return 0;
}

int32_t dt_device_free(void* ptr) {
    std::free(ptr);
    return 0;
}

int32_t dt_memcpy_h2d(diopiStreamHandle_t, void* dst, const void* src, size_t n) {
    if (n) std::memcpy(dst, src, n);
    return 0;
}
int32_t dt_memcpy_d2h(diopiStreamHandle_t, void* dst, const void* src, size_t n) {
    if (n) std::memcpy(dst, src, n);
    return 0;
}
int32_t dt_memcpy_d2d(diopiStreamHandle_t, void* dst, const void* src, size_t n) {
    if (n) std::memmove(dst, src, n);
    return 0;
}

// The host has no queues: a stream is a non-NULL token and work is synchronous.
int32_t dt_stream_create(diopiStreamHandle_t* stream) {
    static int token;
    *stream = &token;
    return 0;
}
int32_t dt_stream_sync(diopiStreamHandle_t) { return 0; }
int32_t dt_stream_destroy(diopiStreamHandle_t) { return 0; }

const char* dt_device_last_error(void) { return g_error; }

}  // extern "C"
