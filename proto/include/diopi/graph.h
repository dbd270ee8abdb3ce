/**
 * @file graph.h
 * @brief The graph interface: how a framework hands a vendor's own graph
 *        compiler a whole graph of DIOPI calls, in a chip-independent form,
 *        and runs what it compiles.
 *
 * A framework that captures graphs (a PyTorch `torch.compile` backend, a
 * graph runtime) turns each graph into a list of DIOPI calls. A vendor with
 * a graph compiler of its own (fusion, code generation for its chip) can do
 * better than the calls one by one if it sees the whole list. This header is
 * how it sees it: the framework describes the graph with the plain C structs
 * below -- the tensors (shape, stride, dtype, symbolic sizes, views, which
 * are inputs, outputs, intermediates or constants, and the nodes that first
 * and last use them) and the nodes (a DIOPI function name of the operator
 * headers and its arguments after the context) -- and the vendor either
 * returns an executable, or the indices of the nodes it declines. Declined
 * graphs stay on the framework's per-call route.
 *
 * The interface is optional and independent of the operator headers. A
 * provider exports one C function from `libdiopi_impl.so`,
 *
 *     const diopiGraphCompiler_t* diopiGetGraphCompiler(void);
 *
 * A library without it is valid: frameworks look it up with dlsym() and use
 * their per-call route when it is absent or returns NULL. The returned table
 * lives as long as the library is loaded.
 *
 * Conventions:
 *  - Every function returns ::diopiError_t; on failure the provider's
 *    diopiGetLastErrorString() says why. No C++ exception leaves a function
 *    of the table.
 *  - The graph passed to compile() (its arrays, strings and constant data)
 *    belongs to the caller and is only read during the call: a provider
 *    copies what its executable needs.
 *  - An executable is run on the stream of the context given to run()
 *    (diopiGetStream()); a provider whose work is synchronous finishes it
 *    before run() returns. Intermediates are the provider's business: it
 *    may allocate them with diopiRequireTensor() on the run's context.
 *  - An executable may be run any number of times, by one thread at a time.
 *
 * Versioning: the form of the graph (the structs) and the table are
 * versioned by ::DIOPI_GRAPH_VERSION. Fields are only appended; a caller
 * fills the `version` and `size` of ::diopiGraph_t with the values it was
 * built with, a provider fills those of ::diopiGraphCompiler_t, and neither
 * reads a field at or beyond the other's `size`. A table field that is NULL
 * is not provided. Argument kinds are only added, too: a provider declines a
 * node with a kind it does not know (1.1 added the symbolic integer kinds and
 * made every value of a plain integer array literal, so a `dim` of -1 can be
 * said; in 1.0 a negative array value read as a symbol).
 */
#ifndef DIOPI_GRAPH_H_
#define DIOPI_GRAPH_H_

#include <diopi/diopirt.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define DIOPI_GRAPH_VER_MAJOR 1
#define DIOPI_GRAPH_VER_MINOR 1
#define DIOPI_GRAPH_VER_PATCH 0
/** Version of the graph interface (form and table) this header declares: MAJOR*1000 + MINOR*100 + PATCH. */
#define DIOPI_GRAPH_VERSION 1100

/** A compiled graph, owned by the provider until destroy(). */
typedef struct diopiGraphExecutable* diopiGraphExecutableHandle_t;

/** What a tensor of the graph is, and so where its memory comes from. */
typedef enum {
    /** A graph input: the caller gives its tensor to run() (read only). */
    diopi_graph_tensor_input = 0,
    /** A graph output: the caller allocates it with the declared shape and gives it to run(); the graph writes it. */
    diopi_graph_tensor_output = 1,
    /** An intermediate: written and read by nodes only, alive from its first_use to its last_use node; the provider holds it. */
    diopi_graph_tensor_intermediate = 2,
    /** A constant: its contiguous bytes are in `data` at compile time. */
    diopi_graph_tensor_constant = 3,
    /** A view of another tensor of the graph (`view_of`), at `offset` elements from that tensor's first element, with its own shape and stride. */
    diopi_graph_tensor_view = 4,
} diopiGraphTensorRole_t;

/**
 * One tensor of the graph. Sizes may be symbolic: a size `s < 0` stands for
 * the value of symbol `-s - 1`, given to run() in `symbols`. Strides are in
 * elements and may be symbolic the same way.
 */
typedef struct {
    /** ::diopiGraphTensorRole_t of the tensor. */
    int32_t role;
    /** For inputs and outputs: the position of its tensor in run()'s `inputs` / `outputs`; -1 otherwise. */
    int32_t index;
    /** Element type (::diopiDtype_t). */
    int32_t dtype;
    /** Number of dimensions (0 for a scalar tensor). */
    int32_t ndim;
    /** `ndim` sizes; negative values are symbols (see above). */
    const int64_t* shape;
    /** `ndim` strides in elements; NULL means contiguous (row-major) over `shape`. */
    const int64_t* stride;
    /** For views: the tensor (index in ::diopiGraph_t::tensors) whose memory this one views; -1 otherwise. */
    int32_t view_of;
    /** For views: element offset from the first element of `view_of`. */
    int64_t offset;
    /** Index of the first node that reads or writes the tensor (-1: no node does, e.g. an input passed straight to an output). */
    int32_t first_use;
    /** Index of the last node that reads or writes it; an intermediate's memory may be reused after it. */
    int32_t last_use;
    /** For constants: the contiguous host bytes (numel * element size); NULL otherwise. */
    const void* data;
} diopiGraphTensor_t;

/** The kind of value one argument of a node holds. */
typedef enum {
    /** Absent: a NULL optional pointer (tensor, scalar, array) of the function. */
    diopi_graph_arg_none = 0,
    /** A tensor: `i` is its index in ::diopiGraph_t::tensors. */
    diopi_graph_arg_tensor = 1,
    /** An array of tensors: `len` indices in `ints` (-1 for a NULL entry). */
    diopi_graph_arg_tensor_list = 2,
    /** A ::diopiScalar_t, in `scalar`. */
    diopi_graph_arg_scalar = 3,
    /** An integer, enum, dtype or bool, in `i` (also a `const int64_t*` / `const bool*` parameter pointing at one value). */
    diopi_graph_arg_int = 4,
    /** A floating value, in `f` (also a `const double*` parameter pointing at one value). */
    diopi_graph_arg_float = 5,
    /** An integer array (a ::diopiSize_t or `const int64_t*` array): `len` values in `ints`, each literal (a negative `dim` is a negative dim). */
    diopi_graph_arg_int_array = 6,
    /** A string, in `s`. */
    diopi_graph_arg_string = 7,
    /** The generator of the run's device (random operators): the provider uses the default one. */
    diopi_graph_arg_generator = 8,
    /** An integer array that follows the graph's symbolic sizes (a view's target shape): `len` values in `ints`, a value `v < 0` standing for the value of symbol `-v - 1`, as in tensor shapes (since 1.1). */
    diopi_graph_arg_symbolic_int_array = 9,
    /** An integer that is the value of symbol `i` (since 1.1). */
    diopi_graph_arg_symbolic_int = 10,
} diopiGraphArgKind_t;

/** One argument of a node, in the order of the function's parameters after the context. */
typedef struct {
    /** ::diopiGraphArgKind_t: which of the fields below holds the value. */
    int32_t kind;
    /** Element count of `ints` (arrays and tensor lists). */
    int32_t len;
    /** Integer value, tensor index, or symbol index (diopi_graph_arg_symbolic_int). */
    int64_t i;
    /** Floating value. */
    double f;
    /** Scalar value. */
    diopiScalar_t scalar;
    /** Array values (literal, or symbolic for diopi_graph_arg_symbolic_int_array), or tensor indices. */
    const int64_t* ints;
    /** String value. */
    const char* s;
} diopiGraphArg_t;

/** One node: a DIOPI call. */
typedef struct {
    /** Name of a function of the operator headers ("diopiAdd"). */
    const char* function;
    /** Number of arguments: the function's parameters after the context. */
    int32_t num_args;
    /** The arguments. */
    const diopiGraphArg_t* args;
} diopiGraphNode_t;

/** A whole graph: nodes in an order that runs them correctly one after another. */
typedef struct {
    /** ::DIOPI_GRAPH_VERSION the caller was built with. */
    uint32_t version;
    /** sizeof(diopiGraph_t) the caller was built with. */
    uint32_t size;
    /** A name for messages and profiles (may be NULL). */
    const char* name;
    /** Number of tensors. */
    int32_t num_tensors;
    /** The tensors; nodes and views refer to them by index. */
    const diopiGraphTensor_t* tensors;
    /** Number of nodes. */
    int32_t num_nodes;
    /** The nodes, in execution order. */
    const diopiGraphNode_t* nodes;
    /** Number of graph inputs (tensors given to run()'s `inputs`). */
    int32_t num_inputs;
    /** Number of graph outputs (tensors given to run()'s `outputs`). */
    int32_t num_outputs;
    /** Number of symbols of symbolic sizes (values given to run()'s `symbols`). */
    int32_t num_symbols;
} diopiGraph_t;

/**
 * The graph compiler a vendor provides. compile() and run() are required;
 * destroy() is required when compile() can return an executable.
 */
typedef struct {
    /** ::DIOPI_GRAPH_VERSION the provider was built with. */
    uint32_t version;
    /** sizeof(diopiGraphCompiler_t) the provider was built with; fields at or beyond it are absent. */
    uint32_t size;
    /** Short human-readable name of the compiler. */
    const char* name;
    /**
     * Compiles `graph`. On success either `*executable` is set and
     * `*num_declined` is 0, or `*executable` is NULL and the provider wrote
     * the indices of the nodes it declines to `declined` (room for
     * graph->num_nodes entries), their count to `*num_declined`: the
     * caller then runs the graph its own way. Errors: diopiErrorOccurred for
     * a malformed graph (an index out of range, an argument count that is
     * not the function's) or a failure of the compiler itself;
     * diopiNoImplement when the provider has no graph compiler after all.
     */
    diopiError_t (*compile)(diopiContextHandle_t ctx, const diopiGraph_t* graph, diopiGraphExecutableHandle_t* executable,
                            int32_t* declined, int32_t* num_declined);
    /**
     * Runs `executable` on the stream of `ctx`: `inputs` and `outputs`
     * hold graph->num_inputs and graph->num_outputs tensors with the
     * declared dtypes and (symbols resolved) shapes; `symbols` holds
     * graph->num_symbols values (may be NULL when there are none). Outputs
     * may alias no input. Errors: whatever a node's call returns, with the
     * node named in diopiGetLastErrorString(); diopiErrorOccurred for a
     * tensor whose dtype or shape is not the declared one.
     */
    diopiError_t (*run)(diopiContextHandle_t ctx, diopiGraphExecutableHandle_t executable, const diopiConstTensorHandle_t* inputs,
                        const diopiTensorHandle_t* outputs, const int64_t* symbols);
    /** Releases an executable from compile(); NULL is a no-op. */
    diopiError_t (*destroy)(diopiGraphExecutableHandle_t executable);
} diopiGraphCompiler_t;

/** The entry point a provider exports: its graph compiler, valid while the library is loaded (NULL: none). */
typedef const diopiGraphCompiler_t* (*diopiGetGraphCompilerFn)(void);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_GRAPH_H_ */
