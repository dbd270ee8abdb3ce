// Eager scaled_dot_product_attention on the device: one DIOPI call forward
// (diopiFlashAttention) and one backward (diopiFlashAttentionBackward), as on
// a chip with flash attention, instead of the dozen small calls of PyTorch's
// math path.
//
// PyTorch asks the device which backend serves a call (_fused_sdp_choice);
// this answers "overrideable" when the library exports both functions and the
// call is one they compute: no mask, no dropout, 4-d inputs with one head
// size, key heads equal to or dividing the query heads (grouped-query
// attention), and, when causal, as many queries as keys (ATen aligns its
// causal mask top-left, DIOPI's functions bottom-right; the two agree only on
// square scores). Everything else takes the math path, as before.
//
// The fused operator _scaled_dot_product_fused_attention_overrideable and its
// backward then run here; autograd's formula for them is PyTorch's own. A
// library that declines a call (diopiNoImplement or an unsupported dtype)
// gets it computed from the device's other operators instead; a call named
// to run on the CPU (diopi_torch.fallback) is computed there, counted.
#include <ATen/native/transformers/attention.h>
#include <ATen/native/transformers/sdp_utils_cpp.h>
#include <diopi/functions_ext.h>
#include <torch/library.h>

#include <cmath>

#include "aten/bridge.hpp"

namespace diopi_torch {
namespace {

using at::Tensor;

bool libraryHasFlash() {
    try {
        return symbol("diopiFlashAttention") != nullptr && symbol("diopiFlashAttentionBackward") != nullptr;
    } catch (const std::exception&) {  // no library loaded yet: the math path raises the device's own error
        return false;
    }
}

bool fusedServes(const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& mask, double dropout, bool causal,
                 bool gqa) {
    if (mask.has_value() && mask->defined()) return false;
    if (dropout != 0.0) return false;
    if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4) return false;
    const auto dt = q.scalar_type();
    if (k.scalar_type() != dt || v.scalar_type() != dt) return false;
    if (dt != at::kFloat && dt != at::kHalf && dt != at::kBFloat16) return false;
    if (k.size(0) != q.size(0) || v.size(0) != q.size(0)) return false;
    if (k.size(1) != v.size(1) || k.size(2) != v.size(2)) return false;
    if (k.size(3) != q.size(3) || v.size(3) != q.size(3)) return false;
    if (q.numel() == 0 || k.numel() == 0) return false;
    const int64_t hq = q.size(1), hk = k.size(1);
    if (hq != hk && !(gqa && hk > 0 && hq % hk == 0)) return false;
    if (causal && q.size(2) != k.size(2)) return false;
    return libraryHasFlash();
}

// A graph being traced (fake or functional tensors) keeps the math path: there attention is the compile route's
// business (its fusion pass puts diopiFlashAttention in place of the call, or the graph runs the math path's parts).
bool traced(const Tensor& t) {
    const auto ks = t.key_set();
    return ks.has(c10::DispatchKey::Python) || ks.has(c10::DispatchKey::Functionalize);
}

int64_t sdpChoice(const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& mask, double dropout, bool causal,
                  std::optional<double> scale, bool gqa) {
    (void)scale;
    // torch.nn.attention.sdpa_kernel([SDPBackend.MATH]) turns the fused kernels off, as it does on CUDA.
    const bool fused = at::globalContext().userEnabledOverrideableSDP() && !traced(q) && fusedServes(q, k, v, mask, dropout, causal, gqa);
    return static_cast<int64_t>(fused ? sdp::SDPBackend::overrideable : sdp::SDPBackend::math);
}

double scaleOf(const Tensor& q, std::optional<double> scale) { return scale.has_value() ? *scale : 1.0 / std::sqrt(double(q.size(-1))); }

// (B, H, S, D) -> (B, S, H, D) and back: DIOPI's flash attention takes heads after the sequence.
Tensor bshd(const Tensor& t) { return t.transpose(1, 2); }

// ---------------------------------------------------------------- by parts, for a library that declines

Tensor partsScores(const Tensor& q, const Tensor& k, double scale, bool causal, int64_t groups) {
    Tensor kk = groups > 1 ? k.repeat_interleave(groups, 1) : k;
    Tensor scores = at::matmul(q.to(at::kFloat), kk.to(at::kFloat).transpose(-1, -2)).mul(scale);
    if (causal) {
        const int64_t s = scores.size(-1);
        Tensor keep = at::ones({s, s}, q.options().dtype(at::kBool)).tril();
        scores = scores.masked_fill(keep.logical_not(), -INFINITY);
    }
    return scores;
}

std::tuple<Tensor, Tensor> partsForward(const Tensor& q, const Tensor& k, const Tensor& v, double scale, bool causal) {
    const int64_t groups = q.size(1) / k.size(1);
    Tensor scores = partsScores(q, k, scale, causal, groups);
    Tensor lse = at::logsumexp(scores, -1);
    Tensor vv = groups > 1 ? v.repeat_interleave(groups, 1) : v;
    Tensor out = at::matmul(at::exp(scores - lse.unsqueeze(-1)), vv.to(at::kFloat)).to(q.scalar_type());
    return {out, lse};
}

std::tuple<Tensor, Tensor, Tensor> partsBackward(const Tensor& dout, const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& out,
                                                 const Tensor& lse, double scale, bool causal) {
    const int64_t groups = q.size(1) / k.size(1);
    Tensor p = at::exp(partsScores(q, k, scale, causal, groups) - lse.unsqueeze(-1));
    Tensor kk = groups > 1 ? k.repeat_interleave(groups, 1) : k, vv = groups > 1 ? v.repeat_interleave(groups, 1) : v;
    Tensor dof = dout.to(at::kFloat);
    Tensor dv = at::matmul(p.transpose(-1, -2), dof);
    Tensor dp = at::matmul(dof, vv.to(at::kFloat).transpose(-1, -2));
    Tensor ds = p * (dp - (dof * out.to(at::kFloat)).sum(-1, /*keepdim=*/true));
    Tensor dq = at::matmul(ds, kk.to(at::kFloat)).mul(scale);
    Tensor dk = at::matmul(ds.transpose(-1, -2), q.to(at::kFloat)).mul(scale);
    if (groups > 1) {  // query heads sharing a key head: their gradients add up
        dk = dk.unflatten(1, {k.size(1), groups}).sum(2);
        dv = dv.unflatten(1, {k.size(1), groups}).sum(2);
    }
    return {dq.to(q.scalar_type()), dk.to(k.scalar_type()), dv.to(v.scalar_type())};
}

// ---------------------------------------------------------------- the fused operator and its backward

using FusedResult = std::tuple<Tensor, Tensor, Tensor, Tensor, c10::SymInt, c10::SymInt, Tensor, Tensor, Tensor>;

FusedResult fusedForward(const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& bias, double dropout, bool causal,
                         bool returnDebugMask, std::optional<double> scale) {
    auto guard = DeviceCheck::scope("_scaled_dot_product_fused_attention_overrideable", q, k, v, bias);
    TORCH_CHECK(fusedServes(q, k, v, bias, dropout, causal, /*gqa=*/true),
                "_scaled_dot_product_fused_attention_overrideable on the diopi device takes 4-d inputs of one float dtype and head size, "
                "no attn_bias, no dropout, and square scores when causal; use torch.nn.functional.scaled_dot_product_attention");
    TORCH_CHECK(!returnDebugMask, "_scaled_dot_product_fused_attention_overrideable: return_debug_mask is not supported");
    const double sc = scaleOf(q, scale);
    const int64_t b = q.size(0), h = q.size(1), sq = q.size(2), sk = k.size(2);
    // Laid out as the query is, as PyTorch's meta function for this operator lays it out.
    Tensor out = at::empty_like(q);
    Tensor lse = at::empty({b, h, sq}, q.options().dtype(at::kFloat));
    static const OpInfo info{"_scaled_dot_product_fused_attention_overrideable", "diopiFlashAttention", "csrc/aten/attention.cpp",
                             "attention_out,softmax_lse,gen,q,k,v,alibi_slopes,p_dropout,softmax_scale,is_causal,window_size_left,"
                             "window_size_right"};
    static const auto fn = reinterpret_cast<decltype(&::diopiFlashAttention)>(symbol("diopiFlashAttention"));
    Call call(info);
    diopiError_t status = call.run(fn, call.ctx(), call.out(bshd(out)), call.out(lse), call.generator(None()), call.in(bshd(q)),
                                   call.in(bshd(k)), call.in(bshd(v)), call.in(None()), 0.0f, static_cast<float>(sc), causal, int32_t(-1),
                                   int32_t(-1));
    if (call.named()) {  // named to run on the CPU (diopi_torch.fallback): computed there, as that tool promises
        noteFallback(info.aten, "named");
        auto [o, l] = partsForward(q.cpu(), k.cpu(), v.cpu(), sc, causal);
        out.copy_(o);
        lse.copy_(l);
    } else if (Call::fallbackReason(status)) {  // declined by the library: from the device's other operators
        std::tie(out, lse) = partsForward(q, k, v, sc, causal);
    } else {
        call.check(status);
        countDiopi(info);
    }
    return {out, lse, Tensor(), Tensor(), c10::SymInt(sq), c10::SymInt(sk), Tensor(), Tensor(), Tensor()};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> fusedBackward(const Tensor& dout, const Tensor& q, const Tensor& k, const Tensor& v,
                                                         const Tensor& bias, std::array<bool, 4> mask, const Tensor& out, const Tensor& lse,
                                                         const Tensor&, const Tensor&, c10::SymInt, c10::SymInt, double dropout, bool causal,
                                                         const Tensor&, const Tensor&, std::optional<double> scale) {
    auto guard = DeviceCheck::scope("_scaled_dot_product_fused_attention_overrideable_backward", dout, q, k, v, out, lse);
    TORCH_CHECK(!bias.defined() && dropout == 0.0,
                "_scaled_dot_product_fused_attention_overrideable_backward on the diopi device takes no attn_bias and no dropout");
    if (!mask[0] && !mask[1] && !mask[2]) return {Tensor(), Tensor(), Tensor(), Tensor()};
    const double sc = scaleOf(q, scale);
    // Each gradient laid out as its input: a leaf's gradient is then kept as is, not copied to the leaf's layout.
    Tensor dq = at::empty_like(q), dk = at::empty_like(k), dv = at::empty_like(v);
    static const OpInfo info{"_scaled_dot_product_fused_attention_overrideable_backward", "diopiFlashAttentionBackward",
                             "csrc/aten/attention.cpp",
                             "grad_q,grad_k,grad_v,grad_output,gen,q,k,v,alibi_slopes,attention_out,softmax_lse,p_dropout,softmax_scale,"
                             "is_causal,window_size_left,window_size_right"};
    static const auto fn = reinterpret_cast<decltype(&::diopiFlashAttentionBackward)>(symbol("diopiFlashAttentionBackward"));
    Call call(info);
    diopiError_t status =
        call.run(fn, call.ctx(), call.out(bshd(dq)), call.out(bshd(dk)), call.out(bshd(dv)), call.in(bshd(dout)), call.generator(None()),
                 call.in(bshd(q)), call.in(bshd(k)), call.in(bshd(v)), call.in(None()), call.in(bshd(out)), call.in(lse), 0.0f,
                 static_cast<float>(sc), causal, int32_t(-1), int32_t(-1));
    if (call.named()) {
        noteFallback(info.aten, "named");
        auto [a, b, c] = partsBackward(dout.cpu(), q.cpu(), k.cpu(), v.cpu(), out.cpu(), lse.cpu(), sc, causal);
        dq.copy_(a);
        dk.copy_(b);
        dv.copy_(c);
    } else if (Call::fallbackReason(status)) {
        std::tie(dq, dk, dv) = partsBackward(dout, q, k, v, out, lse, sc, causal);
    } else {
        call.check(status);
        countDiopi(info);
    }
    return {mask[0] ? dq : Tensor(), mask[1] ? dk : Tensor(), mask[2] ? dv : Tensor(), Tensor()};
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("_fused_sdp_choice", sdpChoice);
    m.impl("_scaled_dot_product_fused_attention_overrideable", fusedForward);
    m.impl("_scaled_dot_product_fused_attention_overrideable_backward", fusedBackward);
}

}  // namespace
}  // namespace diopi_torch

namespace at::native {
// scaled_dot_product_attention asks this stub, not the operator above, which backend serves a device's call.
REGISTER_PRIVATEUSE1_DISPATCH(_fused_sdp_choice_stub, &diopi_torch::sdpChoice)
}  // namespace at::native
