/**
 * @file collective.h
 * @brief Collective communication of the DIOPI standard: communicators, and
 *        the collectives a framework runs across ranks (all-reduce,
 *        broadcast, reduce, all-gather, reduce-scatter, all-to-all,
 *        send/receive, barrier, groups of calls).
 *
 * The interface is optional. A library that exports none of these functions
 * is a complete DIOPI operator library; a framework then moves tensors
 * between ranks itself (the `diopi` PyTorch device stages them through host
 * memory over Gloo). A library that implements it exports the communicator
 * functions (diopiCommGetVersion, diopiCommGetUniqueId, diopiCommInitRank,
 * diopiCommDestroy, diopiCommAbort, diopiCommGetRank, diopiCommGetSize,
 * diopiCommGetName) together, and any subset of the collectives beside them;
 * a collective it leaves out is simply not exported, and a variant it lacks
 * (a dtype, a reduction) returns diopiNoImplement or diopiDtypeNotSupported.
 *
 * Creating a communicator. One process (rank 0 by convention) calls
 * diopiCommGetUniqueId() and sends the id's bytes to every other process by
 * its own means (a framework uses its rendezvous store); then each of the
 * world_size processes calls diopiCommInitRank() with the same id, the world
 * size and its own rank. The call returns when all ranks have joined, or
 * with an error after the timeout.
 *
 * Rules every collective below follows:
 *  - Ranks are 0 .. world_size-1. Every rank of a communicator calls the same
 *    collectives in the same order, with the same reduction, root, dtype and
 *    the sizes each function states. A library checks what one rank can see
 *    (NULL handles, a rank or root out of range, sizes that do not fit the
 *    world size, a dtype it lacks) and returns diopiErrorOccurred or
 *    diopiDtypeNotSupported before communicating.
 *  - A call never waits longer than the communicator's timeout (given to
 *    diopiCommInitRank): when a peer died, or called another collective or
 *    other sizes, the call returns diopiErrorOccurred within that time (at
 *    once when the library notices earlier, e.g. a closed connection), with
 *    diopiGetLastErrorString() naming the collective and the cause. It never
 *    writes outside the tensors it was given. After such an error the
 *    communicator can only be aborted or destroyed.
 *  - Work is ordered on the stream of `ctx` (diopiGetStream()) after the work
 *    enqueued there before; outputs may be read once that stream is
 *    synchronised. A library may complete the call before returning.
 *  - Tensors are tensors of the library's device, with any strides: outputs
 *    are written only at their elements, inputs are never modified (unless
 *    they are also the output). Zero-size tensors are valid: every rank still
 *    makes the call, and no data moves.
 *  - Where a function allows it, `out` may be `input` itself (the same handle,
 *    or a handle of the same memory with the same shape and strides): the
 *    call then runs in place. Otherwise outputs and inputs must not overlap.
 *  - One thread at a time uses a communicator; different communicators may
 *    be used from different threads at once.
 *  - Every rank of an all-reduce, all-gather and broadcast receives bitwise
 *    identical results. Floating-point reductions may sum in any order, so a
 *    result may differ from a sequential sum by rounding.
 *
 * Reductions (diopiReduceOp_t) accept bool, int8, uint8, int16, int32,
 * int64, float16, bfloat16, float32, float64, complex64 and complex128
 * tensors, with these exceptions: on bool, sum and max are logical or, prod
 * and min are logical and, and avg is refused; avg is refused on integer
 * dtypes (diopiDtypeNotSupported); complex dtypes accept sum and avg only.
 * Collectives that only move data (broadcast, all-gather, all-to-all,
 * send/receive) also accept uint16, uint32 and uint64.
 *
 * Same conventions as the rest of the standard: no function throws or
 * aborts; each returns a ::diopiError_t and diopiGetLastErrorString() says
 * why a call failed. The header is self-contained C11 and C++ and has no
 * function-like macros in its declarations.
 */
#ifndef DIOPI_COLLECTIVE_H_
#define DIOPI_COLLECTIVE_H_

#include <diopi/diopirt.h>

/**
 * @name Version of the collective interface
 * Versioned apart from the operators, with the same rules: a MAJOR change
 * may alter the ABI of this header; a MINOR change only appends functions or
 * enumerators (with new numbers); a PATCH changes documentation or fixes
 * behaviour. diopiCommGetVersion() tells which version a library implements.
 * @{
 */
#define DIOPI_COMM_VER_MAJOR 1
#define DIOPI_COMM_VER_MINOR 0
#define DIOPI_COMM_VER_PATCH 0
/** MAJOR*1000 + MINOR*100 + PATCH, as DIOPI_VERSION. */
#define DIOPI_COMM_VERSION 1000
/** @} */

/** Size in bytes of a ::diopiCommUniqueId_t (the array length below). */
#define DIOPI_COMM_UNIQUE_ID_BYTES 128
/** Timeout a communicator gets when diopiCommInitRank() is given 0 or less: 5 minutes, in milliseconds. */
#define DIOPI_COMM_DEFAULT_TIMEOUT_MS 300000

#if defined(__cplusplus)
extern "C" {
#endif

/** Opaque communicator: one rank's membership in a group of ranks, created by diopiCommInitRank(). */
typedef struct diopiComm* diopiCommHandle_t;

/**
 * Identifies one communicator being created. Made by diopiCommGetUniqueId()
 * on one rank and copied byte for byte to the others (out of band); the
 * bytes are the library's own (an address to meet at, a nonce) and need no
 * interpretation by the caller. 128 bytes (DIOPI_COMM_UNIQUE_ID_BYTES).
 */
typedef struct {
    char internal[128];
} diopiCommUniqueId_t;

/** How a reduction combines the ranks' values. Values are part of the ABI and never change. */
typedef enum {
    diopiReduceSum = 0,  /**< sum of the ranks' values (logical or on bool) */
    diopiReduceProd = 1, /**< product (logical and on bool) */
    diopiReduceMin = 2,  /**< minimum (logical and on bool) */
    diopiReduceMax = 3,  /**< maximum (logical or on bool) */
    diopiReduceAvg = 4,  /**< sum divided by the world size; floating-point and complex dtypes only */
} diopiReduceOp_t;

/* ========================================================================
 * Family: collective (communicators and collectives)
 * ======================================================================== */

/**
 * @brief Version of the collective interface this library implements (DIOPI_COMM_VERSION of the header it was
 *        built with, e.g. 1000).
 * @param[out] version receives MAJOR*1000 + MINOR*100 + PATCH
 * @return diopiSuccess on success; diopiErrorOccurred when version is NULL.
 */
DIOPI_API diopiError_t diopiCommGetVersion(int64_t* version);

/**
 * @brief Creates the id of a new communicator, for diopiCommInitRank() on every rank. Called on one rank; the
 *        library may start what the other ranks will meet at (the reference listens on a TCP port of this host).
 * @param[out] unique_id receives the id; the caller copies its 128 bytes to every other rank
 * @return diopiSuccess on success; diopiErrorOccurred when unique_id is NULL or nothing to meet at could be
 *         set up (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCommGetUniqueId(diopiCommUniqueId_t* unique_id);

/**
 * @brief Joins the communicator `unique_id` names as rank `rank` of `world_size` ranks. Blocks until every rank
 *        has joined, or the timeout has passed.
 * @param[out] comm receives the new communicator; left unchanged on failure
 * @param[in] world_size number of ranks, at least 1
 * @param[in] unique_id id made by diopiCommGetUniqueId() on one rank, identical on every rank
 * @param[in] rank this process's rank, 0 <= rank < world_size; each rank joins exactly once
 * @param[in] timeout_ms milliseconds this call, and every later call on the communicator, may wait for peers;
 *     0 or less selects DIOPI_COMM_DEFAULT_TIMEOUT_MS
 * @return diopiSuccess on success; diopiErrorOccurred for NULL pointers, a world size or rank out of range, an id
 *         this library cannot read, or ranks that did not all join within the timeout.
 */
DIOPI_API diopiError_t diopiCommInitRank(diopiCommHandle_t* comm, int64_t world_size, const diopiCommUniqueId_t* unique_id, int64_t rank,
                                         int64_t timeout_ms);

/**
 * @brief Releases a communicator after its work has finished. Not collective: each rank destroys its own handle,
 *        in any order.
 * @param[in] comm communicator from diopiCommInitRank(); NULL is a no-op. Invalid after the call.
 * @return diopiSuccess on success; diopiErrorOccurred when finishing its work failed (the handle is released
 *         all the same).
 */
DIOPI_API diopiError_t diopiCommDestroy(diopiCommHandle_t comm);

/**
 * @brief Releases a communicator without waiting for its work: calls of other ranks that wait for this one
 *        return an error (within their timeout). For a rank that gives up after an error or a timeout.
 * @param[in] comm communicator from diopiCommInitRank(); NULL is a no-op. Invalid after the call.
 * @return diopiSuccess (the handle is always released).
 */
DIOPI_API diopiError_t diopiCommAbort(diopiCommHandle_t comm);

/**
 * @brief This process's rank in a communicator.
 * @param[in] comm communicator
 * @param[out] rank receives the rank given to diopiCommInitRank()
 * @return diopiSuccess on success; diopiErrorOccurred for a NULL argument.
 */
DIOPI_API diopiError_t diopiCommGetRank(diopiCommHandle_t comm, int64_t* rank);

/**
 * @brief Number of ranks of a communicator.
 * @param[in] comm communicator
 * @param[out] size receives the world size given to diopiCommInitRank()
 * @return diopiSuccess on success; diopiErrorOccurred for a NULL argument.
 */
DIOPI_API diopiError_t diopiCommGetSize(diopiCommHandle_t comm, int64_t* size);

/**
 * @brief Name of a communicator, the same on every rank of it and different from every other communicator's:
 *        operators that take a communication group by name (diopiMatmulAllReduce's `group`) accept it.
 * @param[in] comm communicator
 * @param[out] name receives a NUL-terminated string owned by the communicator, valid until it is destroyed
 * @return diopiSuccess on success; diopiErrorOccurred for a NULL argument.
 */
DIOPI_API diopiError_t diopiCommGetName(diopiCommHandle_t comm, const char** name);

/**
 * @brief All-reduce: every rank receives the element-wise reduction of all ranks' `input`.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @param[out] out result, same shape and dtype as input, bitwise identical on every rank; may be input itself
 *     (in place). Dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64, complex64,
 *     complex128.
 * @param[in] input this rank's values; every rank gives the same shape and dtype. Dtypes: bool, int8, uint8,
 *     int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128.
 * @param[in] op reduction; avg only on floating-point and complex dtypes, complex only with sum and avg
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype, or a dtype and op, not accepted;
 *         diopiNoImplement if the library lacks this variant; diopiErrorOccurred for NULL handles, out of another
 *         shape or dtype than input, or a failed or timed-out exchange with the peers.
 */
DIOPI_API diopiError_t diopiCommAllReduce(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t input, diopiReduceOp_t op);

/**
 * @brief Broadcast: every rank receives the root's `input` in `out`.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @param[out] out receives the root's values; same shape and dtype on every rank; on the root it may be input
 *     itself (in place). Dtypes: bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16,
 *     bfloat16, float32, float64, complex64, complex128.
 * @param[in] input values to send, read on the root only, same shape and dtype as out; may be NULL on the other
 *     ranks. Dtypes: bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, bfloat16, float32,
 *     float64, complex64, complex128.
 * @param[in] root rank whose input is sent, 0 <= root < world size, the same on every rank
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed; diopiNoImplement if the library
 *         lacks this variant; diopiErrorOccurred for NULL required handles, a root out of range, input of another
 *         shape or dtype than out, or a failed or timed-out exchange.
 */
DIOPI_API diopiError_t diopiCommBroadcast(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t input, int64_t root);

/**
 * @brief Reduce: the root receives the element-wise reduction of all ranks' `input`.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @param[out] out result on the root, same shape and dtype as input; may be input itself (in place); not written
 *     on the other ranks, where it may be NULL. Dtypes: bool, int8, uint8, int16, int32, int64, float16,
 *     bfloat16, float32, float64, complex64, complex128.
 * @param[in] input this rank's values; every rank gives the same shape and dtype. Dtypes: bool, int8, uint8,
 *     int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128.
 * @param[in] op reduction, with the restrictions of diopiCommAllReduce
 * @param[in] root rank that receives the result, the same on every rank
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype, or a dtype and op, not accepted;
 *         diopiNoImplement if the library lacks this variant; diopiErrorOccurred for NULL required handles, a
 *         root out of range, out of another shape or dtype than input, or a failed or timed-out exchange.
 */
DIOPI_API diopiError_t diopiCommReduce(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, diopiReduceOp_t op, int64_t root);

/**
 * @brief All-gather: every rank receives all ranks' `input`, concatenated in rank order.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @param[out] out world_size * input.numel() elements, any shape: its elements in row-major order are rank 0's
 *     input, then rank 1's, and so on (e.g. (world_size * n, ...) or (world_size, n, ...)); same dtype as input;
 *     must not overlap input. Dtypes: bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16,
 *     bfloat16, float32, float64, complex64, complex128.
 * @param[in] input this rank's values; every rank gives the same number of elements and dtype. Dtypes: bool,
 *     int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, bfloat16, float32, float64, complex64,
 *     complex128.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed; diopiNoImplement if the library
 *         lacks this variant; diopiErrorOccurred for NULL handles, out of the wrong size or dtype, or a failed or
 *         timed-out exchange.
 */
DIOPI_API diopiError_t diopiCommAllGather(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t input);

/**
 * @brief Reduce-scatter: the ranks' inputs are reduced element-wise, and rank r receives the r-th of world_size
 *        equal chunks of the result.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @param[out] out this rank's chunk: input.numel() / world_size elements, any shape, same dtype as input; must not
 *     overlap input. Dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64,
 *     complex64, complex128.
 * @param[in] input world_size * out.numel() elements, chunks taken in row-major order; every rank gives the same
 *     size and dtype. Dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64,
 *     complex64, complex128.
 * @param[in] op reduction, with the restrictions of diopiCommAllReduce
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype, or a dtype and op, not accepted;
 *         diopiNoImplement if the library lacks this variant; diopiErrorOccurred for NULL handles, sizes that do
 *         not fit, or a failed or timed-out exchange.
 */
DIOPI_API diopiError_t diopiCommReduceScatter(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out,
                                              diopiConstTensorHandle_t input, diopiReduceOp_t op);

/**
 * @brief All-to-all along dimension 0: rank r sends its j-th block of rows of `input` to rank j, and receives in
 *        its j-th block of rows of `out` what rank j sent to it. Blocks are equal (dimension 0 divided by the
 *        world size) or given by split sizes, which may differ from rank to rank and be 0.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @param[out] out received rows, blocks in rank order; same dtype and same sizes beyond dimension 0 as input;
 *     must not overlap input. Dtypes: bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16,
 *     bfloat16, float32, float64, complex64, complex128.
 * @param[in] input rows to send, blocks in rank order; at least 1 dimension. Dtypes: bool, int8, uint8, int16,
 *     uint16, int32, uint32, int64, uint64, float16, bfloat16, float32, float64, complex64, complex128.
 * @param[in] out_split_sizes rows received from each rank (world_size entries summing to out's dimension 0), or
 *     empty (len 0) for equal blocks
 * @param[in] in_split_sizes rows sent to each rank (world_size entries summing to input's dimension 0), or empty
 *     for equal blocks; rank j's out_split_sizes[r] equals rank r's in_split_sizes[j]
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed; diopiNoImplement if the library
 *         lacks this variant; diopiErrorOccurred for NULL handles, split sizes of the wrong length or sum, a
 *         dimension 0 not divisible by the world size without split sizes, or a failed or timed-out exchange.
 */
DIOPI_API diopiError_t diopiCommAllToAll(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input, diopiSize_t out_split_sizes, diopiSize_t in_split_sizes);

/**
 * @brief Sends `input` to rank `peer`, which receives it with diopiCommRecv(). May wait until the peer has posted
 *        its receive: a pair of ranks that both send and receive puts the calls between diopiCommGroupStart() and
 *        diopiCommGroupEnd().
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @param[in] input values to send. Dtypes: bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
 *     float16, bfloat16, float32, float64, complex64, complex128.
 * @param[in] peer receiving rank, 0 <= peer < world size, not this rank
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed; diopiNoImplement if the library
 *         lacks this variant; diopiErrorOccurred for a NULL handle, a peer out of range, or a failed or timed-out
 *         exchange.
 */
DIOPI_API diopiError_t diopiCommSend(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiConstTensorHandle_t input, int64_t peer);

/**
 * @brief Receives into `out` what rank `peer` sends with diopiCommSend(). Sends and receives between two ranks
 *        match in the order they are called.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @param[out] out receives the values; same number of elements and dtype as the peer's input. Dtypes: bool, int8,
 *     uint8, int16, uint16, int32, uint32, int64, uint64, float16, bfloat16, float32, float64, complex64,
 *     complex128.
 * @param[in] peer sending rank, 0 <= peer < world size, not this rank
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed; diopiNoImplement if the library
 *         lacks this variant; diopiErrorOccurred for a NULL handle, a peer out of range, a size that differs from
 *         the peer's, or a failed or timed-out exchange.
 */
DIOPI_API diopiError_t diopiCommRecv(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, int64_t peer);

/**
 * @brief Returns on each rank once every rank has called it (or with an error after the timeout).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] comm communicator
 * @return diopiSuccess on success; diopiNoImplement if the library lacks it; diopiErrorOccurred for a NULL
 *         handle, or a peer that did not arrive within the timeout.
 */
DIOPI_API diopiError_t diopiCommBarrier(diopiContextHandle_t ctx, diopiCommHandle_t comm);

/**
 * @brief Opens a group on the calling thread: the collective calls that follow (on any communicator) only record
 *        their work, which diopiCommGroupEnd() then starts together, so that sends and receives of several ranks
 *        cannot wait on each other. Groups nest; the outermost diopiCommGroupEnd() starts the work. Tensors and
 *        contexts given inside a group must stay valid until it ends.
 * @return diopiSuccess on success; diopiNoImplement if the library lacks groups.
 */
DIOPI_API diopiError_t diopiCommGroupStart(void);

/**
 * @brief Closes the group opened by diopiCommGroupStart(); the outermost one starts every recorded call and
 *        returns when they have completed (or failed).
 * @return diopiSuccess when every recorded call succeeded; the first failing call's status otherwise (its message
 *         in diopiGetLastErrorString()); diopiErrorOccurred without an open group; diopiNoImplement if the library
 *         lacks groups.
 */
DIOPI_API diopiError_t diopiCommGroupEnd(void);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_COLLECTIVE_H_ */
