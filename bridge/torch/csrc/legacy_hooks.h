/**
 * @file legacy_hooks.h
 * @brief The first form of the device's memory hooks, kept so that a hooks
 *        library built for it still loads.
 *
 * The standard's device runtime (proto/include/diopi/device.h) replaced it:
 * devices, streams, events, pinned memory. A library exporting only
 * `diopiTorchDeviceHooks()` gets one device and one stream, adapted in
 * device_runtime.cpp. Every function returns 0 on success.
 */
#ifndef DIOPI_TORCH_DEVICE_HOOKS_H_
#define DIOPI_TORCH_DEVICE_HOOKS_H_

#include <diopi/diopirt.h>

#if defined(__cplusplus)
extern "C" {
#endif

typedef struct {
    const char* name;                                  /**< shown by diopi_torch.info() */
    int (*malloc_fn)(void** ptr, size_t nbytes);        /**< nbytes may be 0; *ptr may then be NULL */
    int (*free_fn)(void* ptr);                          /**< NULL is a no-op */
    int (*h2d)(void* dst, const void* src, size_t nbytes, diopiStreamHandle_t stream);
    int (*d2h)(void* dst, const void* src, size_t nbytes, diopiStreamHandle_t stream);
    int (*d2d)(void* dst, const void* src, size_t nbytes, diopiStreamHandle_t stream);
    int (*sync)(diopiStreamHandle_t stream);           /**< waits for the work enqueued on stream */
} diopiTorchDeviceHooks_t;

/** Hooks of a vendor library (the symbol a hooks library exports). */
typedef const diopiTorchDeviceHooks_t* (*diopiTorchDeviceHooksFn)(void);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_TORCH_DEVICE_HOOKS_H_ */
