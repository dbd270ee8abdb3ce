"""Autocompare: every DIOPI call on the device is recomputed by eager CPU ATen.

Used by `scripts/models.sh --autocompare`. A TorchDispatchMode sees every
ATen call of the model; for each one that the device served with a DIOPI
function (the extension's call counter moved), the same ATen operator runs
on CPU copies of the inputs taken before the call, and outputs and written
arguments are compared. The first call that differs beyond tolerance is kept
with its module path, ATen operator, DIOPI function, shapes, dtypes and
difference, and saved as a case file (the DIOPI call in the mapping's terms,
plus the inputs and the CPU results) that can be replayed.
"""
from __future__ import annotations

import json
import math
import os

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten, tree_map

from .. import _C, capture
from ..ops import fused, mapping, schemas


def _on_device(x):
    return isinstance(x, torch.Tensor) and x.device.type == _C.BACKEND


def _to_cpu(x):
    if _on_device(x):
        return x.detach().cpu().clone()
    if isinstance(x, torch.device) and x.type == _C.BACKEND:
        return torch.device("cpu")
    return x


def _masked_attention(q, k, v, attn_bias, scale):
    """Attention with ATen's additive mask by PyTorch's math path on the CPU."""
    return torch.ops.aten._scaled_dot_product_attention_math(q, k, v, attn_bias, 0.0, False, None, scale=scale,
                                                             enable_gqa=q.shape[1] != k.shape[1])[0]


def _dropped_attention(q, k, v, attn_bias, scale, is_causal, keep, p, grad_out):
    """The gradients of attention whose probabilities were kept where `keep` is true (scaled by 1 / (1 - p)),
    written out: autograd records nothing inside a dispatch mode's handler."""
    groups = q.shape[1] // k.shape[1]
    qf, kf, vf, g = (t.detach().double() for t in (q, k, v, grad_out))
    kk, vv = (t.repeat_interleave(groups, 1) for t in (kf, vf))
    scores = qf @ kk.transpose(-1, -2) * scale
    if attn_bias is not None:
        scores = scores + attn_bias.double()
    if is_causal:
        scores = scores.masked_fill(~torch.ones(scores.shape[-2:], dtype=torch.bool).tril(), float("-inf"))
    probs = torch.softmax(scores, -1).nan_to_num(0.0)
    kept = keep.double() / (1 - p)
    dv = (probs * kept).transpose(-1, -2) @ g
    dp = (g @ vv.transpose(-1, -2)) * kept
    ds = probs * (dp - (probs * dp).sum(-1, keepdim=True))
    dq = ds @ kk * scale
    dk = ds.transpose(-1, -2) @ qf * scale
    if groups > 1:  # query heads sharing a key head: their gradients add up
        dk = dk.unflatten(1, (k.shape[1], groups)).sum(2)
        dv = dv.unflatten(1, (k.shape[1], groups)).sum(2)
    return dq.to(q.dtype), dk.to(k.dtype), dv.to(v.dtype)


def _fused_attention(q, k, v, attn_bias=None, dropout_p=0.0, is_causal=False, return_debug_mask=False, *, scale=None):
    """The device's fused attention (csrc/aten/attention.cpp) as eager CPU computes it: without a mask the compile
    route's own formula (ops/fused.py, on (B, S, H, D) views as the header's flash attention takes them), with one
    PyTorch's math path. The library's own softmax statistics (a masked call's) have no reference (None), nor has a
    call with dropout (its random draw is the vendor's; its backward is judged with the mask it drew)."""
    s = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    if dropout_p > 0:
        return (None,) * 9
    if attn_bias is not None:
        return _masked_attention(q, k, v, attn_bias, s), None, None, None, q.shape[2], k.shape[2], None, None, None
    out, lse = fused.flash_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), s, is_causal)
    return out.transpose(1, 2), lse, None, None, q.shape[2], k.shape[2], None, None, None


def _fused_attention_backward(grad_out, q, k, v, attn_bias, grad_input_mask, out, logsumexp, cum_seq_q, cum_seq_k, max_q, max_k,
                              dropout_p, is_causal, philox_seed, philox_offset, *, scale=None):
    s = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    if dropout_p > 0 or attn_bias is not None:  # a dropout's keep mask travels in philox_offset
        keep = philox_offset if dropout_p > 0 else torch.ones((), dtype=torch.bool)
        return (*_dropped_attention(q, k, v, attn_bias, s, is_causal, keep, dropout_p, grad_out), None)
    t = [x.transpose(1, 2) for x in (grad_out, q, k, v, out)]
    dq, dk, dv = fused.flash_attention_backward(t[0], t[1], t[2], t[3], t[4], logsumexp, s, is_causal)
    return dq.transpose(1, 2), dk.transpose(1, 2), dv.transpose(1, 2), None


# Operators PyTorch defines for out-of-tree devices only, with no CPU kernel to recompute them: their CPU reference.
_CPU_REFERENCE = {
    torch.ops.aten._scaled_dot_product_fused_attention_overrideable.default: _fused_attention,
    torch.ops.aten._scaled_dot_product_fused_attention_overrideable_backward.default: _fused_attention_backward,
}


def _describe(x):
    if isinstance(x, torch.Tensor):
        return {"shape": list(x.shape), "stride": list(x.stride()), "dtype": str(x.dtype).replace("torch.", "")}
    if isinstance(x, (list, tuple)):
        return [_describe(v) for v in x]
    return x if isinstance(x, (int, float, bool, str, type(None))) else str(x)


class AutoCompare(TorchDispatchMode):
    def __init__(self, model: torch.nn.Module, model_name: str, tol: float, out_dir: str | None = None):
        super().__init__()
        self.model_name = model_name
        self.tol = max(tol * 10, 1e-3)  # one operator, not a whole step: rounding stays far below this
        self.out_dir = out_dir or os.environ.get("DIOPI_AUTOCOMPARE_DIR", "autocompare")
        self.first = None
        self.compared = 0
        self._stack = []
        self._hooks = []
        for name, mod in model.named_modules():
            path = f"model.{name}" if name else "model"
            self._hooks.append(mod.register_forward_pre_hook(self._enter(path)))
            self._hooks.append(mod.register_forward_hook(self._leave))

    def _enter(self, path):
        def hook(module, args):
            self._stack.append(path)  # a hook returning None leaves the inputs alone
        return hook

    def _leave(self, module, args, output):
        if self._stack:
            self._stack.pop()

    def __exit__(self, *exc):
        for h in self._hooks:
            h.remove()
        return super().__exit__(*exc)

    def _module(self):
        node = torch._C._current_autograd_node()
        if node is not None:
            return f"backward ({node.name()})"
        return self._stack[-1] if self._stack else "model"

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        flat, _ = tree_flatten((args, kwargs))
        if self.first is not None or not any(_on_device(x) for x in flat):
            return func(*args, **kwargs)
        cpu_args, cpu_kwargs = tree_map(_to_cpu, (args, kwargs))
        seq = _C.call_seq()
        out = func(*args, **kwargs)
        if _C.call_seq() == seq:
            return out  # served by a view, a copy or the CPU fallback: nothing of the library's to judge
        aten, diopi = _C.last_call()
        ref = _CPU_REFERENCE.get(func, func)(*cpu_args, **cpu_kwargs)
        pairs = list(zip(tree_flatten(out)[0], tree_flatten(ref)[0]))
        for i, a in enumerate(func._schema.arguments):  # written arguments (in-place, out=)
            if a.alias_info is not None and a.alias_info.is_write:
                dev = args[i] if i < len(args) else kwargs.get(a.name)
                cpu = cpu_args[i] if i < len(cpu_args) else cpu_kwargs.get(a.name)
                pairs += list(zip(tree_flatten(dev)[0], tree_flatten(cpu)[0]))
        self.compared += 1
        for d, r in pairs:
            if not isinstance(d, torch.Tensor) or not isinstance(r, torch.Tensor):
                continue
            got = d.detach().cpu().double()
            exp = r.detach().double()
            if got.shape != exp.shape:
                diff, rel = float("inf"), float("inf")
            else:
                diff = (got - exp).abs().nan_to_num(float("inf")).max().item() if got.numel() else 0.0
                rel = diff / max(exp.abs().max().item() if exp.numel() else 0.0, 1e-12)
            if rel > self.tol:
                self._record(func, aten, diopi, args, kwargs, cpu_args, cpu_kwargs, ref, diff, rel)
                break
        return out

    def _record(self, func, aten, diopi, args, kwargs, cpu_args, cpu_kwargs, ref, diff, rel):
        tensors = [x for x in tree_flatten((args, kwargs))[0] if isinstance(x, torch.Tensor)]
        name = schemas.overload_name(func)
        self.first = {
            "model": self.model_name, "module": self._module(), "aten": name, "diopi": diopi,
            "shapes": [list(t.shape) for t in tensors], "dtypes": sorted({str(t.dtype).replace("torch.", "") for t in tensors}),
            "max_abs_diff": diff, "relative_diff": rel, "tolerance": self.tol,
        }
        self.first["case_file"] = self._save(func, name, diopi, cpu_args, cpu_kwargs, ref)

    def _save(self, func, name, diopi, cpu_args, cpu_kwargs, ref):
        return save_case(self.out_dir, self.model_name, func, name, diopi, cpu_args, cpu_kwargs, ref, self._module())


def save_case(out_dir, model_name, func, name, diopi, cpu_args, cpu_kwargs, ref, module, extra=None):
    """A differing call as data: the ATen call with its inputs and CPU results (.pt) and, described in
    the mapping's terms, the DIOPI call it became (.json), with the commands that replay it (also used
    by the compile route's autocompare, diopi_torch.graph.autocompare)."""
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.join(out_dir, f"{model_name}.{name}")
    bound = {}
    schema = func._schema
    for i, a in enumerate(schema.arguments):
        bound[a.name] = cpu_args[i] if i < len(cpu_args) else cpu_kwargs.get(a.name, a.default_value)
    bound[mapping.RESULT] = ref
    desc = {}
    try:
        entry = mapping.load().select(name, bound)
        if entry is not None:
            desc = {"entry": entry.where, "args": {k: _describe(v) for k, v in entry.bind(bound).items()}}
    except Exception as e:  # the description is a help, never a reason to lose the case
        desc = {"error": str(e)}
    torch.save({"aten": name, "args": cpu_args, "kwargs": cpu_kwargs, "expected": ref}, stem + ".pt")
    # The same call as a harness case set: the conformance harness replays it against any library.
    set_name = f"autocompare_{model_name}"
    harness_replay = ""
    try:
        cs = capture.single_call_set(set_name, func, cpu_args, cpu_kwargs, ref,
                                     note=f"first call of {model_name} that differed from eager CPU ({module})")
        capture.write(cs, out_dir)
        harness_replay = (f"cd diopi_test/python && export DIOPI_MODEL_CASES={os.path.abspath(out_dir)} && "
                          f"python main.py --mode gen_data --model_name {set_name} && "
                          f"python main.py --mode run_test --model_name {set_name} --impl_lib <libdiopi_impl.so>")
    except Exception as e:  # the .pt replay still works
        harness_replay = f"(no harness case: {e})"
    with open(stem + ".json", "w") as f:
        json.dump({"model": model_name, "aten": name, "schema": str(schema), "diopi": diopi,
                   "diopi_call": desc, "inputs": stem + ".pt",
                   "replay": f"python -m diopi_torch.tools.replay {stem}.pt --impl_lib <libdiopi_impl.so>",
                   "harness_case_set": os.path.join(out_dir, f"{set_name}.yaml"),
                   "harness_replay": harness_replay, **(extra or {})}, f, indent=1)
    return stem + ".json"
