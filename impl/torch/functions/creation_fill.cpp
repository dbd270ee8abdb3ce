// Creation and fill.
#include "helper.hpp"

using namespace impl::aten;

extern "C" {

diopiError_t diopiFill(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* value) {
    DIOPI_IMPL_BEGIN
    tensor(input, "input").fill_(scalar(value, "value"));
    DIOPI_IMPL_END
}

}  // extern "C"
