"""The compile route (torch.compile(backend="diopi")): a model step compiled on
a library missing a function splits and still matches eager CPU; a function
refused at run time is re-planned; DIOPI_FALLBACK=error names the node and its
source line; compiled libraries are cached (warm: no compiler run), rebuilt
when corrupt, and without a compiler the interpreter serves the same plan."""
import glob
import json
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device

import shim

# One step of a suite model (llama unless a third argument names another) compiled on the device, compared with
# eager CPU; prints the compile route's counters as JSON.
STEP = """
    import json, sys, copy, torch, diopi_torch
    from diopi_torch import graph
    from diopi_torch.suite import recipes
    from diopi_torch.suite import models as suite
    from diopi_torch.suite import compare as checks
    graph.register()
    diopi_torch.load(sys.argv[1])
    model = suite.MODELS[sys.argv[2] if len(sys.argv) > 2 else "llama"]
    m = suite.build(model)
    batch = suite.inputs(model, m)
    ref = recipes.train(recipes.RECIPES["fp32"], m, [batch], torch.device("cpu"))
    results = []
    for attempt in range(2):  # a second step reuses the compiled graphs (and their re-planned steps)
        dev = recipes.train(recipes.compiled(recipes.RECIPES["fp32"]), m, [batch], torch.device("diopi"))
        results.append(all(checks.compare(dev[k], ref[k], 1e-4)[0] for k in ("forward", "backward")))
    st = diopi_torch.stats()["graph"]
    print(json.dumps({"match": results, "graph": st}, default=str))
"""


def run(code, lib, model="llama", **env):
    proc = forked.run([sys.executable, "-c", textwrap.dedent(code), lib, model], capture_output=True, text=True,
                      cwd=ROOT, timeout=600, env={**os.environ, **env})
    return proc


def result(proc):
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    d = tmp_path_factory.mktemp("shims")
    return {"no_silu": shim.build_shim(str(d), LIB, omit={"diopiSilu"}, name="libnosilu.so"),
            "refuse_silu": shim.build_shim(str(d), LIB, refuse={"diopiSilu"}, name="librefusesilu.so")}


def test_a_missing_function_splits_the_graph_and_the_step_matches(libs, tmp_path):
    out = result(run(STEP, libs["no_silu"], DIOPI_GRAPH_CACHE=str(tmp_path), DIOPI_GRAPH_COMPILE="sync"))
    assert out["match"] == [True, True]
    g = out["graph"]
    assert g["fallback_nodes"] == 2 and all(f["aten"] == "silu" and "diopiSilu" in f["reason"] and
                                            "not exported" in f["reason"] for f in g["fallback_list"]), g
    assert g["partitions"] > g["compiled_graphs"]["forward"] + g["compiled_graphs"]["backward"], g  # the forward is split
    assert g["compiled_nodes"] > 100


def test_a_function_refused_at_run_time_is_replanned(libs, tmp_path):
    out = result(run(STEP, libs["refuse_silu"], DIOPI_GRAPH_CACHE=str(tmp_path), DIOPI_GRAPH_COMPILE="sync"))
    assert out["match"] == [True, True]
    g = out["graph"]
    assert g["fallback_nodes"] == 0  # exported, so lowered: the refusal comes at run time
    replanned = {(r["aten"], r["diopi"]) for r in g["replanned"]}
    assert replanned == {("silu", "diopiSilu")}, g["replanned"]
    assert all(r["runs"] == 2 for r in g["replanned"]), g["replanned"]  # the step ran eagerly in both steps


def test_fallback_error_names_the_node_and_its_source_line(libs, tmp_path):
    proc = run(STEP, libs["no_silu"], DIOPI_GRAPH_CACHE=str(tmp_path), DIOPI_FALLBACK="error")
    assert proc.returncode != 0
    err = proc.stderr
    assert "node silu (silu) is not served" in err and "diopiSilu" in err, err[-2000:]
    assert "modeling_llama.py" in err or "activations.py" in err, err[-2000:]
    assert "DIOPI_FALLBACK=error" in err


def test_cache_warm_corrupt_no_compiler_and_the_generated_c(tmp_path):
    env = dict(DIOPI_GRAPH_CACHE=str(tmp_path), DIOPI_GRAPH_COMPILE="sync")
    cold = result(run(STEP, LIB, "cnn", **env))
    assert cold["match"] == [True, True]
    assert cold["graph"]["cache"].get("compiler_invocations", 0) == 2, cold["graph"]["cache"]  # forward, backward
    libs = sorted(glob.glob(str(tmp_path / "*.so")))
    assert len(libs) == 2
    # The generated C includes only the standard's headers and builds with warnings as errors.
    for c in glob.glob(str(tmp_path / "*.c")):
        text = open(c).read()
        includes = [ln.split()[1] for ln in text.splitlines() if ln.startswith("#include")]
        assert includes and all(i.startswith("<diopi/") for i in includes), includes
        proc = subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Werror", "-c", c, "-o",
                               str(tmp_path / "x.o"), "-I", os.path.join(ROOT, "proto", "include")],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    warm = result(run(STEP, LIB, "cnn", **env))
    assert warm["match"] == [True, True]
    assert warm["graph"]["cache"] == {"hits": 2}, warm["graph"]["cache"]  # no compiler invocation
    with open(libs[0], "wb") as f:  # a truncated entry
        f.write(b"\x7fELF garbage")
    mended = result(run(STEP, LIB, "cnn", **env))
    assert mended["match"] == [True, True]
    assert mended["graph"]["cache"].get("rebuilt") == 1 and mended["graph"]["cache"].get("compiler_invocations") == 1
    interp = result(run(STEP, LIB, "cnn", DIOPI_GRAPH_CACHE=str(tmp_path / "none"), DIOPI_GRAPH_CC="/nonexistent/cc",
                        DIOPI_GRAPH_COMPILE="sync"))
    assert interp["match"] == [True, True]
    assert interp["graph"]["cache"] == {"no_compiler": 2}, interp["graph"]["cache"]


INFER = """
    import json, sys, copy, torch, diopi_torch
    from diopi_torch import graph
    from diopi_torch.suite import models as suite
    from diopi_torch.suite import compare as checks
    graph.register()
    diopi_torch.load(sys.argv[1])
    out = {}
    for name in ("llama", "resnet"):
        model = suite.MODELS[name]
        m = suite.build(model).eval()
        b = suite.inputs(model, m)
        with torch.no_grad():
            seq = isinstance(m, torch.nn.Sequential)
            ref = m(b["pixel_values"]) if seq else m(**b).logits
            step = torch.compile(copy.deepcopy(m).to("diopi"), backend="diopi")
            bd = {k: v.to("diopi") for k, v in b.items()}
            got = (step(bd["pixel_values"]) if seq else step(**bd).logits).cpu()
        g = diopi_torch.stats()["graph"]
        out[name] = {"diff": (got - ref).abs().max().item(), "graphs": g["compiled_graphs"], "fallback": g["fallback_nodes"]}
        diopi_torch.reset_stats()
        torch._dynamo.reset()
    print(json.dumps(out))
"""


def test_inference_graphs(tmp_path):
    proc = forked.run([sys.executable, "-c", textwrap.dedent(INFER), LIB], capture_output=True, text=True, cwd=ROOT,
                      timeout=600, env={**os.environ, "DIOPI_GRAPH_CACHE": str(tmp_path)})
    out = result(proc)
    for name, r in out.items():
        assert r["graphs"] == {"inference": 1} and r["fallback"] == 0, (name, r)
        assert r["diff"] <= 1e-4, (name, r)  # evaluation batch norm and a fused llama, against eager CPU


DROPOUT = """
    import json, sys, torch, diopi_torch
    from diopi_torch import graph
    graph.register()
    diopi_torch.load(sys.argv[1])
    torch.manual_seed(0)
    lin = torch.nn.Linear(16, 16).to("diopi")
    drop = torch.nn.Dropout(0.5).train()
    step = torch.compile(lambda x: drop(lin(x)), backend="diopi")
    x = torch.randn(8, 16, device="diopi", requires_grad=True)
    y = step(x)
    w = torch.randn(8, 16, device="diopi")
    (y * w).sum().backward()
    h = lin(x).detach()
    # dropout's backward is the upstream gradient where an element was kept, times 1 / (1 - p)
    grad_h = torch.where(y.detach() != 0, w * 2.0, torch.zeros_like(w))
    want = grad_h @ lin.weight.detach()
    st = diopi_torch.stats()["graph"]
    print(json.dumps({"diff": (x.grad - want).abs().max().cpu().item(), "kept": (y != 0).float().mean().cpu().item(),
                      "nonzero_h": bool((h != 0).all().cpu().item()), "fallback": st["fallback_nodes"],
                      "reasons": st["fallback_reasons"], "partitions": st["partitions"]}))
"""


def test_training_dropout_compiles_without_a_fallback_node(tmp_path):
    # Dropout's backward has no DIOPI function; the route decomposes it (aten_to_diopi.yaml `decompose:`) instead
    # of leaving a node to the eager device in every layer, which split each backward graph into many partitions.
    out = result(run(DROPOUT, LIB, DIOPI_GRAPH_CACHE=str(tmp_path)))
    assert out["fallback"] == 0, out["reasons"]
    assert out["partitions"] == 2, out  # one forward, one backward
    assert out["nonzero_h"] and 0.2 < out["kept"] < 0.8, out  # dropout dropped some and kept some
    assert out["diff"] < 1e-5, out
