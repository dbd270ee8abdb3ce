"""The `diopi` device as a PyTorch user meets it: tensors, copies, printing,
seeds, counted fallbacks, and errors that name the DIOPI function."""
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device


def run(code, load=True, **env):
    """Each check in its own interpreter: a process serves one vendor library ($DIOPI_IMPL_LIB, loaded first)."""
    code = ("import diopi_torch\ndiopi_torch.load()\n" if load else "") + textwrap.dedent(code)
    proc = forked.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                      timeout=300, env={**os.environ, "DIOPI_IMPL_LIB": LIB, **env}, preload=forked.TORCH)
    return proc


def test_tensors_copies_printing_and_seeds():
    proc = run("""
        import torch, diopi_torch
        x = torch.arange(6.).reshape(2, 3)
        d = x.to("diopi")
        assert d.device.type == "diopi" and torch.equal(d.cpu(), x)
        assert torch.equal((d.t() * 2).cpu(), x.t() * 2)          # a strided view through DIOPI and back
        assert "device='diopi:0'" in repr(d + 1)
        torch.manual_seed(7); a = torch.randn(4, device="diopi").cpu()
        torch.manual_seed(7); b = torch.randn(4, device="diopi").cpu()
        torch.manual_seed(8); c = torch.randn(4, device="diopi").cpu()
        assert torch.equal(a, b) and not torch.equal(a, c)
        m = torch.nn.Linear(3, 2).to("diopi")
        assert next(m.parameters()).device.type == "diopi" and m(d).shape == (2, 2)
        s = diopi_torch.summary()
        assert s["diopi_calls"] > 0 and s["copy_calls"] > 0 and s["aten_calls"] == s["diopi_calls"] + s["fallback_calls"]
        print("ok")
    """)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout + proc.stderr


def test_unmapped_operator_falls_back_counted_or_errors():
    code = """
        import torch, diopi_torch
        x = torch.tensor([1., 2., 3.], device="diopi")
        y = torch.cumprod(x, 0)          # no mapping entry: runs on the CPU
        assert torch.equal(y.cpu(), torch.tensor([1., 2., 6.]))
        st = diopi_torch.stats()
        assert st["cumprod.out"]["fallback"] == 1 and st["cumprod.out"]["reasons"] == {"no mapping entry": 1}, st
        print("ok")
    """
    proc = run(code)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout + proc.stderr
    proc = run(code, DIOPI_FALLBACK="error")
    assert proc.returncode == 1, proc.stderr  # the exception's own status, not an abort
    assert "aten::cumprod.out would run on the CPU (no mapping entry) and DIOPI_FALLBACK=error forbids fallbacks" in proc.stderr


def test_a_python_number_operand_is_passed_as_a_scalar():
    # `x * 0.5` reaches the device as mul.Tensor with a host 0-dim tensor; the scalar functions take it as it is,
    # where the tensor functions needed a copy of it on the device for every call.
    proc = run("""
        import torch, diopi_torch
        x = torch.randn(3, 4)
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            c = x.to(dt); d = c.to("diopi")
            diopi_torch.reset_stats()
            got = [d * 0.5, d + 1e-3, d - 2, d / 3.0, d + True, d.clone().mul_(1.5), d.clone().add_(2, alpha=3),
                   d.clone().sub_(0.25), d.clone().div_(7)]
            want = [c * 0.5, c + 1e-3, c - 2, c / 3.0, c + True, c.clone().mul_(1.5), c.clone().add_(2, alpha=3),
                    c.clone().sub_(0.25), c.clone().div_(7)]
            for g, w in zip(got, want):
                assert g.dtype == w.dtype and torch.equal(g.cpu(), w), (dt, g, w)
            st = diopi_torch.stats()
            used = {f for v in st.values() for f in v["functions"]}
            assert used >= {"diopiMulScalar", "diopiAddScalar", "diopiSubScalar", "diopiDivScalar", "diopiMulInpScalar",
                            "diopiAddInpScalar", "diopiSubInpScalar", "diopiDivInpScalar"}, used
            assert not used & {"diopiMul", "diopiAdd", "diopiSub", "diopiDiv"}, used
            assert st.get("_copy_from", {}).get("copy", 0) == 9, st.get("_copy_from")  # the nine results read back only
        # A number that changes the result dtype, and a 0-dim tensor of the user's, keep the tensor functions.
        i = torch.arange(4)
        assert torch.equal((i.to("diopi") * 0.5).cpu(), i * 0.5)
        s = torch.tensor(2.0, dtype=torch.float64)
        assert torch.equal((x.to("diopi") * s).cpu(), x * s)
        print("ok")
    """)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout + proc.stderr


def test_strided_operands_and_numbers_match_eager_cpu_bit_for_bit():
    # Attention's heads are views out of (batch, seq, heads, dim), rotary halves are slices, reductions' gradients are
    # expanded: the library may write such results straight into the device's output and take a Python number in
    # the result's dtype. Values and strides must stay eager CPU's, whatever the library does.
    proc = run("""
        import torch, diopi_torch
        torch.manual_seed(0)
        base = torch.randn(2, 8, 4, 16)
        views = {
            "permuted": lambda t: t.transpose(1, 2),                 # (B, H, S, D) seen in (B, S, H, D) memory
            "sliced": lambda t: t[..., :8],
            "expanded": lambda t: t[:, :, :1, :].expand(2, 8, 4, 16),
        }
        cases = [lambda t, k: t * 0.5, lambda t, k: t + 1e-3, lambda t, k: t / 3, lambda t, k: t - 2,
                 lambda t, k: t * 1e300, lambda t, k: torch.exp(t), lambda t, k: torch.sigmoid(t),
                 lambda t, k: torch.tanh(t), lambda t, k: -t, lambda t, k: t + t, lambda t, k: t * t,
                 lambda t, k: t * k, lambda t, k: k * t]             # rotary: a broadcast table times the heads
        for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
            x = base.to(dt)
            for name, view in views.items():
                c, d = view(x), view(x.to("diopi"))
                k = torch.randn(1, 1, *c.shape[-2:]).to(dt)
                assert d.stride() == c.stride(), (name, d.stride(), c.stride())
                for i, f in enumerate(cases):
                    want, got = f(c, k), f(d, k.to("diopi"))
                    assert got.dtype == want.dtype and got.stride() == want.stride(), (dt, name, i, got.stride(), want.stride())
                    assert torch.equal(got.cpu(), want), (dt, name, i)
        print("ok")
    """)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout + proc.stderr


def test_impl_torch_writes_strided_results_in_place():
    # What the test above allows, impl/torch does: no temporary and copy for a permuted, sliced or expanded operand,
    # and no converted copy of a Python number (its own ATen calls show in the profiler, under the DIOPI call).
    if os.sep + os.path.join("build", "torch") + os.sep not in LIB:
        pytest.skip(f"impl/torch's own ATen calls are what is checked; this run's library is {LIB}")
    proc = run("""
        import torch, diopi_torch
        from torch.profiler import profile, ProfilerActivity
        x = torch.randn(2, 8, 4, 16, device="diopi")
        cos = torch.randn(1, 1, 8, 16, device="diopi")
        q = x.transpose(1, 2)
        calls = [lambda: q * cos, lambda: -q, lambda: q + q, lambda: torch.exp(q), lambda: x[..., :8] * 2.0,
                 lambda: x[:, :, :1, :].expand(2, 8, 4, 16) / 64, lambda: x * 0.5, lambda: x + 1e-6]
        for f in calls: f()
        with profile(activities=[ProfilerActivity.CPU]) as p:
            for f in calls: f()
        inner = []
        for e in p.events():
            a = e.cpu_parent
            while a is not None and not a.name.startswith("diopi"):
                a = a.cpu_parent
            if a is not None and e.name in ("aten::copy_", "aten::_to_copy", "aten::empty_strided", "aten::empty"):
                inner.append((a.name, e.name))
        served = {e.name for e in p.events() if e.name.startswith("diopi")}
        assert {"diopiMul", "diopiNeg", "diopiAdd", "diopiExp", "diopiMulScalar", "diopiDivScalar", "diopiAddScalar"} <= served, served
        assert not inner, inner
        print("ok")
    """)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout + proc.stderr


def test_outputs_shaped_by_data_are_allocated_by_the_library():
    # nonzero and boolean indexing: the result's shape is known only after the
    # kernel ran, so the library allocates it (diopiRequireTensor); a mixture of
    # experts routes tokens with them.
    proc = run("""
        import torch, diopi_torch
        x = torch.tensor([[0., 2., 0.], [3., 0., 4.]])
        d = x.to("diopi")
        assert torch.nonzero(d).device.type == "diopi"                     # device memory, as DIOPI asks
        assert torch.equal(torch.nonzero(d).cpu(), torch.nonzero(x))
        assert torch.equal(d[d > 1].cpu(), x[x > 1])
        idx = torch.tensor([1, 0, 1])
        assert torch.equal(d[idx.to("diopi")].cpu(), x[idx])
        out = torch.empty(0, device="diopi")
        torch.ops.aten.index.Tensor_out(d, [idx.to("diopi")], out=out)      # out= resized to the library's result
        assert torch.equal(out.cpu(), x[idx])
        acc = torch.zeros(2, 3, device="diopi").index_add_(0, idx.to("diopi"), torch.ones(3, 3, device="diopi"))
        assert torch.equal(acc.cpu(), torch.zeros(2, 3).index_add_(0, idx, torch.ones(3, 3)))
        y = d.clone(); y[idx.to("diopi"), 1] = 7.0                           # index_put_
        z = x.clone(); z[idx, 1] = 7.0
        assert torch.equal(y.cpu(), z)
        st = diopi_torch.stats()
        for op, fn in [("nonzero", "diopiNonzero"), ("index.Tensor", "diopiIndex"), ("index.Tensor_out", "diopiIndex"),
                       ("index_add.out", "diopiIndexPut"), ("_index_put_impl_", "diopiIndexPutInp")]:
            assert st[op]["functions"].get(fn, 0) >= 1 and st[op]["fallback"] == 0, (op, st.get(op))
        print("ok")
    """, DIOPI_FALLBACK="error")
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout + proc.stderr


def test_diopi_error_becomes_runtime_error_naming_function_and_operator():
    proc = run("""
        import torch, diopi_torch
        w = torch.randn(4, 3, device="diopi")
        try:
            torch.nn.functional.embedding(torch.tensor([0, 9], device="diopi"), w)   # index 9 of 4 rows
        except RuntimeError as e:
            print("caught:", str(e).splitlines()[0])
        print(torch.ones(2, device="diopi").cpu().tolist())  # the process goes on
    """)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("caught: diopiEmbedding failed (status 1) serving aten::embedding:"), proc.stdout
    assert proc.stdout.splitlines()[1] == "[1.0, 1.0]"


def test_loading_a_missing_library_is_a_clear_error():
    proc = run("""
        import diopi_torch
        try:
            diopi_torch.load("/nonexistent/libdiopi_impl.so")
        except diopi_torch.DiopiError as e:
            print(e)
    """, load=False, DIOPI_IMPL_LIB="")
    assert proc.stdout.strip() == "no such library: /nonexistent/libdiopi_impl.so", proc.stdout + proc.stderr


def test_backward_runs_on_the_calling_thread_with_one_intra_op_thread():
    # With one intra-op thread, PyTorch's autograd thread for the device buys nothing (the caller only waits) and costs
    # two thread wake-ups per backward and a move of the activations to another core: a thread that used the device
    # runs its backward itself. With several, the device's thread stays (a caller's OpenMP team starved under load);
    # DIOPI_AUTOGRAD_THREAD=0 / 1 force either. Gradients agree with eager CPU in every case, also for a backward
    # started from a second Python thread.
    code = """
        import threading, torch
        def backward_thread(device):
            seen = []
            torch.manual_seed(0)
            m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1)).to(device)
            x = torch.randn(5, 4).to(device).requires_grad_()
            y = m(x)
            y.register_hook(lambda g: seen.append(threading.get_ident()))
            y.sum().backward()
            return seen[0], x.grad.cpu(), [p.grad.cpu() for p in m.parameters()]
        results = {}
        def body():
            for device in ("cpu", "diopi"):
                tid, gx, gp = backward_thread(device)
                results[device] = (tid == threading.get_ident(), gx, gp)
        body()
        side = threading.Thread(target=body); side.start(); side.join()   # the second thread's results replace the first's
        for a, b in zip([results["cpu"][1]] + results["cpu"][2], [results["diopi"][1]] + results["diopi"][2]):
            assert torch.allclose(a, b, atol=1e-6), (a, b)
        print("cpu", results["cpu"][0], "diopi", results["diopi"][0])
    """
    for threads, policy, caller in (("1", None, True), ("2", None, False), ("1", "1", False), ("2", "0", True)):
        env = {"OMP_NUM_THREADS": threads, **({"DIOPI_AUTOGRAD_THREAD": policy} if policy else {})}
        proc = run(code, **env)
        assert proc.returncode == 0 and proc.stdout.split()[-4:] == ["cpu", "True", "diopi", str(caller)], \
            (env, proc.stdout + proc.stderr)


def test_the_benchmark_times_one_thread_in_every_thread():
    # torch.set_num_threads(1) would leave the device's autograd thread two OpenMP threads; the
    # benchmark restarts itself with OMP_NUM_THREADS=1 and says so, and the restarted run times
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    proc = forked.run([sys.executable, "-m", "diopi_torch.suite", "--bench", "--models", "cnn", "--impl_lib", LIB],
                      capture_output=True, text=True, cwd=ROOT, timeout=600, env=env, preload=forked.TORCH)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stdout.count("restarting with OMP_NUM_THREADS=1") == 1, proc.stdout
    assert "geometric mean diopi/cpu (float32)" in proc.stdout, proc.stdout


def test_import_torch_autoloads_the_device_from_the_environment():
    # PyTorch's autoloading of out-of-tree backends: the `torch.backends` entry point of the installed package
    code = textwrap.dedent("""
        import sys, torch
        print("diopi" if torch._C._get_privateuse1_backend_name() == "diopi" else "none", "diopi_torch" in sys.modules)
        if torch._C._get_privateuse1_backend_name() == "diopi":
            print((torch.ones(2, device="diopi") * 3).cpu().tolist())
    """)
    def python(**env):
        return forked.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, **env}, preload=forked.TORCH)
    from importlib.metadata import entry_points
    assert [e.value for e in entry_points(group="torch.backends") if e.name == "diopi"] == \
        ["diopi_torch.runtime.autoload:autoload"], "bridge/torch is installed without its entry points: pip install -e bridge/torch"
    proc = python(DIOPI_IMPL_LIB=LIB)
    assert proc.returncode == 0 and proc.stdout.split("\n")[:2] == ["diopi True", "[3.0, 3.0]"], proc.stdout + proc.stderr
    proc = python(DIOPI_IMPL_LIB="")                                          # nothing to load: nothing loaded
    assert proc.returncode == 0 and proc.stdout.strip() == "none True", proc.stdout + proc.stderr
    proc = python(DIOPI_IMPL_LIB=LIB, TORCH_DEVICE_BACKEND_AUTOLOAD="0")      # PyTorch's switch turns it off
    assert proc.returncode == 0 and proc.stdout.strip() == "none False", proc.stdout + proc.stderr
    proc = python(DIOPI_IMPL_LIB="/nonexistent/libdiopi_impl.so")            # a wrong path is PyTorch's clear error
    assert proc.returncode != 0 and "Failed to load the backend extension: diopi" in proc.stderr, proc.stderr[-2000:]
    assert "no such library: /nonexistent/libdiopi_impl.so" in proc.stderr, proc.stderr[-2000:]
    # the conformance harness keeps vendor code out of its own process even so
    # (a real interpreter: the harness turns autoloading off before torch is imported, which a fork from an
    # interpreter that imported torch cannot show)
    proc = subprocess.run([sys.executable, "-c", "import conformance.cli, torch; print(torch._C._get_privateuse1_backend_name())"],
                          capture_output=True, text=True, cwd=os.path.join(ROOT, "diopi_test", "python"), timeout=300,
                          env={**os.environ, "DIOPI_IMPL_LIB": LIB})
    assert proc.returncode == 0 and proc.stdout.strip() == "privateuseone", proc.stdout + proc.stderr
