/**
 * @file testrt.h
 * @brief The conformance harness's view of the test runtime.
 *
 * The test runtime implements the runtime functions of diopirt.h (what an
 * operator library calls back into) and, through this header, lets the
 * harness create tensors, move bytes in and out of them and check them for
 * damage. It is a C API so the harness can drive it through cffi.
 *
 * Tensors live in the vendor's device memory, allocated, copied and
 * synchronized through the vendor's device runtime (diopi/device.h); a
 * vendor whose device is the host provides none and gets host memory. The
 * runtime never dereferences device memory: reads and writes of a storage
 * are copies ordered on a stream of their own and synchronized before they
 * return, so a reader must synchronize the operator's context first
 * (dt_context_sync).
 *
 * Every storage is allocated with guard bytes before and after it, filled
 * with a known pattern; dt_tensor_guard_ok() reports whether an operator
 * wrote outside the bytes it was given.
 */
#ifndef DIOPI_TEST_TESTRT_H_
#define DIOPI_TEST_TESTRT_H_

#include <diopi/device.h>
#include <diopi/diopirt.h>

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * Initialises the runtime over the vendor's device runtime `runtime` (NULL:
 * host memory); `last_error` (may be NULL) is the vendor's
 * diopiGetLastErrorString, quoted in this runtime's messages. Returns 0 on
 * success. The first initialisation of the process decides; later calls
 * return its result.
 */
int32_t dt_init_device(const diopiDeviceRuntime_t* runtime, const char* (*last_error)(void));
/**
 * Initialises the runtime over the table of diopiGetDeviceRuntime() when the
 * program is linked with a vendor library that exports it, else over host
 * memory. Returns 0 on success. Idempotent.
 */
int32_t dt_init(void);
/**
 * Makes `device` current (the vendor's set_device): tensors and contexts
 * created after this call live on it. Device 0 until called. Returns 0 on
 * success.
 */
int32_t dt_set_device(int32_t device);
/** Name of the device runtime in use ("host memory" when the vendor has none). */
const char* dt_device_runtime_name(void);
/** Waits for the device's outstanding work. */
void dt_finalize(void);
/** Message of the last failed call of this API, "" if none. */
const char* dt_last_error(void);
/** Size in bytes of one element of `dtype`, or 0 if unknown. */
int64_t dt_dtype_size(int32_t dtype);

/** A context with its own stream; owns what operators require from it. */
diopiContextHandle_t dt_context_create(void);
void dt_context_destroy(diopiContextHandle_t ctx);
/**
 * Synchronises the context's stream (call before reading outputs). Returns 0,
 * or the diopiError_t the vendor's stream_synchronize returned: an operator
 * that failed after it was queued reports its error here.
 */
int32_t dt_context_sync(diopiContextHandle_t ctx);
/** How many tensors operators required from `ctx` so far. */
int64_t dt_context_required_count(diopiContextHandle_t ctx);

/**
 * Creates a tensor owned by the harness, with a fresh zero-filled storage of
 * `storage_elems` elements (guard bytes around it). `stride` may be NULL for
 * a contiguous tensor; `storage_elems` < 0 means "exactly what the view needs".
 * `device` is a diopiDevice_t: diopi_device storage is the vendor's device
 * memory, diopi_host storage host memory.
 */
diopiTensorHandle_t dt_tensor_create(const int64_t* shape, const int64_t* stride, int64_t ndim, int32_t dtype, int64_t storage_offset,
                                     int64_t storage_elems, int32_t device);
/** Destroys a tensor made by dt_tensor_create(); NULL is a no-op. */
void dt_tensor_destroy(diopiTensorHandle_t t);

/** Byte size of the storage the tensor views (without guards). */
int64_t dt_tensor_storage_nbytes(diopiConstTensorHandle_t t);
/** Copies `nbytes` from host memory into the start of the storage (synchronized before it returns). */
int32_t dt_tensor_write_storage(diopiTensorHandle_t t, const void* src, int64_t nbytes);
/** Copies `nbytes` from the start of the storage into host memory (synchronized before it returns). */
int32_t dt_tensor_read_storage(diopiConstTensorHandle_t t, void* dst, int64_t nbytes);
/** 1 when both guard zones are intact, 0 when something wrote over them, -1 on error. */
int32_t dt_tensor_guard_ok(diopiConstTensorHandle_t t);

/** Metadata as the runtime holds it (the harness checks it was not changed). */
int64_t dt_tensor_ndim(diopiConstTensorHandle_t t);
int64_t dt_tensor_dim_size(diopiConstTensorHandle_t t, int64_t i);
int64_t dt_tensor_dim_stride(diopiConstTensorHandle_t t, int64_t i);
int32_t dt_tensor_dtype(diopiConstTensorHandle_t t);
int64_t dt_tensor_storage_offset(diopiConstTensorHandle_t t);

/** A generator with the given seed and an empty state. */
diopiGeneratorHandle_t dt_generator_create(uint64_t seed);
void dt_generator_destroy(diopiGeneratorHandle_t gen);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_TEST_TESTRT_H_ */
