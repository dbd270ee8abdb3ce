// Eager scaled_dot_product_attention on the device: one DIOPI call forward
// (diopiFlashAttention) and one backward (diopiFlashAttentionBackward), as on
// a chip with flash attention, instead of the dozen small calls of PyTorch's
// math path.
//
// PyTorch asks the device which backend serves a call (_fused_sdp_choice);
// this answers "overrideable" when the library exports the functions and the
// call is one they compute: no mask and no dropout (diopiFlashAttention), or a
// boolean mask or dropout (diopiCustomizedFlashAttention, whose keep mask the
// backward is given), 4-d inputs with one head size,
// key heads equal to or dividing the query heads (grouped-query attention),
// and, when causal, as many queries as keys (ATen aligns its causal mask
// top-left, DIOPI's functions bottom-right; the two agree only on square
// scores). Everything else takes the math path, as before.
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

bool exported(std::initializer_list<const char*> names) {
    try {
        for (const char* n : names)
            if (symbol(n) == nullptr) return false;
        return true;
    } catch (const std::exception&) {  // no library loaded yet: the math path raises the device's own error
        return false;
    }
}

// Whether the header's functions compute this call. `mask` is none, or the boolean mask the user gives
// scaled_dot_product_attention (true: the pair takes part), which diopiCustomizedFlashAttention takes; by the time
// the fused operator runs, ATen has made it additive (0 where taken, -inf elsewhere): `made` accepts that form.
// Additive masks of the user's own have no header function (they take the math path).
bool fusedServes(const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& mask, double dropout, bool causal,
                 bool gqa, bool made) {
    const bool masked = mask.has_value() && mask->defined();
    if (masked) {
        const auto mt = mask->scalar_type();
        if (made ? !at::isFloatingType(mt) : mt != at::kBool) return false;
        if (mask->dim() > 4 || causal) return false;
    }
    if (!(dropout >= 0.0 && dropout < 1.0)) return false;
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
    return masked || dropout > 0.0 ? exported({"diopiCustomizedFlashAttention", "diopiCustomizedFlashAttentionBackward"})
                                   : exported({"diopiFlashAttention", "diopiFlashAttentionBackward"});
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
    const bool fused = at::globalContext().userEnabledOverrideableSDP() && !traced(q) &&
                       fusedServes(q, k, v, mask, dropout, causal, gqa, /*made=*/false);
    return static_cast<int64_t>(fused ? sdp::SDPBackend::overrideable : sdp::SDPBackend::math);
}

double scaleOf(const Tensor& q, std::optional<double> scale) { return scale.has_value() ? *scale : 1.0 / std::sqrt(double(q.size(-1))); }

// (B, H, S, D) -> (B, S, H, D) and back: DIOPI's flash attention takes heads after the sequence. Made here, not by
// Tensor::transpose: a call passes up to eight of them, and each trip through the dispatcher costs about a microsecond.
// The view shares the storage (so the vendor writes into `t`) and is seen by nothing but the call.
Tensor bshd(const Tensor& t) {
    auto impl = c10::make_intrusive<c10::TensorImpl>(c10::TensorImpl::VIEW, c10::Storage(t.storage()), t.key_set(), t.dtype());
    const int64_t sizes[] = {t.size(0), t.size(2), t.size(1), t.size(3)}, strides[] = {t.stride(0), t.stride(2), t.stride(1), t.stride(3)};
    impl->set_sizes_and_strides(at::IntArrayRef(sizes), at::IntArrayRef(strides), t.storage_offset());
    return Tensor(std::move(impl));
}

// The pairs left out, as the header's mask marks them, from ATen's additive form of a boolean mask; its last two
// dims spelled out to the (queries, keys) block (the header's masks broadcast over batch and heads only).
Tensor excludedOf(const Tensor& bias, int64_t sq, int64_t sk) {
    if (!bias.defined()) return bias;
    Tensor e = bias.eq(-INFINITY);
    while (e.dim() < 2) e = e.unsqueeze(0);
    std::vector<int64_t> sizes = e.sizes().vec();
    sizes[sizes.size() - 2] = sq;
    sizes.back() = sk;
    return e.expand(sizes);
}

// ---------------------------------------------------------------- by parts, for a library that declines

Tensor partsScores(const Tensor& q, const Tensor& k, const Tensor& excluded, double scale, bool causal) {
    const int64_t groups = q.size(1) / k.size(1);
    Tensor kk = groups > 1 ? k.repeat_interleave(groups, 1) : k;
    Tensor scores = at::matmul(q.to(at::kFloat), kk.to(at::kFloat).transpose(-1, -2)).mul(scale);
    if (causal) {
        const int64_t s = scores.size(-1);
        Tensor keep = at::ones({s, s}, q.options().dtype(at::kBool)).tril();
        scores = scores.masked_fill(keep.logical_not(), -INFINITY);
    }
    if (excluded.defined()) scores = scores.masked_fill(excluded, -INFINITY);
    return scores;
}

// Probabilities from scores; a row with no key taken gets zeros (as PyTorch's math path gives), not NaN.
Tensor partsProbs(const Tensor& scores, Tensor* lseOut) {
    Tensor lse = at::logsumexp(scores, -1);
    if (lseOut) *lseOut = lse;
    Tensor safe = at::where(lse.eq(-INFINITY), at::zeros_like(lse), lse);
    return at::exp(scores - safe.unsqueeze(-1));
}

Tensor repeatHeads(const Tensor& t, int64_t groups) { return groups > 1 ? t.repeat_interleave(groups, 1) : t; }

// Dropout by parts: `keep` (B, H, Sq, Sk) bool marks the probabilities kept, each scaled by 1 / (1 - dropout).
Tensor dropped(const Tensor& p, const Tensor& keep, double dropout) {
    return keep.defined() ? p * keep.to(p.scalar_type()) * (1.0 / (1.0 - dropout)) : p;
}

// A keep mask drawn from the device's generator, for a forward computed by parts.
Tensor drawKeep(const Tensor& q, const Tensor& k, double dropout) {
    if (dropout <= 0.0) return Tensor();
    return at::rand({q.size(0), q.size(1), q.size(2), k.size(2)}, q.options().dtype(at::kFloat)).ge(dropout);
}

std::tuple<Tensor, Tensor> partsForward(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& excluded, double scale,
                                        bool causal, const Tensor& keep = Tensor(), double dropout = 0.0) {
    const int64_t groups = q.size(1) / k.size(1);
    Tensor lse;
    Tensor p = dropped(partsProbs(partsScores(q, k, excluded, scale, causal), &lse), keep, dropout);
    Tensor out = at::matmul(p, repeatHeads(v, groups).to(at::kFloat)).to(q.scalar_type());
    return {out, lse};
}

std::tuple<Tensor, Tensor, Tensor> partsBackward(const Tensor& dout, const Tensor& q, const Tensor& k, const Tensor& v,
                                                 const Tensor& excluded, double scale, bool causal, const Tensor& keep, double dropout) {
    const int64_t groups = q.size(1) / k.size(1);
    Tensor p = partsProbs(partsScores(q, k, excluded, scale, causal), nullptr);
    Tensor kk = repeatHeads(k, groups), vv = repeatHeads(v, groups);
    Tensor dof = dout.to(at::kFloat);
    Tensor dv = at::matmul(dropped(p, keep, dropout).transpose(-1, -2), dof);
    // the gradient of the probabilities before dropout, then softmax's backward
    Tensor dp = dropped(at::matmul(dof, vv.to(at::kFloat).transpose(-1, -2)), keep, dropout);
    Tensor ds = p * (dp - (p * dp).sum(-1, /*keepdim=*/true));
    Tensor dq = at::matmul(ds, kk.to(at::kFloat)).mul(scale);
    Tensor dk = at::matmul(ds.transpose(-1, -2), q.to(at::kFloat)).mul(scale);
    if (groups > 1) {  // query heads sharing a key head: their gradients add up
        dk = dk.unflatten(1, {k.size(1), groups}).sum(2);
        dv = dv.unflatten(1, {k.size(1), groups}).sum(2);
    }
    return {dq.to(q.scalar_type()), dk.to(k.scalar_type()), dv.to(v.scalar_type())};
}

Tensor cpuOf(const Tensor& t) { return t.defined() ? t.cpu() : t; }

// ---------------------------------------------------------------- the fused operator and its backward
//
// Without a mask: diopiFlashAttention, whose row log-sum-exp is the operator's logsumexp. With one:
// diopiCustomizedFlashAttention, whose softmax statistics are the library's own (their shapes are its business):
// they travel to the backward in the operator's cum_seq_q, cum_seq_k and philox_seed outputs, which PyTorch keeps
// for the backward and reads for nothing else on dense inputs; logsumexp is then left undefined.

// Where a vendor call's results come from, after the call: a call named to run on the CPU
// (diopi_torch.fallback) is computed there, as that tool promises; one the library declines is computed from the
// device's other operators; otherwise the library's results stand (its status checked, the call counted).
enum class Route { Host, Device, Library };

Route routeOf(Call& call, const OpInfo& info, diopiError_t status) {
    if (call.named()) {
        noteFallback(info.aten, "named");
        return Route::Host;
    }
    if (Call::fallbackReason(status)) return Route::Device;
    call.check(status);
    countDiopi(info);
    return Route::Library;
}

using FusedResult = std::tuple<Tensor, Tensor, Tensor, Tensor, c10::SymInt, c10::SymInt, Tensor, Tensor, Tensor>;

FusedResult fusedForward(const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& bias, double dropout, bool causal,
                         bool returnDebugMask, std::optional<double> scale) {
    auto guard = DeviceCheck::scope("_scaled_dot_product_fused_attention_overrideable", q, k, v, bias);
    TORCH_CHECK(fusedServes(q, k, v, bias, dropout, causal, /*gqa=*/true, /*made=*/true),
                "_scaled_dot_product_fused_attention_overrideable on the diopi device takes 4-d inputs of one float dtype and head size, "
                "at most ATen's additive form of a boolean mask, a dropout probability below 1, and square scores when causal; use "
                "torch.nn.functional.scaled_dot_product_attention");
    TORCH_CHECK(!returnDebugMask, "_scaled_dot_product_fused_attention_overrideable: return_debug_mask is not supported");
    const double sc = scaleOf(q, scale);
    const int64_t b = q.size(0), h = q.size(1), sq = q.size(2), sk = k.size(2);
    const Tensor excluded = bias.has_value() ? excludedOf(*bias, sq, sk) : Tensor();
    // Laid out as the query is, as PyTorch's meta function for this operator lays it out.
    Tensor out = at::empty_like(q), lse, stat1, stat2, stat3, keep;
    if (!excluded.defined() && dropout == 0.0) {
        lse = at::empty({b, h, sq}, q.options().dtype(at::kFloat));
        static const OpInfo info{"_scaled_dot_product_fused_attention_overrideable", "diopiFlashAttention", "csrc/aten/attention.cpp",
                                 "attention_out,softmax_lse,gen,q,k,v,alibi_slopes,p_dropout,softmax_scale,is_causal,window_size_left,"
                                 "window_size_right"};
        static const auto fn = reinterpret_cast<decltype(&::diopiFlashAttention)>(symbol("diopiFlashAttention"));
        Call call(info);
        diopiError_t status = call.run(fn, call.ctx(), call.out(bshd(out)), call.out(lse), call.generator(None()), call.in(bshd(q)),
                                       call.in(bshd(k)), call.in(bshd(v)), call.in(None()), 0.0f, static_cast<float>(sc), causal,
                                       int32_t(-1), int32_t(-1));
        const Route route = routeOf(call, info, status);
        if (route == Route::Host) {
            auto [o, l] = partsForward(q.cpu(), k.cpu(), v.cpu(), Tensor(), sc, causal);
            out.copy_(o);
            lse.copy_(l);
        } else if (route == Route::Device) {
            std::tie(out, lse) = partsForward(q, k, v, Tensor(), sc, causal);
        }
    } else {
        static const OpInfo info{"_scaled_dot_product_fused_attention_overrideable", "diopiCustomizedFlashAttention",
                                 "csrc/aten/attention.cpp",
                                 "attention_out,dropout_mask,softmax_max,softmax_sum,softmax_out,gen,q,k,v,alibi_slopes,attention_mask,"
                                 "p_dropout,softmax_scale,is_causal,window_size_left,window_size_right,head_num,input_layout"};
        static const auto fn = reinterpret_cast<decltype(&::diopiCustomizedFlashAttention)>(symbol("diopiCustomizedFlashAttention"));
        Call call(info);
        diopiTensorHandle_t kept = nullptr, mx = nullptr, sum = nullptr, extra = nullptr;
        diopiError_t status = call.run(fn, call.ctx(), call.out(out), &kept, &mx, &sum, &extra, call.generator(None()), call.in(q),
                                       call.in(k), call.in(v), call.in(None()), excluded.defined() ? call.in(excluded) : call.in(None()),
                                       static_cast<float>(dropout), static_cast<float>(sc), causal, int32_t(-1), int32_t(-1),
                                       static_cast<int32_t>(h), call.string("BNSD"));
        const Route route = routeOf(call, info, status);
        if (route == Route::Host) {
            Tensor hostKeep = drawKeep(q.cpu(), k.cpu(), dropout);
            auto [o, l] = partsForward(q.cpu(), k.cpu(), v.cpu(), cpuOf(excluded), sc, causal, hostKeep, dropout);
            out.copy_(o);
            lse = l.to(q.device());
            if (hostKeep.defined()) keep = hostKeep.to(q.device());
        } else if (route == Route::Device) {
            keep = drawKeep(q, k, dropout);
            std::tie(out, lse) = partsForward(q, k, v, excluded, sc, causal, keep, dropout);
        } else {
            stat1 = call.owned(mx);
            stat2 = call.owned(sum);
            stat3 = extra ? call.owned(extra) : at::empty({0}, q.options().dtype(at::kFloat));
            if (dropout > 0.0) {
                TORCH_CHECK(kept, "diopiCustomizedFlashAttention returned no dropout_mask for p_dropout ", dropout);
                keep = call.owned(kept);
            }
        }
    }
    // The keep mask travels to the backward in philox_offset, as the statistics do in the outputs before it.
    return {out, lse, stat1, stat2, c10::SymInt(sq), c10::SymInt(sk), stat3, keep, Tensor()};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> fusedBackward(const Tensor& dout, const Tensor& q, const Tensor& k, const Tensor& v,
                                                         const Tensor& bias, std::array<bool, 4> mask, const Tensor& out, const Tensor& lse,
                                                         const Tensor& stat1, const Tensor& stat2, c10::SymInt, c10::SymInt, double dropout,
                                                         bool causal, const Tensor& stat3, const Tensor& keep, std::optional<double> scale) {
    auto guard = DeviceCheck::scope("_scaled_dot_product_fused_attention_overrideable_backward", dout, q, k, v, out, lse);
    TORCH_CHECK(dropout == 0.0 || keep.defined(),
                "_scaled_dot_product_fused_attention_overrideable_backward on the diopi device needs the keep mask its forward returned "
                "(in philox_offset) when dropout_p > 0");
    if (!mask[0] && !mask[1] && !mask[2]) return {Tensor(), Tensor(), Tensor(), Tensor()};
    const double sc = scaleOf(q, scale);
    const Tensor excluded = excludedOf(bias, q.size(2), k.size(2));
    // Each gradient laid out as its input: a leaf's gradient is then kept as is, not copied to the leaf's layout.
    Tensor dq = at::empty_like(q), dk = at::empty_like(k), dv = at::empty_like(v);
    auto byParts = [&](bool onHost) {
        if (onHost) {
            auto [a, b, c] = partsBackward(dout.cpu(), q.cpu(), k.cpu(), v.cpu(), cpuOf(excluded), sc, causal, cpuOf(keep), dropout);
            dq.copy_(a);
            dk.copy_(b);
            dv.copy_(c);
        } else {
            std::tie(dq, dk, dv) = partsBackward(dout, q, k, v, excluded, sc, causal, keep, dropout);
        }
    };
    if (!excluded.defined() && dropout == 0.0) {
        static const OpInfo info{"_scaled_dot_product_fused_attention_overrideable_backward", "diopiFlashAttentionBackward",
                                 "csrc/aten/attention.cpp",
                                 "grad_q,grad_k,grad_v,grad_output,gen,q,k,v,alibi_slopes,attention_out,softmax_lse,p_dropout,softmax_scale,"
                                 "is_causal,window_size_left,window_size_right"};
        static const auto fn = reinterpret_cast<decltype(&::diopiFlashAttentionBackward)>(symbol("diopiFlashAttentionBackward"));
        Call call(info);
        diopiError_t status = call.run(fn, call.ctx(), call.out(bshd(dq)), call.out(bshd(dk)), call.out(bshd(dv)), call.in(bshd(dout)),
                                       call.generator(None()), call.in(bshd(q)), call.in(bshd(k)), call.in(bshd(v)), call.in(None()),
                                       call.in(bshd(out)), call.in(lse), 0.0f, static_cast<float>(sc), causal, int32_t(-1), int32_t(-1));
        const Route route = routeOf(call, info, status);
        if (route != Route::Library) byParts(route == Route::Host);
    } else if (!stat1.defined()) {  // the forward went by parts (no statistics of the library's): so does the backward
        static const OpInfo info{"_scaled_dot_product_fused_attention_overrideable_backward", "diopiCustomizedFlashAttentionBackward",
                                 "csrc/aten/attention.cpp", ""};
        const bool onHost = tools::named(info);
        if (onHost) noteFallback(info.aten, "named");
        byParts(onHost);
    } else {
        static const OpInfo info{"_scaled_dot_product_fused_attention_overrideable_backward", "diopiCustomizedFlashAttentionBackward",
                                 "csrc/aten/attention.cpp",
                                 "grad_q,grad_k,grad_v,grad_output,q,k,v,alibi_slopes,attention_out,attention_mask,dropout_mask,softmax_max,"
                                 "softmax_sum,softmax_out,p_dropout,softmax_scale,is_causal,window_size_left,window_size_right,head_num,"
                                 "input_layout"};
        static const auto fn =
            reinterpret_cast<decltype(&::diopiCustomizedFlashAttentionBackward)>(symbol("diopiCustomizedFlashAttentionBackward"));
        Call call(info);
        diopiError_t status = call.run(fn, call.ctx(), call.out(dq), call.out(dk), call.out(dv), call.in(dout), call.in(q), call.in(k),
                                       call.in(v), call.in(None()), call.in(out), excluded.defined() ? call.in(excluded) : call.in(None()),
                                       keep.defined() ? call.in(keep) : call.in(None()), call.in(stat1), call.in(stat2), call.in(stat3),
                                       static_cast<float>(dropout), static_cast<float>(sc), causal, int32_t(-1), int32_t(-1),
                                       static_cast<int32_t>(q.size(1)), call.string("BNSD"));
        const Route route = routeOf(call, info, status);
        if (route != Route::Library) byParts(route == Route::Host);
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
