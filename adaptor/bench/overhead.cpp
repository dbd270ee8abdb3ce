// What the adaptor adds around a kernel: time per call and temporaries per
// call, for the wrapped diopiAbs (from libdiopi_impl.so, loaded with dlopen)
// against the vendor's kernel called directly (linked from the kernels
// archive), with tensors that need no conversion and with tensors that do.
//
//   overhead [path/to/libdiopi_impl.so] [iterations]
//
// Temporaries are counted with the test runtime's dt_context_required_count:
// the adaptor allocates only through diopiRequireTensor and copies only into
// what it allocated, so 0 temporaries also means 0 copies.
#include <diopi/functions.h>
#include <diopi_test/testrt.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#ifndef DIOPI_BENCH_VENDOR
#error "define DIOPI_BENCH_VENDOR (the kernels' namespace under impl::)"
#endif

namespace impl::DIOPI_BENCH_VENDOR {
diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);
}

namespace {

constexpr int kBatch = 100;
using AbsFn = diopiError_t (*)(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t);
using ConvFn = const char* (*)();

struct Case {
    const char* dtypeName;
    const char* what;
    AbsFn fn;
    bool wrapped;
    diopiTensorHandle_t in, out;
    std::vector<double> nsPerCall;  // one sample per batch
    int64_t required = 0, calls = 0;
    std::string conversions;
};

diopiTensorHandle_t makeTensor(int64_t n, diopiDtype_t dtype) {
    int64_t shape[1] = {n};
    diopiTensorHandle_t t = dt_tensor_create(shape, nullptr, 1, dtype, 0, -1, diopi_device);
    // -1.0 in every element, so abs() has work to do.
    if (dtype == diopi_dtype_float32) {
        std::vector<float> v(n, -1.0f);
        dt_tensor_write_storage(t, v.data(), n * 4);
    } else {
        std::vector<double> v(n, -1.0);
        dt_tensor_write_storage(t, v.data(), n * 8);
    }
    return t;
}

// One batch of calls in a fresh context (so the temporaries of converting
// calls do not pile up); returns ns per call.
double batch(Case& c, ConvFn conv, int calls) {
    diopiContextHandle_t ctx = dt_context_create();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) {
        if (c.fn(ctx, c.out, c.in) != diopiSuccess) {
            std::fprintf(stderr, "diopiAbs (%s) failed\n", c.what);
            std::exit(1);
        }
    }
    auto t1 = std::chrono::steady_clock::now();
    c.required += dt_context_required_count(ctx);
    c.calls += calls;
    if (c.wrapped) c.conversions = conv();
    dt_context_destroy(ctx);
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / calls;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : DIOPI_BENCH_IMPL_LIB;
    int iterations = argc > 2 ? std::atoi(argv[2]) : 20000;
    if (dt_init() != 0) {
        std::fprintf(stderr, "dt_init failed: %s\n", dt_last_error());
        return 1;
    }
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        return 1;
    }
    auto wrapped = reinterpret_cast<AbsFn>(dlsym(lib, "diopiAbs"));
    auto conv = reinterpret_cast<ConvFn>(dlsym(lib, "diopiAdaptorLastConversions"));
    if (!wrapped || !conv) {
        std::fprintf(stderr, "%s does not export diopiAbs and diopiAdaptorLastConversions\n", path);
        return 1;
    }
    AbsFn direct = &impl::DIOPI_BENCH_VENDOR::diopiAbs;

    std::printf("adaptor overhead: diopiAbs, %d calls per row in batches of %d, rows interleaved, medians\n", iterations, kBatch);
    std::printf("%-7s %-8s %-14s %12s %14s %11s  %s\n", "numel", "dtype", "call", "ns/call", "vs direct", "temps/call", "conversions");
    for (int64_t n : {int64_t(1), int64_t(4096), int64_t(262144)}) {
        int rounds = std::max(5, (n > 100000 ? iterations / 100 : iterations) / kBatch);
        std::vector<Case> cases = {
            {"float32", "kernel direct", direct, false, makeTensor(n, diopi_dtype_float32), makeTensor(n, diopi_dtype_float32)},
            {"float32", "wrapped", wrapped, true, makeTensor(n, diopi_dtype_float32), makeTensor(n, diopi_dtype_float32)},
            {"float64", "wrapped", wrapped, true, makeTensor(n, diopi_dtype_float64), makeTensor(n, diopi_dtype_float64)},
        };
        for (Case& c : cases) batch(c, conv, kBatch);  // warm-up
        for (Case& c : cases) c.required = c.calls = 0;
        // Interleaving the rows spreads the machine's load over all of them;
        // the difference to the direct call is taken within each round.
        std::vector<std::vector<double>> diff(cases.size());
        for (int r = 0; r < rounds; ++r) {
            double base = 0;
            for (size_t k = 0; k < cases.size(); ++k) {
                double ns = batch(cases[k], conv, kBatch);
                cases[k].nsPerCall.push_back(ns);
                if (k == 0) base = ns;
                diff[k].push_back(ns - base);
            }
        }
        for (size_t k = 0; k < cases.size(); ++k) {
            Case& c = cases[k];
            char vs[32] = "";
            if (k > 0) std::snprintf(vs, sizeof vs, "%+.1f ns", median(diff[k]));
            std::printf("%-7lld %-8s %-14s %12.1f %14s %11.2f  %s\n", static_cast<long long>(n), c.dtypeName, c.what, median(c.nsPerCall), vs,
                        double(c.required) / double(c.calls), !c.wrapped ? "-" : c.conversions.empty() ? "(none)" : c.conversions.c_str());
            dt_tensor_destroy(c.in);
            dt_tensor_destroy(c.out);
        }
    }
    return 0;
}
