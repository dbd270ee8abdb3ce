// Rotary position embedding: the flash-attention style operator (half-split or interleaved pairs, conj for the
// inverse rotation, partial rotary dims) and the in-place query/key variant of lightllm / Ascend.
#include <string>

#include "helper.hpp"

using namespace impl::aten;

namespace {

at::ScalarType computeType(const at::Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

void requireFloating(const at::Tensor& t, const char* name) {
    if (!at::isFloatingType(t.scalar_type())) fail(std::string(name) + " must be a floating-point tensor", diopiDtypeNotSupported);
}

// q/k as (..., heads, head_dim): a tensor whose last dim is head_dim and that has at least 3 dims is taken as
// (..., heads, head_dim) already; otherwise its last dim holds heads * head_dim.
at::Tensor headsView(const at::Tensor& t, int64_t dim, const char* name) {
    if (t.dim() < 2) fail(std::string(name) + " must have at least 2 dims");
    if (t.size(-1) == dim && t.dim() >= 3) return t;
    if (t.size(-1) % dim != 0) fail(std::string(name) + ": last dim is not a multiple of dim");
    std::vector<int64_t> shape(t.sizes().begin(), t.sizes().end() - 1);
    shape.push_back(t.size(-1) / dim);
    shape.push_back(dim);
    return t.reshape(shape);
}

// cos / sin against a (..., heads, head_dim) tensor: lower-rank tables get a head axis of 1 before the last dim and
// then broadcast from the right, e.g. (T, c) -> (T, 1, c), (S, c) -> (S, 1, c) against (B, S, N, D).
at::Tensor tableView(const at::Tensor& c, int64_t rank, const char* name) {
    if (c.dim() < 1 || c.dim() > rank) fail(std::string(name) + " has more dims than the rotated tensor");
    return c.dim() < rank ? c.unsqueeze(-2) : c;
}

void rotateInPlace(const at::Tensor& t, const at::Tensor& cosT, const at::Tensor& sinT, int64_t dim, const char* name) {
    requireFloating(t, name);
    auto ct = computeType(t);
    at::Tensor x = headsView(t, dim, name).to(ct);
    at::Tensor c = tableView(cosT, x.dim(), "cos").to(ct), s = tableView(sinT, x.dim(), "sin").to(ct);
    int64_t half = dim / 2;
    at::Tensor c0, c1, s0, s1;
    if (c.size(-1) == dim) {
        c0 = c.narrow(-1, 0, half), c1 = c.narrow(-1, half, half), s0 = s.narrow(-1, 0, half), s1 = s.narrow(-1, half, half);
    } else if (c.size(-1) == half) {
        c0 = c1 = c, s0 = s1 = s;
    } else {
        fail("cos / sin last dim must be dim or dim / 2");
    }
    at::Tensor x0 = x.narrow(-1, 0, half), x1 = x.narrow(-1, half, half);
    at::Tensor o0 = x0 * c0 - x1 * s0, o1 = x1 * c1 + x0 * s1;
    if (o0.sizes() != x0.sizes() || o1.sizes() != x1.sizes()) fail(std::string("cos / sin do not broadcast to ") + name);
    t.copy_(at::cat({o0, o1}, -1).reshape(t.sizes()));
}

}  // namespace

extern "C" {

// x (..., D); cos / sin (..., R/2) with R <= D even, broadcastable (right-aligned) to x[..., :R/2] (e.g. (S, 1, R/2)
// for x (B, S, H, D)); out like x. The first R features are rotated, the rest copied. With x1, x2 the two halves of
// x[..., :R] (interleaved = false) or its even / odd features (interleaved = true):
//   out1 = x1 * cos - x2 * sin,  out2 = x1 * sin + x2 * cos    (conj = true: sin negated, the inverse rotation)
// and out1 / out2 are stored back to the positions x1 / x2 came from. Computed in float32 (float64 for float64).
diopiError_t diopiRotaryEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t x, diopiConstTensorHandle_t cos,
                                  diopiConstTensorHandle_t sin, const bool conj, const bool interleaved) {
    DIOPI_IMPL_BEGIN
    at::Tensor X = tensor(x, "x"), C = tensor(cos, "cos"), S = tensor(sin, "sin");
    requireFloating(X, "x");
    if (X.dim() < 1) fail("x must have at least 1 dim");
    if (C.sizes() != S.sizes()) fail("cos and sin must have the same shape");
    if (C.dim() < 1) fail("cos must have at least 1 dim");
    int64_t d = X.size(-1), half = C.size(-1), r = 2 * half;
    if (r > d) fail("cos / sin last dim must be at most half of x's last dim");
    auto ct = computeType(X);
    at::Tensor xf = X.to(ct), c = C.to(ct), s = conj ? -S.to(ct) : S.to(ct);
    at::Tensor xr = xf.narrow(-1, 0, r);
    at::Tensor x1 = interleaved ? xr.slice(-1, 0, r, 2) : xr.narrow(-1, 0, half);
    at::Tensor x2 = interleaved ? xr.slice(-1, 1, r, 2) : xr.narrow(-1, half, half);
    at::Tensor o1 = x1 * c - x2 * s, o2 = x1 * s + x2 * c;
    if (o1.sizes() != x1.sizes()) fail("cos / sin do not broadcast to x[..., :rotary_dim / 2]");
    at::Tensor rot = interleaved ? at::stack({o1, o2}, -1).flatten(-2) : at::cat({o1, o2}, -1);
    assign(out, r < d ? at::cat({rot, xf.narrow(-1, r, d - r)}, -1) : rot, "out");
    DIOPI_IMPL_END
}

// In place on query and key (key may be NULL), half-split rotation of every head of size dim:
//   out[:dim/2] = x0 * cos0 - x1 * sin0,  out[dim/2:] = x1 * cos1 + x0 * sin1
// with x0 / x1 the halves of a head. query / key: (T, heads * dim), (T, heads, dim), (B, S, heads * dim) or
// (B, S, heads, dim) (key may have fewer heads). cos / sin: last dim dim / 2 (cos0 = cos1 = cos) or dim (cos0 / cos1
// its halves, the rotate_half form); leading dims index tokens, e.g. (T, c), (S, c), (B, S, c) or (B, S, 1, c).
diopiError_t diopiRotaryEmbeddingV2(diopiContextHandle_t ctx, diopiTensorHandle_t query, diopiTensorHandle_t key, diopiConstTensorHandle_t cos,
                                    diopiConstTensorHandle_t sin, int64_t dim) {
    DIOPI_IMPL_BEGIN
    if (dim <= 0 || dim % 2 != 0) fail("dim must be positive and even");
    at::Tensor C = tensor(cos, "cos"), S = tensor(sin, "sin");
    if (C.sizes() != S.sizes()) fail("cos and sin must have the same shape");
    rotateInPlace(tensor(query, "query"), C, S, dim, "query");
    if (key != nullptr) rotateInPlace(tensor(key, "key"), C, S, dim, "key");
    DIOPI_IMPL_END
}

}  // extern "C"
