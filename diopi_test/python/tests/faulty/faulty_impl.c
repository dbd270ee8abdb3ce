/*
 * A deliberately defective operator library for testing the harness.
 *
 * Each function below carries one defect the conformance harness must
 * detect and classify; diopiAdd is correct so the tests can tell a working
 * function from a broken one. Kernels handle float32 only.
 *
 *   diopiAdd      correct (any strides)
 *   diopiSub      wrong values (adds instead)             -> failed
 *   diopiMul      dereferences NULL                       -> crashed
 *   diopiDiv      never returns                           -> timeout
 *   diopiAbs      writes one element past the output's end -> oob_write
 *   diopiNeg      negates its read-only input too         -> input_modified
 *   diopiExp      writes only the first half of out       -> unwritten
 *   diopiRelu     assumes contiguous tensors              -> failed on noncontig only
 *   diopiSqrt     fails without a message                 -> no_message
 *   diopiTanh     rewrites the output's shape             -> metadata_changed
 *   diopiSigmoid  reports diopiNoImplement                -> not_implemented
 */
#include <diopi/functions.h>
#include <math.h>
#include <stddef.h>

#include "../test_library.h"

static const char* g_error = "";

DIOPI_API const char* diopiGetVendorName(void) { return "faulty"; }
/* Defect: an empty version string (library checks). */
DIOPI_API const char* diopiGetImplVersion(void) { return ""; }
DIOPI_API const char* diopiGetLastErrorString(void) { return g_error; }

typedef float (*binary_fn)(float, float);
typedef float (*unary_fn)(float);

static float add_f(float a, float b) { return a + b; }
static float neg_f(float a) { return -a; }
static float relu_f(float a) { return a > 0 ? a : 0; }

static diopiError_t get_f32(diopiConstTensorHandle_t t, tl_tensor* v) {
    if (tl_get(t, v) == diopiSuccess) return diopiSuccess;
    g_error = "faulty: only float32";
    return diopiDtypeNotSupported;
}

/* Elementwise binary with broadcasting-free same-shape operands. */
static diopiError_t binary(diopiTensorHandle_t out, diopiConstTensorHandle_t a, diopiConstTensorHandle_t b, binary_fn f) {
    tl_tensor ta, tb, to;
    if (get_f32(a, &ta) || get_f32(b, &tb) || get_f32(out, &to)) return diopiDtypeNotSupported;
    int same = ta.shape.len == tb.shape.len;
    for (int64_t d = 0; same && d < ta.shape.len; ++d) same = ta.shape.data[d] == tb.shape.data[d];
    if (!same) {
        g_error = "faulty: operands must have the same shape";
        return diopiErrorOccurred;
    }
    for (int64_t i = 0; i < ta.numel; ++i) *tl_at(&to, i) = f(*tl_at(&ta, i), *tl_at(&tb, i));
    return diopiSuccess;
}

static diopiError_t unary(diopiTensorHandle_t out, diopiConstTensorHandle_t a, unary_fn f, int contiguous_only, int64_t limit) {
    tl_tensor ta, to;
    if (get_f32(a, &ta) || get_f32(out, &to)) return diopiDtypeNotSupported;
    int64_t n = limit >= 0 && limit < ta.numel ? limit : ta.numel;
    for (int64_t i = 0; i < n; ++i) {
        if (contiguous_only)
            to.data[i] = f(ta.data[i]);
        else
            *tl_at(&to, i) = f(*tl_at(&ta, i));
    }
    return diopiSuccess;
}

DIOPI_API diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    (void)ctx;
    (void)alpha; /* the tests use alpha = 1 */
    return binary(out, input, other, add_f);
}

DIOPI_API diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    (void)ctx;
    (void)alpha;
    return binary(out, input, other, add_f); /* defect: adds */
}

DIOPI_API diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiConstTensorHandle_t other) {
    (void)ctx;
    (void)out;
    (void)input;
    (void)other;
    volatile float* p = NULL;
    *p = 1.0f; /* defect: segmentation fault */
    return diopiSuccess;
}

DIOPI_API diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiConstTensorHandle_t other, diopiRoundMode_t rounding_mode) {
    (void)ctx;
    (void)out;
    (void)input;
    (void)other;
    (void)rounding_mode;
    for (volatile int spin = 1; spin;) {
    } /* defect: hangs */
    return diopiSuccess;
}

DIOPI_API diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, fabsf, 0, -1);
    tl_tensor to;
    tl_get(out, &to);
    to.data[tl_last(&to) + 1] = 0.0f; /* defect: one past the last element */
    return rc;
}

DIOPI_API diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, neg_f, 0, -1);
    /* defect: also negates the read-only input in place */
    unary((diopiTensorHandle_t)input, input, neg_f, 0, -1);
    return rc;
}

DIOPI_API diopiError_t diopiExp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    int64_t n;
    diopiGetTensorNumel(input, &n);
    return unary(out, input, expf, 0, n / 2); /* defect: second half left alone */
}

DIOPI_API diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    return unary(out, input, relu_f, 1, -1); /* defect: ignores strides */
}

DIOPI_API diopiError_t diopiSqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    (void)out;
    (void)input;
    g_error = "";
    return diopiErrorOccurred; /* defect: no explanation */
}

DIOPI_API diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, tanhf, 0, -1);
    diopiSize_t shape;
    diopiGetTensorShape(out, &shape);
    if (shape.len > 0) ((int64_t*)shape.data)[0] += 1; /* defect: rewrites metadata it does not own */
    return rc;
}

DIOPI_API diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    (void)out;
    (void)input;
    g_error = "faulty: sigmoid is not implemented";
    return diopiNoImplement;
}
