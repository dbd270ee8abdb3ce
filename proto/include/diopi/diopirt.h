/**
 * @file diopirt.h
 * @brief Runtime types of the DIOPI operator standard, and the runtime
 *        functions that the *caller* (a framework or the conformance
 *        harness) provides to operator libraries.
 *
 * Operator libraries (`libdiopi_impl.so`) never allocate or describe tensors
 * themselves: they receive opaque handles and ask the caller's runtime for
 * data pointers, shapes and strides through the functions declared at the
 * end of this file, and they obtain scratch memory and callee-allocated
 * outputs through diopiRequireTensor() / diopiRequireBuffer().
 *
 * Conventions used by every declaration of the standard:
 *  - Shapes and strides count elements, never bytes.
 *  - A tensor handle that a function documents as optional may be NULL;
 *    every other handle must be non-NULL.
 *  - No function throws or aborts: each returns a ::diopiError_t, and a
 *    library's diopiGetLastErrorString() explains the last failure.
 *
 * The header is self-contained C11 and C++ and uses no function-like macros
 * in its declarations, so that binding generators (cffi, ctypes) can read it.
 */
#ifndef DIOPI_DIOPIRT_H_
#define DIOPI_DIOPIRT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * @name Version
 * Versioning rules: a MAJOR change may alter the ABI (remove or change a
 * declaration); a MINOR change only appends (new functions, new enum values
 * with new numbers); a PATCH changes documentation or behaviour fixes only.
 * Enum values are never renumbered or reused.
 * @{
 */
#define DIOPI_VER_MAJOR 1
#define DIOPI_VER_MINOR 0
#define DIOPI_VER_PATCH 0
/** Single number for compile-time checks: MAJOR*1000 + MINOR*100 + PATCH. */
#define DIOPI_VERSION 1000
/** @} */

/**
 * Marks an operator entry point exported by an operator library. Libraries
 * may build with hidden visibility: the declarations here keep every
 * standard function exported and everything else private.
 */
#if defined(__GNUC__) || defined(__clang__)
#define DIOPI_API __attribute__((visibility("default")))
#define DIOPI_RT_API __attribute__((visibility("default")))
#else
#define DIOPI_API
/** Marks a runtime function the caller exports to operator libraries. */
#define DIOPI_RT_API
#endif
/**
 * Runtime functions marked weak are optional for the caller: an operator
 * library must check their address against NULL before calling them.
 */
#if defined(__GNUC__) || defined(__clang__)
#define DIOPI_ATTR_WEAK __attribute__((weak))
#else
#define DIOPI_ATTR_WEAK
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/** Status returned by every operator and runtime function. */
typedef enum {
    diopiSuccess = 0,                                       /**< the call completed */
    diopiErrorOccurred = 1,                                 /**< generic failure; see diopiGetLastErrorString() */
    diopiNotInited = 2,                                     /**< the library or device was not initialised */
    diopiNoRegisteredStreamCreateFunction = 3,              /**< runtime lacks a stream-create hook */
    diopiNoRegisteredStreamDestoryFunction = 4,             /**< runtime lacks a stream-destroy hook (name kept for ABI) */
    diopiNoRegisteredStreamSyncFunction = 5,                /**< runtime lacks a stream-sync hook */
    diopiNoRegisteredDeviceMemoryMallocFunction = 6,        /**< runtime lacks a device-malloc hook */
    diopiNoRegisteredDeviceMemoryFreeFunction = 7,          /**< runtime lacks a device-free hook */
    diopiNoRegisteredDevice2DdeviceMemoryCopyFunction = 8,  /**< runtime lacks a device-to-device copy hook */
    diopiNoRegisteredDevice2HostMemoryCopyFunction = 9,     /**< runtime lacks a device-to-host copy hook */
    diopiNoRegisteredHost2DeviceMemoryCopyFunction = 10,    /**< runtime lacks a host-to-device copy hook */
    diopiNoRegisteredGetLastErrorFunction = 11,             /**< runtime lacks an error-string hook */
    diopi5DNotSupported = 12,                               /**< 5-D inputs are not supported by this operator */
    diopiNoImplement = 13,                                  /**< the operator or this variant of it is not implemented */
    diopiForceFallbackToCPU = 14,                           /**< the library asks the caller to run the operator on the host */
    diopiDtypeNotSupported = 1000,                          /**< an argument's dtype is not accepted */
} diopiError_t;

/** Where a tensor's storage lives. */
typedef enum {
    diopi_host = 0,   /**< host (CPU) memory */
    diopi_device = 1, /**< memory of the accelerator the library drives */
} diopiDevice_t;

/** Element types. Values are part of the ABI and never change. */
typedef enum {
    diopi_dtype_int8 = 0,
    diopi_dtype_uint8 = 1,
    diopi_dtype_int16 = 2,
    diopi_dtype_uint16 = 3,
    diopi_dtype_int32 = 4,
    diopi_dtype_uint32 = 5,
    diopi_dtype_int64 = 6,
    diopi_dtype_uint64 = 7,
    diopi_dtype_float16 = 8,     /**< IEEE 754 binary16 */
    diopi_dtype_float32 = 9,
    diopi_dtype_float64 = 10,
    diopi_dtype_bool = 11,       /**< one byte per element, 0 or 1 */
    diopi_dtype_bfloat16 = 12,   /**< upper 16 bits of a binary32 */
    diopi_dtype_tfloat32 = 13,   /**< stored as binary32, 10-bit mantissa in compute */
    diopi_dtype_complex32 = 14,  /**< two float16 */
    diopi_dtype_complex64 = 15,  /**< two float32 */
    diopi_dtype_complex128 = 16, /**< two float64 */
    diopi_dtype_unsupported = 255,
} diopiDtype_t;

/** Memory layouts a caller may ask an operator to produce or expect. */
typedef enum {
    Contiguous = 0,     /**< row-major, last dimension fastest */
    ChannelsLast = 1,   /**< NHWC order for 4-D tensors */
    ChannelsLast3d = 2, /**< NDHWC order for 5-D tensors */
    Preserve = 3,       /**< keep the layout of the input */
    ChannelsLast1d = 4, /**< NLC order for 3-D tensors */
} diopiMemoryFormat_t;

/** How a loss reduces its per-element values. */
typedef enum {
    ReductionNone = 0, /**< keep one value per element */
    ReductionMean = 1, /**< average (weighted where the loss has weights) */
    ReductionSum = 2,  /**< sum */
    ReductionEND = 3,  /**< sentinel; not a valid argument */
} diopiReduction_t;

/** Rounding applied by division. */
typedef enum {
    RoundModeNone = 0,  /**< true division */
    RoundModeTrunc = 1, /**< round toward zero */
    RoundModeFloor = 2, /**< round toward negative infinity */
    RoundModeEND = 3,   /**< sentinel; not a valid argument */
} diopiRoundMode_t;

/**
 * A borrowed list of 64-bit integers (a shape, strides, dims, paddings).
 * `data` points to `len` values owned by the caller for the duration of
 * the call; `data` may be NULL only when `len` is 0.
 */
typedef struct {
    const int64_t* data;
    int64_t len;
} diopiSize_t;

/**
 * A scalar argument. `stype` says which union member is valid: a floating
 * dtype selects `fval`, an integer or bool dtype selects `ival`.
 */
typedef struct {
    diopiDtype_t stype;
    union {
        double fval;
        int64_t ival;
    };
} diopiScalar_t;

/** Opaque per-call context: owns temporaries and carries the stream. */
typedef struct diopiContext* diopiContextHandle_t;
/** Opaque tensor owned by the caller; operators may write through it. */
typedef struct diopiTensor* diopiTensorHandle_t;
/** Opaque tensor owned by the caller; operators must only read it. */
typedef const struct diopiTensor* diopiConstTensorHandle_t;
/** Opaque random-number generator state owned by the caller. */
typedef struct diopiGenerator* diopiGeneratorHandle_t;
/** Read-only view of a generator. */
typedef const struct diopiGenerator* diopiConstGeneratorHandle_t;
/** A device stream (queue) as the vendor's runtime defines it. */
typedef void* diopiStreamHandle_t;
/** Index of a device among those visible to the process. */
typedef int8_t diopiDeviceIndex_t;

/*
 * Runtime functions provided by the caller.
 *
 * Each returns diopiSuccess, or diopiErrorOccurred when a handle is NULL or
 * invalid. Functions marked DIOPI_ATTR_WEAK are optional.
 */

/** @brief Version string of the runtime, "MAJOR.MINOR.PATCH". */
DIOPI_RT_API extern const char* diopiGetVersion(void);

/** @brief Writes the address of the first element of `th` (storage + offset). */
DIOPI_RT_API extern diopiError_t diopiGetTensorData(diopiTensorHandle_t th, void**);
/** @brief Read-only variant of diopiGetTensorData(). */
DIOPI_RT_API extern diopiError_t diopiGetTensorDataConst(diopiConstTensorHandle_t th, const void**);
/** @brief Shape of `th`; `size->data` stays valid as long as the tensor lives. */
DIOPI_RT_API extern diopiError_t diopiGetTensorShape(diopiConstTensorHandle_t th, diopiSize_t* size);
/** @brief Strides of `th`, in elements; valid as long as the tensor lives. */
DIOPI_RT_API extern diopiError_t diopiGetTensorStride(diopiConstTensorHandle_t th, diopiSize_t* stride);
/** @brief Element type of `th`. */
DIOPI_RT_API extern diopiError_t diopiGetTensorDtype(diopiConstTensorHandle_t th, diopiDtype_t* dtype);
/** @brief Whether `th` lives on the host or on the device. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorDevice(diopiConstTensorHandle_t th, diopiDevice_t* device);
/** @brief Number of elements of `th` (product of its shape; 1 for 0-d). */
DIOPI_RT_API extern diopiError_t diopiGetTensorNumel(diopiConstTensorHandle_t th, int64_t* numel);
/** @brief Size of one element of `th`, in bytes. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorElemSize(diopiConstTensorHandle_t th, int64_t* itemsize);
/** @brief Start of the storage that `th` views (before the storage offset). */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorStoragePtr(diopiConstTensorHandle_t th, void** pStoragePtr);
/** @brief Offset of `th`'s first element from its storage start, in elements. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorStorageOffset(diopiConstTensorHandle_t th, int64_t* pOffset);
/** @brief Size of the storage that `th` views, in bytes. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorStorageNbytes(diopiConstTensorHandle_t th, size_t* pNbytes);
/** @brief Index of the device holding `th`. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorDeviceIndex(diopiConstTensorHandle_t th, diopiDeviceIndex_t* pDevIndex);
/** @brief Row-pointer tensor of a CSR sparse tensor. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorCrowIndices(diopiConstTensorHandle_t th, diopiConstTensorHandle_t* crow_indices);
/** @brief Column-index tensor of a CSR sparse tensor. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorColIndices(diopiConstTensorHandle_t th, diopiConstTensorHandle_t* col_indices);
/** @brief Values tensor of a CSR sparse tensor. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetTensorValues(diopiConstTensorHandle_t th, diopiConstTensorHandle_t* values);
/** @brief Whether `th` is a sparse tensor. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiIsTensorSparse(diopiConstTensorHandle_t th, bool* is_sparse);
/** @brief Index of the device the calling thread currently uses. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGetCurrentDeviceIndex(diopiDeviceIndex_t* pDevIndex);

/** @brief Stream on which the operator must enqueue its work. */
DIOPI_RT_API extern diopiError_t diopiGetStream(diopiContextHandle_t ctx, diopiStreamHandle_t* stream);

/**
 * @brief Allocates a tensor owned by `ctx` (released when the caller
 *        destroys the context).
 * @param ctx     the context of the current call
 * @param tensor  receives the new handle
 * @param size    shape of the tensor
 * @param stride  strides in elements, or NULL for a contiguous tensor
 * @param dtype   element type
 * @param device  where the storage lives
 */
DIOPI_RT_API extern diopiError_t diopiRequireTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor, const diopiSize_t* size,
                                                    const diopiSize_t* stride, const diopiDtype_t dtype, const diopiDevice_t device);
/** @brief Allocates `num_bytes` of scratch memory owned by `ctx`, as a 1-D int8 tensor. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiRequireBuffer(diopiContextHandle_t ctx, diopiTensorHandle_t* tensor, int64_t num_bytes,
                                                                    diopiDevice_t device);

/** @brief Copies the state of generator `th` into a new uint8 tensor owned by `ctx`. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGeneratorGetState(diopiContextHandle_t ctx, diopiConstGeneratorHandle_t th, diopiTensorHandle_t* data);
/** @brief Replaces the state of generator `th` (after an operator advanced it). */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGeneratorSetState(diopiGeneratorHandle_t th, diopiConstTensorHandle_t state);
/** @brief Reads the seed and the counter offset of a counter-based generator. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGeneratorGetSeedAndOffset(diopiGeneratorHandle_t th, uint64_t* ptrSeed, uint64_t* ptrOffset);
/** @brief Sets the seed and the counter offset of a counter-based generator. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiGeneratorSetSeedAndOffset(diopiGeneratorHandle_t th, uint64_t seed, uint64_t offset);

/** @brief Opens a profiler range named `record_name`; `*record` receives its token. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiRecordStart(const char* record_name, void** record);
/** @brief Closes the profiler range opened with `*record`. */
DIOPI_RT_API DIOPI_ATTR_WEAK extern diopiError_t diopiRecordEnd(void** record);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_DIOPIRT_H_ */
