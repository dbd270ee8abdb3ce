"""Compiled greedy generation: generate() with a static KV cache compiles the decode step through
torch.compile(backend="diopi") (transformers' own compile_config path, suite.recipes.generate(compiled=True))
and gives eager CPU's greedy tokens, with the decode step one graph that leaves no node to the eager device
(the cache write, index_copy, decomposed to index_put; Mixtral's routing decomposed as in training)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import CPU_LIB, LIB, ROOT

pytestmark = pytest.mark.needs_device

GENERATE = """
    import json, sys, torch, torch._dynamo, diopi_torch
    from diopi_torch import graph
    from diopi_torch.suite import recipes
    from diopi_torch.suite import models as suite
    graph.register()
    diopi_torch.load(sys.argv[1])
    out = {}
    for name in sys.argv[2].split(","):
        model = suite.MODELS[name]
        m = suite.build(model)
        batch = suite.inputs(model, m)
        ref = recipes.generate(m, batch, torch.device("cpu"))["generate"]["tokens"]
        torch._dynamo.reset()
        diopi_torch.reset_stats()
        got = recipes.generate(m, batch, torch.device("diopi"), compiled=True)["generate"]["tokens"]
        g = diopi_torch.stats()["graph"]
        out[name] = {"same": got.shape == ref.shape and torch.equal(got, ref), "new": got.shape[1] - batch["input_ids"].shape[1],
                     "graphs": g["compiled_graphs"], "fallback": g["fallback_nodes"], "reasons": g["fallback_reasons"],
                     "breaks": g["graph_breaks"], "partitions": g["partitions"], "calls": g["diopi_calls"]}
    print(json.dumps(out, default=str))
"""


@pytest.mark.parametrize("vendor", ["torch", "cpu"])
def test_compiled_greedy_generation_gives_eager_cpus_tokens(vendor, tmp_path):
    lib = LIB if vendor == "torch" else CPU_LIB
    if not os.path.exists(lib):
        pytest.skip(f"impl/{vendor} is not built ({lib}: scripts/build_impl.sh {vendor})")
    proc = forked.run([sys.executable, "-c", textwrap.dedent(GENERATE), lib, "llama,mixtral"], capture_output=True,
                      text=True, cwd=ROOT, timeout=900, env={**os.environ, "DIOPI_GRAPH_CACHE": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, r in out.items():
        assert r["new"] > 1, (name, r)  # decode steps after the prefill ran
        assert r["same"], (name, r)
        # the decode step: one inference graph (static shapes: compiled once for every step), not split
        assert r["graphs"] == {"inference": 1} and r["partitions"] == 1, (name, r)
        assert r["fallback"] == 0 and r["breaks"] == 0, (name, r)
        assert r["calls"] > 0, (name, r)
