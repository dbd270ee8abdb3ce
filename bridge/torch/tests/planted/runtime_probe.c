/*
 * A vendor library for the device runtime tests: impl/torch's operators
 * (resolved through RTLD_NEXT) plus a device runtime of its own (device.h)
 * that keeps host memory but has two devices, real stream and event objects
 * and counters, so a test can see what the `diopi` device asked of it.
 * diopiAdd is wrapped to record the stream and current device it ran on.
 * Work is synchronous: every stream and event is complete when asked.
 */
#define _GNU_SOURCE
#include <diopi/device.h>
#include <diopi/functions.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MALLOCS, FREES, STREAMS, STREAM_SYNCS, EVENT_RECORDS, WAITS, SET_DEVICES, LAST_DEVICE, H2D, D2H, D2D, NCOUNT };
static int64_t counters[NCOUNT];
static void* lastStream = (void*)-1;
static int lastDevice = -1;

typedef struct {
    int device;
    int id;
} Stream;
typedef struct {
    int device;
    int recorded;
    double ms;
} Event;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static diopiError_t count(int32_t* n) {
    *n = 2;
    return diopiSuccess;
}
static diopiError_t set_device(diopiDeviceIndex_t d) {
    counters[SET_DEVICES]++;
    counters[LAST_DEVICE] = d;
    return diopiSuccess;
}
static diopiError_t dev_malloc(diopiDeviceIndex_t d, void** p, size_t n) {
    counters[MALLOCS]++;
    *p = NULL;
    if (!n) return diopiSuccess;
    return posix_memalign(p, 64, (n + 63) / 64 * 64) == 0 ? diopiSuccess : diopiErrorOccurred;
}
static diopiError_t dev_free(diopiDeviceIndex_t d, void* p) {
    counters[FREES]++;
    free(p);
    return diopiSuccess;
}
static diopiError_t h2d(void* dst, const void* src, size_t n, diopiStreamHandle_t s) {
    counters[H2D]++;
    memcpy(dst, src, n);
    return diopiSuccess;
}
static diopiError_t d2h(void* dst, const void* src, size_t n, diopiStreamHandle_t s) {
    counters[D2H]++;
    memcpy(dst, src, n);
    return diopiSuccess;
}
static diopiError_t d2d(void* dst, const void* src, size_t n, diopiStreamHandle_t s) {
    counters[D2D]++;
    memmove(dst, src, n);
    return diopiSuccess;
}
static diopiError_t stream_create(diopiDeviceIndex_t d, int32_t priority, diopiStreamHandle_t* s) {
    Stream* st = malloc(sizeof(Stream));
    st->device = d;
    st->id = (int)++counters[STREAMS];
    *s = st;
    return diopiSuccess;
}
static diopiError_t stream_destroy(diopiStreamHandle_t s) {
    free(s);
    return diopiSuccess;
}
static diopiError_t stream_sync(diopiStreamHandle_t s) {
    counters[STREAM_SYNCS]++;
    return diopiSuccess;
}
static diopiError_t event_create(diopiDeviceIndex_t d, int32_t flags, diopiEventHandle_t* e) {
    Event* ev = calloc(1, sizeof(Event));
    ev->device = d;
    *e = (diopiEventHandle_t)ev;
    return diopiSuccess;
}
static diopiError_t event_destroy(diopiEventHandle_t e) {
    free(e);
    return diopiSuccess;
}
static diopiError_t event_record(diopiEventHandle_t e, diopiStreamHandle_t s) {
    counters[EVENT_RECORDS]++;
    ((Event*)e)->recorded = 1;
    ((Event*)e)->ms = now_ms();
    return diopiSuccess;
}
static diopiError_t wait_event(diopiStreamHandle_t s, diopiEventHandle_t e) {
    counters[WAITS]++;
    return diopiSuccess;
}
static diopiError_t event_query(diopiEventHandle_t e, bool* done) {
    *done = true;
    return diopiSuccess;
}
static diopiError_t event_sync(diopiEventHandle_t e) { return diopiSuccess; }
static diopiError_t elapsed(diopiEventHandle_t a, diopiEventHandle_t b, float* ms) {
    if (!((Event*)a)->recorded || !((Event*)b)->recorded) return diopiErrorOccurred;
    *ms = (float)(((Event*)b)->ms - ((Event*)a)->ms);
    return diopiSuccess;
}

DIOPI_API const diopiDeviceRuntime_t* diopiGetDeviceRuntime(void) {
    static diopiDeviceRuntime_t rt;
    rt.version = DIOPI_DEVICE_RUNTIME_VERSION;
    rt.size = sizeof(rt);
    rt.name = "runtime probe";
    rt.device_count = count;
    rt.set_device = set_device;
    rt.malloc = dev_malloc;
    rt.free = dev_free;
    rt.memcpy_h2d_async = h2d;
    rt.memcpy_d2h_async = d2h;
    rt.memcpy_d2d_async = d2d;
    rt.stream_create = stream_create;
    rt.stream_destroy = stream_destroy;
    rt.stream_synchronize = stream_sync;
    rt.event_create = event_create;
    rt.event_destroy = event_destroy;
    rt.event_record = event_record;
    rt.stream_wait_event = wait_event;
    rt.event_query = event_query;
    rt.event_synchronize = event_sync;
    rt.event_elapsed_time = elapsed;
    return &rt;
}

typedef diopiError_t (*add_fn)(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiConstTensorHandle_t,
                               const diopiScalar_t*);

DIOPI_API diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
    static add_fn real = NULL;
    if (!real) real = (add_fn)dlsym(RTLD_NEXT, "diopiAdd");
    diopiStreamHandle_t s = NULL;
    diopiGetStream(ctx, &s);
    lastStream = s;
    diopiDeviceIndex_t d = -1;
    diopiGetCurrentDeviceIndex(&d);
    lastDevice = d;
    return real ? real(ctx, out, input, other, alpha) : diopiNoImplement;
}

/* For the test (through ctypes): the counters, in the enum's order. */
DIOPI_API void probe_counters(int64_t* out) { memcpy(out, counters, sizeof(counters)); }
/* The stream diopiAdd last ran on, its id (0 for the default stream), and the current device then. */
DIOPI_API int probe_last_stream_id(void) { return lastStream ? ((Stream*)lastStream)->id : 0; }
DIOPI_API int probe_last_device(void) { return lastDevice; }
/* The id of a stream handle PyTorch hands out (torch.Stream.native_handle). */
DIOPI_API int probe_stream_id(void* s) { return s ? ((Stream*)s)->id : 0; }
