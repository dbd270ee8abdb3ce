/* Calls diopiAdd of the installed operator library through the installed test
 * runtime: out = input + 2 * other. Prints "ok <vendor>" and exits 0 when the
 * library returned the right values. */
#include <diopi/functions.h>
#include <diopi_test/testrt.h>
#include <stdio.h>
#include <string.h>

#ifndef EXPECTED_VENDOR
#define EXPECTED_VENDOR ""
#endif

int main(void) {
    if (dt_init() != 0) return fprintf(stderr, "dt_init: %s\n", dt_last_error()), 2;
    const int64_t shape[1] = {4};
    diopiTensorHandle_t a = dt_tensor_create(shape, NULL, 1, diopi_dtype_float32, 0, -1, diopi_host);
    diopiTensorHandle_t b = dt_tensor_create(shape, NULL, 1, diopi_dtype_float32, 0, -1, diopi_host);
    diopiTensorHandle_t out = dt_tensor_create(shape, NULL, 1, diopi_dtype_float32, 0, -1, diopi_host);
    float va[4] = {1, 2, 3, 4}, vb[4] = {10, 20, 30, 40}, vo[4] = {0};
    dt_tensor_write_storage(a, va, sizeof va);
    dt_tensor_write_storage(b, vb, sizeof vb);
    diopiScalar_t alpha;
    alpha.stype = diopi_dtype_float64;
    alpha.fval = 2.0;
    diopiContextHandle_t ctx = dt_context_create();
    diopiError_t st = diopiAdd(ctx, out, a, b, &alpha);
    if (st != diopiSuccess) return fprintf(stderr, "diopiAdd: %d %s\n", (int)st, diopiGetLastErrorString()), 1;
    dt_context_sync(ctx);
    dt_tensor_read_storage(out, vo, sizeof vo);
    for (int i = 0; i < 4; ++i)
        if (vo[i] != va[i] + 2 * vb[i]) return fprintf(stderr, "out[%d] = %g, expected %g\n", i, vo[i], va[i] + 2 * vb[i]), 1;
    const char* vendor = diopiGetVendorName();
    if (EXPECTED_VENDOR[0] && strcmp(vendor, EXPECTED_VENDOR) != 0)
        return fprintf(stderr, "vendor %s, the package says %s\n", vendor, EXPECTED_VENDOR), 1;
    printf("ok %s\n", vendor);
    dt_context_destroy(ctx);
    dt_tensor_destroy(a);
    dt_tensor_destroy(b);
    dt_tensor_destroy(out);
    dt_finalize();
    return 0;
}
