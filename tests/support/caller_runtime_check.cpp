// Exercises proto/support/include/diopi_support with a toy tensor type, the
// way a caller adopts it; prints what tests/test_support.py checks.
#include <cstdio>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "diopi_support/caller_runtime.hpp"
#include "diopi_support/dtypes.hpp"
#include "diopi_support/json.hpp"

struct diopiTensor {
    std::vector<int64_t> shape, stride;
    diopiDtype_t dtype = diopi_dtype_float32;
    diopiDevice_t device = diopi_host;
    std::vector<unsigned char> bytes;
    bool poisoned = false;  // the traits throw for this tensor
};
struct diopiContext {
    std::deque<diopiTensor> owned;
};
struct diopiGenerator {
    uint64_t seed = 0, offset = 0;
    std::vector<uint8_t> state;
};

namespace {
std::string gError;

const diopiTensor& T(diopiConstTensorHandle_t h) {
    if (h->poisoned) throw std::runtime_error("poisoned tensor");
    return *h;
}

struct ToyTraits {
    static void* data(diopiTensorHandle_t h) { return const_cast<unsigned char*>(T(h).bytes.data()); }
    static const void* constData(diopiConstTensorHandle_t h) { return T(h).bytes.data(); }
    static diopiSize_t shape(diopiConstTensorHandle_t h) { return {T(h).shape.data(), static_cast<int64_t>(T(h).shape.size())}; }
    static diopiSize_t stride(diopiConstTensorHandle_t h) { return {T(h).stride.data(), static_cast<int64_t>(T(h).stride.size())}; }
    static diopiDtype_t dtype(diopiConstTensorHandle_t h) { return T(h).dtype; }
    static diopiDevice_t device(diopiConstTensorHandle_t h) { return T(h).device; }
    static int64_t numel(diopiConstTensorHandle_t h) {
        int64_t n = 1;
        for (auto s : T(h).shape) n *= s;
        return n;
    }
    static void* storagePtr(diopiConstTensorHandle_t h) { return const_cast<unsigned char*>(T(h).bytes.data()); }
    static int64_t storageOffset(diopiConstTensorHandle_t) { return 0; }
    static size_t storageNbytes(diopiConstTensorHandle_t h) { return T(h).bytes.size(); }
    static diopiDeviceIndex_t deviceIndex(diopiConstTensorHandle_t) { return 0; }
    static diopiDeviceIndex_t currentDeviceIndex() { return 0; }
    static diopiStreamHandle_t stream(diopiContextHandle_t) { return nullptr; }
    static diopiTensorHandle_t requireTensor(diopiContextHandle_t ctx, const diopiSize_t& size, const diopiSize_t* stride, diopiDtype_t dtype,
                                             diopiDevice_t device) {
        diopiTensor t;
        t.shape.assign(size.data, size.data + size.len);
        if (stride) t.stride.assign(stride->data, stride->data + stride->len);
        t.dtype = dtype;
        t.device = device;
        int64_t n = 1;
        for (auto s : t.shape) n *= s;
        t.bytes.assign(static_cast<size_t>(n * diopi_support::dtypeSize(dtype)), 0);
        ctx->owned.push_back(t);
        return &ctx->owned.back();
    }
    static std::vector<uint8_t> hostBytes(diopiConstTensorHandle_t h) { return T(h).bytes; }
    static std::vector<uint8_t> generatorState(diopiConstGeneratorHandle_t g) { return g->state; }
    static void setGeneratorState(diopiGeneratorHandle_t g, std::vector<uint8_t> s) { g->state = std::move(s); }
    static void seedAndOffset(diopiGeneratorHandle_t g, uint64_t* seed, uint64_t* offset) {
        *seed = g->seed;
        *offset = g->offset;
    }
    static void setSeedAndOffset(diopiGeneratorHandle_t g, uint64_t seed, uint64_t offset) {
        g->seed = seed;
        g->offset = offset;
    }
    static void error(const char* why) { gError = why; }
};
}  // namespace

DIOPI_SUPPORT_DEFINE_CALLER_RUNTIME(ToyTraits)

int main(int argc, char** argv) {
    using diopi_support::JsonWriter;
    JsonWriter w;
    w.beginObject();
    // The dtype table, for every value the tests name.
    w.key("dtypes").beginObject();
    for (int d = 0; d < 256; ++d)
        if (diopi_support::dtypeSize(d)) w.key(std::to_string(d)).beginArray().value(diopi_support::dtypeName(d)).value(diopi_support::dtypeSize(d)).endArray();
    w.endObject();
    w.member("echo", argc > 1 ? argv[1] : "");

    diopiContext ctx;
    diopiTensor t;
    t.shape = {2, 3};
    t.stride = {3, 1};
    t.dtype = diopi_dtype_float16;
    t.bytes.assign(12, 7);
    diopiSize_t s{};
    int64_t n = -1, elem = -1;
    diopiDtype_t dt{};
    w.member("shape_status", static_cast<int>(diopiGetTensorShape(&t, &s)));
    w.key("shape").beginArray();
    for (int64_t i = 0; i < s.len; ++i) w.value(s.data[i]);
    w.endArray();
    w.member("numel_status", static_cast<int>(diopiGetTensorNumel(&t, &n))).member("numel", n);
    w.member("elem_status", static_cast<int>(diopiGetTensorElemSize(&t, &elem))).member("elem", elem);
    w.member("dtype_status", static_cast<int>(diopiGetTensorDtype(&t, &dt))).member("dtype", static_cast<int>(dt));
    w.member("null_handle", static_cast<int>(diopiGetTensorNumel(nullptr, &n)));
    w.member("null_out", static_cast<int>(diopiGetTensorNumel(&t, nullptr)));
    diopiTensor bad = t;
    bad.poisoned = true;
    w.member("throwing_traits", static_cast<int>(diopiGetTensorShape(&bad, &s))).member("error", gError);
    diopiTensor odd = t;
    odd.dtype = diopi_dtype_unsupported;
    w.member("unsupported_dtype", static_cast<int>(diopiGetTensorDtype(&odd, &dt)));

    diopiTensorHandle_t out = nullptr;
    w.member("buffer_negative", static_cast<int>(diopiRequireBuffer(&ctx, &out, -1, diopi_host)));
    w.member("buffer_status", static_cast<int>(diopiRequireBuffer(&ctx, &out, 10, diopi_device)));
    w.member("buffer_bytes", out ? out->bytes.size() : 0).member("buffer_dtype", out ? static_cast<int>(out->dtype) : -1);
    int64_t badShape[] = {2, -1};
    diopiSize_t negative{badShape, 2};
    w.member("negative_size", static_cast<int>(diopiRequireTensor(&ctx, &out, &negative, nullptr, diopi_dtype_float32, diopi_host)));

    diopiGenerator g;
    g.state = {1, 2, 3};
    diopiTensorHandle_t st = nullptr;
    w.member("state_status", static_cast<int>(diopiGeneratorGetState(&ctx, &g, &st)));
    w.key("state").beginArray();
    if (st)
        for (auto b : st->bytes) w.value(static_cast<int>(b));
    w.endArray();
    w.member("state_device", st ? static_cast<int>(st->device) : -1);
    diopiGenerator g2;
    w.member("set_state_status", static_cast<int>(diopiGeneratorSetState(&g2, st))).member("set_state_size", g2.state.size());
    w.member("version", diopiGetVersion());
    w.endObject();
    std::printf("%s\n", w.str().c_str());
    return 0;
}
