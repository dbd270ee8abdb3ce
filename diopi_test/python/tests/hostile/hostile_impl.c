/*
 * A hostile operator library for testing the harness's isolation: each
 * function carries one defect of a class a worker process must contain and
 * charge to that function, never to another. float32 only.
 *
 *   diopiAdd, diopiAbs  correct (controls)
 *   diopiLog1p          correct; writes NaN where the reference is NaN (x < -1)
 *   diopiNeg            also writes into the gaps of a strided output    -> gap_write
 *   diopiExp            leaves the rounding mode changed                  -> state_changed
 *   diopiLog            leaves flush-to-zero / denormals-are-zero set     -> state_changed
 *   diopiSin            installs a SIGUSR1 handler                        -> state_changed
 *   diopiCos            changes the working directory                     -> state_changed
 *   diopiTan            sets an environment variable                      -> state_changed
 *   diopiSqrt           a thread it starts rewrites out after it returned -> late_write
 *   diopiSinh           computes on a helper thread it starts at its first
 *                       call and keeps (as a thread pool does), which also
 *                       writes one element past out's end before the call
 *                       returns                                           -> oob_write, never late_write
 *   diopiRsqrt          leaks 1 MiB (resident) per call                   -> memory_growth
 *   diopiSigmoid        correct; its first call fills a 64 MiB cache it
 *                       keeps (memory held, not leaked)                   -> passed
 *   diopiErf            succeeds and sets an error string                 -> error_on_success
 *   diopiErfinv         returns 12345, which is no diopiError_t           -> error
 *   diopiFloor          never returns                                     -> timeout (twice, then skipped: not run)
 *   diopiCeil           writes junk into every descriptor from 3 to 255   -> stray_write
 *   diopiSign           correct, prints a line on stdout and stderr       -> passed, output kept
 *   diopiTanh           wrong once any other operator ran in the process  -> order_dependent
 *   diopiReciprocal     computes NaN for element 0 (reference finite)     -> failed, not unwritten
 *
 * Loading: DIOPI_HOSTILE_LOAD=exit|crash|hang makes the library's
 * initialiser end the process with _exit(0), crash, or never return.
 * DIOPI_HOSTILE_SLOW_MS=N makes the control diopiAbs take N ms more (a slow
 * but correct call, as on a loaded machine or under a sanitizer).
 */
#define _GNU_SOURCE
#include <diopi/functions.h>
#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xmmintrin.h>

#include "../test_library.h"

static const char* g_error = "";
static int g_operator_calls = 0; /* operators called in this process so far */
char* volatile g_leaked;

__attribute__((constructor)) static void hostile_load(void) {
    const char* how = getenv("DIOPI_HOSTILE_LOAD");
    if (!how) return;
    if (!strcmp(how, "exit")) _exit(0);
    if (!strcmp(how, "crash")) raise(SIGSEGV);
    if (!strcmp(how, "hang"))
        for (;;) pause();
}

DIOPI_API const char* diopiGetVendorName(void) { return "hostile"; }
DIOPI_API const char* diopiGetImplVersion(void) { return "0.1"; }
DIOPI_API const char* diopiGetLastErrorString(void) { return g_error; }

typedef float (*unary_fn)(float);

/* out = f(input) elementwise, any strides; float32 only. */
static diopiError_t unary(diopiTensorHandle_t out, diopiConstTensorHandle_t input, unary_fn f) {
    tl_tensor in, o;
    if (tl_get(input, &in) || tl_get(out, &o)) {
        g_error = "hostile: only float32";
        return diopiDtypeNotSupported;
    }
    for (int64_t i = 0; i < in.numel; ++i) *tl_at(&o, i) = f(*tl_at(&in, i));
    ++g_operator_calls;
    return diopiSuccess;
}

static float neg_f(float x) { return -x; }
static float sigmoid_f(float x) { return 1.0f / (1.0f + expf(-x)); }
static float rsqrt_f(float x) { return 1.0f / sqrtf(x); }
static float recip_f(float x) { return 1.0f / x; }

DIOPI_API diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    (void)ctx;
    (void)alpha; /* the cases use alpha = 1 */
    tl_tensor a, b, o;
    tl_get(input, &a);
    tl_get(other, &b);
    tl_get(out, &o);
    for (int64_t i = 0; i < a.numel; ++i) *tl_at(&o, i) = *tl_at(&a, i) + *tl_at(&b, i);
    ++g_operator_calls;
    return diopiSuccess;
}

DIOPI_API diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    const char* slow = getenv("DIOPI_HOSTILE_SLOW_MS");
    if (slow) usleep((useconds_t)atoi(slow) * 1000u);
    return unary(out, input, fabsf);
}

DIOPI_API diopiError_t diopiLog1p(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    return unary(out, input, log1pf);
}

DIOPI_API diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, neg_f);
    tl_tensor o;
    tl_get(out, &o);
    /* defect: zeroes every storage element up to the last one, the gaps between elements included */
    for (int64_t k = 0, last = tl_last(&o); k <= last; ++k) {
        int inside = 0;
        for (int64_t i = 0; i < o.numel && !inside; ++i) inside = tl_offset(i, o.shape, o.stride) == k;
        if (!inside) o.data[k] = 0.0f;
    }
    return rc;
}

DIOPI_API diopiError_t diopiExp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, expf);
    fesetround(FE_UPWARD); /* defect: not restored */
    return rc;
}

DIOPI_API diopiError_t diopiLog(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, logf);
    _mm_setcsr(_mm_getcsr() | 0x8040); /* defect: flush-to-zero and denormals-are-zero left on */
    return rc;
}

static void on_usr1(int sig) { (void)sig; }

DIOPI_API diopiError_t diopiSin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    signal(SIGUSR1, on_usr1); /* defect: a process-wide handler */
    return unary(out, input, sinf);
}

DIOPI_API diopiError_t diopiCos(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    if (chdir("/") != 0) return diopiErrorOccurred; /* defect: moves the process */
    return unary(out, input, cosf);
}

DIOPI_API diopiError_t diopiTan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    setenv("HOSTILE_WAS_HERE", "1", 1); /* defect: changes the environment */
    return unary(out, input, tanf);
}

struct late_job {
    float* data;
    int64_t count;
};

static void* late_writer(void* arg) {
    struct late_job* job = arg;
    usleep(30 * 1000);
    for (int64_t i = 0; i < job->count; ++i) job->data[i] = 42.0f; /* defect: after the call returned */
    free(job);
    return NULL;
}

DIOPI_API diopiError_t diopiSqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, sqrtf);
    struct late_job* job = malloc(sizeof *job);
    void* po;
    diopiGetTensorData(out, &po);
    job->data = po;
    job->count = 1;
    pthread_t t;
    pthread_create(&t, NULL, late_writer, job);
    pthread_detach(t);
    return rc;
}

/* diopiSinh's helper thread and the one job it is given at a time */
static pthread_mutex_t g_pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_pool_cv = PTHREAD_COND_INITIALIZER;
static int g_pool_started, g_job_pending, g_job_done;
static diopiTensorHandle_t g_job_out;
static diopiConstTensorHandle_t g_job_input;
static diopiError_t g_job_rc;

static void* pool_main(void* arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&g_pool_mu);
        while (!g_job_pending) pthread_cond_wait(&g_pool_cv, &g_pool_mu);
        g_job_pending = 0;
        pthread_mutex_unlock(&g_pool_mu);
        diopiError_t rc = unary(g_job_out, g_job_input, sinhf);
        tl_tensor o;
        tl_get(g_job_out, &o);
        o.data[tl_last(&o) + 1] = 0.0f; /* defect: one past the last element, while the caller waits */
        pthread_mutex_lock(&g_pool_mu);
        g_job_rc = rc;
        g_job_done = 1;
        pthread_cond_broadcast(&g_pool_cv);
        pthread_mutex_unlock(&g_pool_mu);
    }
    return NULL;
}

DIOPI_API diopiError_t diopiSinh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    pthread_mutex_lock(&g_pool_mu);
    if (!g_pool_started) {
        pthread_t t;
        pthread_create(&t, NULL, pool_main, NULL);
        pthread_detach(t);
        g_pool_started = 1;
    }
    g_job_out = out;
    g_job_input = input;
    g_job_done = 0;
    g_job_pending = 1;
    pthread_cond_broadcast(&g_pool_cv);
    while (!g_job_done) pthread_cond_wait(&g_pool_cv, &g_pool_mu);
    diopiError_t rc = g_job_rc;
    pthread_mutex_unlock(&g_pool_mu);
    return rc;
}

char* volatile g_cache;

DIOPI_API diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    if (!g_cache) { /* not a defect: allocated once, touched, and kept for later calls */
        size_t bytes = (size_t)64 << 20;
        char* cache = malloc(bytes);
        if (cache) memset(cache, 1, bytes);
        g_cache = cache;
    }
    return unary(out, input, sigmoid_f);
}

DIOPI_API diopiError_t diopiRsqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    size_t bytes = (size_t)1 << 20;
    char* leak = malloc(bytes); /* defect: never freed, and touched so it is resident */
    if (leak) memset(leak, 1, bytes);
    g_leaked = leak; /* kept where the compiler cannot drop the allocation */
    return unary(out, input, rsqrt_f);
}

DIOPI_API diopiError_t diopiErf(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, erff);
    g_error = "hostile: something went wrong (but returned success)"; /* defect */
    return rc;
}

DIOPI_API diopiError_t diopiErfinv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    (void)out;
    (void)input;
    return (diopiError_t)12345; /* defect: not a diopiError_t */
}

DIOPI_API diopiError_t diopiFloor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    (void)out;
    (void)input;
    for (;;) pause(); /* defect: never returns */
}

DIOPI_API diopiError_t diopiCeil(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    static const char junk[] = "\x80\x04junk from a kernel\n";
    for (int fd = 3; fd < 256; ++fd) /* defect: writes into descriptors it never opened */
        if (write(fd, junk, sizeof junk - 1) < 0) continue;
    return unary(out, input, ceilf);
}

static float sign_f(float x) { return (float)((x > 0) - (x < 0)); }

DIOPI_API diopiError_t diopiSign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    printf("hostile: computing sign\n"); /* not a defect: the harness keeps it with the case */
    fflush(stdout);
    fprintf(stderr, "hostile: a note on stderr\n");
    return unary(out, input, sign_f);
}

DIOPI_API diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    int earlier = g_operator_calls;
    diopiError_t rc = unary(out, input, tanhf);
    if (earlier > 0) { /* defect: depends on what ran before it */
        void* po;
        diopiGetTensorData(out, &po);
        ((float*)po)[0] += 1.0f;
    }
    return rc;
}

DIOPI_API diopiError_t diopiReciprocal(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    (void)ctx;
    diopiError_t rc = unary(out, input, recip_f);
    void* po;
    diopiGetTensorData(out, &po);
    ((float*)po)[0] = NAN; /* defect: a NaN where the reference is finite */
    return rc;
}
