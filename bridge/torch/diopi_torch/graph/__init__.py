"""The compile route of the `diopi` device: torch.compile(model, backend="diopi").

    model = model.to("diopi")
    step = torch.compile(model, backend="diopi")   # found through the package's torch_dynamo_backends entry point
    loss = step(**batch).loss; loss.backward()
    diopi_torch.stats()["graph"]                    # graphs, breaks, partitions, nodes, DIOPI calls, fallbacks, times

TorchDynamo captures the model's graphs; aot_autograd traces them on the
device into forward, backward (and inference) graphs of ATen operators, with
the decompositions aten_to_diopi.yaml declares. Each graph is lowered through
the same mapping entries the eager device's kernels are generated from
(lower.py), planned once -- views resolved, intermediates packed in one arena
by liveness (plan.py) -- and run as one native call walking the table of
DIOPI calls (runtime.py, csrc/graph_runner.cpp): the generated C of the plan
once it is compiled and cached (emit.py, cache.py), the interpreter of the
same plan before that or without a compiler. Nodes no entry serves stay on
the eager device (compiler.py).
"""
from __future__ import annotations

import os
import time

from . import stats

NAME = "diopi"


def decompositions():
    """Operator overload -> decomposition: the operators aten_to_diopi.yaml lists under `decompose:`
    (PyTorch's own decomposition, or the route's where PyTorch has none: decompose.OWN), and other
    libraries' custom operators the route knows (decompose.foreign)."""
    import torch
    from torch._decomp import decomposition_table

    from . import decompose
    from .compiler import _mapping
    amap = _mapping()
    table = {}
    for d in amap.decompositions:
        base, _, ov = d.aten.partition(".")
        op = getattr(getattr(torch.ops.aten, base), ov or "default")
        if d.aten in decompose.OWN:
            table[op] = decompose.OWN[d.aten]
        elif op in decomposition_table:
            table[op] = decomposition_table[op]
        else:
            raise RuntimeError(f"{d.where}: PyTorch has no decomposition of {d.aten} (torch._decomp)")
    table.update(decompose.foreign())
    return table


def _compiler(stage, options):
    from .compiler import compile_graph

    def compile_fn(gm, example_inputs, **kwargs):
        return compile_graph(gm, example_inputs, stage, options=options)
    compile_fn.__name__ = f"diopi_{stage}_compiler"
    return compile_fn


# Defaults of torch.compile(..., options={...}); DIOPI_GRAPH_FUSION=0 turns fusion off for a whole run.
OPTIONS = {"fusion": os.environ.get("DIOPI_GRAPH_FUSION", "1") != "0"}


def backend(gm, example_inputs, options=None, **kwargs):
    """The dynamo backend: aot_autograd with the diopi compilers for forward, backward and
    inference graphs. torch.compile(..., options={"fusion": False}) keeps the graph unfused; a list of
    fusion.PATTERNS names applies only those."""
    from torch._dynamo.backends.common import aot_autograd

    opts = dict(OPTIONS)
    for k, v in (options or {}).items():
        if k not in OPTIONS:
            raise ValueError(f"torch.compile(backend='diopi'): unknown option {k!r}; known: {', '.join(OPTIONS)}")
        opts[k] = v
    t0 = time.perf_counter()
    lowered_before = stats.snapshot_seconds()
    if opts["fusion"]:
        from . import fusion
        from .compiler import context
        patterns = opts["fusion"] if isinstance(opts["fusion"], (list, tuple, set)) else None
        for pattern, n in fusion.rewrite(gm, context()[2], patterns).items():
            stats.record_fused(pattern, n)
    aot = aot_autograd(fw_compiler=_compiler("forward", opts), bw_compiler=_compiler("backward", opts),
                       inference_compiler=_compiler("inference", opts), decompositions=decompositions(),
                       keep_inference_input_mutations=True)
    try:
        return aot(gm, example_inputs)
    finally:
        spent = time.perf_counter() - t0
        stats.record_backend(spent - (stats.snapshot_seconds() - lowered_before))


def register():
    """Registers the backend under its name without the entry point (a checkout that is not installed)."""
    from torch._dynamo.backends import registry
    if NAME not in registry._COMPILER_FNS:
        registry.register_backend(backend, name=NAME)
    return backend
