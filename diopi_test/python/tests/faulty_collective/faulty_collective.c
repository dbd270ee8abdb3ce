/*
 * A collective library with planted defects, for tests/test_collective_conformance.py. It forwards every
 * function of diopi/collective.h to a correct library (the one named by the environment variable
 * DIOPI_FAULTY_FORWARD, impl/torch in the tests), except:
 *   - diopiCommAllReduce on int32 with max computes min (a wrong reduction on one dtype);
 *   - diopiCommAllReduce on float64 with sum leaves rank 1's result one unit in the last place off (a rank-dependent
 *     result, within any tolerance: only the check that ranks agree bitwise sees it);
 *   - diopiCommBarrier never returns on rank 1 (a hang);
 *   - diopiCommAllToAll kills rank 0 when split sizes are given (a crash).
 */
#include <diopi/collective.h>
#include <dlfcn.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void* real(const char* name) {
    static void* lib = NULL;
    if (!lib) {
        const char* path = getenv("DIOPI_FAULTY_FORWARD");
        lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
        if (!lib) {
            fprintf(stderr, "faulty_collective: cannot open DIOPI_FAULTY_FORWARD=%s\n", path ? path : "(unset)");
            return NULL;
        }
    }
    return dlsym(lib, name);
}

#define FORWARD(name, ...)                                               \
    typedef diopiError_t (*name##_t)(__VA_ARGS__);                       \
    static name##_t real_##name(void) { return (name##_t)real(#name); }

static int64_t rankOf(diopiCommHandle_t comm) {
    int64_t r = -1;
    diopiError_t (*f)(diopiCommHandle_t, int64_t*) = (diopiError_t(*)(diopiCommHandle_t, int64_t*))real("diopiCommGetRank");
    if (f) f(comm, &r);
    return r;
}

const char* diopiGetVendorName(void) { return "faulty_collective"; }
const char* diopiGetImplVersion(void) { return "0"; }
const char* diopiGetLastErrorString(void) {
    const char* (*f)(void) = (const char* (*)(void))real("diopiGetLastErrorString");
    return f ? f() : "faulty_collective: no library to forward to";
}

FORWARD(diopiCommGetVersion, int64_t*)
diopiError_t diopiCommGetVersion(int64_t* v) { return real_diopiCommGetVersion()(v); }
FORWARD(diopiCommGetUniqueId, diopiCommUniqueId_t*)
diopiError_t diopiCommGetUniqueId(diopiCommUniqueId_t* id) { return real_diopiCommGetUniqueId()(id); }
FORWARD(diopiCommInitRank, diopiCommHandle_t*, int64_t, const diopiCommUniqueId_t*, int64_t, int64_t)
diopiError_t diopiCommInitRank(diopiCommHandle_t* c, int64_t n, const diopiCommUniqueId_t* id, int64_t r, int64_t t) {
    return real_diopiCommInitRank()(c, n, id, r, t);
}
FORWARD(diopiCommDestroy, diopiCommHandle_t)
diopiError_t diopiCommDestroy(diopiCommHandle_t c) { return real_diopiCommDestroy()(c); }
FORWARD(diopiCommAbort, diopiCommHandle_t)
diopiError_t diopiCommAbort(diopiCommHandle_t c) { return real_diopiCommAbort()(c); }
FORWARD(diopiCommGetRank, diopiCommHandle_t, int64_t*)
diopiError_t diopiCommGetRank(diopiCommHandle_t c, int64_t* r) { return real_diopiCommGetRank()(c, r); }
FORWARD(diopiCommGetSize, diopiCommHandle_t, int64_t*)
diopiError_t diopiCommGetSize(diopiCommHandle_t c, int64_t* s) { return real_diopiCommGetSize()(c, s); }
FORWARD(diopiCommGetName, diopiCommHandle_t, const char**)
diopiError_t diopiCommGetName(diopiCommHandle_t c, const char** n) { return real_diopiCommGetName()(c, n); }

FORWARD(diopiCommAllReduce, diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiReduceOp_t)
diopiError_t diopiCommAllReduce(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiReduceOp_t op) {
    diopiDtype_t dtype = diopi_dtype_unsupported;
    diopiGetTensorDtype(input, &dtype);
    if (dtype == diopi_dtype_int32 && op == diopiReduceMax) op = diopiReduceMin;
    diopiError_t rc = real_diopiCommAllReduce()(ctx, comm, out, input, op);
    if (rc == diopiSuccess && dtype == diopi_dtype_float64 && op == diopiReduceSum && rankOf(comm) == 1) {
        int64_t n = 0;
        void* data = NULL;
        diopiSize_t stride;
        diopiGetTensorNumel(out, &n);
        diopiGetTensorData(out, &data);
        diopiGetTensorStride(out, &stride);
        if (n > 0 && data && (stride.len == 0 || stride.data[stride.len - 1] == 1)) {
            double* d = (double*)data;
            d[0] = nextafter(d[0], INFINITY);
        }
    }
    return rc;
}

FORWARD(diopiCommBroadcast, diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, int64_t)
diopiError_t diopiCommBroadcast(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                int64_t root) {
    return real_diopiCommBroadcast()(ctx, comm, out, input, root);
}

FORWARD(diopiCommBarrier, diopiContextHandle_t, diopiCommHandle_t)
diopiError_t diopiCommBarrier(diopiContextHandle_t ctx, diopiCommHandle_t comm) {
    if (rankOf(comm) == 1)
        for (;;) pause();
    return real_diopiCommBarrier()(ctx, comm);
}

FORWARD(diopiCommAllToAll, diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiSize_t, diopiSize_t)
diopiError_t diopiCommAllToAll(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                               diopiSize_t out_splits, diopiSize_t in_splits) {
    if (in_splits.len > 0 && rankOf(comm) == 0) abort();
    return real_diopiCommAllToAll()(ctx, comm, out, input, out_splits, in_splits);
}
