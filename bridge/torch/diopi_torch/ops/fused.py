"""Operators of the header's fused functions, as PyTorch custom operators.

    torch.ops.diopi.rms_norm(x, [hidden], weight, eps) -> (out, inv_rms)        diopiRMSNorm / Backward
    torch.ops.diopi.rotary_embedding(x, cos, sin, conj, interleaved) -> out     diopiRotaryEmbedding (its own backward: conj)
    torch.ops.diopi.flash_attention(q, k, v, scale, is_causal) -> (out, lse)    diopiFlashAttention / Backward
    torch.ops.diopi.linear(x, weight, bias) -> out                              diopiLinear / diopiLinearBackward
    torch.ops.diopi.cross_entropy(x, target, weight, reduction, ignore, smoothing)  diopiCrossEntropyLoss / Backward

Fusion (graph/fusion.py) puts them into a graph in place of the operations they
stand for; aot_autograd then traces each as one node in the forward graph and
its backward operator as one node in the backward graph, and the mapping
(aten_to_diopi.yaml, under their qualified names) lowers both to the DIOPI
functions. Each has a fake implementation (shapes for tracing), an autograd
formula, and a plain PyTorch implementation with the DIOPI function's
semantics, used when a step runs on the eager device (a library refusing the
fused function at run time). Layouts and semantics are the header's: the
attention takes (batch, seq, heads, head_dim).
"""
from __future__ import annotations

import math
from typing import Optional

import torch
import torch.nn.functional as F
from torch import Tensor

LIB = "diopi"


def _like(result, ref):
    """`result` in the layout `torch.empty_like(ref)` has, the layout the fake implementations promise.
    A graph traced with the fake strides may `view` a result where only that layout allows it (a
    transposed rotary output viewed as (batch, seq, hidden)); when the step runs on the eager device
    the real result must keep the promise."""
    if result.stride() == ref.stride() or result.dim() != ref.dim():
        return result
    out = torch.empty_like(ref, dtype=result.dtype)
    if out.stride() == result.stride():
        return result
    return out.copy_(result)


def _norm_dims(normalized_shape):
    return tuple(range(-len(normalized_shape), 0))


# ---------------------------------------------------------------- RMS norm

@torch.library.custom_op("diopi::rms_norm", mutates_args=())
def rms_norm(input: Tensor, normalized_shape: list[int], weight: Tensor, eps: float) -> tuple[Tensor, Tensor]:
    dims = _norm_dims(normalized_shape)
    x = input.float() if input.dtype in (torch.float16, torch.bfloat16) else input
    inv = torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps)
    out = (x * inv * weight.to(x.dtype)).to(input.dtype)
    return _like(out, input), inv.reshape(input.shape[:input.dim() - len(normalized_shape)])


@rms_norm.register_fake
def _(input, normalized_shape, weight, eps):
    inv_dtype = torch.float64 if input.dtype == torch.float64 else torch.float32
    return torch.empty_like(input), input.new_empty(input.shape[:input.dim() - len(normalized_shape)], dtype=inv_dtype)


@torch.library.custom_op("diopi::rms_norm_backward", mutates_args=())
def rms_norm_backward(grad_output: Tensor, input: Tensor, weight: Tensor, inv_rms: Tensor, normalized_shape: list[int],
                      eps: float) -> tuple[Tensor, Tensor]:
    dims = _norm_dims(normalized_shape)
    ct = torch.float32 if input.dtype in (torch.float16, torch.bfloat16) else input.dtype
    x, g = input.to(ct), grad_output.to(ct)
    inv = torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps)  # recomputed at full precision, as the header says
    xhat = x * inv
    gw = g * weight.to(ct)
    grad_input = inv * (gw - xhat * (gw * xhat).mean(dims, keepdim=True))
    lead = tuple(range(input.dim() - len(normalized_shape)))
    grad_weight = (g * xhat).sum(lead) if lead else g * xhat
    return _like(grad_input.to(input.dtype), input), _like(grad_weight.to(weight.dtype), weight)


@rms_norm_backward.register_fake
def _(grad_output, input, weight, inv_rms, normalized_shape, eps):
    return torch.empty_like(input), torch.empty_like(weight)


def _rms_setup(ctx, inputs, output):
    input, normalized_shape, weight, eps = inputs
    ctx.save_for_backward(input, weight, output[1])
    ctx.normalized_shape, ctx.eps = normalized_shape, eps


def _rms_backward(ctx, grad_out, grad_inv):
    input, weight, inv = ctx.saved_tensors
    gi, gw = torch.ops.diopi.rms_norm_backward(grad_out, input, weight, inv, ctx.normalized_shape, ctx.eps)
    return gi, None, gw, None


rms_norm.register_autograd(_rms_backward, setup_context=_rms_setup)


# ---------------------------------------------------------------- rotary embedding

@torch.library.custom_op("diopi::rotary_embedding", mutates_args=())
def rotary_embedding(x: Tensor, cos: Tensor, sin: Tensor, conj: bool, interleaved: bool) -> Tensor:
    half = cos.shape[-1]
    r = 2 * half
    s = -sin if conj else sin
    xr = x[..., :r]
    x1, x2 = (xr[..., 0::2], xr[..., 1::2]) if interleaved else (xr[..., :half], xr[..., half:])
    o1, o2 = x1 * cos - x2 * s, x1 * s + x2 * cos
    rot = torch.stack([o1, o2], -1).flatten(-2) if interleaved else torch.cat([o1, o2], -1)
    return _like(torch.cat([rot, x[..., r:]], -1) if r < x.shape[-1] else rot, x)


@rotary_embedding.register_fake
def _(x, cos, sin, conj, interleaved):
    return torch.empty_like(x)


def _rot_setup(ctx, inputs, output):
    x, cos, sin, conj, interleaved = inputs
    ctx.save_for_backward(cos, sin)
    ctx.conj, ctx.interleaved = conj, interleaved


def _rot_backward(ctx, grad):
    cos, sin = ctx.saved_tensors
    # A rotation's gradient is the opposite rotation.
    return torch.ops.diopi.rotary_embedding(grad, cos, sin, not ctx.conj, ctx.interleaved), None, None, None, None


rotary_embedding.register_autograd(_rot_backward, setup_context=_rot_setup)


# ---------------------------------------------------------------- attention

def _attention_probs(q, k, v, scale, is_causal):
    """(B, H, Sq, Sk) scaled scores of (B, S, H, D) inputs, keys repeated for grouped-query attention."""
    qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
    groups = qt.shape[1] // kt.shape[1]
    if groups > 1:
        kt, vt = kt.repeat_interleave(groups, 1), vt.repeat_interleave(groups, 1)
    scores = (qt.float() @ kt.float().transpose(-1, -2)) * scale
    if is_causal:
        sq, sk = scores.shape[-2:]
        mask = torch.ones(sq, sk, dtype=torch.bool, device=q.device).tril(sk - sq)  # bottom-right aligned
        scores = scores.masked_fill(~mask, -math.inf)
    return scores, qt, kt, vt, groups


@torch.library.custom_op("diopi::flash_attention", mutates_args=())
def flash_attention(q: Tensor, k: Tensor, v: Tensor, scale: float, is_causal: bool) -> tuple[Tensor, Tensor]:
    scores, _, _, vt, _ = _attention_probs(q, k, v, scale, is_causal)
    lse = torch.logsumexp(scores, -1)
    out = torch.exp(scores - lse.unsqueeze(-1)) @ vt.float()
    return out.transpose(1, 2).to(q.dtype).contiguous(), lse


@flash_attention.register_fake
def _(q, k, v, scale, is_causal):
    b, s, h, _ = q.shape
    return q.new_empty(b, s, h, v.shape[-1]), q.new_empty(b, h, s, dtype=torch.float32)


@torch.library.custom_op("diopi::flash_attention_backward", mutates_args=())
def flash_attention_backward(grad_out: Tensor, q: Tensor, k: Tensor, v: Tensor, out: Tensor, lse: Tensor, scale: float,
                             is_causal: bool) -> tuple[Tensor, Tensor, Tensor]:
    scores, qt, kt, vt, groups = _attention_probs(q, k, v, scale, is_causal)
    p = torch.exp(scores - lse.unsqueeze(-1))
    do = grad_out.transpose(1, 2).float()
    dv = p.transpose(-1, -2) @ do
    dp = do @ vt.float().transpose(-1, -2)
    ds = p * (dp - (do * out.transpose(1, 2).float()).sum(-1, keepdim=True))
    dq = (ds @ kt.float()) * scale
    dk = (ds.transpose(-1, -2) @ qt.float()) * scale
    if groups > 1:  # keys shared by a group of query heads: their gradients add up
        b, h, s, d = dk.shape
        dk = dk.reshape(b, h // groups, groups, s, d).sum(2)
        dv = dv.reshape(b, h // groups, groups, s, dv.shape[-1]).sum(2)
    return (_like(dq.transpose(1, 2).to(q.dtype).contiguous(), q), _like(dk.transpose(1, 2).to(k.dtype).contiguous(), k),
            _like(dv.transpose(1, 2).to(v.dtype).contiguous(), v))


@flash_attention_backward.register_fake
def _(grad_out, q, k, v, out, lse, scale, is_causal):
    return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)


def _attn_setup(ctx, inputs, output):
    q, k, v, scale, is_causal = inputs
    ctx.save_for_backward(q, k, v, output[0], output[1])
    ctx.scale, ctx.is_causal = scale, is_causal


def _attn_backward(ctx, grad_out, grad_lse):
    q, k, v, out, lse = ctx.saved_tensors
    dq, dk, dv = torch.ops.diopi.flash_attention_backward(grad_out, q, k, v, out, lse, ctx.scale, ctx.is_causal)
    return dq, dk, dv, None, None


flash_attention.register_autograd(_attn_backward, setup_context=_attn_setup)


# ---------------------------------------------------------------- linear

@torch.library.custom_op("diopi::linear", mutates_args=())
def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor]) -> Tensor:
    return F.linear(input, weight, bias)


@linear.register_fake
def _(input, weight, bias):
    return input.new_empty(*input.shape[:-1], weight.shape[0])


@torch.library.custom_op("diopi::linear_backward", mutates_args=())
def linear_backward(grad_output: Tensor, input: Tensor, weight: Tensor, has_bias: bool) -> tuple[Tensor, Tensor, Tensor]:
    g2 = grad_output.reshape(-1, grad_output.shape[-1])
    grad_input = grad_output @ weight
    grad_weight = g2.transpose(0, 1) @ input.reshape(-1, input.shape[-1])
    grad_bias = g2.sum(0) if has_bias else grad_output.new_empty(0)
    return _like(grad_input, input), _like(grad_weight, weight), grad_bias


@linear_backward.register_fake
def _(grad_output, input, weight, has_bias):
    return torch.empty_like(input), torch.empty_like(weight), grad_output.new_empty(weight.shape[0] if has_bias else 0)


def _lin_setup(ctx, inputs, output):
    input, weight, bias = inputs
    ctx.save_for_backward(input, weight)
    ctx.has_bias = bias is not None


def _lin_backward(ctx, grad):
    input, weight = ctx.saved_tensors
    gi, gw, gb = torch.ops.diopi.linear_backward(grad, input, weight, ctx.has_bias)
    return gi, gw, (gb if ctx.has_bias else None)


linear.register_autograd(_lin_backward, setup_context=_lin_setup)


# ---------------------------------------------------------------- cross entropy

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


@torch.library.custom_op("diopi::cross_entropy", mutates_args=())
def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor], reduction: int, ignore_index: int,
                  label_smoothing: float) -> Tensor:
    return F.cross_entropy(input, target, weight, reduction=_REDUCTIONS[reduction], ignore_index=ignore_index,
                           label_smoothing=label_smoothing)


@cross_entropy.register_fake
def _(input, target, weight, reduction, ignore_index, label_smoothing):
    if reduction == 0:
        return input.new_empty(target.shape) if target.dtype in (torch.int64, torch.int32) else \
            input.new_empty(input.shape[:1] + input.shape[2:])
    return input.new_empty(())


@torch.library.custom_op("diopi::cross_entropy_backward", mutates_args=())
def cross_entropy_backward(grad_output: Tensor, input: Tensor, target: Tensor, weight: Optional[Tensor], reduction: int,
                           ignore_index: int, label_smoothing: float) -> Tensor:
    # Closed form over (N, C) logits and class indices (autograd does not run inside an operator):
    # d loss_i / d x_ij = (1 - s) w_t (p_ij - [j = t]) + s / C (p_ij W - w_j), W = sum of the class weights.
    n, c = input.shape
    x = input.float() if input.dtype in (torch.float16, torch.bfloat16) else input
    p = torch.softmax(x, 1)
    w = weight.to(x.dtype) if weight is not None else torch.ones(c, dtype=x.dtype, device=x.device)
    keep = target != ignore_index
    t = torch.where(keep, target, torch.zeros_like(target))
    onehot = torch.zeros_like(p).scatter_(1, t.unsqueeze(1), 1.0)
    wt = w[t] * keep.to(x.dtype)
    s = label_smoothing
    grad = (1 - s) * wt.unsqueeze(1) * (p - onehot) + (s / c) * keep.to(x.dtype).unsqueeze(1) * (p * w.sum() - w)
    if reduction == 0:
        grad = grad * grad_output.unsqueeze(1)
    elif reduction == 1:
        grad = grad * (grad_output / wt.sum())
    else:
        grad = grad * grad_output
    return _like(grad.to(input.dtype), input)


@cross_entropy_backward.register_fake
def _(grad_output, input, target, weight, reduction, ignore_index, label_smoothing):
    return torch.empty_like(input)


def _ce_setup(ctx, inputs, output):
    input, target, weight, reduction, ignore_index, label_smoothing = inputs
    ctx.save_for_backward(input, target, weight)
    ctx.args = (reduction, ignore_index, label_smoothing)


def _ce_backward(ctx, grad):
    input, target, weight = ctx.saved_tensors
    gi = torch.ops.diopi.cross_entropy_backward(grad, input, target, weight, *ctx.args)
    return gi, None, None, None, None, None


cross_entropy.register_autograd(_ce_backward, setup_context=_ce_setup)
