"""Mixture-of-experts routing on the compile route: the suite's Mixtral (transformers' grouped-GEMM experts:
sort, floor_divide, histc, the transformers::grouped_mm_fallback custom operator and its backward, index_put)
compiles into one forward and one backward graph that leave no node to the eager device, and matches eager
CPU on impl/torch and impl/cpu. The route's own decompositions (graph/decompose.py) are checked against the
operators they stand for."""
import json
import os
import subprocess
import sys
import textwrap

import pytest
import torch

import forked
from device_paths import CPU_LIB, LIB, ROOT

from diopi_torch.graph import decompose


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32, torch.int64])
def test_histc_decomposition_counts_as_histc(dtype):
    g = torch.Generator().manual_seed(3)
    if dtype.is_floating_point:
        x = (torch.randn(2000, generator=g, dtype=dtype) * 3)
        x[:3] = torch.tensor([-1.0, 5.0, 2.0], dtype=dtype)  # both ends of the range and an inner bin edge
        ref = torch.histc(x, 6, -1, 5)
    else:
        x = torch.randint(-3, 11, (40, 50), generator=g, dtype=dtype)
        ref = torch.histc(x.double(), 8, 0, 7).to(dtype)  # the CPU's histc refuses integers
    got = decompose.histc(x, 6 if dtype.is_floating_point else 8, -1 if dtype.is_floating_point else 0,
                          5 if dtype.is_floating_point else 7)
    assert got.dtype == ref.dtype
    assert torch.equal(got, ref), (got, ref)
    assert decompose.histc(x, 4, 0, 0) is NotImplemented  # the range from the data stays with the operator


def _grouped_reference(x, w, offs):
    """Each group's rows times its weight, rows past the last offset zero."""
    out = torch.zeros(x.shape[0], w.shape[2], dtype=x.dtype)
    start = 0
    for i, end in enumerate(offs.tolist()):
        out[start:end] = x[start:end] @ w[i]
        start = end
    return out


@pytest.mark.parametrize("counts", [[3, 0, 4, 2], [0, 9, 0, 0], [2, 2, 1, 1]])  # empty groups; a sentinel tail
def test_grouped_mm_decomposition_and_its_backward(counts):
    g = torch.Generator().manual_seed(sum(counts))
    rows = 9
    offs = torch.cumsum(torch.tensor(counts), 0).to(torch.int32)
    x = torch.randn(rows, 5, generator=g, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 5, 6, generator=g, dtype=torch.float64, requires_grad=True)
    ref = _grouped_reference(x, w, offs)
    got = decompose.grouped_mm(x.detach(), w.detach(), offs)
    torch.testing.assert_close(got, ref.detach(), rtol=1e-12, atol=1e-12)
    grad = torch.randn(rows, 6, generator=g, dtype=torch.float64)
    rx, rw = torch.autograd.grad(ref, (x, w), grad)
    gx, gw = decompose.grouped_mm_backward(x.detach(), w.detach(), offs, grad)
    torch.testing.assert_close(gx, rx, rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(gw, rw, rtol=1e-12, atol=1e-12)


def test_the_transformers_operators_are_decomposed_when_registered():
    pytest.importorskip("transformers")
    import transformers.integrations.moe  # noqa: F401  (registers transformers::grouped_mm_fallback)
    table = decompose.foreign()
    ops = torch.ops.transformers
    assert table.get(ops.grouped_mm_fallback.default) is decompose.grouped_mm
    assert table.get(ops.grouped_mm_fallback_backward.default) is decompose.grouped_mm_backward


STEP = """
    import json, sys, torch, diopi_torch
    from diopi_torch import graph
    from diopi_torch.suite import recipes
    from diopi_torch.suite import models as suite
    from diopi_torch.suite import compare as checks
    graph.register()
    diopi_torch.load(sys.argv[1])
    model = suite.MODELS["mixtral"]
    m = suite.build(model)
    batch = suite.inputs(model, m)
    ref = recipes.train(recipes.RECIPES["fp32"], m, [batch], torch.device("cpu"))
    dev = recipes.train(recipes.compiled(recipes.RECIPES["fp32"]), m, [batch], torch.device("diopi"))
    match = {k: checks.compare(dev[k], ref[k], 1e-4)[:2] for k in ("forward", "backward")}
    print(json.dumps({"match": match, "graph": diopi_torch.stats()["graph"]}, default=str))
"""


@pytest.mark.needs_device
@pytest.mark.parametrize("vendor", ["torch", "cpu"])
def test_mixtral_compiles_whole_and_nothing_falls_back(vendor, tmp_path):
    lib = LIB if vendor == "torch" else CPU_LIB
    if not os.path.exists(lib):
        pytest.skip(f"impl/{vendor} is not built ({lib}: scripts/build_impl.sh {vendor})")
    proc = forked.run([sys.executable, "-c", textwrap.dedent(STEP), lib], capture_output=True, text=True, cwd=ROOT,
                      timeout=900, env={**os.environ, "DIOPI_GRAPH_CACHE": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    for part, (ok, diff) in out["match"].items():
        assert ok, (part, diff)
    g = out["graph"]
    assert g["fallback_nodes"] == 0, g["fallback_reasons"]
    assert g["graph_breaks"] == 0, g
    assert g["compiled_graphs"] == {"forward": 1, "backward": 1}, g["compiled_graphs"]
    assert g["partitions"] == 2, g  # neither graph is split around an unserved node
