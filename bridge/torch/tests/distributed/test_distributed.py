"""torch.distributed on the `diopi` device: the "diccl" backend on 2 ranks (processes on this machine), on the
vendor's collective interface (impl/torch) and staged through host memory over Gloo (DIOPI_DIST_STAGED=1, and
impl/cpu, which has no collective interface)."""
import os
import socket
import subprocess
import sys

import pytest

import forked
from device_paths import LIB, ROOT
from device_paths import CPU_LIB as BUILT_CPU_LIB

HERE = os.path.dirname(os.path.abspath(__file__))
CPU_LIB = os.environ.get("DIOPI_CPU_IMPL_LIB") or BUILT_CPU_LIB
WORKER = os.path.join(HERE, "dist_worker.py")

pytestmark = pytest.mark.needs_device


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ranks(check, lib=LIB, n=2, timeout=240, **env):
    """Runs `check` of dist_worker.py on n ranks; returns their outputs after asserting every rank printed ok."""
    port = str(free_port())
    procs = [forked.Popen([sys.executable, WORKER, check], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                          env={**os.environ, "DIOPI_IMPL_LIB": lib, "RANK": str(r), "LOCAL_RANK": str(r), "WORLD_SIZE": str(n),
                               "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": port, **env}) for r in range(n)]
    outs = []
    try:
        for p in procs:
            outs.append(p.communicate(timeout=timeout)[0])
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    for r, (p, out) in enumerate(zip(procs, outs)):
        assert p.returncode == 0 and out.strip().endswith("ok"), f"rank {r}:\n{out[-3000:]}"
    return outs


def _has_collectives(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
    return "diopiCommInitRank" in out.stdout


def test_collectives_on_the_vendor_interface():
    if not _has_collectives(LIB):
        pytest.skip("impl/torch was built without the collective interface (no gloo/ headers)")
    ranks("collectives", EXPECT="vendor")


def test_collectives_staged_over_gloo_when_asked():
    ranks("collectives", EXPECT="staged", DIOPI_DIST_STAGED="1")


def test_collectives_staged_for_a_library_without_the_interface():
    if not os.path.exists(CPU_LIB):
        pytest.skip("needs build/cpu (scripts/build_impl.sh cpu)")
    ranks("collectives", lib=CPU_LIB, EXPECT="staged")


def test_init_process_group_without_a_backend_picks_diccl():
    ranks("default")


def test_cpu_gloo_beside_diopi_diccl_over_tcp():
    ranks("mixed")


def test_ddp_and_fsdp_training_match_one_cpu_process(tmp_path):
    """diopi_torch.suite.dist on one model: DDP and FSDP2 on 2 ranks against eager CPU on the global batch, once
    on the vendor's collectives and once staged over Gloo."""
    import json
    for staged, model in (("0", "llama"), ("1", "bert")):
        if staged == "0" and not _has_collectives(LIB):
            continue
        out = tmp_path / f"dist_{model}.json"
        proc = forked.run([sys.executable, "-m", "diopi_torch.suite.dist", "--impl_lib", LIB, "--models", model,
                           "--recipes", "ddp,fsdp", "--world_size", "2", "--json", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, env={**os.environ, "DIOPI_DIST_STAGED": staged})
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        rows = json.loads(out.read_text())["rows"]
        assert [(r["recipe"], r["match"]) for r in rows] == [("ddp", True), ("fsdp", True)], rows
        for r in rows:
            assert r["uses_vendor"] == (staged == "0")
            assert (r["collectives_vendor"] > 0) == (staged == "0") and (r["collectives_staged"] > 0) == (staged == "1")


def test_the_example_runs_under_torchrun():
    # torchrun as a module of this interpreter: a `torchrun` found on PATH may belong to another Python
    # (a virtual environment sees the system's torch but gets no torchrun script of its own).
    proc = forked.run([sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_port", str(free_port()),
                       os.path.join(ROOT, "examples", "train_ddp.py"), "--steps", "6"],
                      capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, "DIOPI_IMPL_LIB": LIB})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "ranks agree on the weights: True" in proc.stdout, proc.stdout
