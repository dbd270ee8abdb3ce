/*
 * A vendor library whose three functions crash on every case, the way an
 * early port crashes: every other function is the reference library's
 * (libdiopi_impl.so of impl/torch, a dependency of this one, so the harness
 * finds its functions through this library's handle).
 *
 *   diopiAdd  throws a C++ exception out of extern "C": std::terminate prints
 *             its what() on stderr and aborts                        -> SIGABRT
 *   diopiMul  prints a line on stdout (not flushed) and faults     -> SIGSEGV
 *   diopiSub  prints a line on stderr and calls abort()              -> SIGABRT
 *   diopiDiv  aborts on float16 inputs only; the reference's kernel otherwise
 */
#include <diopi/functions.h>
#include <dlfcn.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

extern "C" {

DIOPI_API const char* diopiGetVendorName() { return "crashing"; }

DIOPI_API diopiError_t diopiAdd(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiConstTensorHandle_t,
                                const diopiScalar_t*) {
    throw std::runtime_error("crashing: diopiAdd has no kernel for this device yet");
}

DIOPI_API diopiError_t diopiMul(diopiContextHandle_t, diopiTensorHandle_t out, diopiConstTensorHandle_t, diopiConstTensorHandle_t) {
    (void)out;
    std::printf("crashing: diopiMul about to write through a NULL pointer\n");
    std::raise(SIGSEGV);  // what the write would do (the compiler may drop a store it can prove faults)
    return diopiSuccess;
}

DIOPI_API diopiError_t diopiSub(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiConstTensorHandle_t,
                                const diopiScalar_t*) {
    std::fprintf(stderr, "crashing: diopiSub gave up\n");
    std::abort();
}

DIOPI_API diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiConstTensorHandle_t other, diopiRoundMode_t mode) {
    diopiDtype_t dtype;
    diopiGetTensorDtype(input, &dtype);
    if (dtype == diopi_dtype_float16) {
        std::fprintf(stderr, "crashing: diopiDiv has no float16 kernel\n");
        std::abort();
    }
    using Div = diopiError_t (*)(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiConstTensorHandle_t,
                                 diopiRoundMode_t);
    static Div reference = reinterpret_cast<Div>(dlsym(RTLD_NEXT, "diopiDiv"));  // the next library in load order
    return reference(ctx, out, input, other, mode);
}
}
