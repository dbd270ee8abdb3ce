"""Replays a call saved by autocompare on the `diopi` device.

    python -m diopi_torch.tools.replay reports/autocompare/llama.silu.pt --impl_lib PATH

Runs the saved ATen call with the saved inputs on the device and compares
with the CPU result saved beside them; exit 0 when they agree, 1 when not.
"""
import argparse
import sys

import torch
from torch.utils._pytree import tree_flatten, tree_map

from .. import _C
from ..runtime import load


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m diopi_torch.tools.replay")
    p.add_argument("case", help="the .pt file autocompare saved")
    p.add_argument("--impl_lib", default=None, help="libdiopi_impl.so (default: $DIOPI_IMPL_LIB)")
    p.add_argument("--tol", type=float, default=1e-3)
    args = p.parse_args(argv)
    load(args.impl_lib)
    case = torch.load(args.case, weights_only=False)
    base, _, ov = case["aten"].partition(".")
    func = getattr(getattr(torch.ops.aten, base), ov or "default")
    to_dev = lambda x: x.to(_C.BACKEND) if isinstance(x, torch.Tensor) else (  # noqa: E731
        torch.device(_C.BACKEND) if isinstance(x, torch.device) else x)
    dev_args, dev_kwargs = tree_map(to_dev, (case["args"], case["kwargs"]))
    out = func(*dev_args, **dev_kwargs)
    worst = 0.0
    for d, r in zip(tree_flatten(out)[0], tree_flatten(case["expected"])[0]):
        if isinstance(d, torch.Tensor):
            diff = (d.cpu().double() - r.double()).abs().max().item() if r.numel() else 0.0
            worst = max(worst, diff / max(r.double().abs().max().item() if r.numel() else 0.0, 1e-12))
    verdict = "passed" if worst <= args.tol else "failed"
    print(f"{case['aten']}: {verdict} (largest difference {worst:.3g} of the reference's scale; tolerance {args.tol:g})")
    return 0 if verdict == "passed" else 1


if __name__ == "__main__":
    sys.exit(main())
