"""A script that used the device ends with its own exit status, never an abort.

A backward on the device's autograd thread (DIOPI_AUTOGRAD_THREAD=1 here; by
default the device runs backward on the calling thread) used to release its last graph task (and Python objects with it) while
the interpreter was shutting down: "terminate called without an active
exception", status 134, in a third to most of the runs under load. Each
script here ends right after the step that left work on that thread, and runs
20 times, two at a time (the load that exposed it), on each vendor library.
Each run is a process forked from one that imported torch, diopi_torch and
transformers but never touched the device: the run loads the library, starts
the device's threads and shuts its interpreter down as a fresh one would,
without paying three seconds of imports 160 times.
"""
import json
import os
import subprocess
import sys

import pytest

import forked
from device_paths import CPU_LIB, EXT, LIB, ROOT

sys.path.insert(0, os.path.join(ROOT, "diopi_test", "python"))
from conformance import pace  # noqa: E402  (the harness is not a package: its folder goes on the path)

LIBS = {"torch": LIB, "cpu": CPU_LIB}
RUNS = 20
# Seconds the 20 runs of one script may take on an idle machine (about 3x the 45-50 s they take there); the
# limit follows the machine's pace, at most pace.CAP times this, so a run that hangs still fails in bounded time.
LIMIT = 150.0

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


# Forks the runs from one interpreter that has done the imports; each run writes its stderr to a file and
# ends through the interpreter's own shutdown (an uncaught exception: status 1, as a script's would).
DRIVER = """\
import gc, json, os, sys, traceback
import torch, diopi_torch  # imports only: each run loads the device itself
# The generate script's model code and generation loop (`transformers.models.llama` alone is a lazy stub):
# importing them took each run about 4.5 s of its time on a loaded machine, against 0.2 s once imported here.
import transformers.models.llama.modeling_llama, transformers.generation.utils
# A run's first linear imports these anyway (the meta kernel of addmm is a Python decomposition, and
# importing it imports Dynamo): done once here, not for 2 s in each of 160 runs.
import torch._dynamo, torch._decomp.decompositions
# What the imports made is out of the cyclic collector's sight in every run: an interpreter's shutdown runs
# full collections over all of it (about 1 s of CPU per run for torch + Dynamo + transformers, none of it
# the device's). What a run makes itself (its model, the autograd thread's graph task) is still collected
# and torn down at shutdown exactly as in a fresh interpreter, which is what these runs check.
gc.freeze()
source, runs, jobs, tmp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
code = compile(source, "<script>", "exec")
live, results = {}, {}
for i in range(runs):
    while len(live) >= jobs:
        pid, status = os.wait()
        results[live.pop(pid)] = os.waitstatus_to_exitcode(status)
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.path.join(tmp, f"{i}.err"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 2)
        os.close(fd)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        try:
            exec(code, {"__name__": "__main__"})
        except BaseException:
            traceback.print_exc()
            sys.exit(1)
        sys.exit(0)
    live[pid] = i
while live:
    pid, status = os.wait()
    results[live.pop(pid)] = os.waitstatus_to_exitcode(status)
print(json.dumps([results[i] for i in range(runs)]))
"""


def run_many(source: str, runs: int, tmp, jobs: int = 2):
    """(exit status, stderr) of each of `runs` runs of `source`."""
    try:
        # The device's autograd thread is what raced with shutdown; a backward on the calling thread (the default)
        # cannot, so the runs ask for that thread.
        p = pace.run([sys.executable, "-c", DRIVER, source, str(runs), str(jobs), str(tmp)], LIMIT, popen=forked.Popen,
                     capture_output=True, text=True, cwd=ROOT, env={**os.environ, "DIOPI_AUTOGRAD_THREAD": "1"})
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the {runs} runs did not end within {e.timeout:.0f} s ({LIMIT:.0f} s on an idle machine, stretched "
                    f"to this one's pace): a run hangs")
    assert p.returncode == 0, p.stderr[-2000:]
    statuses = json.loads(p.stdout.strip().splitlines()[-1])
    return [(rc, (tmp / f"{i}.err").read_text()) for i, rc in enumerate(statuses)]


@pytest.mark.skipif(not os.path.exists(EXT), reason="needs build/bridge (scripts/build_bridge.sh)")
@pytest.mark.parametrize("vendor", sorted(LIBS))
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_script_ends_with_its_own_status(vendor, script, tmp_path):
    lib = LIBS[vendor]
    if not os.path.exists(lib):
        pytest.skip(f"impl/{vendor} is not built (scripts/build_impl.sh {vendor})")
    results = run_many(PRELUDE.format(lib=lib) + SCRIPTS[script], RUNS, tmp_path)
    expected = 1 if script == "diopi_error" else 0  # an uncaught exception exits with 1
    statuses = [rc for rc, _ in results]
    bad = [(rc, err[-600:]) for rc, err in results if rc != expected]
    assert not bad, f"{len(bad)} of {RUNS} runs ended with another status than {expected}: {statuses}\n{bad[0][1]}"
    for _, err in results:
        assert "terminate called" not in err, err[-600:]
        if script == "diopi_error":
            assert "RuntimeError: diopiEmbedding failed" in err, err[-600:]
