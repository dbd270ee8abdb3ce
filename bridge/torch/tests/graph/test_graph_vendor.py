"""The compile route offers its plans to the vendor's own graph compiler
(diopi/graph.h, graph/vendor.py): on impl/cpu, which exports one, a compiled
step is served by its executables and gives the results of the per-call route
(DIOPI_GRAPH_COMPILER=0) and of eager CPU; impl/torch exports none and counts
none; a node the compiler declines runs call by call between its executables."""
import json
import os
import subprocess
import sys
import textwrap

import pytest
import torch

import forked
from device_paths import CPU_LIB, LIB, ROOT

import shim

pytestmark = pytest.mark.needs_device

# A training step of a small block compiled on the device (twice: the second run reuses the plans), eager CPU
# beside it. argv: library, "plain" or "dropout", where to save the results. Prints the counters and, per plan,
# its steps, the ranges the vendor's executables serve and their runs.
STEP = """
    import copy, json, sys, torch, diopi_torch
    import torch.nn.functional as F
    from diopi_torch import graph
    from diopi_torch.graph import runtime
    graph.register()
    diopi_torch.load(sys.argv[1])
    dropout = sys.argv[2] == "dropout"

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.up = torch.nn.Linear(16, 32)
            self.down = torch.nn.Linear(32, 16)
            self.norm = torch.nn.LayerNorm(16)

        def forward(self, x):
            h = self.up(x)
            h = F.silu(h) * torch.sigmoid(h) + h * 0.5 - h.exp().neg() / 4
            if dropout:
                h = F.dropout(h, 0.25, training=True)
            return self.norm(self.down(h) + x).tanh()

    torch.manual_seed(0)
    cpu = Block()
    x = torch.randn(4, 8, 16)

    def train(model, x):
        y = model(x)
        (y * y).sum().backward()
        out = {"y": y.detach().cpu()}
        out.update({n.replace("_orig_mod.", ""): p.grad.detach().cpu() for n, p in model.named_parameters()})
        return out

    dev = copy.deepcopy(cpu).to("diopi")
    step = torch.compile(dev, backend="diopi")
    runs = []
    for _ in range(2):
        dev.zero_grad()
        runs.append(train(step, x.to("diopi")))
    ref = train(cpu, x)
    torch.save({"runs": runs, "ref": ref}, sys.argv[3])
    plans = [{"name": g.name, "steps": [s.fn for s in g.plan.steps], "segments": g.vendor_segments(),
              "vendor_runs": g.vendor_runs(), "runs": g.counts()[0]} for g in runtime.live()]
    print(json.dumps({"graph": diopi_torch.stats()["graph"], "plans": plans}, default=str))
"""


def run(lib, kind, out, **env):
    env = {**os.environ, "DIOPI_GRAPH_COMPILE": "off", **env}  # the interpreter: no C compiler runs
    proc = forked.run([sys.executable, "-c", textwrap.dedent(STEP), lib, kind, str(out)], capture_output=True,
                      text=True, cwd=ROOT, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["tensors"] = torch.load(str(out))
    return res


def close(a, b, rtol=1e-4, atol=1e-5):
    assert a.keys() == b.keys()
    for k in a:
        torch.testing.assert_close(a[k], b[k], rtol=rtol, atol=atol, msg=lambda m: f"{k}: {m}")


@pytest.fixture(scope="module")
def cpu_lib():
    if not os.path.exists(CPU_LIB):
        pytest.skip(f"needs impl/cpu's library (scripts/build_impl.sh cpu): {CPU_LIB} is missing")
    return CPU_LIB


@pytest.fixture(scope="module")
def plain(cpu_lib, tmp_path_factory):
    d = tmp_path_factory.mktemp("plain")
    return {"on": run(cpu_lib, "plain", d / "on.pt"), "off": run(cpu_lib, "plain", d / "off.pt", DIOPI_GRAPH_COMPILER="0")}


def test_impl_cpu_serves_the_compiled_step_and_matches_the_per_call_route(plain):
    on, off = plain["on"], plain["off"]
    g = on["graph"]
    assert g["vendor_compiler"], g
    assert g["vendor_graphs"] > 0 and g["vendor_nodes"] > 0 and g["vendor_compile_failures"] == 0, g
    assert g["vendor_nodes"] <= g["diopi_steps"], g
    # the executables ran, once per run of their plan
    assert all(p["vendor_runs"] == p["runs"] * len(p["segments"]) for p in on["plans"]), on["plans"]
    assert sum(p["vendor_runs"] for p in on["plans"]) > 0
    for a, b in zip(on["tensors"]["runs"], off["tensors"]["runs"]):
        close(a, b)
    for r in on["tensors"]["runs"]:
        close(r, on["tensors"]["ref"])


def test_the_off_switch_keeps_the_per_call_route(plain):
    g = plain["off"]["graph"]
    assert g["vendor_compiler"] == "" and g["vendor_graphs"] == 0 and g["vendor_nodes"] == 0, g
    assert all(p["segments"] == [] and p["vendor_runs"] == 0 for p in plain["off"]["plans"])
    assert g["diopi_steps"] == plain["on"]["graph"]["diopi_steps"]  # the same plans, run call by call
    for r in plain["off"]["tensors"]["runs"]:
        close(r, plain["off"]["tensors"]["ref"])


def test_impl_torch_has_no_graph_compiler(tmp_path):
    res = run(LIB, "plain", tmp_path / "torch.pt")
    g = res["graph"]
    assert g["vendor_compiler"] == "" and g["vendor_graphs"] == 0 and g["vendor_declined_nodes"] == 0, g
    assert g["diopi_steps"] > 0
    for r in res["tensors"]["runs"]:
        close(r, res["tensors"]["ref"])


def test_a_declined_node_runs_call_by_call(cpu_lib, tmp_path):
    # impl/cpu declines random nodes (they stay with the framework's generator): the dropout.
    on = run(cpu_lib, "dropout", tmp_path / "on.pt")
    off = run(cpu_lib, "dropout", tmp_path / "off.pt", DIOPI_GRAPH_COMPILER="0")
    g = on["graph"]
    assert g["vendor_declined_nodes"] >= 1 and g["vendor_graphs"] > 0, g
    dropout = [(p, k) for p in on["plans"] for k, fn in enumerate(p["steps"]) if fn == "diopiDropout"]
    assert dropout, on["plans"]
    for p, k in dropout:
        assert not any(a <= k < b for a, b in p["segments"]), (k, p)
        assert p["segments"], p  # the steps around it are still served
    # The same generator draws in both routes: the same masks, the same results.
    for a, b in zip(on["tensors"]["runs"], off["tensors"]["runs"]):
        close(a, b)


# A graph compiler that fails every compile, in front of impl/torch (the shim forwards every operator).
FAILING = r"""
#include <diopi/graph.h>
static diopiError_t failing_compile(diopiContextHandle_t ctx, const diopiGraph_t* graph,
                                    diopiGraphExecutableHandle_t* executable, int32_t* declined, int32_t* num_declined) {
    *executable = 0;
    *num_declined = 0;
    return diopiErrorOccurred;
}
static diopiError_t failing_run(diopiContextHandle_t ctx, diopiGraphExecutableHandle_t executable,
                                const diopiConstTensorHandle_t* inputs, const diopiTensorHandle_t* outputs,
                                const int64_t* symbols) {
    return diopiErrorOccurred;
}
static const diopiGraphCompiler_t failing = {DIOPI_GRAPH_VERSION, sizeof(diopiGraphCompiler_t), "fails every compile",
                                             failing_compile, failing_run, 0};
__attribute__((visibility("default"))) const diopiGraphCompiler_t* diopiGetGraphCompiler(void) { return &failing; }
"""


def test_a_failed_compile_is_counted_and_the_plan_runs_call_by_call(tmp_path):
    c = tmp_path / "failing.c"
    c.write_text(shim.source() + FAILING)
    so = tmp_path / "libfailing.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-w", f'-DSHIM_TARGET="{os.path.abspath(LIB)}"', str(c),
                    "-I", os.path.join(ROOT, "proto", "include"), "-o", str(so), "-ldl", "-Wl,--allow-shlib-undefined"],
                   check=True)
    res = run(str(so), "plain", tmp_path / "failing.pt")
    g = res["graph"]
    assert g["vendor_compiler"] == "fails every compile", g
    assert g["vendor_graphs"] == 0 and g["vendor_nodes"] == 0, g
    assert g["vendor_compile_failures"] == g["partitions"] > 0, g  # every plan offered once, none served
    assert all(p["segments"] == [] and p["runs"] == 2 for p in res["plans"]), res["plans"]
    for r in res["tensors"]["runs"]:
        close(r, res["tensors"]["ref"])
