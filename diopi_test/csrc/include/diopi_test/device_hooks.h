/**
 * @file device_hooks.h
 * @brief What a vendor provides so that the conformance test runtime can
 *        hold tensors on its device.
 *
 * The test runtime never touches device memory directly: it allocates,
 * copies and synchronises through these hooks. A vendor implements them in
 * `impl/<vendor>/test/device_hooks.cpp`; vendors whose device is the host
 * use the default implementation in `diopi_test/csrc/host_hooks.cpp`.
 * Every hook returns 0 on success and non-zero on failure, and then
 * dt_device_last_error() says why.
 */
#ifndef DIOPI_TEST_DEVICE_HOOKS_H_
#define DIOPI_TEST_DEVICE_HOOKS_H_

#include <diopi/diopirt.h>

#if defined(__cplusplus)
extern "C" {
#endif

/** Called once before any other hook (driver or library initialisation). */
int32_t dt_device_init(void);
/** Called once at the end; releases what dt_device_init() acquired. */
int32_t dt_device_finalize(void);

/** Allocates `nbytes` of device memory into `*ptr` (nbytes may be 0). */
int32_t dt_device_malloc(void** ptr, size_t nbytes);
/** Frees memory from dt_device_malloc(); NULL is a no-op. */
int32_t dt_device_free(void* ptr);

/** Copies host -> device, device -> host and device -> device, ordered on `stream`. */
int32_t dt_memcpy_h2d(diopiStreamHandle_t stream, void* dst, const void* src, size_t nbytes);
int32_t dt_memcpy_d2h(diopiStreamHandle_t stream, void* dst, const void* src, size_t nbytes);
int32_t dt_memcpy_d2d(diopiStreamHandle_t stream, void* dst, const void* src, size_t nbytes);

/** Creates, synchronises (waits for all enqueued work) and destroys a stream. */
int32_t dt_stream_create(diopiStreamHandle_t* stream);
int32_t dt_stream_sync(diopiStreamHandle_t stream);
int32_t dt_stream_destroy(diopiStreamHandle_t stream);

/** Message of the last failed hook, "" if none. */
const char* dt_device_last_error(void);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_TEST_DEVICE_HOOKS_H_ */
