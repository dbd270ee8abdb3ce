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

static int64_t offset_of(int64_t i, diopiSize_t shape, diopiSize_t stride) {
    int64_t off = 0;
    for (int64_t d = shape.len - 1; d >= 0; --d) {
        off += (i % shape.data[d]) * stride.data[d];
        i /= shape.data[d];
    }
    return off;
}

typedef float (*unary_fn)(float);

/* out = f(input) elementwise, any strides; float32 only. */
static diopiError_t unary(diopiTensorHandle_t out, diopiConstTensorHandle_t input, unary_fn f) {
    diopiDtype_t dt;
    diopiGetTensorDtype(input, &dt);
    if (dt != diopi_dtype_float32) {
        g_error = "hostile: only float32";
        return diopiDtypeNotSupported;
    }
    diopiSize_t shape, si, so;
    int64_t n;
    const void* pi;
    void* po;
    diopiGetTensorShape(input, &shape);
    diopiGetTensorStride(input, &si);
    diopiGetTensorStride(out, &so);
    diopiGetTensorNumel(input, &n);
    diopiGetTensorDataConst(input, &pi);
    diopiGetTensorData(out, &po);
    for (int64_t i = 0; i < n; ++i) ((float*)po)[offset_of(i, shape, so)] = f(((const float*)pi)[offset_of(i, shape, si)]);
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
    diopiSize_t shape, sa, sb, so;
    int64_t n;
    const void *pa, *pb;
    void* po;
    diopiGetTensorShape(input, &shape);
    diopiGetTensorStride(input, &sa);
    diopiGetTensorStride(other, &sb);
    diopiGetTensorStride(out, &so);
    diopiGetTensorNumel(input, &n);
    diopiGetTensorDataConst(input, &pa);
    diopiGetTensorDataConst(other, &pb);
    diopiGetTensorData(out, &po);
    for (int64_t i = 0; i < n; ++i)
        ((float*)po)[offset_of(i, shape, so)] = ((const float*)pa)[offset_of(i, shape, sa)] + ((const float*)pb)[offset_of(i, shape, sb)];
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
    diopiSize_t shape, so;
    void* po;
    diopiGetTensorShape(out, &shape);
    diopiGetTensorStride(out, &so);
    diopiGetTensorData(out, &po);
    int64_t last = 0;
    for (int64_t d = 0; d < shape.len; ++d) last += (shape.data[d] - 1) * so.data[d];
    /* defect: zeroes every storage element up to the last one, the gaps between elements included */
    for (int64_t k = 0; k <= last; ++k) {
        int inside = 0;
        int64_t n;
        diopiGetTensorNumel(out, &n);
        for (int64_t i = 0; i < n && !inside; ++i) inside = offset_of(i, shape, so) == k;
        if (!inside) ((float*)po)[k] = 0.0f;
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
        diopiSize_t shape, stride;
        void* po;
        diopiGetTensorShape(g_job_out, &shape);
        diopiGetTensorStride(g_job_out, &stride);
        diopiGetTensorData(g_job_out, &po);
        int64_t end = 1;
        for (int64_t d = 0; d < shape.len; ++d) end += (shape.data[d] - 1) * stride.data[d];
        ((float*)po)[end] = 0.0f; /* defect: one past the last element, while the caller waits */
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
