"""Fusion: parts of a dynamo graph rewritten into the header's fused functions.

    fused = rewrite(gm, exported)     # Counter: pattern -> places rewritten

Runs on the graph TorchDynamo captured (torch functions and tensor methods),
before aot_autograd: each match is replaced by a custom operator of fused.py,
which aot_autograd then traces as one forward node and, through the
operator's autograd formula, one backward node; the mapping lowers both.

  rms_norm        x * rsqrt(mean(x^2, -1, keepdim) + eps) [.to(dtype)] * weight      diopiRMSNorm (+Backward)
  rotary          x * cos + cat(-x[..., h:], x[..., :h]) * sin, with cos and sin
                  the cosines and sines of cat(f, f): halves equal                    diopiRotaryEmbedding (conj in backward)
  attention       scaled_dot_product_attention without mask and dropout               diopiFlashAttention (+Backward)
  linear          F.linear                                                            diopiLinear, diopiLinearBackward
  cross_entropy   F.cross_entropy over class indices                                  diopiCrossEntropyLoss (+Backward)

A pattern applies only when the vendor exports its functions (forward and
backward); otherwise the graph stays unfused and computes the same thing.
Every intermediate of a match must be used by the match alone.
"""
from __future__ import annotations

import collections
import math
import operator

import torch
import torch.nn.functional as F

from ..ops import fused  # noqa: F401  (registers the custom operators a rewrite puts in)

PATTERNS = {
    "rms_norm": ("diopiRMSNorm", "diopiRMSNormBackward"),
    "rotary": ("diopiRotaryEmbedding",),
    "attention": ("diopiFlashAttention", "diopiFlashAttentionBackward"),
    "linear": ("diopiLinear", "diopiLinearBackward"),
    "cross_entropy": ("diopiCrossEntropyLoss", "diopiCrossEntropyLossBackward"),
}

# An operation appears as a function or, when a TorchFunctionMode is active while dynamo traces, as a method.
_FUNCTIONS = {"add": (operator.add, torch.add), "mul": (operator.mul, torch.mul), "neg": (operator.neg, torch.neg),
              "rsqrt": (torch.rsqrt,), "pow": (torch.pow, operator.pow), "cos": (torch.cos,), "sin": (torch.sin,),
              "cat": (torch.cat,), "mean": (torch.mean,)}


def _op(node, name):
    if not isinstance(node, torch.fx.Node):
        return False
    if node.op == "call_method":
        return node.target == name
    return node.op == "call_function" and node.target in _FUNCTIONS.get(name, ())


def _ex(node):
    return node.meta.get("example_value") if isinstance(node, torch.fx.Node) else None


def _is(node, op, target):
    if not isinstance(node, torch.fx.Node) or node.op != op:
        return False
    return node.target == target if op == "call_method" else node.target in (target if isinstance(target, tuple) else (target,))


def _only_user(node, user):
    return list(node.users) == [user]


def _other(pair, known):
    a, b = pair
    return b if a is known else a if b is known else None


def _take_place(new, old, *others):
    """`new` replaces `old`: its example value (later patterns read it) and where it came from (module, source line)."""
    for n in (new,) + others:
        for key in ("nn_module_stack", "stack_trace", "source_fn_stack"):
            if key in old.meta:
                n.meta[key] = old.meta[key]
    if "example_value" in old.meta:
        new.meta["example_value"] = old.meta["example_value"]


def _tensor_args(node):
    return [a for a in node.args if isinstance(a, torch.fx.Node)]


# ---------------------------------------------------------------- rms norm

def _rms_norm(gm, node):
    """node: rsqrt(mean(x.pow(2), -1, keepdim=True) + eps)."""
    if not _op(node, "rsqrt"):
        return False
    add = node.args[0]
    if not _op(add, "add") or len(add.args) != 2:
        return False
    var, eps = (add.args if isinstance(add.args[1], (int, float)) else (add.args[1], add.args[0]))
    if not isinstance(eps, (int, float)) or not _op(var, "mean"):
        return False
    dims = var.args[1] if len(var.args) > 1 else var.kwargs.get("dim")
    keep = var.args[2] if len(var.args) > 2 else var.kwargs.get("keepdim", False)
    if dims not in (-1, [-1], (-1,)) or not keep:
        return False
    pw = var.args[0]
    if not _op(pw, "pow") or pw.args[1] != 2:
        return False
    x = pw.args[0]
    if len(node.users) != 1:
        return False
    m1 = next(iter(node.users))
    if not _op(m1, "mul") or _other(m1.args, node) is not x:
        return False
    after = m1
    cast = None
    if len(m1.users) == 1 and _is(next(iter(m1.users)), "call_method", "to"):
        cast = next(iter(m1.users))
        after = cast
    if len(after.users) != 1:
        return False
    m2 = next(iter(after.users))
    if not _op(m2, "mul"):
        return False
    w = _other(m2.args, after)
    xv, wv, ov = _ex(x), _ex(w), _ex(m2)
    if not all(isinstance(t, torch.Tensor) for t in (xv, wv, ov)) or wv.dim() != 1 or wv.shape[0] != xv.shape[-1]:
        return False
    if not (xv.dtype == wv.dtype == ov.dtype):  # mixed precision keeps the unfused form
        return False
    for n, user in ((pw, var), (var, add), (add, node), (node, m1)) + (((m1, cast),) if cast else ()):
        if not _only_user(n, user):
            return False
    g = gm.graph
    with g.inserting_before(m2):
        fused = g.call_function(torch.ops.diopi.rms_norm.default, (x, [int(xv.shape[-1])], w, float(eps)))
        out = g.call_function(operator.getitem, (fused, 0))
    _take_place(out, m2, fused)
    m2.replace_all_uses_with(out)
    for n in (m2, cast, m1, node, add, var, pw):
        if n is not None:
            g.erase_node(n)
    return True


# ---------------------------------------------------------------- rotary

_UNARY_METHODS = {"unsqueeze", "to", "float", "type_as", "contiguous"}


def _halves_equal(node):
    """Whether every value of `node` along its last dimension repeats after the middle: it is derived
    elementwise (cos, sin, casts, scaling, unsqueeze) from cat((f, f), -1)."""
    for _ in range(16):
        if not isinstance(node, torch.fx.Node):
            return False
        if _op(node, "cat"):
            parts = node.args[0]
            dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
            return dim == -1 and isinstance(parts, (list, tuple)) and len(parts) == 2 and parts[0] is parts[1]
        if node.op == "call_method" and node.target in _UNARY_METHODS:
            if node.target == "unsqueeze" and node.args[1] in (-1,):
                return False
            node = node.args[0]
        elif _op(node, "cos") or _op(node, "sin"):
            node = node.args[0]
        elif _op(node, "mul") and any(isinstance(a, (int, float)) for a in node.args):
            node = next(a for a in node.args if isinstance(a, torch.fx.Node))
        else:
            return False
    return False


def _slice_last(node, x):
    """h when node is x[..., :h] (start None) / x[..., h:] (start h), as a (kind, h) pair."""
    if not _is(node, "call_function", operator.getitem) or node.args[0] is not x:
        return None
    idx = node.args[1]
    if not (isinstance(idx, tuple) and len(idx) == 2 and idx[0] is Ellipsis and isinstance(idx[1], slice)):
        return None
    s = idx[1]
    if s.step not in (None, 1):
        return None
    if s.start is None and isinstance(s.stop, int):
        return ("head", s.stop)
    if isinstance(s.start, int) and s.stop is None:
        return ("tail", s.start)
    return None


def _rotary(gm, node):
    """node: x * cos + cat((-x[..., h:], x[..., :h]), -1) * sin."""
    if not _op(node, "add") or len(node.args) != 2:
        return False
    for m1, m2 in (node.args, node.args[::-1]):
        if not (_op(m1, "mul") and _op(m2, "mul")):
            continue
        cat = next((a for a in m2.args if _op(a, "cat")), None)
        if cat is None:
            continue
        sin = _other(m2.args, cat)
        parts = cat.args[0]
        dim = cat.args[1] if len(cat.args) > 1 else cat.kwargs.get("dim", 0)
        if dim != -1 or not isinstance(parts, (list, tuple)) or len(parts) != 2:
            continue
        neg, x1 = parts
        if not _op(neg, "neg"):
            continue
        x2 = neg.args[0]
        x = x1.args[0] if isinstance(x1, torch.fx.Node) and x1.args else None
        if x is None or x not in m1.args:
            continue
        cos = _other(m1.args, x)
        xv, cv, sv = _ex(x), _ex(cos), _ex(sin)
        if not all(isinstance(t, torch.Tensor) for t in (xv, cv, sv)):
            continue
        d = int(xv.shape[-1])
        if d % 2 or _slice_last(x1, x) != ("head", d // 2) or _slice_last(x2, x) != ("tail", d // 2):
            continue
        if cv.shape != sv.shape or cv.shape[-1] != d or cv.requires_grad or sv.requires_grad or cv.dtype != xv.dtype:
            continue
        if not (_halves_equal(cos) and _halves_equal(sin)):
            continue
        if not all(_only_user(a, b) for a, b in ((m1, node), (m2, node), (cat, m2), (neg, cat), (x1, cat), (x2, neg))):
            continue
        g = gm.graph
        half = (Ellipsis, slice(None, d // 2, None))
        with g.inserting_before(node):
            ch = g.call_function(operator.getitem, (cos, half))
            sh = g.call_function(operator.getitem, (sin, half))
            out = g.call_function(torch.ops.diopi.rotary_embedding.default, (x, ch, sh, False, False))
        _take_place(out, node)
        node.replace_all_uses_with(out)
        for n in (node, m1, m2, cat, neg, x1, x2):
            g.erase_node(n)
        return True
    return False


# ---------------------------------------------------------------- attention, linear, cross entropy

def _arg(node, i, name, default=None):
    if len(node.args) > i:
        return node.args[i]
    return node.kwargs.get(name, default)


def _attention(gm, node):
    # The builtin itself: torch.nn.functional's name may be wrapped while a step runs (recipes.NoDropoutPatched).
    if not _is(node, "call_function", torch._C._nn.scaled_dot_product_attention):
        return False
    q, k, v = _arg(node, 0, "query"), _arg(node, 1, "key"), _arg(node, 2, "value")
    if _arg(node, 3, "attn_mask") is not None or _arg(node, 4, "dropout_p", 0.0) != 0.0:
        return False
    causal, scale, gqa = _arg(node, 5, "is_causal", False), _arg(node, 6, "scale"), _arg(node, 7, "enable_gqa", False)
    qv, kv, vv = _ex(q), _ex(k), _ex(v)
    if not all(isinstance(t, torch.Tensor) and t.dim() == 4 for t in (qv, kv, vv)):
        return False
    if not isinstance(causal, bool) or not (scale is None or isinstance(scale, (int, float))):
        return False
    if qv.shape[1] != kv.shape[1] and not (gqa and qv.shape[1] % kv.shape[1] == 0):
        return False
    if causal and qv.shape[2] != kv.shape[2]:  # ATen aligns the causal mask top-left, DIOPI bottom-right
        return False
    scale = float(scale) if scale is not None else 1.0 / math.sqrt(qv.shape[-1])
    g = gm.graph
    with g.inserting_before(node):
        qt, kt, vt = (g.call_method("transpose", (t, 1, 2)) for t in (q, k, v))
        fused = g.call_function(torch.ops.diopi.flash_attention.default, (qt, kt, vt, scale, causal))
        out = g.call_function(operator.getitem, (fused, 0))
        back = g.call_method("transpose", (out, 1, 2))
    _take_place(back, node, fused)
    node.replace_all_uses_with(back)
    g.erase_node(node)
    return True


def _linear(gm, node):
    if not _is(node, "call_function", torch._C._nn.linear):
        return False
    x, w, b = _arg(node, 0, "input"), _arg(node, 1, "weight"), _arg(node, 2, "bias")
    xv, wv = _ex(x), _ex(w)
    if not (isinstance(xv, torch.Tensor) and isinstance(wv, torch.Tensor) and wv.dim() == 2 and xv.dim() >= 2
            and xv.dtype == wv.dtype):
        return False
    g = gm.graph
    with g.inserting_before(node):
        out = g.call_function(torch.ops.diopi.linear.default, (x, w, b))
    _take_place(out, node)
    node.replace_all_uses_with(out)
    g.erase_node(node)
    return True


_REDUCTION = {"none": 0, "mean": 1, "sum": 2}


def _cross_entropy(gm, node):
    if not _is(node, "call_function", F.cross_entropy):
        return False
    names = ("input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction", "label_smoothing")
    defaults = (None, None, None, None, -100, None, "mean", 0.0)
    a = {n: _arg(node, i, n, d) for i, (n, d) in enumerate(zip(names, defaults))}
    if a["size_average"] is not None or a["reduce"] is not None or a["reduction"] not in _REDUCTION:
        return False
    xv, tv = _ex(a["input"]), _ex(a["target"])
    if not (isinstance(xv, torch.Tensor) and isinstance(tv, torch.Tensor) and xv.dim() == 2
            and tv.dtype in (torch.int64, torch.int32)):
        return False
    g = gm.graph
    with g.inserting_before(node):
        out = g.call_function(torch.ops.diopi.cross_entropy.default,
                              (a["input"], a["target"], a["weight"], _REDUCTION[a["reduction"]], int(a["ignore_index"]),
                               float(a["label_smoothing"])))
    _take_place(out, node)
    node.replace_all_uses_with(out)
    g.erase_node(node)
    return True


_REWRITES = {"rms_norm": _rms_norm, "rotary": _rotary, "attention": _attention, "linear": _linear,
             "cross_entropy": _cross_entropy}


def rewrite(gm: torch.fx.GraphModule, exported, patterns=None) -> collections.Counter:
    """Rewrites every match of every pattern (of `patterns`, default all) whose functions `exported`
    holds; returns the counts. Checkpointed blocks (dynamo's tag_activation_checkpoint, its body a
    submodule) are rewritten inside too: their recomputation then runs fused, as under Inductor."""
    done = collections.Counter()
    bodies = {}
    for n in gm.graph.nodes:
        if n.target is torch.ops.higher_order.tag_activation_checkpoint and n.args and n.args[0].op == "get_attr":
            body = getattr(gm, n.args[0].target)
            bodies[id(body)] = body
    for body in bodies.values():
        done += rewrite(body, exported, patterns)
    for name, fns in PATTERNS.items():
        if (patterns is not None and name not in patterns) or not all(f in exported for f in fns):
            continue
        fn = _REWRITES[name]
        for node in list(gm.graph.nodes):
            if not getattr(node, "_erased", False) and fn(gm, node):
                done[name] += 1
    if done:
        gm.graph.lint()
        gm.recompile()
    return done
