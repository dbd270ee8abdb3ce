// Matrix products and linear algebra: mm, bmm, addmm, baddbmm, matmul (+ backward), linear (+ backward),
// cdist (+ backward), vector norm, cholesky (+ backward), triangular solve (+ backward), QR.
#include "helper.hpp"

#include <ATen/ExpandUtils.h>

using namespace impl::aten;

namespace {

at::Tensor sumTo(const at::Tensor& t, at::IntArrayRef sizes) { return t.sizes() == sizes ? t : t.sum_to_size(sizes); }

// ATen's CPU GEMM in float16/bfloat16, on a CPU without instructions for those
// types (no AVX512-BF16/FP16, no AMX), runs a scalar loop for two of the four
// operand layouts: 80 s for one 256x4096 by 4096x11008 product on a 2-core
// AVX2 machine, against 0.4 s in float32. It accumulates in float32 either
// way, so a product whose operands share one 16-bit float dtype is computed in
// float32 and rounded once, when written to the output.
bool viaFloat(std::initializer_list<at::Tensor> ts) {
    std::optional<at::ScalarType> type;
    for (const auto& t : ts) {
        if (!t.defined()) continue;
        if (type && *type != t.scalar_type()) return false;  // mixed dtypes: ATen's own checks decide
        type = t.scalar_type();
    }
    return type == at::kHalf || type == at::kBFloat16;
}

at::Tensor wide(const at::Tensor& t, bool on) { return on && t.defined() ? t.to(at::kFloat) : t; }

}  // namespace

extern "C" {

// ---- GEMM family
diopiError_t diopiMm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input"), b = tensor(mat2, "mat2");
    bool f = viaFloat({a, b});
    // Without the float32 detour the product is ATen's own, which can be written into the output directly.
    if (!f && a.dim() == 2 && b.dim() == 2 && a.scalar_type() == b.scalar_type()) {
        if (at::Tensor o = directOut(out, {a.size(0), b.size(1)}, a.scalar_type(), {a, b}); o.defined()) {
            at::mm_out(o, a, b);
            return;
        }
    }
    assign(out, at::mm(wide(a, f), wide(b, f)));
    DIOPI_IMPL_END
}

diopiError_t diopiBmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input"), b = tensor(mat2, "mat2");
    bool f = viaFloat({a, b});
    if (!f && a.dim() == 3 && b.dim() == 3 && a.scalar_type() == b.scalar_type()) {
        if (at::Tensor o = directOut(out, {a.size(0), a.size(1), b.size(2)}, a.scalar_type(), {a, b}); o.defined()) {
            at::bmm_out(o, a, b);
            return;
        }
    }
    assign(out, at::bmm(wide(a, f), wide(b, f)));
    DIOPI_IMPL_END
}

// out = beta * input + alpha * (mat1 @ mat2); input broadcasts to the product's shape.
diopiError_t diopiAddmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat1,
                        diopiConstTensorHandle_t mat2, const diopiScalar_t* beta, const diopiScalar_t* alpha) {
    DIOPI_IMPL_BEGIN
    at::Scalar b = beta ? scalar(beta, "beta") : at::Scalar(1), a = alpha ? scalar(alpha, "alpha") : at::Scalar(1);
    at::Tensor c = tensor(input, "input"), m1 = tensor(mat1, "mat1"), m2 = tensor(mat2, "mat2");
    bool f = viaFloat({c, m1, m2});
    if (!f && m1.dim() == 2 && m2.dim() == 2 && c.scalar_type() == m1.scalar_type() && m1.scalar_type() == m2.scalar_type()) {
        if (at::Tensor o = directOut(out, {m1.size(0), m2.size(1)}, m1.scalar_type(), {c, m1, m2}); o.defined()) {
            at::addmm_out(o, c, m1, m2, b, a);
            return;
        }
    }
    assign(out, at::addmm(wide(c, f), wide(m1, f), wide(m2, f), b, a));
    DIOPI_IMPL_END
}

// out = beta * input + alpha * (batch1 @ batch2), batched; input broadcasts.
diopiError_t diopiBaddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t batch1,
                          diopiConstTensorHandle_t batch2, double beta, double alpha) {
    DIOPI_IMPL_BEGIN
    at::Tensor c = tensor(input, "input"), b1 = tensor(batch1, "batch1"), b2 = tensor(batch2, "batch2");
    bool f = viaFloat({c, b1, b2});
    if (!f && b1.dim() == 3 && b2.dim() == 3 && c.scalar_type() == b1.scalar_type() && b1.scalar_type() == b2.scalar_type()) {
        if (at::Tensor o = directOut(out, {b1.size(0), b1.size(1), b2.size(2)}, b1.scalar_type(), {c, b1, b2}); o.defined()) {
            at::baddbmm_out(o, c, b1, b2, beta, alpha);
            return;
        }
    }
    assign(out, at::baddbmm(wide(c, f), wide(b1, f), wide(b2, f), beta, alpha));
    DIOPI_IMPL_END
}

diopiError_t diopiBaddbmmInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t batch1, diopiConstTensorHandle_t batch2,
                             double beta, double alpha) {
    DIOPI_IMPL_BEGIN
    at::Tensor c = tensor(input, "input"), b1 = tensor(batch1, "batch1"), b2 = tensor(batch2, "batch2");
    if (viaFloat({c, b1, b2})) {
        c.copy_(at::baddbmm(wide(c, true), wide(b1, true), wide(b2, true), beta, alpha));
    } else {
        c.baddbmm_(b1, b2, beta, alpha);
    }
    DIOPI_IMPL_END
}

// ---- matmul: numpy semantics (1-d operands, broadcast batch dims)
diopiError_t diopiMatmul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input"), b = tensor(other, "other");
    bool f = viaFloat({a, b});
    assign(out, at::matmul(wide(a, f), wide(b, f)));
    DIOPI_IMPL_END
}

// 1-d operands become a row (input) or a column (other); gradients over broadcast batch dims are summed.
diopiError_t diopiMatmulBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_other,
                                 diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(input, "input"), b = tensor(other, "other"), g = tensor(grad_out, "grad_out");
    if (a.dim() == 0 || b.dim() == 0) fail("matmul operands must have at least one dimension");
    bool aVec = a.dim() == 1, bVec = b.dim() == 1;
    at::Tensor a2 = aVec ? a.unsqueeze(0) : a, b2 = bVec ? b.unsqueeze(-1) : b;
    at::Tensor g2 = g;
    if (aVec) g2 = g2.unsqueeze(bVec ? 0 : -2);
    if (bVec) g2 = g2.unsqueeze(-1);
    if (grad_input) {
        at::Tensor ga = sumTo(at::matmul(g2, b2.mT()), a2.sizes());
        assign(grad_input, aVec ? ga.squeeze(0) : ga, "grad_input");
    }
    if (grad_other) {
        at::Tensor gb = sumTo(at::matmul(a2.mT(), g2), b2.sizes());
        assign(grad_other, bVec ? gb.squeeze(-1) : gb, "grad_other");
    }
    DIOPI_IMPL_END
}

// ---- linear: input @ weight^T + bias
diopiError_t diopiLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                         diopiConstTensorHandle_t bias) {
    DIOPI_IMPL_BEGIN
    at::Tensor x = tensor(input, "input"), w = tensor(weight, "weight"), b = optTensor(bias);
    bool f = viaFloat({x, w, b});
    assign(out, at::linear(wide(x, f), wide(w, f), b.defined() ? std::optional<at::Tensor>(wide(b, f)) : std::nullopt));
    DIOPI_IMPL_END
}

diopiError_t diopiLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                 diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                 diopiConstTensorHandle_t weight) {
    DIOPI_IMPL_BEGIN
    at::Tensor go = tensor(grad_output, "grad_output"), in = tensor(input, "input"), w = tensor(weight, "weight");
    bool f = viaFloat({go, in, w});
    if (grad_input) assign(grad_input, at::matmul(wide(go, f), wide(w, f)), "grad_input");
    // Fold leading batch dimensions so the weight gradient is one GEMM.
    at::Tensor go2 = go.reshape({-1, go.size(-1)});
    if (grad_weight) assign(grad_weight, at::mm(wide(go2, f).t(), wide(in.reshape({-1, in.size(-1)}), f)), "grad_weight");
    if (grad_bias) assign(grad_bias, go2.sum(0), "grad_bias");
    DIOPI_IMPL_END
}

// ---- cdist: p-norm distances between the rows of input1 (.., P, M) and input2 (.., R, M).
// compute_mode (NULL = 0): 0 uses a GEMM for p = 2 when P > 25 or R > 25, 1 always for p = 2, 2 never.
diopiError_t diopiCdist(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input1, diopiConstTensorHandle_t input2,
                        double p, const int64_t* compute_mode) {
    DIOPI_IMPL_BEGIN
    if (p < 0) fail("p must be non-negative");
    std::optional<int64_t> mode;
    if (compute_mode) {
        if (*compute_mode < 0 || *compute_mode > 2) fail("compute_mode must be 0, 1 or 2");
        mode = *compute_mode;
    }
    assign(out, at::cdist(tensor(input1, "input1"), tensor(input2, "input2"), p, mode));
    DIOPI_IMPL_END
}

// The gradient with respect to input1; cdist is the forward's output.
diopiError_t diopiCdistBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                diopiConstTensorHandle_t input1, diopiConstTensorHandle_t input2, double p, diopiConstTensorHandle_t cdist) {
    DIOPI_IMPL_BEGIN
    if (p < 0) fail("p must be non-negative");
    at::Tensor x1 = tensor(input1, "input1"), x2 = tensor(input2, "input2");
    if (x1.dim() < 2 || x2.dim() < 2) fail("cdist inputs must have at least 2 dimensions");
    auto batch = at::infer_size(x1.sizes().slice(0, x1.dim() - 2), x2.sizes().slice(0, x2.dim() - 2));
    std::vector<int64_t> s1(batch), s2(batch);
    s1.insert(s1.end(), {x1.size(-2), x1.size(-1)});
    s2.insert(s2.end(), {x2.size(-2), x2.size(-1)});
    std::vector<int64_t> sd(batch);
    sd.insert(sd.end(), {x1.size(-2), x2.size(-2)});
    at::Tensor g = at::_cdist_backward(tensor(grad_output, "grad_output").expand(sd).contiguous(), x1.expand(s1).contiguous(),
                                       x2.expand(s2).contiguous(), p, tensor(cdist, "cdist").expand(sd).contiguous());
    assign(grad_input, sumTo(g, x1.sizes()), "grad_input");
    DIOPI_IMPL_END
}

// ---- vector norm over dims (empty: all); ord NULL means 2
diopiError_t diopiLinalgVecNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiScalar_t* ord,
                                diopiSize_t dim, bool keepdim) {
    DIOPI_IMPL_BEGIN
    at::Scalar o = ord ? scalar(ord, "ord") : at::Scalar(2.0);
    at::OptionalIntArrayRef d;
    if (dim.len > 0) d = ints(dim);
    assign(out, at::linalg_vector_norm(tensor(input, "input"), o, d, keepdim));
    DIOPI_IMPL_END
}

// ---- Cholesky factor of a (batch of) symmetric positive-definite matrices; info (int32) is 0 or
// the order of the first non-positive leading minor; checkerror turns a non-zero info into an error.
diopiError_t diopiCholesky(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t info, diopiConstTensorHandle_t mat, bool upper,
                           bool checkerror) {
    DIOPI_IMPL_BEGIN
    auto [L, inf] = at::linalg_cholesky_ex(tensor(mat, "mat"), upper, false);
    if (checkerror && inf.ne(0).any().item<bool>()) fail("cholesky: the matrix is not positive-definite");
    assign(out, L);
    if (info) assign(info, inf, "info");
    DIOPI_IMPL_END
}

// grad_mat = Phi(L^H gL) solved from both sides, symmetrised (Murray 2016).
diopiError_t diopiCholeskyBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_mat, diopiConstTensorHandle_t grad_output,
                                   diopiConstTensorHandle_t L, bool upper) {
    DIOPI_IMPL_BEGIN
    at::Tensor l = tensor(L, "L"), gl = tensor(grad_output, "grad_output");
    if (upper) {
        l = l.mH();
        gl = gl.mH();
    }
    at::Tensor phi = at::matmul(l.mH(), gl).tril();
    phi = 0.5 * (phi + phi.tril(-1).mH());
    at::Tensor s = at::linalg_solve_triangular(l.mH(), phi, /*upper=*/true, /*left=*/true);
    s = at::linalg_solve_triangular(l, s, /*upper=*/false, /*left=*/false);
    assign(grad_mat, s, "grad_mat");
    DIOPI_IMPL_END
}

// ---- triangular solve: out = op(mat)^-1 b with op transposing when `transpose`; cloned_mat is a copy of mat.
diopiError_t diopiTriangularSolve(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t cloned_mat, diopiConstTensorHandle_t b,
                                  diopiConstTensorHandle_t mat, bool upper, bool transpose, bool unitriangular) {
    DIOPI_IMPL_BEGIN
    at::Tensor a = tensor(mat, "mat");
    auto [x, m] = at::triangular_solve(tensor(b, "b"), a, upper, transpose, unitriangular);
    assign(out, x);
    // The header's cloned_mat is a copy of mat; ATen's copy has the batch dims broadcast against b. Either shape is
    // accepted.
    if (cloned_mat) assign(cloned_mat, tensor(cloned_mat, "cloned_mat").sizes() == a.sizes() ? a : m, "cloned_mat");
    DIOPI_IMPL_END
}

// grad_x and grad_cloned_mat may be NULL (no gradient flows from that output).
diopiError_t diopiTriangularSolveBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_b, diopiTensorHandle_t grad_mat,
                                          diopiConstTensorHandle_t grad_x, diopiConstTensorHandle_t grad_cloned_mat, diopiConstTensorHandle_t x,
                                          diopiConstTensorHandle_t b, diopiConstTensorHandle_t mat, bool upper, bool transpose,
                                          bool unitriangular) {
    DIOPI_IMPL_BEGIN
    at::Tensor gx = optTensor(grad_x), gm = optTensor(grad_cloned_mat), xs = tensor(x, "x"), bb = tensor(b, "b"), a = tensor(mat, "mat");
    at::Tensor gb, ga;
    if (gx.defined()) {
        gb = std::get<0>(at::triangular_solve(gx, a.conj(), upper, !transpose, unitriangular));
        ga = transpose ? -at::matmul(xs.conj(), gb.mT()) : -at::matmul(gb, xs.mH());
        ga = upper ? ga.triu(unitriangular ? 1 : 0) : ga.tril(unitriangular ? -1 : 0);
        gb = sumTo(gb, bb.sizes());
        ga = sumTo(ga, a.sizes());
    } else {
        gb = at::zeros_like(bb);
        ga = at::zeros_like(a);
    }
    if (gm.defined()) ga = ga + gm;
    if (grad_b) assign(grad_b, gb, "grad_b");
    if (grad_mat) assign(grad_mat, ga, "grad_mat");
    DIOPI_IMPL_END
}

// ---- QR: mode "reduced" (NULL), "complete" or "r" (Q is then empty)
diopiError_t diopiLinalgQR(diopiContextHandle_t ctx, diopiConstTensorHandle_t A, const char* mode, diopiTensorHandle_t Q, diopiTensorHandle_t R) {
    DIOPI_IMPL_BEGIN
    c10::string_view m = mode ? c10::string_view(mode) : c10::string_view("reduced");
    if (m != "reduced" && m != "complete" && m != "r") fail("mode must be \"reduced\", \"complete\" or \"r\"");
    auto [q, r] = at::linalg_qr(tensor(A, "A"), m);
    if (Q) assign(Q, q, "Q");
    assign(R, r, "R");
    DIOPI_IMPL_END
}

}  // extern "C"
