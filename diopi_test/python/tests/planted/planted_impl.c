/*
 * A library with defects that only show in some runs, to test that the
 * harness charges a verdict only when a run of the case shows it
 * (tests/test_trust_verdicts.py). float32 only.
 *
 *   diopiAbs        correct, but once this process saw DIOPI_PLANTED_STATE_CALLS
 *                   different inputs (shape and strides), a call with another hangs
 *                   (state left by earlier calls; repeating a call adds none)
 *                                                              -> order_dependent, naming those calls
 *   diopiNeg        correct, but the DIOPI_PLANTED_SPIKE_AT-th call counted across
 *                   processes in the file DIOPI_PLANTED_SPIKE hangs once (as a call
 *                   does while the machine is briefly overloaded)  -> passed
 *   diopiLeakyRelu  correct, but negative_slope == -0.5 throws a C++-style error:
 *                   prints `what():` and stack frames, then aborts  -> crashed for
 *                   those cases only; its other cases run and pass
 */
#define _GNU_SOURCE
#include <diopi/functions.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../test_library.h"

DIOPI_API const char* diopiGetVendorName(void) { return "planted"; }
DIOPI_API const char* diopiGetImplVersion(void) { return "0.1"; }
DIOPI_API const char* diopiGetLastErrorString(void) { return ""; }

static diopiError_t map(diopiTensorHandle_t out, diopiConstTensorHandle_t input, float (*f)(float, float), float arg) {
    tl_tensor o, in;
    if (tl_get(input, &in) || tl_get(out, &o)) return diopiDtypeNotSupported;
    for (int64_t i = 0; i < in.numel; ++i) *tl_at(&o, i) = f(*tl_at(&in, i), arg);
    return diopiSuccess;
}

static float abs_f(float x, float a) { (void)a; return x < 0 ? -x : x; }
static float neg_f(float x, float a) { (void)a; return -x; }
static float leaky_f(float x, float slope) { return x > 0 ? x : x * slope; }

static void hang(void) {
    for (;;) sleep(60);
}

static int env_int(const char* name, int fallback) {
    const char* v = getenv(name);
    return v ? atoi(v) : fallback;
}

DIOPI_API diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    static int64_t seen[256][3]; /* the state: the inputs this process saw */
    static int nseen;
    diopiSize_t shape, stride;
    diopiGetTensorShape(input, &shape);
    diopiGetTensorStride(input, &stride);
    int64_t key[3] = {shape.len ? shape.data[0] : 0, stride.len ? stride.data[0] : 0, stride.len > 1 ? stride.data[1] : 0};
    int known = 0;
    for (int i = 0; i < nseen && !known; ++i) known = !memcmp(seen[i], key, sizeof key);
    if (!known) {
        if (nseen >= env_int("DIOPI_PLANTED_STATE_CALLS", 1 << 30)) hang();
        if (nseen < 256) memcpy(seen[nseen++], key, sizeof key);
    }
    return map(out, input, abs_f, 0.0f);
}

DIOPI_API diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    const char* path = getenv("DIOPI_PLANTED_SPIKE");
    if (path) {
        int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
        struct stat st;
        if (fd >= 0 && write(fd, "x", 1) == 1 && fstat(fd, &st) == 0 && st.st_size == env_int("DIOPI_PLANTED_SPIKE_AT", 0)) {
            close(fd);
            hang();
        }
        if (fd >= 0) close(fd);
    }
    return map(out, input, neg_f, 0.0f);
}

DIOPI_API diopiError_t diopiLeakyRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      const diopiScalar_t* negative_slope) {
    (void)ctx;
    double slope = negative_slope->fval;
    if (slope == -0.5) {
        /* what libstdc++ and libtorch print for an exception that escapes: the message, then where */
        fprintf(stderr, "terminate called after throwing an instance of 'c10::Error'\n");
        fprintf(stderr, "  what():  planted: a negative slope below -0.25 is not supported\n");
        fprintf(stderr, "Exception raised from leaky_relu at planted_impl.c:95 (most recent call first):\n");
        for (int i = 0; i < 8; ++i) fprintf(stderr, "frame #%d: <unknown function> + 0x%x (0x7f00000%04x in libplanted.so)\n", i, 0x100 * i, i);
        fprintf(stderr, "frame #36: _start + 0x21 (0x55d2b7e0e0a1 in python3)\n");
        abort();
    }
    return map(out, input, leaky_f, (float)slope);
}
