/**
 * @file device.h
 * @brief The device runtime: what a vendor provides so that a framework can
 *        hold tensors on its chip and order work on it (devices, memory,
 *        copies, streams, events).
 *
 * Operator libraries compute; they never allocate the tensors they are
 * given. A framework integration (a PyTorch device, a graph runtime) needs a
 * second, small interface from the vendor for everything around the
 * operators: how many devices there are, how to allocate and free device
 * memory, how to move bytes between host and device, and how to create and
 * order streams and events. This header is that interface. It is optional
 * and independent of the operator headers: a library implements it once and
 * every framework integration uses it.
 *
 * A provider exports one C function,
 *
 *     const diopiDeviceRuntime_t* diopiGetDeviceRuntime(void);
 *
 * either from `libdiopi_impl.so` itself or from a separate shared library
 * that the framework is told about. The returned table lives as long as the
 * library is loaded. Vendors whose "device" is host memory need none: a
 * framework then uses its own host runtime (see each integration's docs).
 *
 * Conventions:
 *  - Every function returns ::diopiError_t; on failure the provider's
 *    diopiGetLastErrorString() (when it has one) says why.
 *  - `device` arguments are indices in [0, device_count).
 *  - A NULL ::diopiStreamHandle_t means the device's default stream, which
 *    is ordered with every other stream of that device as the vendor's
 *    default stream is (work on it starts after, and blocks, other streams'
 *    earlier work only where the vendor's own runtime says so).
 *  - Copies and memsets take the stream they are ordered on and may return
 *    before the work is done; the bytes are final once the stream (or an
 *    event recorded after them) is synchronized. A provider whose work is
 *    synchronous does everything at once and reports every stream and event
 *    as complete; that is a valid implementation.
 *  - Host memory passed to the `_async` copies may be pageable; memory from
 *    host_malloc() is page-locked where the device can use that (faster,
 *    truly asynchronous copies).
 *
 * Versioning: ::DIOPI_DEVICE_RUNTIME_VERSION counts the revisions of
 * ::diopiDeviceRuntime_t. Fields are only appended; a provider fills
 * `version` and `size` with the values it was built with, and a framework
 * reads no field at or beyond `size`. A field that is NULL is not provided:
 * the framework falls back as each field's documentation says or reports the
 * feature as unavailable.
 */
#ifndef DIOPI_DEVICE_H_
#define DIOPI_DEVICE_H_

#include <diopi/diopirt.h>

#if defined(__cplusplus)
extern "C" {
#endif

/** Revision of ::diopiDeviceRuntime_t this header declares. */
#define DIOPI_DEVICE_RUNTIME_VERSION 1

/** An event on a device: a marker recorded on a stream that other streams and the host can wait for. */
typedef struct diopiEvent* diopiEventHandle_t;

/** Event creation flags (bit set). */
typedef enum {
    diopi_event_default = 0,
    /** The event will be used by event_elapsed_time(); without it a provider may skip timing. */
    diopi_event_timing = 1,
} diopiEventFlags_t;

/**
 * The device runtime a vendor provides. Functions are grouped as devices,
 * memory, copies, streams and events. Required fields are marked; every
 * other field may be NULL.
 */
typedef struct {
    /** ::DIOPI_DEVICE_RUNTIME_VERSION the provider was built with. */
    uint32_t version;
    /** sizeof(diopiDeviceRuntime_t) the provider was built with; fields at or beyond it are absent. */
    uint32_t size;
    /** Short human-readable name of the device ("host memory", a chip family). */
    const char* name;

    /* ------------------------------------------------------------ devices */
    /** Required. Number of devices visible to this process (at least 1). */
    diopiError_t (*device_count)(int32_t* count);
    /**
     * Makes `device` current for the calling thread (the device later calls
     * on this thread, operator calls included, work on). NULL: the provider
     * keeps no per-thread device and reads each tensor's device index.
     */
    diopiError_t (*set_device)(diopiDeviceIndex_t device);
    /** Waits until all work on every stream of `device` is done. NULL: the framework synchronizes each stream it created and the default stream. */
    diopiError_t (*device_synchronize)(diopiDeviceIndex_t device);

    /* ------------------------------------------------------------ memory */
    /**
     * Required. Allocates `nbytes` of memory on `device` into `*ptr`, aligned
     * to at least 64 bytes. nbytes may be 0 (then *ptr may be NULL). On
     * failure (diopiErrorOccurred, typically for lack of room) a framework
     * may release the blocks it caches and try once more before it reports
     * the device out of memory.
     */
    diopiError_t (*malloc)(diopiDeviceIndex_t device, void** ptr, size_t nbytes);
    /** Required. Frees memory from malloc(); NULL is a no-op. The memory's last use must have completed (the framework ensures it with events). */
    diopiError_t (*free)(diopiDeviceIndex_t device, void* ptr);
    /** Free and total bytes of `device`. NULL: unknown (frameworks report 0, 0). */
    diopiError_t (*mem_get_info)(diopiDeviceIndex_t device, size_t* free_bytes, size_t* total_bytes);
    /**
     * Page-locked host memory the device copies from and to asynchronously.
     * NULL: the framework uses ordinary aligned host memory for "pinned"
     * buffers, and copies from it are synchronous.
     */
    diopiError_t (*host_malloc)(void** ptr, size_t nbytes);
    /** Frees memory from host_malloc(); NULL is a no-op. Required when host_malloc is provided. */
    diopiError_t (*host_free)(void* ptr);

    /* ------------------------------------------------------------ copies */
    /** Required. Copies `nbytes` from host `src` to device `dst`, ordered on `stream`. */
    diopiError_t (*memcpy_h2d_async)(void* dst, const void* src, size_t nbytes, diopiStreamHandle_t stream);
    /** Required. Copies `nbytes` from device `src` to host `dst`, ordered on `stream`. */
    diopiError_t (*memcpy_d2h_async)(void* dst, const void* src, size_t nbytes, diopiStreamHandle_t stream);
    /** Required. Copies `nbytes` between device buffers (possibly of two devices), ordered on `stream`. */
    diopiError_t (*memcpy_d2d_async)(void* dst, const void* src, size_t nbytes, diopiStreamHandle_t stream);
    /** Sets `nbytes` of device memory at `dst` to the byte `value`, ordered on `stream`. NULL: the framework copies zeros from the host. */
    diopiError_t (*memset_async)(void* dst, int32_t value, size_t nbytes, diopiStreamHandle_t stream);

    /* ------------------------------------------------------------ streams */
    /**
     * Creates a stream on `device`; `priority` 0 is normal, negative is
     * higher. NULL: the device has only its default stream, and frameworks
     * give that (NULL) for every stream they hand out.
     */
    diopiError_t (*stream_create)(diopiDeviceIndex_t device, int32_t priority, diopiStreamHandle_t* stream);
    /** Destroys a stream from stream_create() once its work is done. */
    diopiError_t (*stream_destroy)(diopiStreamHandle_t stream);
    /** Required. Waits until all work enqueued on `stream` is done. */
    diopiError_t (*stream_synchronize)(diopiStreamHandle_t stream);
    /** Sets *done to true when all work enqueued on `stream` is done (never blocks). NULL: the framework synchronizes instead. */
    diopiError_t (*stream_query)(diopiStreamHandle_t stream, bool* done);

    /* ------------------------------------------------------------ events */
    /** Creates an event on `device` with ::diopiEventFlags_t `flags`. NULL: no events; frameworks synchronize streams instead. */
    diopiError_t (*event_create)(diopiDeviceIndex_t device, int32_t flags, diopiEventHandle_t* event);
    /** Destroys an event from event_create(). */
    diopiError_t (*event_destroy)(diopiEventHandle_t event);
    /** Records `event` on `stream`: it completes when the work enqueued on `stream` so far is done. */
    diopiError_t (*event_record)(diopiEventHandle_t event, diopiStreamHandle_t stream);
    /** Makes work enqueued on `stream` after this call wait for `event` (does not block the host). */
    diopiError_t (*stream_wait_event)(diopiStreamHandle_t stream, diopiEventHandle_t event);
    /** Sets *done to true when `event` has completed, or was never recorded (never blocks). */
    diopiError_t (*event_query)(diopiEventHandle_t event, bool* done);
    /** Blocks the host until `event` has completed. */
    diopiError_t (*event_synchronize)(diopiEventHandle_t event);
    /**
     * Milliseconds between two completed events, both created with
     * diopi_event_timing. diopiErrorOccurred when either is not recorded or
     * not complete.
     */
    diopiError_t (*event_elapsed_time)(diopiEventHandle_t start, diopiEventHandle_t end, float* milliseconds);
} diopiDeviceRuntime_t;

/** The entry point a provider exports: its runtime table, valid while the library is loaded. */
typedef const diopiDeviceRuntime_t* (*diopiGetDeviceRuntimeFn)(void);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_DEVICE_H_ */
