"""A script that used the device ends with its own exit status, never an abort.

A backward on the device runs on PyTorch's autograd thread for the device,
which used to release its last graph task (and Python objects with it) while
the interpreter was shutting down: "terminate called without an active
exception", status 134, in a third to most of the runs under load. Each
script here ends right after the step that left work on that thread, and runs
20 times in fresh interpreters, two at a time (the load that exposed it), on
each vendor library.
"""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import CPU_LIB, EXT, LIB, ROOT

LIBS = {"torch": LIB, "cpu": CPU_LIB}
RUNS = 20

PRELUDE = """\
import torch, diopi_torch
diopi_torch.load({lib!r})
torch.manual_seed(0)
"""

SCRIPTS = {
    "backward": """
m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4)).to("diopi")
m(torch.randn(8, 16, device="diopi")).sum().backward()
""",
    "optimizer_step": """
m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4)).to("diopi")
opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
m(torch.randn(8, 16, device="diopi")).square().mean().backward()
opt.step()
""",
    "generate": """
from transformers import LlamaConfig, LlamaForCausalLM
cfg = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                  num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=64)
model = LlamaForCausalLM(cfg).eval().to("diopi")
model.generate(torch.tensor([[1, 2, 3]], device="diopi"), max_new_tokens=4, do_sample=False,
               pad_token_id=0, eos_token_id=None)
""",
    # A step's backward, then a DIOPI error escapes the script.
    "diopi_error": """
m = torch.nn.Linear(16, 4).to("diopi")
m(torch.randn(8, 16, device="diopi")).sum().backward()
torch.nn.functional.embedding(torch.tensor([0, 9], device="diopi"), torch.randn(4, 3, device="diopi"))
""",
}


def run_many(source: str, runs: int, jobs: int = 2):
    def one(_):
        p = subprocess.run([sys.executable, "-c", source], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT, timeout=600)
        return p.returncode, p.stderr

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, range(runs)))


@pytest.mark.skipif(not os.path.exists(EXT), reason="needs build/bridge (scripts/build_bridge.sh)")
@pytest.mark.parametrize("vendor", sorted(LIBS))
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_script_ends_with_its_own_status(vendor, script):
    lib = LIBS[vendor]
    if not os.path.exists(lib):
        pytest.skip(f"impl/{vendor} is not built (scripts/build_impl.sh {vendor})")
    results = run_many(PRELUDE.format(lib=lib) + SCRIPTS[script], RUNS)
    expected = 1 if script == "diopi_error" else 0  # an uncaught exception exits with 1
    statuses = [rc for rc, _ in results]
    bad = [(rc, err[-600:]) for rc, err in results if rc != expected]
    assert not bad, f"{len(bad)} of {RUNS} runs ended with another status than {expected}: {statuses}\n{bad[0][1]}"
    for _, err in results:
        assert "terminate called" not in err, err[-600:]
        if script == "diopi_error":
            assert "RuntimeError: diopiEmbedding failed" in err, err[-600:]
