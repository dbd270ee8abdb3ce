// The same call from C++: the headers compile as C++ and link without a wrapper.
#include <diopi/functions.h>
#include <diopi_test/testrt.h>

#include <array>
#include <cstdio>
#include <cstring>

int main() {
    if (dt_init() != 0) return std::fprintf(stderr, "dt_init: %s\n", dt_last_error()), 2;
    const std::array<int64_t, 2> shape{2, 3};
    auto make = [&] { return dt_tensor_create(shape.data(), nullptr, 2, diopi_dtype_float32, 0, -1, diopi_host); };
    diopiTensorHandle_t x = make(), out = make();
    std::array<float, 6> vx{-3, -1, 0, 1, 2, 5}, vo{};
    dt_tensor_write_storage(x, vx.data(), sizeof vx);
    diopiContextHandle_t ctx = dt_context_create();
    if (diopiRelu(ctx, out, x) != diopiSuccess) return std::fprintf(stderr, "diopiRelu: %s\n", diopiGetLastErrorString()), 1;
    dt_context_sync(ctx);
    dt_tensor_read_storage(out, vo.data(), sizeof vo);
    for (size_t i = 0; i < vx.size(); ++i)
        if (vo[i] != (vx[i] > 0 ? vx[i] : 0)) return std::fprintf(stderr, "out[%zu] = %g\n", i, vo[i]), 1;
    if (std::strcmp(diopiGetVendorName(), EXPECTED_VENDOR) != 0) return 1;
    std::printf("ok %s\n", diopiGetVendorName());
    dt_context_destroy(ctx);
    dt_tensor_destroy(x);
    dt_tensor_destroy(out);
    dt_finalize();
    return 0;
}
