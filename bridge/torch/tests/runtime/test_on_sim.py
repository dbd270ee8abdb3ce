"""The device on the simulated chip (impl/sim): work runs later than the call
that queued it, so what the device promises about asynchronous copies and
what its tools measure must hold there. Each scenario runs in a fresh
process (impl/sim reads its knobs when it starts). Runs against build/sim
and build/bridge, not impl/torch (hence not the needs_device mark)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import EXT, ROOT

SIM_LIB = os.path.join(ROOT, "build", "sim", "lib", "libdiopi_impl.so")
pytestmark = pytest.mark.skipif(not (os.path.exists(SIM_LIB) and os.path.exists(EXT)),
                                reason="needs build/sim (scripts/build_impl.sh sim) and build/bridge (scripts/build_bridge.sh)")


def run(body, **env):
    full = {k: v for k, v in os.environ.items() if not k.startswith("DIOPI_SIM_")}
    full.update(env, DIOPI_IMPL_LIB=SIM_LIB)
    code = "import json, torch, diopi_torch\ndiopi_torch.load()\n" + textwrap.dedent(body)
    proc = forked.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_non_blocking_copy_to_pinned_memory_is_asynchronous_and_complete_after_synchronize():
    # A 20 ms kernel queued before the copy: a copy that were done when it
    # returned would show the result at once.
    out = run("""
        x = torch.arange(4096, dtype=torch.float32).to("diopi")
        y = x * 2
        torch.diopi.synchronize()  # the signature has run once: the next call is queued, not tried
        y = x * 2
        back = torch.zeros(4096).pin_memory()
        back.copy_(y, non_blocking=True)
        at_return = bool(torch.equal(back, torch.arange(4096, dtype=torch.float32) * 2))
        torch.diopi.current_stream().synchronize()
        after = bool(torch.equal(back, torch.arange(4096, dtype=torch.float32) * 2))
        print(json.dumps({"at_return": at_return, "after": after}))
    """, DIOPI_SIM_KERNEL_US="20000")
    assert out == {"at_return": False, "after": True}


def test_the_op_timer_times_the_work_not_its_launch():
    out = run("""
        x = torch.ones(64, device="diopi")
        (x + 1).cpu()  # the signature's first call, outside the timer
        with diopi_torch.op_timer() as t:
            y = x + 1
        print(json.dumps([r for r in t.rows if r["aten"].startswith("add")]))
    """, DIOPI_SIM_KERNEL_US="20000")
    assert len(out) == 1 and out[0]["calls"] == 1, out
    # The kernel occupies the simulated device for 20 ms; queuing it takes microseconds.
    assert out[0]["total_ms"] >= 20.0, out


def test_a_profiler_span_times_the_work_on_the_device_not_its_launch(tmp_path):
    # A 30 ms kernel: the call that queues it returns at once; its span on the device's row must cover the
    # kernel's 30 ms and end after the call returned (the work ran later), as a CUDA kernel's span does.
    trace = tmp_path / "trace.json"
    out = run(f"""
        x = torch.ones(64, device="diopi")
        (x + 1).cpu()  # the signature's first call runs synchronously on impl/sim: profile a queued one
        A = torch.profiler.ProfilerActivity
        with torch.profiler.profile(activities=[A.CPU, A.PrivateUse1]) as prof:
            y = x + 1
            torch.diopi.synchronize()
        prof.export_chrome_trace({str(trace)!r})
        print(json.dumps({{"device_us": {{e.key: e.device_time_total for e in prof.key_averages() if e.key.startswith("diopi")}}}}))
    """, DIOPI_SIM_KERNEL_US="30000")
    events = json.loads(trace.read_text())["traceEvents"]
    kernels = [e for e in events if e.get("ph") == "X" and e.get("cat") == "kernel" and e["name"].startswith("diopiAdd")]
    calls = [e for e in events if e.get("ph") == "X" and e.get("cat") == "cpu_op" and e["name"].startswith("diopiAdd")]
    assert len(kernels) == 1 and len(calls) == 1, (kernels, calls)
    span, call = kernels[0], calls[0]
    assert span["dur"] >= 30000, span                                  # the kernel's device time, in µs
    assert span["ts"] + span["dur"] > call["ts"] + call["dur"], (span, call)  # ends after the launch returned
    assert out["device_us"][span["name"]] >= 30000, out


def test_a_recipe_on_a_device_the_chip_does_not_have_is_named_not_run():
    # One simulated device, as a one-GPU machine: `all` leaves the diopi:1 recipe out saying why; asked for by
    # name, it is an error before anything runs.
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIOPI_SIM_")}
    env["DIOPI_SIM_DEVICES"] = "1"
    suite = [sys.executable, "-m", "diopi_torch.suite", "--impl_lib", SIM_LIB, "--models", "cnn"]
    asked = subprocess.run(suite + ["--recipe", "fp32,device1"], capture_output=True, text=True, env=env, timeout=300)
    assert asked.returncode == 2, asked.stdout[-2000:] + asked.stderr[-2000:]
    assert "device1 needs diopi:1, and the library has 1 device(s)" in asked.stderr
    assert "cnn        fp32" not in asked.stdout  # refused before the first model ran
    all_ = subprocess.run(suite + ["--recipe", "all"], capture_output=True, text=True, env=env, timeout=600)
    assert all_.returncode == 0, all_.stdout[-2000:] + all_.stderr[-2000:]
    assert "device1: left out: device1 needs diopi:1" in all_.stderr
    ran = {line.split()[1] for line in all_.stdout.splitlines() if line.startswith("cnn ")}
    assert "device1" not in ran and {"fp32", "bf16", "resume"} <= ran, ran
