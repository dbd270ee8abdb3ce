"""The tools of bringing a model up, each on the planted library (impl/torch
with a wrong diopiSilu and a slow diopiRsqrt, tests/planted/planted.c): the
profiler and the op timer find the slow call, the call log and the capture
the wrong one, the named fallback makes the model match eager CPU again, and
the capture replays in the harness (no torch in its process) and in the
precision analysis."""
import csv
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB as TORCH_LIB
from device_paths import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(ROOT, "diopi_test", "python")
# The suite's llama: batch 2, sequence 8, intermediate size 128 (diopi_torch/suite.py).
SILU_SHAPE = "float32[2,8,128]"

pytestmark = pytest.mark.needs_device


@pytest.fixture(scope="module")
def session(planted, tmp_path_factory):
    """tools_session.py run once on the planted library; its output folder."""
    out = tmp_path_factory.mktemp("tools")
    proc = forked.run([sys.executable, os.path.join(HERE, "tools_session.py"), planted, str(out)], capture_output=True,
                      text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def report(session):
    return json.loads((session / "report.json").read_text())


def test_profiler_events_name_the_slow_function(session):
    trace = json.loads((session / "trace.json").read_text())["traceEvents"]
    cpu = [e for e in trace if e.get("ph") == "X" and e.get("cat") == "cpu_op"]
    calls = [e for e in cpu if e["name"].startswith("diopi")]
    assert calls, "no DIOPI events in the trace"
    slowest = max(calls, key=lambda e: e["dur"])
    assert slowest["name"] == "diopiRsqrt", [(e["name"], e["dur"]) for e in sorted(calls, key=lambda e: -e["dur"])[:5]]
    assert slowest["args"]["Input Dims"] == [[2, 8, 1], [2, 8, 1]]  # record_shapes: out, input
    # Each DIOPI event sits inside the event of its ATen operator on the same thread.
    for call in calls:
        parents = [e for e in cpu if e["tid"] == call["tid"] and e["name"].startswith("aten::")
                   and e["ts"] <= call["ts"] and call["ts"] + call["dur"] <= e["ts"] + e["dur"]]
        assert parents, call
    innermost = min((e for e in cpu if e["tid"] == slowest["tid"] and e["name"].startswith("aten::")
                     and e["ts"] <= slowest["ts"] and slowest["ts"] + slowest["dur"] <= e["ts"] + e["dur"]),
                    key=lambda e: e["dur"])
    assert innermost["name"] == "aten::rsqrt"
    # The device's activity: one span per call on the device row, linked to the call's CPU event.
    kernels = [e for e in trace if e.get("ph") == "X" and e.get("cat") == "kernel"]
    assert sorted(k["name"] for k in kernels) == sorted(c["name"] for c in calls)
    assert max(kernels, key=lambda e: e["dur"])["name"] == "diopiRsqrt"
    ids = {c["args"]["External id"] for c in calls}
    assert all(k["args"]["External id"] in ids for k in kernels)
    r = report(session)
    assert max(r["device_time_us"], key=r["device_time_us"].get) == "diopiRsqrt", r["device_time_us"]


def test_op_timer_puts_the_slow_function_first(session):
    rows = json.loads((session / "timer.json").read_text())
    assert rows[0]["diopi"] == "diopiRsqrt" and rows[0]["aten"] == "rsqrt" and rows[0]["phase"] == "forward", rows[:3]
    assert rows[0]["calls"] == 5  # two blocks' two norms, and the final norm
    assert rows[0]["slowest"] == "out=float32[2,8,1] input=float32[2,8,1]"
    assert all(r["total_ms"] >= s["total_ms"] for r, s in zip(rows, rows[1:]))
    phases = {(r["aten"], r["phase"]) for r in rows}
    assert ("silu_backward", "backward") in phases and ("mm", "forward") in phases and ("mm", "backward") in phases
    for r in rows:
        assert r["calls"] >= 1 and r["max_us"] * r["calls"] >= r["total_ms"] * 1e3 * 0.999 and r["kernel_ms"] >= r["total_ms"]
    with open(session / "timer.csv") as f:
        table = list(csv.DictReader(f))
    assert [(t["aten"], t["diopi"], t["phase"]) for t in table] == [(r["aten"], r["diopi"], r["phase"]) for r in rows]
    text = (session / "timer.txt").read_text().splitlines()
    assert "aten::rsqrt -> diopiRsqrt" in text[2], text[:3]
    assert report(session)["empty_timer_rows"] == 0


def test_call_log_holds_the_wrong_call_with_its_shapes(session):
    lines = (session / "calls.log").read_text().splitlines()
    assert lines[0].startswith("# diopi call log")
    silu = [x for x in lines if " aten::silu -> diopiSilu(" in x]
    assert len(silu) == 2, silu
    for x in silu:
        assert f"out={SILU_SHAPE}{{1024,128,1}}" in x and f"input={SILU_SHAPE}{{1024,128,1}}" in x and "= diopiSuccess" in x
        assert " fwd " in x
    assert any(x.split()[1].startswith("bwd(SiluBackward") and "diopiSiluBackward" in x for x in lines)
    numbers = [int(x.split()[0]) for x in lines[1:]]
    assert numbers == list(range(len(numbers)))


def test_named_fallback_makes_the_model_match_eager(session):
    r = report(session)
    assert not r["plain"]["forward_match"] and r["plain"]["max_abs_diff"] >= 0.01  # the planted defect shows
    for label in ("named_aten", "named_diopi", "error_mode_named"):
        assert r[label]["forward_match"] and r[label]["backward_match"], (label, r[label])
        assert r[label]["silu"]["reasons"] == {"named": 2} and r[label]["silu"]["diopi"] == 0, (label, r[label])
    assert r["named_aten"]["resolved"] == ["silu"] and r["named_diopi"]["resolved"] == ["diopiSilu"]
    assert not r["after_fallback_block"]["forward_match"]  # the block's end gives the operator back to DIOPI


def test_named_fallback_names_are_checked():
    proc = forked.run([sys.executable, "-c", textwrap.dedent("""
        from diopi_torch.tools import named
        assert named.resolve(["aten::softmax"]) == {"_softmax"}           # the underscored form softmax calls
        assert {"add.Tensor", "add.Scalar", "add_.Tensor"} <= named.resolve(["add"])            # overloads and the in-place form
        assert named.resolve(["add.Tensor"]) == {"add.Tensor"}
        for bad, hint in (("slu", "did you mean 'silu'"), ("diopiSlu", "did you mean 'diopiSilu'"),
                          ("linear", "no DIOPI kernel on this device")):
            try:
                named.resolve([bad])
            except ValueError as e:
                assert hint in str(e), e
            else:
                raise AssertionError(bad)
        """)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    env = dict(os.environ, DIOPI_IMPL_LIB=TORCH_LIB, DIOPI_FALLBACK_OPS="gelu,slu")
    proc = forked.run([sys.executable, "-c", "import diopi_torch; diopi_torch.load()"], capture_output=True, text=True, cwd=ROOT, env=env,
                      timeout=300)
    assert proc.returncode == 1 and "DIOPI_FALLBACK_OPS: unknown operator 'slu'" in proc.stderr and \
        "did you mean 'silu'" in proc.stderr, proc.stderr


def test_environment_variables_turn_the_log_and_the_fallback_on(tmp_path):
    log = tmp_path / "calls.log"
    code = textwrap.dedent("""
        import torch, diopi_torch
        diopi_torch.load()
        x = torch.randn(3, 4, device="diopi")
        y = torch.nn.functional.gelu(x) + torch.nn.functional.silu(x)
        st = diopi_torch.stats()
        assert st["gelu"]["reasons"] == {"named": 1} and st["silu"]["diopi"] == 1, st
        """)
    env = dict(os.environ, DIOPI_IMPL_LIB=TORCH_LIB, DIOPI_LOG_CALLS=str(log), DIOPI_FALLBACK_OPS="gelu")
    proc = forked.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = log.read_text().splitlines()  # written at exit
    assert any("aten::gelu -> cpu(float32[3,4]{4,1}" in x and "= fallback (named)" in x for x in lines), lines
    assert any("aten::silu -> diopiSilu(out=float32[3,4]{4,1}, input=float32[3,4]{4,1}) = diopiSuccess" in x for x in lines)


def _counts(proc):
    """(cases, passed, failed) of the replayed cases, from run_test's last progress line (its
    summary also counts the library checks)."""
    found = re.findall(r"(\d+)/(\d+) cases \(100%\): (\d+) passed, (\d+) failed", proc.stdout + proc.stderr)
    return tuple(int(x) for x in found[-1][1:]) if found else None


def _harness(*args):
    return subprocess.run([sys.executable, "main.py", *args], capture_output=True, text=True, cwd=HARNESS, timeout=600)


def test_capture_replays_in_the_harness(session, planted, tmp_path):
    r = report(session)
    cases = r["capture"]["cases"]
    silu = {c["case"] for c in cases if c["diopi"] == "diopiSilu"}
    assert len(silu) == 2 and {c["module"] for c in cases if c["diopi"] == "diopiSilu"} == \
        {"model.model.layers.0.mlp.act_fn", "model.model.layers.1.mlp.act_fn"}
    assert {c["diopi"] for c in cases} == {"diopiSilu", "diopiRsqrt", "diopiMm"}
    assert any(c["phase"] == "backward" for c in cases) and len(cases) == 40
    data = str(session / "capture")
    runtime = os.path.join(os.path.dirname(TORCH_LIB), "libdiopirt.so")
    bad = _harness("--mode", "run_test", "--data_dir", data, "--impl_lib", planted, "--runtime_lib", runtime,
                   "--report_dir", str(tmp_path / "planted"))
    assert bad.returncode == 1, bad.stdout + bad.stderr
    failed = {line.split()[1] for line in bad.stdout.splitlines() if line.strip().startswith("[failed]")}
    assert failed == silu, bad.stdout
    assert _counts(bad) == (len(cases), len(cases) - 2, 2), bad.stdout + bad.stderr
    good = _harness("--mode", "run_test", "--data_dir", data, "--impl_lib", TORCH_LIB, "--report_dir", str(tmp_path / "torch"))
    assert good.returncode == 0 and _counts(good) == (len(cases), len(cases), 0), good.stdout + good.stderr
    # The captured calls timed alone: the slow function is timed, the wrong one refused.
    bench = _harness("--mode", "bench", "--data_dir", data, "--impl_lib", planted, "--runtime_lib", runtime)
    assert bench.returncode == 0, bench.stdout + bench.stderr
    rows = {line.split()[0]: line for line in bench.stdout.splitlines() if line.startswith("diopi")}
    assert rows["diopiRsqrt"].rstrip().endswith("x") and "failed, not timed" in rows["diopiSilu"], bench.stdout


def test_capture_sees_the_parts_of_composite_operators(session):
    cases = report(session)["capture_softmax"]["cases"]
    assert [(c["aten"], c["diopi"]) for c in cases] == [("_softmax", "diopiSoftmax")] * 2, cases  # one per attention layer


def test_replay_without_torch_in_the_process(session):
    """run_test on a capture imports no torch (the vendor's machine may have none)."""
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {HARNESS!r})
        sys.modules["torch"] = None  # any import of torch fails
        from conformance import cli
        sys.exit(cli.main(["--mode", "run_test", "--data_dir", {str(session / "capture")!r}, "--impl_lib", {TORCH_LIB!r},
                           "--report_dir", {str(session / "notorch")!r}]))
        """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=HARNESS, timeout=600)
    assert proc.returncode == 0 and "0 failed" in proc.stdout, proc.stdout + proc.stderr


def test_precision_analysis_sorts_the_differences(session, tmp_path):
    out = tmp_path / "precision.json"
    proc = forked.run([sys.executable, "-m", "diopi_torch.tools.precision", str(session / "capture"), "--impl_lib", TORCH_LIB,
                       "--json", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 40 and all(r["status"] == "compared" for r in rows)
    top, rest = rows[:2], rows[2:]
    for r in top:  # the planted defect: +1 on the first element, against impl/torch's right answer
        assert r["func"] == "diopiSilu" and r["first_index"] == [0, 0, 0] and r["differing"] == 1
        assert abs(r["max_abs"] - 1.0) < 1e-3 and abs(r["expected"] - r["got"] - 1.0) < 1e-3
    assert all(r["scaled"] < 1e-5 for r in rest), rest[:3]  # the same library's other calls: rounding at most
    assert proc.stdout.splitlines()[2].startswith(top[0]["case"])
    # Against eager CPU's outputs instead, impl/torch has no call of any size to show.
    ref_out = tmp_path / "reference.json"
    ref = forked.run([sys.executable, "-m", "diopi_torch.tools.precision", str(session / "capture"), "--impl_lib", TORCH_LIB,
                      "--against", "reference", "--json", str(ref_out)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert ref.returncode == 0, ref.stdout + ref.stderr
    ref_rows = json.loads(ref_out.read_text())["rows"]
    assert len(ref_rows) == 40 and max(r["scaled"] for r in ref_rows) < 1e-5, ref_rows[:2]
