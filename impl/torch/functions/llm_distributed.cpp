// Fused distributed operators, over a communicator of the collective interface (collective.cpp) when `group`
// names one, otherwise over a world of one.
#include <cstring>
#include <string>

#include "helper.hpp"
#include <diopi/collective.h>

using namespace impl::aten;

#ifdef DIOPI_TORCH_COLLECTIVES
struct diopiComm;
diopiComm* diopiTorchCommByName(const char* group);
void diopiTorchAllReduceInPlace(diopiComm* comm, at::Tensor& t, diopiReduceOp_t op);
#endif

extern "C" {

// out = x1 @ x2 (+ bias), then an all-reduce over the communicator named `group` (diopiCommGetName()); NULL or ""
// mean a world of one, where the all-reduce is the identity. reduce_op must be "sum" (NULL or "" mean "sum");
// comm_turn and stream_mode are scheduling hints without effect. x1 (..., M, K) (e.g. (M, K) or (B, S, K)), x2 (K, N)
// (matmul broadcasting), bias NULL or (N), added once after the reduction. Half types multiply and reduce in float32,
// float64 in float64, and are rounded once at the end.
diopiError_t diopiMatmulAllReduce(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t x1, diopiConstTensorHandle_t x2,
                                  diopiConstTensorHandle_t bias, const char* group, const char* reduce_op, int64_t comm_turn, int64_t stream_mode) {
    DIOPI_IMPL_BEGIN
    if (reduce_op != nullptr && reduce_op[0] != '\0' && std::strcmp(reduce_op, "sum") != 0)
        fail(std::string("reduce_op must be \"sum\", got \"") + reduce_op + "\"");
    at::Tensor a = tensor(x1, "x1"), b = tensor(x2, "x2"), c = optTensor(bias);
    if (!at::isFloatingType(a.scalar_type()) || !at::isFloatingType(b.scalar_type())) fail("x1 and x2 must be floating-point tensors", diopiDtypeNotSupported);
    if (a.dim() < 1 || b.dim() < 1) fail("x1 and x2 must have at least 1 dim");
    auto ct = a.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
    at::Tensor r = at::matmul(a.to(ct), b.to(ct)).contiguous();
#ifdef DIOPI_TORCH_COLLECTIVES
    if (diopiComm* comm = diopiTorchCommByName(group)) diopiTorchAllReduceInPlace(comm, r, diopiReduceSum);
#endif  // without the collective interface there are no communicators: every name is a world of one
    if (c.defined()) r = r + c.to(ct);
    assign(out, r, "out");
    DIOPI_IMPL_END
}

}  // extern "C"
