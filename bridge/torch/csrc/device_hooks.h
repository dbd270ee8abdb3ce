/**
 * @file device_hooks.h
 * @brief How the `diopi` PyTorch device reaches the memory of the chip a
 *        vendor library drives.
 *
 * The device never touches device memory itself: it allocates, frees and
 * copies through these hooks. A vendor whose memory is not host memory
 * builds a small shared library exporting `diopiTorchDeviceHooks()` and
 * passes it to `diopi_torch.load(..., hooks=PATH)`; the host-memory vendors
 * of this project (impl/torch, impl/cpu) use the default host hooks.
 * Every function returns 0 on success.
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
