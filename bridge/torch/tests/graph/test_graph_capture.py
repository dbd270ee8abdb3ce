"""Graph capture (DIOPI_GRAPH_CAPTURE, graph/capture.py) and the harness's
graph replay: a compiled training step of a small block, captured on impl/torch
(no graph compiler) and on impl/cpu, writes its forward and backward plans as
graph.h graphs with their values; replayed on impl/cpu's graph compiler
(diopi_test/python main.py --mode graph_replay) every graph passes; a planted
wrong output fails naming the function that wrote it."""
import glob
import json
import os
import subprocess
import sys
import textwrap

import diopi_header
import numpy as np
import pytest

import forked
from device_paths import CPU_LIB, LIB, ROOT

pytestmark = pytest.mark.needs_device

HARNESS = os.path.join(ROOT, "diopi_test", "python")

STEP = """
    import sys, torch, diopi_torch
    import torch.nn.functional as F
    from diopi_torch import graph
    from diopi_torch.graph import capture
    graph.register()
    diopi_torch.load(sys.argv[1])

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.up = torch.nn.Linear(16, 32)
            self.down = torch.nn.Linear(32, 16)
            self.norm = torch.nn.LayerNorm(16)

        def forward(self, x):
            h = self.up(x)
            h = F.silu(h) * torch.sigmoid(h) + h * 0.5 - h.exp().neg() / 4
            # a view of an intermediate written in the plan: the graph form needs a cut there (graph/vendor.py),
            # so the plan is captured as several graphs, the later ones with values from the middle of the run
            h = (h.reshape(32, 32) * 2).reshape(4, 8, 32).sigmoid()
            return self.norm(self.down(h) + x).tanh()

    torch.manual_seed(0)
    dev = Block().to("diopi")
    step = torch.compile(dev, backend="diopi")
    x = torch.randn(4, 8, 16).to("diopi")
    for _ in range(2):  # the second run is not captured again
        y = step(x)
        (y * y).sum().backward()
    print(capture.summary())
"""


def capture(lib, folder):
    env = {**os.environ, "DIOPI_GRAPH_COMPILE": "off", "DIOPI_GRAPH_CAPTURE": str(folder),
           "DIOPI_GRAPH_CAPTURE_MODEL": "block"}
    proc = forked.run([sys.executable, "-c", textwrap.dedent(STEP), lib], capture_output=True, text=True, cwd=ROOT,
                      timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def replay(folder, lib):
    return subprocess.run([sys.executable, "main.py", "--mode", "graph_replay", "--graphs", str(folder), "--impl_lib", lib,
                           "--report_dir", str(folder) + "-report"], capture_output=True, text=True, cwd=HARNESS,
                          timeout=600)


@pytest.fixture(scope="module")
def cpu_lib():
    if not os.path.exists(CPU_LIB):
        pytest.skip(f"needs impl/cpu's library (scripts/build_impl.sh cpu): {CPU_LIB} is missing")
    return CPU_LIB


@pytest.fixture(scope="module")
def captured(tmp_path_factory):
    """Captured on impl/torch: the reference library, without a graph compiler."""
    d = tmp_path_factory.mktemp("captured")
    return d, capture(LIB, d)


def test_capture_writes_each_plan_with_its_values(captured):
    folder, summary = captured
    names = sorted(os.path.basename(p) for p in glob.glob(str(folder / "*.json")))
    assert summary.startswith(f"graph capture: {len(names)} graphs"), summary
    assert "from 2 plans, 0 of them one graph whole; 0 steps not captured" in summary, summary
    forward = [n for n in names if n.startswith("block-forward_")]
    assert len(forward) >= 2 and any(n.startswith("block-backward_") for n in names), names
    assert forward[0].startswith("block-forward_0_"), forward  # the first graph starts at the plan's first step
    g = json.load(open(folder / sorted(forward, key=lambda n: int(n.split("_")[-1].split("-")[0]))[-1]))
    assert g["format"] == "diopi-graph" and g["version"] == diopi_header.macros()["DIOPI_GRAPH_VERSION"] and g["num_symbols"] == 0
    fns = [n["function"] for n in g["nodes"]]
    assert fns[-1] == "diopiTanh", fns  # the forward plan's last graph
    roles = [t["role"] for t in g["tensors"]]
    assert roles.count("input") == g["num_inputs"] > 0 and roles.count("output") == g["num_outputs"] > 0
    assert "intermediate" in roles
    with np.load(folder / g["capture"]["values"]) as z:
        assert {f"input{i}" for i in range(g["num_inputs"])} <= set(z.files)
        assert {f"output{i}" for i in range(g["num_outputs"])} <= set(z.files)
        assert all(np.isfinite(z[k]).all() for k in z.files if not k.startswith("initial"))  # initial: whatever was there


def test_graphs_captured_on_impl_torch_pass_on_impl_cpu(captured, cpu_lib):
    folder, _ = captured
    r = replay(folder, cpu_lib)
    assert r.returncode == 0, r.stdout + r.stderr
    n = len(glob.glob(str(folder / "*.json")))
    assert f"graph_replay: {n} graphs, {n} passed, 0 declined, 0 failed, 0 error, 0 refused" in r.stdout, r.stdout


def test_graphs_captured_on_impl_cpu_pass_and_a_planted_error_fails(cpu_lib, tmp_path):
    # impl/cpu has a graph compiler: capturing still records the per-call route (it is never offered the plans)
    assert "0 steps not captured" in capture(cpu_lib, tmp_path)
    names = sorted(os.path.basename(p) for p in glob.glob(str(tmp_path / "*.json")))
    r = replay(tmp_path, cpu_lib)
    assert r.returncode == 0 and f"{len(names)} graphs, {len(names)} passed" in r.stdout, r.stdout + r.stderr
    # the forward plan's last graph, which ends with the tanh: a wrong recorded output of it
    last_graph = sorted((n for n in names if n.startswith("block-forward_")), key=lambda n: int(n.split("_")[-1].split("-")[0]))[-1]
    g = json.load(open(tmp_path / last_graph))
    last = [t for t in g["tensors"] if t["role"] == "output" and
            any(a.get("kind") == "tensor" and g["tensors"][a["value"]] is t for a in g["nodes"][-1]["args"][:1])][0]
    path = tmp_path / g["capture"]["values"]
    with np.load(path) as z:
        values = {k: z[k] for k in z.files}
    values[f"output{last['index']}"] = values[f"output{last['index']}"] + np.float32(0.1)
    np.savez(path, **values)
    r = replay(tmp_path, cpu_lib)
    assert r.returncode == 1, r.stdout + r.stderr
    want = f"{last_graph}: failed: output {last['index']}, last written by node {len(g['nodes']) - 1} (diopiTanh)"
    assert want in r.stdout, r.stdout
    assert r.stdout.count(": passed") == len(names) - 1, r.stdout
