"""How the suite compares the device with eager CPU: relative differences,
16-bit recipes against a float64 truth, and the tolerances a vendor asks for
(impl/<vendor>/device_configs.py)."""
from __future__ import annotations

import ast
import os

from .models import ROOT


def rel_diff(a, b):
    """max |a-b| / max |b|: the error relative to the reference's scale."""
    import torch
    a, b = a.double(), b.double()
    if a.shape != b.shape:
        return float("inf"), float("inf")
    if not torch.isfinite(a).all() or not torch.isfinite(b).all():
        same = torch.equal(torch.isnan(a), torch.isnan(b)) and torch.equal(a[~torch.isnan(a)], b[~torch.isnan(b)])
        return (0.0, 0.0) if same else (float("inf"), float("inf"))
    diff = (a - b).abs().max().item() if a.numel() else 0.0
    scale = b.abs().max().item() if b.numel() else 0.0
    return diff, diff / max(scale, 1e-12)


def compare(dev, ref, tol):
    """Each tensor's largest difference relative to its own largest value,
    floored at 1% of the largest value in the group, so tensors whose exact
    value is zero (the gradient of an attention key bias) are not judged on
    rounding noise alone."""
    worst_abs, worst_rel, where = 0.0, 0.0, ""
    group = max((t.double().abs().max().item() for t in ref.values() if t.numel()), default=0.0)
    for k in ref:
        if k not in dev:
            return False, float("inf"), f"{k} missing"
        d, r = rel_diff(dev[k], ref[k])
        if d != float("inf") and ref[k].numel():
            r = d / max(ref[k].double().abs().max().item(), 0.01 * group, 1e-12)
        if r > worst_rel:
            worst_abs, worst_rel, where = d, r, k
    return worst_rel <= tol, worst_abs, f"{where} (relative {worst_rel:.2g})" if where else ""


def compare_step(dev, ref, dev_grads, ref_grads, tol, steps):
    """Parameters after AdamW steps, judged by what the gradients allow: one
    AdamW step moves a parameter by lr * g / (|g| + eps) (plus decay), whose
    slope in g is at most lr / eps. A gradient that differs by d (rounding
    noise in a gradient that is nearly zero, say) may therefore move the
    parameter by up to lr * d / eps per step more than the reference, on top
    of the tolerance; a flat bound would fail a correct device on noise that
    AdamW's normalisation magnifies."""
    import torch

    from . import recipes
    group = max((t.double().abs().max().item() for t in ref.values() if t.numel()), default=0.0)
    worst_abs, worst_rel, where = 0.0, 0.0, ""
    for k in ref:
        if k not in dev:
            return False, float("inf"), f"{k} missing"
        a, b = dev[k].double(), ref[k].double()
        if a.shape != b.shape or not torch.isfinite(a).all():
            return False, float("inf"), f"{k} (shape or non-finite values)"
        diff = (a - b).abs()
        scale = max(b.abs().max().item() if b.numel() else 0.0, 0.01 * group, 1e-12)
        slack = torch.zeros_like(diff)
        if k in dev_grads and k in ref_grads and dev_grads[k].shape == ref_grads[k].shape:
            slack = steps * recipes.LR * (dev_grads[k].double() - ref_grads[k].double()).abs() / recipes.EPS
        excess = (diff - slack).clamp_min(0.0)
        r = excess.max().item() / scale if diff.numel() else 0.0
        if r > worst_rel:
            worst_abs, worst_rel, where = diff.max().item(), r, k
    return worst_rel <= tol, worst_abs, f"{where} (relative {worst_rel:.2g} beyond what the gradients allow)" if where else ""


def group_error(side, truth):
    """The largest difference from the float32 run, relative to the largest value of the group
    (16-bit rounding errors scale with the magnitudes summed, not with each result)."""
    scale = max((t.double().abs().max().item() for t in truth.values() if t.numel()), default=0.0) or 1e-12
    worst, where = 0.0, ""
    for k, t in truth.items():
        if k not in side or side[k].shape != t.shape:
            return float("inf"), f"{k} missing or reshaped"
        a = side[k].double()
        if not torch_isfinite(a):
            return float("inf"), f"{k} not finite"
        e = (a - t.double()).abs().max().item() / scale if t.numel() else 0.0
        if e > worst:
            worst, where = e, k
    return worst, where


def torch_isfinite(t):
    import torch
    return bool(torch.isfinite(t).all())


# One rounding of a 16-bit format, relative: the floor of a 16-bit bound.
UNIT = {"bf16": 2.0 ** -8, "fp16": 2.0 ** -11}


def compare_16bit(dev, cpu, truth, factor, precision):
    """A 16-bit result is judged by its error against the same step in float32:
    the device's error may be at most `factor` times eager CPU's own error under
    the same recipe, plus one rounding of the format relative to the largest
    value (so that a CPU that happens to be nearly exact does not make the bound
    zero). A wrong kernel makes errors of the size of the values; 16-bit
    rounding, however it is ordered, makes errors like the CPU's."""
    e_dev, where = group_error(dev, truth)
    e_cpu, _ = group_error(cpu, truth)
    bound = factor * e_cpu + UNIT[precision]
    ok = e_dev <= bound
    return ok, e_dev, "" if ok else f"{where}: error {e_dev:.3g} vs float32, eager CPU's {e_cpu:.3g} (bound {bound:.3g})", \
        e_dev, e_cpu


def vendor_tolerances(info):
    """Tolerance and reason per precision class (fp32, bf16, fp16) for this
    library, from MODEL_TOLERANCES in impl/<vendor>/device_configs.py; a
    vendor that states none gets the reference's fp32 bound only."""
    vendor = info.get("vendor", "")
    # The checkout this package sits in, else (an installed package) the one the library was built in
    # (<checkout>/build/<vendor>/lib/libdiopi_impl.so).
    built_in = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(info.get("library", "/"))))))
    paths = [os.path.join(root, "impl", vendor, "device_configs.py") for root in (ROOT, built_in)]
    path = next((p for p in paths if os.path.exists(p)), None)
    found = {}
    if vendor and path:
        tree = ast.parse(open(path).read())
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id == "MODEL_TOLERANCES":
                found = ast.literal_eval(node.value)
    out = {"fp32": (1e-4, "default")}
    for k, v in found.items():
        out[k] = (float(v[0]), str(v[1]))
    return out
