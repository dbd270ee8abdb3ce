"""One mapping for eager and graph: for every entry of aten_to_diopi.yaml, a
graph of that one ATen call is lowered and run by the compile route, the same
call runs on the eager device, and both must reach the library as the same
DIOPI calls with the same arguments (read by a logging library in front of
impl/torch: tensors by shape, strides, dtype and offset, scalars, sizes,
numbers, strings)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB, ROOT

HERE = os.path.dirname(os.path.abspath(__file__))

pytestmark = pytest.mark.needs_device

import shim

CODE = """
    import json, operator, os, sys, torch
    from torch.utils._pytree import tree_flatten, tree_unflatten, tree_map
    from torch.fx.experimental.proxy_tensor import make_fx
    sys.path.insert(0, sys.argv[2])
    import graph_samples
    import diopi_torch
    from diopi_torch.ops import mapping
    from diopi_torch.graph import compiler, lower
    diopi_torch.load(sys.argv[1])
    amap = mapping.load()
    calls = graph_samples.harvest(amap)
    log = os.environ["DIOPI_SHIM_LOG"]

    def logged(run):
        start = os.path.getsize(log) if os.path.exists(log) else 0
        run()
        with open(log) as f:
            f.seek(start)
            return f.read().splitlines()

    def on_device(args, kwargs):
        def move(x):
            if isinstance(x, torch.Tensor):
                return x.to("diopi")
            if isinstance(x, torch.device):
                return torch.device("diopi")
            return x
        return tree_map(move, (args, kwargs))

    results = {}
    for e in amap.entries:
        where = lower.entry_where(e)
        if e.where not in calls:
            results[where] = ["skip", "no real call of this entry was found"]
            continue
        func, args, kwargs = calls[e.where]
        if any(isinstance(x, torch.Generator) for x in tree_flatten((args, kwargs))[0]):
            results[where] = ["skip", "an explicit generator: a plan passes the device's default generator"]
            continue
        a, k = on_device(args, kwargs)
        flat, spec = tree_flatten((a, k))
        idx = [i for i, x in enumerate(flat) if isinstance(x, torch.Tensor)]

        def f(*ts):
            items = list(flat)
            for i, t in zip(idx, ts):
                items[i] = t
            aa, kk = tree_unflatten(items, spec)
            return func(*aa, **kk)
        try:
            gm = make_fx(f, tracing_mode="fake")(*[flat[i] for i in idx])
        except Exception as ex:
            # (FX cannot print a call with an argument named after a Python keyword: random_'s `from`)
            results[where] = ["skip", f"make_fx cannot trace it: {type(ex).__name__}: {str(ex)[:80]}"]
            continue
        nodes = [n for n in gm.graph.nodes if n.op == "call_function" and n.target is not operator.getitem]
        if len(nodes) != 1 or nodes[0].target is not func:
            results[where] = ["skip", f"traced into {[str(n.target) for n in nodes]}"]
            continue
        low = lower.classify(nodes[0], amap, compiler.context()[2])
        if low.kind != lower.CALL:
            results[where] = ["skip" if "symbolic" in low.reason else "fail", f"not lowered: {low.reason}"]
            continue
        if low.entry.where != e.where:
            results[where] = ["fail", f"lowered by another entry: {lower.entry_where(low.entry)}"]
            continue
        fn = compiler.compile_graph(gm, [flat[i] for i in idx], "test")
        inputs = [t for t in tree_flatten(on_device(args, kwargs))[0] if isinstance(t, torch.Tensor)]
        graph_lines = logged(lambda: fn(inputs))
        # One line per step; the plan's own copy of an output the library allocated has no eager counterpart.
        steps = fn.natives[0].plan.steps
        graph_lines = [ln for ln, s in zip(graph_lines, steps) if not s.bookkeeping] + graph_lines[len(steps):]
        aa, kk = on_device(args, kwargs)
        eager_lines = logged(lambda: func(*aa, **kk))
        ok = graph_lines == eager_lines and any(line.split(" ", 1)[0] == e.diopi for line in graph_lines)
        results[where] = ["ok" if ok else "fail", graph_lines, eager_lines]
    print(json.dumps(results))
"""


def test_each_entry_lowers_to_the_call_its_eager_kernel_makes(tmp_path):
    lib = shim.build_shim(str(tmp_path), LIB, log=True, name="liblog.so")
    log = tmp_path / "calls.log"
    proc = forked.run([sys.executable, "-c", textwrap.dedent(CODE), lib, HERE], capture_output=True, text=True,
                      cwd=ROOT, timeout=900, env={**os.environ, "DIOPI_SHIM_LOG": str(log),
                                                  "DIOPI_GRAPH_COMPILE": "off"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    ok = [w for w, r in results.items() if r[0] == "ok"]
    skipped = {w: r[1] for w, r in results.items() if r[0] == "skip"}
    failed = {w: r[1:] for w, r in results.items() if r[0] == "fail"}
    print(f"{len(ok)} entries lower to their eager kernel's call; skipped: {json.dumps(skipped, indent=1)}")
    assert not failed, json.dumps(failed, indent=1)[:6000]
    # An entry is skipped only for a stated reason, and most entries are exercised.
    assert len(ok) >= 0.85 * len(results), (len(ok), len(results), skipped)
