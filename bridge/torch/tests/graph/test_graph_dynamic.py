"""Dynamic shapes on the compile route: a graph with symbolic sizes compiles once and is planned per
binding of its sizes (graph/dynamic.py). A compiled causal LM trained over several sequence lengths
does not crash on the second length, matches eager CPU at every length, compiles each graph at most
twice (static, then symbolic) and leaves no node to the eager device; so does Mixtral, its routing included."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device

SWEEP = """
    import json, sys, torch, diopi_torch
    from diopi_torch import graph
    from diopi_torch.suite import models, sweep
    graph.register()
    diopi_torch.load(sys.argv[1])
    v = sweep.seq_sweep(models.MODELS[sys.argv[2]], [int(x) for x in sys.argv[3].split(",")], 1e-4)
    print(json.dumps(v, default=str))
"""

# A function with the pattern that crashed: a result viewed through a transpose, sizes computed from the input's.
SMALL = """
    import json, sys, torch, diopi_torch
    from diopi_torch import graph
    graph.register()
    diopi_torch.load(sys.argv[1])

    def f(x, w):
        b, s, h = x.shape
        y = torch.nn.functional.linear(x, w).view(b, s, 2, h // 2).transpose(1, 2)
        y = torch.relu(y) * 2
        return y.transpose(1, 2).reshape(b, s * h).sum(-1)
    step = torch.compile(f, backend="diopi", dynamic=True)
    rows = []
    w = torch.randn(16, 16)
    for s in (3, 5, 7, 5):
        x = torch.randn(2, s, 16)
        got = step(x.to("diopi"), w.to("diopi")).cpu()
        rows.append({"s": s, "diff": (got - f(x, w)).abs().max().item()})
    st = diopi_torch.stats()["graph"]
    print(json.dumps({"rows": rows, "graph": st}, default=str))
"""


def _run(code, *args):
    proc = forked.run([sys.executable, "-c", textwrap.dedent(code), LIB, *args], capture_output=True, text=True,
                      cwd=ROOT, timeout=900, env=dict(os.environ))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_symbolic_graph_is_planned_per_binding_without_fallback():
    out = _run(SMALL)
    st = out["graph"]
    assert all(r["diff"] <= 1e-5 for r in out["rows"]), out["rows"]
    assert sum(st["symbolic_graphs"].values()) == 1, st["symbolic_graphs"]
    assert st["compiled_graphs"] == st["symbolic_graphs"]  # dynamic=True: one symbolic compilation and nothing else
    assert st["shape_bindings"] == 3  # lengths 3, 5, 7; the second 5 reuses its plan
    assert st["fallback_nodes"] == 0, st["fallback_reasons"]
    assert st["compiled_nodes"] > 0


def test_llama_sequence_length_sweep_compiles_at_most_twice_and_never_falls_back():
    lengths = [8, 12, 16, 24]
    v = _run(SWEEP, "llama", ",".join(map(str, lengths)))
    rows = v["rows"]
    assert [r["length"] for r in rows] == lengths  # the second length ran (it used to crash)
    for r in rows:
        assert r["match"], r
    assert v["compiles_per_graph"] <= 2, [r["compiled_graphs"] for r in rows]
    assert v["fallback_nodes"] == 0
    # the later lengths are served by plans of the symbolic graphs, not by recompilation
    assert rows[-1]["compiled_graphs"] == rows[1]["compiled_graphs"]
    assert rows[-1]["shape_bindings"] > rows[1]["shape_bindings"] > 0
    assert v["ok"]


def test_mixtral_routing_runs_in_the_symbolic_graphs_over_five_lengths():
    # The experts' routing (sort, histc, the grouped GEMM, index_put) is decomposed with sizes that follow
    # the sequence length only, so it joins the symbolic graphs: no split, no recompilation, no fallback.
    lengths = [8, 12, 16, 24, 32]
    v = _run(SWEEP, "mixtral", ",".join(map(str, lengths)))
    rows = v["rows"]
    assert [r["length"] for r in rows] == lengths
    for r in rows:
        assert r["match"], r
        assert r["graph_breaks"] == 0, r
    assert rows[0]["compiled_graphs"] == {"forward": 1, "backward": 1}, rows[0]
    assert v["compiles_per_graph"] <= 2, [r["compiled_graphs"] for r in rows]
    assert v["fallback_nodes"] == 0
    assert rows[-1]["compiled_graphs"] == rows[1]["compiled_graphs"]
    assert rows[-1]["shape_bindings"] > rows[1]["shape_bindings"] > 0
