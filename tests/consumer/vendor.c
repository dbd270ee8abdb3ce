/* The smallest vendor library built against the installed standard alone
 * (diopi::headers): diopiAdd on contiguous float32 tensors through the
 * runtime functions of diopirt.h, which the caller provides at load time,
 * and the three library queries. A vendor's real library starts like this. */
#include <diopi/functions.h>

static const char* g_error = "";

DIOPI_API const char* diopiGetVendorName(void) { return "consumer"; }
DIOPI_API const char* diopiGetImplVersion(void) { return "consumer-0.1"; }
DIOPI_API const char* diopiGetLastErrorString(void) { return g_error; }

DIOPI_API diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    (void)ctx;
    if (!out || !input || !other || !alpha) {
        g_error = "consumer: diopiAdd: a NULL argument";
        return diopiErrorOccurred;
    }
    diopiDtype_t dt;
    int64_t n, m, k;
    diopiGetTensorDtype(input, &dt);
    diopiGetTensorNumel(input, &n);
    diopiGetTensorNumel(other, &m);
    diopiGetTensorNumel(out, &k);
    if (dt != diopi_dtype_float32 || n != m || n != k) {
        g_error = "consumer: diopiAdd: float32 tensors of one size only";
        return diopiDtypeNotSupported;
    }
    const void *a, *b;
    void* o;
    diopiGetTensorDataConst(input, &a);
    diopiGetTensorDataConst(other, &b);
    diopiGetTensorData(out, &o);
    float s = (float)(alpha->stype == diopi_dtype_float64 ? alpha->fval : (double)alpha->ival);
    for (int64_t i = 0; i < n; ++i) ((float*)o)[i] = ((const float*)a)[i] + s * ((const float*)b)[i];
    return diopiSuccess;
}
