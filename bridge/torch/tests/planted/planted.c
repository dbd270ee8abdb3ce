/*
 * A test library with one planted wrong kernel and one planted slow one,
 * both computing through the library they wrap (impl/torch, found by
 * RTLD_NEXT): diopiSilu then adds 1 to the first element of a float32
 * output; diopiRsqrt is right but spins for SLOW_MS milliseconds first.
 * Every other function resolves to the wrapped library unchanged.
 * Autocompare, the named fallback, the call log and the capture must find
 * the wrong call; the profiler and the op timer the slow one.
 */
#define _GNU_SOURCE
#include <diopi/functions.h>
#include <dlfcn.h>
#include <time.h>

#define SLOW_MS 50  /* far above what a loaded machine adds to any other call (20 was not, under CI-like load) */

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

typedef diopiError_t (*rsqrt_fn)(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t);

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

DIOPI_API diopiError_t diopiRsqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    static rsqrt_fn real = NULL;
    if (!real) real = (rsqrt_fn)dlsym(RTLD_NEXT, "diopiRsqrt");
    if (!real) return diopiNoImplement;
    double until = now_ms() + SLOW_MS; /* the planted slowness: busy, as a slow kernel would be */
    while (now_ms() < until) {
    }
    return real(ctx, out, input);
}
