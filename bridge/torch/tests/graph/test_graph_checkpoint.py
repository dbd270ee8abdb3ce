"""Activation checkpointing under torch.compile(backend="diopi"): the
checkpointed regions are fused and recomputed in the compiled backward graph
(as Inductor's partitioner does) and the gradients are eager CPU's, for
torch.utils.checkpoint called directly and for the suite's checkpoint recipe
(whose eager context_fn, a TorchFunctionMode, torch.compile rejects on any
backend, and whose reentrant checkpointing of a first convolution leaves it
untrained in eager only: torch.compile traces every checkpoint non-reentrant)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device

CODE = """
    import json, sys, torch, diopi_torch
    from torch.utils.checkpoint import checkpoint
    from diopi_torch import graph
    from diopi_torch.suite import recipes
    from diopi_torch.suite import compare as checks
    graph.register()
    diopi_torch.load(sys.argv[1])

    class Block(torch.nn.Module):
        def __init__(self, d):
            super().__init__()
            self.up, self.down = torch.nn.Linear(d, 2 * d), torch.nn.Linear(2 * d, d)
            self.norm = torch.nn.LayerNorm(d)

        def forward(self, x):
            return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))

    class Net(torch.nn.Module):
        def __init__(self, d, ckpt):
            super().__init__()
            self.blocks = torch.nn.ModuleList(Block(d) for _ in range(2))
            self.ckpt = ckpt

        def forward(self, x):
            for b in self.blocks:
                x = checkpoint(b, x, use_reentrant=False) if self.ckpt else b(x)
            return torch.tanh(x).sum()

    def grads(m, x, compiled):
        m.zero_grad(set_to_none=True)
        step = torch.compile(m, backend="diopi") if compiled else m
        loss = step(x)
        loss.backward()
        return loss.detach().cpu(), {n: p.grad.detach().cpu() for n, p in m.named_parameters()}

    out = {}
    torch.manual_seed(0)
    x = torch.randn(4, 16)
    for ckpt in (False, True):
        torch.manual_seed(1)
        m = Net(16, ckpt)
        ref_loss, ref = grads(m, x, False)
        torch._dynamo.reset()
        diopi_torch.reset_stats()
        md = m.to("diopi")
        loss, got = grads(md, x.to("diopi"), True)
        st = diopi_torch.stats()["graph"]
        out["checkpoint" if ckpt else "plain"] = {
            "loss_diff": (loss - ref_loss).abs().item(),
            "grad_diff": max((got[n] - ref[n]).abs().max().item() for n in ref),
            "grads": sorted(got) == sorted(ref), "compiled_nodes": st["compiled_nodes"],
            "graphs": dict(st["compiled_graphs"]), "fallback": st["fallback_nodes"], "fused": dict(st["fused"])}

    # The suite's recipe: the layers of a Sequential wrapped in torch.utils.checkpoint by recipes.train, the
    # convolution reentrant when eager (its input needs no gradient: eager leaves it untrained, compiled does not).
    torch.manual_seed(2)
    seq = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 16),
                              Block(16), Block(16), torch.nn.Linear(16, 4))
    batch = {"pixel_values": torch.randn(4, 3, 8, 8), "labels": torch.tensor([0, 1, 2, 3])}
    recipe = recipes.compiled(recipes.RECIPES["checkpoint"])  # eager on the CPU side, as the suite runs it
    ref = recipes.train(recipe, seq, [batch], torch.device("cpu"))
    torch._dynamo.reset()
    dev = recipes.train(recipe, seq, [batch], torch.device("diopi"))
    out["recipe"] = {k: checks.compare(dev[k], ref[k], 1e-5)[0] for k in ("forward", "backward", "step")}
    # Every parameter has a gradient on both sides (the wrapper renames them: counted, not named).
    out["recipe"]["same_grads"] = (sorted(dev["backward"]) == sorted(ref["backward"])
                                   and len(ref["backward"]) == len(list(seq.parameters())))
    print(json.dumps(out))
"""


def test_checkpointed_regions_compile_recompute_and_match_eager_cpu(tmp_path):
    proc = forked.run([sys.executable, "-c", textwrap.dedent(CODE), LIB], capture_output=True, text=True, cwd=ROOT,
                      timeout=600, env={**os.environ, "DIOPI_GRAPH_CACHE": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in ("plain", "checkpoint"):
        r = out[name]
        assert r["grads"] and r["graphs"] == {"forward": 1, "backward": 1} and r["fallback"] == 0, (name, r)
        assert r["loss_diff"] <= 1e-5 and r["grad_diff"] <= 1e-5, (name, r)
    # The recomputation is in the compiled backward: the blocks' forward nodes are lowered a second time there.
    assert out["checkpoint"]["compiled_nodes"] > out["plain"]["compiled_nodes"], out
    # Fusion reaches inside the checkpointed blocks: their linear layers fuse as without checkpointing.
    assert out["plain"]["fused"].get("linear", 0) >= 4 and out["checkpoint"]["fused"] == out["plain"]["fused"], out
    assert out["recipe"] == {"forward": True, "backward": True, "step": True, "same_grads": True}, out["recipe"]
