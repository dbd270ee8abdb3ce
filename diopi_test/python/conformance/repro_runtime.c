/* ---------------------------------------------------------------------------
 * Helpers every reproducer shares (conformance/repro_runtime.c): tensors
 * through the test runtime, and the checks run_test makes after a call.
 * Helpers only some cases use are `static inline`, so that -Wall does not
 * flag them where they are unused.
 * ------------------------------------------------------------------------- */
#define RP_INPUT 0   /* read-only: must come back byte for byte */
#define RP_INPLACE 1 /* in-place operand: checked as an output */
#define RP_OUTPUT 2  /* pre-filled with the sentinel */

typedef struct {
    const char* label;
    diopiTensorHandle_t handle;
    int role;
    unsigned char* initial; /* the storage bytes the tensor was given */
    int64_t nbytes;
    int64_t ndim;
    const int64_t* shape;
    const int64_t* stride;
    int32_t dtype;
    int64_t offset;
} rp_tensor_t;

static const char* rp_data_dir = "data";
static rp_tensor_t* rp_tensors;
static int rp_ntensors;
static char rp_message[16384];
static char rp_unwritten[1024];
static int rp_has_stats;
static double rp_max_abs, rp_max_rel;
static int64_t rp_mismatches;

static void rp_fatal(const char* what, const char* detail) {
    fprintf(stderr, "repro: %s: %s\n", what, detail ? detail : "");
    exit(2);
}

/* ---- the operator library: loaded from the path run_test tested, as the
 * harness loads it (RTLD_LOCAL, after the runtime), never found through a
 * search path where another libdiopi_impl.so may come first */
static void* rp_impl;

static void rp_load_impl(const char* path) {
    rp_impl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!rp_impl) rp_fatal("cannot load the operator library", dlerror());
    /* the test runtime over the library's device runtime (diopi/device.h), as run_test sets it up */
    const diopiDeviceRuntime_t* (*get)(void);
    const char* (*err)(void);
    void* p = dlsym(rp_impl, "diopiGetDeviceRuntime");
    memcpy(&get, &p, sizeof get); /* POSIX: a function's address fits an object pointer */
    p = dlsym(rp_impl, "diopiGetLastErrorString");
    memcpy(&err, &p, sizeof err);
    if (dt_init_device(get ? get() : NULL, err) != 0) rp_fatal("dt_init_device", dt_last_error());
}

/* The library's function `name`, or NULL; `fn` receives it as a function pointer. */
static void* rp_symbol(const char* name, void* fn, size_t size) {
    void* p = rp_impl ? dlsym(rp_impl, name) : NULL;
    memcpy(fn, &p, size); /* POSIX: a function's address fits an object pointer */
    return p;
}

static const char* rp_last_error_string(void) {
    const char* (*fn)(void);
    const char* msg = rp_symbol("diopiGetLastErrorString", &fn, sizeof fn) ? fn() : "";
    return msg ? msg : "";
}

static void rp_append(char* buf, size_t size, const char* sep, const char* fmt, ...) {
    size_t len = strlen(buf);
    if (len && sep && len + strlen(sep) < size) {
        strcat(buf, sep);
        len = strlen(buf);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

static const char* rp_dtype_name(int32_t dtype) {
    static const char* names[] = {"int8",    "uint8",   "int16", "uint16", "int32",    "uint32",   "int64",     "uint64",   "float16",
                                  "float32", "float64", "bool",  "bfloat16", "tfloat32", "complex32", "complex64", "complex128"};
    return dtype >= 0 && dtype <= 16 ? names[dtype] : "unknown";
}

static int rp_is_floating(int32_t dtype) {
    return dtype == diopi_dtype_float16 || dtype == diopi_dtype_float32 || dtype == diopi_dtype_float64 || dtype == diopi_dtype_bfloat16 ||
           dtype == diopi_dtype_complex64 || dtype == diopi_dtype_complex128;
}

static unsigned char* rp_load(const char* file, int64_t nbytes) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", rp_data_dir, file);
    FILE* f = fopen(path, "rb");
    if (!f) rp_fatal("cannot open data file", path);
    unsigned char* buf = malloc(nbytes > 0 ? (size_t)nbytes : 1);
    if (!buf) rp_fatal("out of memory reading", path);
    if (nbytes > 0 && fread(buf, 1, (size_t)nbytes, f) != (size_t)nbytes) rp_fatal("data file shorter than its description", path);
    if (fgetc(f) != EOF) rp_fatal("data file longer than its description", path);
    fclose(f);
    return buf;
}

/* A tensor made the way run_test makes it: the given strides and offset over
 * a storage of `elems` elements, filled from `file`. */
static diopiTensorHandle_t rp_tensor(const char* label, const char* file, int64_t ndim, const int64_t* shape, const int64_t* stride,
                                     int32_t dtype, int64_t offset, int64_t elems, int role) {
    diopiTensorHandle_t t = dt_tensor_create(shape, stride, ndim, dtype, offset, elems, diopi_device);
    if (!t) rp_fatal("dt_tensor_create", dt_last_error());
    int64_t nbytes = elems * dt_dtype_size(dtype);
    unsigned char* bytes = rp_load(file, nbytes);
    if (nbytes && dt_tensor_write_storage(t, bytes, nbytes) != 0) rp_fatal("dt_tensor_write_storage", dt_last_error());
    rp_tensors = realloc(rp_tensors, sizeof(rp_tensor_t) * (size_t)(rp_ntensors + 1));
    if (!rp_tensors) rp_fatal("out of memory", label);
    rp_tensor_t rec = {label, t, role, bytes, nbytes, ndim, shape, stride, dtype, offset};
    rp_tensors[rp_ntensors++] = rec;
    return t;
}

/* ---- verdicts: printed, compared with the harness's, and the exit code */
static const char* rp_harness_verdict;

static int rp_verdict(const char* verdict, const char* reason) {
    printf("verdict: %s\n", verdict);
    if (reason && *reason) printf("reason: %s\n", reason);
    if (rp_has_stats) printf("max abs %.6g, max rel %.6g, mismatches %lld\n", rp_max_abs, rp_max_rel, (long long)rp_mismatches);
    printf("harness verdict: %s (%s)\n", rp_harness_verdict, strcmp(verdict, rp_harness_verdict) == 0 ? "reproduced" : "NOT reproduced");
    fflush(stdout);
    return strcmp(verdict, "passed") == 0 ? 0 : 1;
}

static int rp_error_verdict(diopiError_t rc) {
    const char* msg = rp_last_error_string();
    char reason[4096];
    int known = 0;
    for (size_t i = 0; i < sizeof rp_error_codes / sizeof rp_error_codes[0]; ++i) known = known || (int)rc == rp_error_codes[i];
    if (!known) {
        snprintf(reason, sizeof reason, "returned %d, which is not a diopiError_t value", (int)rc);
        return rp_verdict("error", reason);
    }
    if (rc == diopiNoImplement) {
        snprintf(reason, sizeof reason, "returned diopiNoImplement: %s", msg ? msg : "");
        return rp_verdict("not_implemented", reason);
    }
    int empty = 1;
    for (const char* p = msg; p && *p; ++p)
        if (!isspace((unsigned char)*p)) empty = 0;
    if (empty) {
        snprintf(reason, sizeof reason, "returned error %d with an empty diopiGetLastErrorString()", (int)rc);
        return rp_verdict("no_message", reason);
    }
    snprintf(reason, sizeof reason, "returned error %d: %s", (int)rc, msg);
    return rp_verdict("error", reason);
}

/* A crash reproduces by crashing: the verdict lines are written first (with
 * write(), which a signal handler may call), then the process dies of the
 * same signal. The handlers are installed right before the call, after the
 * library was loaded, since a library may install its own when it loads. */
static volatile sig_atomic_t rp_in_call;

static void rp_write(const char* s) {
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

static const char* rp_signal_name(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV";
        case SIGBUS: return "SIGBUS";
        case SIGFPE: return "SIGFPE";
        case SIGILL: return "SIGILL";
        case SIGABRT: return "SIGABRT";
        case SIGTRAP: return "SIGTRAP";
        case SIGSYS: return "SIGSYS";
        default: return "a signal";
    }
}

static void rp_crash_lines(const char* how) {
    rp_write("verdict: crashed\nreason: ");
    rp_write(how);
    rp_write(" during the call\nharness verdict: ");
    rp_write(rp_harness_verdict);
    rp_write(strcmp(rp_harness_verdict, "crashed") == 0 ? " (reproduced)\n" : " (NOT reproduced)\n");
}

static void rp_on_signal(int sig) {
    char how[64] = "killed by ";
    strncat(how, rp_signal_name(sig), sizeof how - strlen(how) - 1);
    rp_crash_lines(how);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void rp_on_exit(void) {
    if (rp_in_call) rp_crash_lines("exit() called");
}

static void rp_arm(void) {
    static char alt[1 << 16];
    static int once;
    stack_t ss;
    ss.ss_sp = alt;
    ss.ss_size = sizeof alt;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL); /* a stack overflow still gets its verdict line */
    const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = rp_on_signal;
        sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
    if (!once) atexit(rp_on_exit);
    once = 1;
    rp_in_call = 1;
}

static const char* rp_timeout_message = "verdict: timeout\n";

static void rp_on_alarm(int sig) {
    (void)sig;
    if (write(STDOUT_FILENO, rp_timeout_message, strlen(rp_timeout_message)) < 0) { /* nothing to do */
    }
    _exit(1);
}

static void rp_init(int argc, char** argv) {
    if (argc > 1) rp_data_dir = argv[1];
    signal(SIGALRM, rp_on_alarm);
}

/* ---- what the error string said before the call */
static char rp_error_before[4096];

static void rp_remember_error_string(void) {
    const char* msg = rp_last_error_string();
    snprintf(rp_error_before, sizeof rp_error_before, "%s", msg ? msg : "");
}

static int rp_error_string_kept(char* reason, size_t size) {
    const char* msg = rp_last_error_string();
    int blank = 1;
    for (const char* p = msg; p && *p; ++p)
        if (!isspace((unsigned char)*p)) blank = 0;
    if (blank || strncmp(msg, rp_error_before, sizeof rp_error_before - 1) == 0) return 1;
    snprintf(reason, size, "returned diopiSuccess and set diopiGetLastErrorString() to '%.200s'", msg);
    return 0;
}

/* ---- structural checks, in run_test's order */
static int rp_guards_ok(char* reason, size_t size) {
    for (int i = 0; i < rp_ntensors; ++i)
        if (dt_tensor_guard_ok(rp_tensors[i].handle) != 1) {
            snprintf(reason, size, "wrote outside a tensor's storage (guard bytes of %s overwritten)", rp_tensors[i].label);
            return 0;
        }
    return 1;
}

static void rp_format_dims(char* buf, size_t size, int64_t n, const int64_t* v) {
    buf[0] = '\0';
    rp_append(buf, size, NULL, "[");
    for (int64_t i = 0; i < n; ++i) rp_append(buf, size, NULL, i ? ", %lld" : "%lld", (long long)v[i]);
    rp_append(buf, size, NULL, "]");
}

static int rp_metadata_ok(char* reason, size_t size) {
    for (int i = 0; i < rp_ntensors; ++i) {
        const rp_tensor_t* t = &rp_tensors[i];
        int64_t nd = dt_tensor_ndim(t->handle);
        int same = nd == t->ndim && dt_tensor_dtype(t->handle) == t->dtype && dt_tensor_storage_offset(t->handle) == t->offset;
        int64_t shape[64], stride[64];
        for (int64_t d = 0; d < nd && d < 64; ++d) {
            shape[d] = dt_tensor_dim_size(t->handle, d);
            stride[d] = dt_tensor_dim_stride(t->handle, d);
            if (d < t->ndim) same = same && shape[d] == t->shape[d] && stride[d] == t->stride[d];
        }
        if (!same) {
            char was[512], now[512];
            rp_format_dims(was, sizeof was, t->ndim, t->shape);
            rp_format_dims(now, sizeof now, nd < 64 ? nd : 64, shape);
            snprintf(reason, size, "changed tensor metadata of %s: shape %s -> %s (strides, dtype and offset checked too)", t->label, was, now);
            return 0;
        }
    }
    return 1;
}

/* Storage of a written tensor outside its view (the gaps of a strided
 * output) must come back as it was given. */
static int rp_gaps_ok(char* reason, size_t size) {
    for (int i = 0; i < rp_ntensors; ++i) {
        const rp_tensor_t* t = &rp_tensors[i];
        if (t->role == RP_INPUT) continue;
        int64_t esize = dt_dtype_size(t->dtype), n = esize ? t->nbytes / esize : 0, numel = 1;
        for (int64_t d = 0; d < t->ndim; ++d) numel *= t->shape[d];
        if (numel == 0 || n <= numel) continue;
        unsigned char* inside = calloc((size_t)n, 1);
        unsigned char* now = malloc((size_t)t->nbytes);
        if (!inside || !now) rp_fatal("out of memory", t->label);
        for (int64_t k = 0; k < numel; ++k) {
            int64_t rest = k, off = 0;
            for (int64_t d = t->ndim - 1; d >= 0; --d) {
                off += (rest % t->shape[d]) * t->stride[d];
                rest /= t->shape[d];
            }
            if (off >= 0 && off < n) inside[off] = 1;
        }
        if (dt_tensor_read_storage(t->handle, now, t->nbytes) != 0) rp_fatal("dt_tensor_read_storage", dt_last_error());
        int64_t first = -1;
        for (int64_t e = 0; e < n && first < 0; ++e)
            if (!inside[e] && memcmp(now + e * esize, t->initial + e * esize, (size_t)esize) != 0) first = e;
        free(inside);
        free(now);
        if (first >= 0) {
            snprintf(reason, size, "wrote into the storage of %s between its elements (outside the view; first at storage index %lld)",
                     t->label, (long long)first);
            return 0;
        }
    }
    return 1;
}

static int rp_inputs_ok(char* reason, size_t size) {
    reason[0] = '\0';
    for (int i = 0; i < rp_ntensors; ++i) {
        const rp_tensor_t* t = &rp_tensors[i];
        if (t->role != RP_INPUT) continue;
        unsigned char* now = malloc(t->nbytes > 0 ? (size_t)t->nbytes : 1);
        if (!now) rp_fatal("out of memory", t->label);
        if (t->nbytes && dt_tensor_read_storage(t->handle, now, t->nbytes) != 0) rp_fatal("dt_tensor_read_storage", dt_last_error());
        int64_t esize = dt_dtype_size(t->dtype), first = -1, changed = 0;
        for (int64_t e = 0; e * esize < t->nbytes; ++e)
            if (memcmp(now + e * esize, t->initial + e * esize, (size_t)esize) != 0) {
                if (first < 0) first = e;
                ++changed;
            }
        free(now);
        if (changed)
            rp_append(reason, size, ", ", "%s (%lld storage elements changed, the first at storage index %lld)", t->label,
                      (long long)changed, (long long)first);
    }
    if (!reason[0]) return 1;
    char list[4096];
    snprintf(list, sizeof list, "%s", reason);
    snprintf(reason, size, "modified read-only input %s", list);
    return 0;
}

/* ---- value comparison (conformance/compare.py in C) */
typedef struct {
    double re, im;
} rp_value_t;

static double rp_half(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

static rp_value_t rp_element(const unsigned char* p, int32_t dtype) {
    rp_value_t v = {0.0, 0.0};
    switch (dtype) {
        case diopi_dtype_int8: { int8_t x; memcpy(&x, p, 1); v.re = x; break; }
        case diopi_dtype_uint8: v.re = p[0]; break;
        case diopi_dtype_bool: v.re = p[0]; break;
        case diopi_dtype_int16: { int16_t x; memcpy(&x, p, 2); v.re = x; break; }
        case diopi_dtype_uint16: { uint16_t x; memcpy(&x, p, 2); v.re = x; break; }
        case diopi_dtype_int32: { int32_t x; memcpy(&x, p, 4); v.re = x; break; }
        case diopi_dtype_uint32: { uint32_t x; memcpy(&x, p, 4); v.re = x; break; }
        case diopi_dtype_int64: { int64_t x; memcpy(&x, p, 8); v.re = (double)x; break; }
        case diopi_dtype_uint64: { uint64_t x; memcpy(&x, p, 8); v.re = (double)x; break; }
        case diopi_dtype_float16: { uint16_t x; memcpy(&x, p, 2); v.re = rp_half(x); break; }
        case diopi_dtype_bfloat16: { uint16_t x; memcpy(&x, p, 2); uint32_t w = (uint32_t)x << 16; float f; memcpy(&f, &w, 4); v.re = f; break; }
        case diopi_dtype_float32: { float x; memcpy(&x, p, 4); v.re = x; break; }
        case diopi_dtype_float64: memcpy(&v.re, p, 8); break;
        case diopi_dtype_complex64: { float x[2]; memcpy(x, p, 8); v.re = x[0]; v.im = x[1]; break; }
        case diopi_dtype_complex128: memcpy(&v.re, p, 8); memcpy(&v.im, p + 8, 8); break;
        default: break;
    }
    return v;
}

static void rp_format_value(char* buf, size_t size, rp_value_t v, int32_t dtype) {
    if (dtype == diopi_dtype_complex64 || dtype == diopi_dtype_complex128)
        snprintf(buf, size, "(%.9g%+.9gj)", v.re, v.im);
    else if (rp_is_floating(dtype))
        snprintf(buf, size, "%.9g", v.re);
    else
        snprintf(buf, size, "%.17g", v.re);
}

/* The elements a tensor views, gathered in row-major order. */
static unsigned char* rp_gather(diopiConstTensorHandle_t t, int64_t* numel) {
    int64_t nd = dt_tensor_ndim(t), esize = dt_dtype_size(dt_tensor_dtype(t)), nbytes = dt_tensor_storage_nbytes(t);
    int64_t off = dt_tensor_storage_offset(t), n = 1;
    for (int64_t d = 0; d < nd; ++d) n *= dt_tensor_dim_size(t, d);
    unsigned char* storage = malloc(nbytes > 0 ? (size_t)nbytes : 1);
    unsigned char* out = malloc(n * esize > 0 ? (size_t)(n * esize) : 1);
    if (!storage || !out) rp_fatal("out of memory", "gathering an output");
    if (nbytes && dt_tensor_read_storage(t, storage, nbytes) != 0) rp_fatal("dt_tensor_read_storage", dt_last_error());
    for (int64_t i = 0; i < n; ++i) {
        int64_t rest = i, at = off;
        for (int64_t d = nd - 1; d >= 0; --d) {
            int64_t size = dt_tensor_dim_size(t, d);
            at += (rest % size) * dt_tensor_dim_stride(t, d);
            rest /= size;
        }
        if (at < 0 || (at + 1) * esize > nbytes) rp_fatal("output views outside its storage", "");
        memcpy(out + i * esize, storage + at * esize, (size_t)esize);
    }
    free(storage);
    *numel = n;
    return out;
}

static int rp_is_sentinel(const unsigned char* p, int32_t dtype, const unsigned char* sentinel, int nan_sentinel) {
    if (nan_sentinel) return isnan(rp_element(p, dtype).re);
    return memcmp(p, sentinel, (size_t)dt_dtype_size(dtype)) == 0;
}

/* Compares one output with its reference; 0 when it matches. `exact` for
 * integer and bool outputs. `sentinel` (NULL when the output was not
 * pre-filled) lets elements left unwritten be named as such. */
static inline int rp_check_tensor(const char* label, diopiConstTensorHandle_t t, const char* expected_file, int32_t dtype, int64_t ndim,
                           const int64_t* shape, double atol, double rtol, int exact, const unsigned char* sentinel, int nan_sentinel,
                           const char* defined_file) {
    if (!t) {
        rp_append(rp_message, sizeof rp_message, "; ", "%s: the library did not allocate the output", label);
        return 1;
    }
    if (dt_tensor_dtype(t) != dtype) {
        rp_append(rp_message, sizeof rp_message, "; ", "%s: dtype %s, expected %s", label, rp_dtype_name(dt_tensor_dtype(t)), rp_dtype_name(dtype));
        return 1;
    }
    int64_t nd = dt_tensor_ndim(t), got_shape[64];
    int same_shape = nd == ndim && nd <= 64;
    for (int64_t d = 0; d < nd && d < 64; ++d) {
        got_shape[d] = dt_tensor_dim_size(t, d);
        if (same_shape && got_shape[d] != shape[d]) same_shape = 0;
    }
    if (!same_shape) {
        char a[512], b[512];
        rp_format_dims(a, sizeof a, nd < 64 ? nd : 64, got_shape);
        rp_format_dims(b, sizeof b, ndim, shape);
        rp_append(rp_message, sizeof rp_message, "; ", "%s: shape %s != expected %s", label, a, b);
        return 1;
    }
    int64_t n, esize = dt_dtype_size(dtype);
    unsigned char* got = rp_gather(t, &n);
    unsigned char* want = rp_load(expected_file, n * esize);
    unsigned char* defined = defined_file ? rp_load(defined_file, n) : NULL; /* 0: the value is not defined there */
    int64_t bad = 0, first = -1;
    double max_abs = 0.0, max_rel = 0.0;
    int unwritten = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (defined && !defined[i]) continue;
        rp_value_t a = rp_element(got + i * esize, dtype), e = rp_element(want + i * esize, dtype);
        double diff = hypot(a.re - e.re, a.im - e.im), mag = hypot(e.re, e.im), rel;
        int close;
        if (exact) {
            close = a.re == e.re && a.im == e.im;
            rel = diff / (mag > 1.0 ? mag : 1.0);
        } else {
            int nan_a = isnan(a.re) || isnan(a.im), nan_e = isnan(e.re) || isnan(e.im);
            int inf_a = isinf(a.re) || isinf(a.im), inf_e = isinf(e.re) || isinf(e.im);
            int finite = !(nan_a || nan_e || inf_a || inf_e);
            close = (finite && diff <= atol + rtol * mag) || (nan_a && nan_e) || (inf_a && inf_e && a.re == e.re && a.im == e.im);
            rel = finite && mag > 0 ? diff / mag : (finite && diff == 0 ? 0.0 : INFINITY);
            if (!finite) diff = INFINITY;
        }
        if (close) continue;
        if (first < 0) first = i;
        ++bad;
        if (diff > max_abs || bad == 1) max_abs = diff;
        if (rel > max_rel || bad == 1) max_rel = rel;
        if (sentinel && rp_is_sentinel(got + i * esize, dtype, sentinel, nan_sentinel) &&
            !rp_is_sentinel(want + i * esize, dtype, sentinel, nan_sentinel))
            unwritten = 1;
    }
    if (bad) {
        char where[512], gv[128], ev[128];
        int64_t idx[64], rest = first;
        for (int64_t d = ndim - 1; d >= 0; --d) {
            idx[d] = rest % shape[d];
            rest /= shape[d];
        }
        rp_format_dims(where, sizeof where, ndim, idx);
        rp_format_value(gv, sizeof gv, rp_element(got + first * esize, dtype), dtype);
        rp_format_value(ev, sizeof ev, rp_element(want + first * esize, dtype), dtype);
        if (exact)
            rp_append(rp_message, sizeof rp_message, "; ", "%s: values differ (exact comparison)", label);
        else
            rp_append(rp_message, sizeof rp_message, "; ", "%s: values differ beyond atol=%g rtol=%g", label, atol, rtol);
        rp_append(rp_message, sizeof rp_message, NULL, ": %lld/%lld elements differ, max abs %.3g, max rel %.3g, first at %s: got %s, expected %s",
                  (long long)bad, (long long)n, max_abs, max_rel, where, gv, ev);
        if (!rp_has_stats) {
            rp_has_stats = 1;
            rp_max_abs = max_abs;
            rp_max_rel = max_rel;
            rp_mismatches = bad;
        }
        if (unwritten) rp_append(rp_unwritten, sizeof rp_unwritten, ", ", "%s", label);
    }
    free(got);
    free(want);
    free(defined);
    return bad != 0;
}

static inline int rp_check_number(const char* label, double got, double expected, double atol, double rtol, int exact) {
    int ok = exact ? got == expected : (fabs(got - expected) <= atol + rtol * fabs(expected) || (isnan(got) && isnan(expected)));
    if (!ok) rp_append(rp_message, sizeof rp_message, "; ", "%s: got %.17g, expected %.17g", label, got, expected);
    return !ok;
}

/* Random operators: values are checked by statistics in the harness, so
 * the program writes what the library produced next to the data. */
static inline void rp_dump(const char* label, const char* file, diopiConstTensorHandle_t t) {
    if (!t) return;
    int64_t n;
    unsigned char* got = rp_gather(t, &n);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", rp_data_dir, file);
    FILE* f = fopen(path, "wb");
    if (f) {
        fwrite(got, 1, (size_t)(n * dt_dtype_size(dt_tensor_dtype(t))), f);
        fclose(f);
        printf("%s: %lld elements written to %s\n", label, (long long)n, path);
    }
    free(got);
}

static int rp_values_verdict(void) {
    if (!rp_message[0]) return rp_verdict("passed", "");
    if (rp_unwritten[0]) {
        char reason[sizeof rp_message + sizeof rp_unwritten + 64];
        snprintf(reason, sizeof reason, "left elements of %s unwritten; %s", rp_unwritten, rp_message);
        return rp_verdict("unwritten", reason);
    }
    return rp_verdict("failed", rp_message);
}
