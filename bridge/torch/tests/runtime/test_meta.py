"""Result shapes in C++: the device's kernels size their results with ATen's
C++ meta functions (or its own, csrc/aten/meta.cpp), never with the Python
meta registrations, whose first use imports torch._dynamo (seconds).

Each first-use check is a fresh interpreter: the import happens once per
process, so only a process that has not run the operator before can tell.
"""
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import LIB, ROOT

pytestmark = pytest.mark.needs_device


def run(code):
    src = f"import sys, torch, diopi_torch\ndiopi_torch.load({LIB!r})\n" + textwrap.dedent(code)
    proc = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**os.environ, "DIOPI_IMPL_LIB": ""})
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout[-3000:] + proc.stderr[-3000:]


FIRST_OPS = {
    "linear": ("torch.nn.functional.linear(x(4, 4), x(3, 4), x(3))", "addmm"),
    "addmm": ("torch.addmm(x(3), x(2, 4), x(4, 3))", "addmm"),
    "mm": ("torch.mm(x(2, 4), x(4, 3))", "mm"),
    "bmm": ("torch.bmm(x(2, 3, 4), x(2, 4, 5))", "bmm"),
    "conv2d": ("torch.nn.functional.conv2d(x(1, 3, 8, 8), x(4, 3, 3, 3), x(4), padding=1)", "convolution"),
    "conv1d": ("torch.nn.functional.conv1d(x(1, 3, 8), x(4, 3, 3), x(4), stride=2)", "convolution"),
    "add": ("x(2, 3) + x(2, 3)", "add.Tensor"),
    "add a number": ("x(2, 3) + 2", "add.Tensor"),
    "sum": ("x(2, 3).sum()", "sum"),
    "relu": ("torch.relu(x(2, 3))", "relu"),
    "ones_like": ("torch.ones_like(x(2, 3)) * x(2, 3)", "ones_like"),
}


@pytest.mark.parametrize("name", sorted(FIRST_OPS))
def test_the_first_eager_call_does_not_import_dynamo(name):
    expr, aten = FIRST_OPS[name]
    run(f"""
        assert "torch._dynamo" not in sys.modules, "importing the device already imported torch._dynamo"
        torch.manual_seed(0)
        cpu = []
        def x(*shape):
            t = torch.randn(*shape)
            cpu.append(t)
            return t.to("diopi")
        diopi_torch.reset_stats()
        got = {expr}
        assert "torch._dynamo" not in sys.modules, "the first {name} imported torch._dynamo (a Python meta kernel ran)"
        st = diopi_torch.stats().get({aten!r}, {{}})
        assert st.get("diopi", 0) >= 1 and st.get("fallback", 0) == 0, st  # a DIOPI call served it, not the CPU
        it = iter(cpu)
        x = lambda *shape: next(it)
        want = {expr}
        assert got.shape == want.shape and got.stride() == want.stride(), (got.shape, got.stride(), want.shape, want.stride())
        assert torch.allclose(got.cpu(), want, atol=1e-5)
        print("ok")
    """)


def test_a_first_training_step_of_a_small_cnn_does_not_import_dynamo():
    run("""
        m = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 2))
        m = m.to("diopi")
        out = m(torch.randn(2, 3, 6, 6, device="diopi"))
        out.sum().backward()
        assert "torch._dynamo" not in sys.modules, "a forward and backward of conv + linear imported torch._dynamo"
        assert m[0].weight.grad is not None and m[0].weight.grad.shape == m[0].weight.shape
        print("ok")
    """)


def test_convolution_shapes_strides_and_errors_match_the_python_meta_kernels():
    # The C++ shapes of csrc/aten/meta.cpp against the Python meta kernels they replace, over the
    # parameters that change them: stride, padding, dilation, groups, transposed, channels-last operands.
    run("""
        import itertools
        aten = torch.ops.aten
        cases = 0
        for dims, stride, padding, dilation, groups, transposed, cl in itertools.product(
                (1, 2, 3), (1, 2), (0, 1), (1, 2), (1, 2), (False, True), (False, True)):
            if cl and dims != 2:
                continue
            spatial = [7] * dims
            inp = torch.randn(2, 4, *spatial)
            w = torch.randn(4, 4 // groups, *[3] * dims) if not transposed else torch.randn(4, 6 // groups, *[3] * dims)
            if cl:
                inp, w = inp.to(memory_format=torch.channels_last), w.to(memory_format=torch.channels_last)
            args = ([stride] * dims, [padding] * dims, [dilation] * dims, transposed, [0] * dims, groups)
            want = aten.convolution(inp.to("meta"), w.to("meta"), None, *args)
            got = aten.convolution(inp.to("diopi"), w.to("diopi"), None, *args)
            assert got.shape == want.shape, (dims, stride, padding, dilation, groups, transposed, cl, got.shape, want.shape)
            gwant = aten.convolution_backward(want, inp.to("meta"), w.to("meta"), [want.shape[1]], *args, [True] * 3)
            ggot = aten.convolution_backward(torch.randn(got.shape, device="diopi"), inp.to("diopi"), w.to("diopi"),
                                             [got.shape[1]], *args, [True] * 3)
            for g, wt in zip(ggot, gwant):
                assert g.shape == wt.shape, (dims, transposed, cl, g.shape, wt.shape)
            cases += 1
        assert cases > 50, cases
        # A wrong channel count and a kernel larger than the input: the text the CPU (and CUDA) raise.
        for inp, w in (((1, 5, 8, 8), (4, 3, 3, 3)), ((1, 3, 2, 2), (4, 3, 3, 3))):
            texts = []
            for dev in ("cpu", "diopi"):
                try:
                    torch.nn.functional.conv2d(torch.randn(inp, device=dev), torch.randn(w, device=dev))
                    texts.append(None)
                except RuntimeError as e:
                    texts.append(str(e).splitlines()[0])
            assert texts[0] is not None and texts[0] == texts[1], texts
        print("ok")
    """)


def test_the_device_s_own_shapes_give_cpu_s_dtypes_sizes_and_strides():
    # csrc/aten/meta.cpp against eager CPU, over what changes a result: dtypes and type promotion
    # with Python numbers, channels-last inputs kept by the *_like factories, inferred fill dtypes.
    run("""
        cl = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)
        ints = torch.arange(6).reshape(2, 3)
        halves = torch.randn(2, 3).half()
        calls = [
            lambda t: t(ints) + 2, lambda t: t(ints) + 2.5, lambda t: t(halves) * 3, lambda t: t(ints) / 2,
            lambda t: torch.add(t(cl), 1, alpha=2), lambda t: 1 - t(ints), lambda t: torch.rsub(t(halves), 2.0),
            lambda t: t(ints).sum(), lambda t: t(ints).sum(dtype=torch.float64), lambda t: t(halves).sum(),
            lambda t: t(cl).mean(), lambda t: t(halves).mean(dtype=torch.float32),
            lambda t: torch.relu(t(ints)), lambda t: torch.relu(t(cl)),
            lambda t: torch.ones_like(t(cl)), lambda t: torch.zeros_like(t(cl), dtype=torch.int32),
            lambda t: torch.full_like(t(ints), 7), lambda t: torch.zeros_like(t(cl), memory_format=torch.contiguous_format),
            lambda t: t(ints).new_zeros(3, 2), lambda t: t(halves).new_ones(4), lambda t: t(cl).new_full((2, 2), 1.5),
            lambda t: t(ints).new_zeros(2, dtype=torch.float32),
            lambda t: torch.zeros(2, 3, device=t.dev), lambda t: torch.ones(3, dtype=torch.int8, device=t.dev),
            lambda t: torch.full((2,), 3, device=t.dev), lambda t: torch.full((2,), True, device=t.dev),
            lambda t: torch.full((2,), 0.5, device=t.dev), lambda t: torch.scalar_tensor(3, device=t.dev),
        ]
        class On:
            def __init__(self, dev): self.dev = dev
            def __call__(self, x): return x.to(self.dev)
        for i, f in enumerate(calls):
            want, got = f(On("cpu")), f(On("diopi"))
            assert got.device.type == "diopi", (i, got.device)
            assert (got.dtype, got.shape, got.stride()) == (want.dtype, want.shape, want.stride()), \\
                (i, got.dtype, got.shape, got.stride(), want.dtype, want.shape, want.stride())
            assert torch.allclose(got.cpu().double(), want.double(), atol=1e-2), (i, got.cpu(), want)
        try:
            torch.relu(torch.ones(2, dtype=torch.bool, device="diopi")); raise AssertionError("bool relu accepted")
        except RuntimeError as e:
            assert "Boolean inputs not supported for relu" in str(e), e
        assert "torch._dynamo" not in sys.modules, "one of these imported torch._dynamo"
        print("ok")
    """)
