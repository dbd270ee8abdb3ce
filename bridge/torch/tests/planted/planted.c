/*
 * A test library with one planted wrong kernel: diopiSilu computes the right
 * answer through the library it wraps (impl/torch, found by RTLD_NEXT) and
 * then adds 1 to the first element of a float32 output. Every other function
 * resolves to the wrapped library unchanged. Autocompare must name this call.
 */
#define _GNU_SOURCE
#include <diopi/functions.h>
#include <dlfcn.h>

typedef diopiError_t (*silu_fn)(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t);

DIOPI_API diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    static silu_fn real = NULL;
    if (!real) real = (silu_fn)dlsym(RTLD_NEXT, "diopiSilu");
    if (!real) return diopiNoImplement;
    diopiError_t st = real(ctx, out, input);
    if (st != diopiSuccess) return st;
    diopiDtype_t dtype;
    int64_t numel = 0;
    void* data = NULL;
    if (diopiGetTensorDtype(out, &dtype) == diopiSuccess && dtype == diopi_dtype_float32 &&
        diopiGetTensorNumel(out, &numel) == diopiSuccess && numel > 0 && diopiGetTensorData(out, &data) == diopiSuccess) {
        ((float*)data)[0] += 1.0f; /* the planted defect */
    }
    return diopiSuccess;
}
