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

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device


def run(code):
    src = f"import sys, torch, diopi_torch\ndiopi_torch.load({LIB!r})\n" + textwrap.dedent(code)
    proc = forked.run([sys.executable, "-c", src], capture_output=True, text=True, cwd=ROOT, timeout=600,
                      env={**os.environ, "DIOPI_IMPL_LIB": ""}, preload=forked.TORCH)
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
    "layer_norm": ("torch.nn.functional.layer_norm(x(2, 3, 4), [4], x(4), x(4))", "native_layer_norm"),
    "where": ("torch.where(x(2, 3) > 0, x(2, 3), x(3))", "where.self"),
    "abs": ("torch.abs(x(2, 3))", "abs"),
    "clone": ("x(2, 3).t().clone()", "clone"),
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
        aten = torch.ops.aten
        x3, row, w4 = torch.randn(2, 3, 4), torch.randn(4), torch.randn(4)
        cond, ints3, halves3 = x3 > 0, torch.arange(24).reshape(2, 3, 4), torch.randn(3, 4).half()
        idx, emb = torch.tensor([[1, 3, 0], [9, 2, 2]]), torch.randn(10, 4)
        w3, zero3, one3 = torch.rand(3) + 0.5, torch.zeros(3), torch.ones(3)
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
            # The operators models run every step: copies, masks, embeddings, norms, view backwards, ranges, pads.
            lambda t: t(cl).clone(), lambda t: t(x3).transpose(0, 1).clone(),
            lambda t: t(cl).clone(memory_format=torch.contiguous_format),
            lambda t: t(cl).to(torch.float64), lambda t: t(ints).to(torch.float16), lambda t: t(x3).transpose(1, 2).to(torch.half),
            lambda t: torch.abs(t(cl)), lambda t: torch.abs(t(ints)), lambda t: torch.abs(t(x3).transpose(0, 2)),
            lambda t: torch.where(t(cond), t(x3), t(row)), lambda t: torch.where(t(cond), t(ints3), t(halves3)),
            lambda t: torch.where(t(cond)[0], t(x3).transpose(1, 2)[0].t(), 0.0), lambda t: torch.where(t(cond), 1, t(ints3)),
            lambda t: torch.nn.functional.embedding(t(idx), t(emb)), lambda t: torch.nn.functional.embedding(t(idx)[0], t(emb)),
            lambda t: torch.nn.functional.embedding(t(idx).int(), t(emb).half()),
            lambda t: aten.embedding_dense_backward(t(x3), t(idx), 10, -1, False),
            lambda t: aten.native_layer_norm(t(x3), [4], t(w4), t(w4), 1e-5),
            lambda t: aten.native_layer_norm(t(x3).transpose(0, 1), [2, 4], None, None, 1e-5),
            lambda t: aten.native_layer_norm(t(x3).half(), [4], t(w4), None, 1e-5),
            lambda t: aten.native_layer_norm(t(x3).half(), [4], t(w4).half(), t(w4).half(), 1e-5),
            lambda t: aten.native_layer_norm_backward(t(x3), t(x3), [4], *aten.native_layer_norm(t(x3), [4], t(w4), t(w4), 1e-5)[1:],
                                                      t(w4), t(w4), [True, True, True]),
            lambda t: aten.native_batch_norm(t(cl), t(w3), t(w3), t(zero3), t(one3), True, 0.1, 1e-5),
            lambda t: aten.native_batch_norm(t(cl), t(w3), t(w3), t(zero3), t(one3), False, 0.1, 1e-5),
            lambda t: aten.native_batch_norm(t(cl).contiguous(), None, None, None, None, True, 0.1, 1e-5),
            lambda t: aten.native_batch_norm_backward(t(cl), t(cl), t(w3), t(zero3), t(one3), t(zero3), t(one3), True, 1e-5,
                                                      [True, True, True]),
            lambda t: aten.select_backward(t(x3)[0], [2, 3, 4], 0, 1), lambda t: aten.slice_backward(t(x3), [2, 5, 4], 1, 1, 4, 1),
            lambda t: torch.arange(5, device=t.dev), lambda t: torch.arange(1, 2.5, 0.5, device=t.dev),
            lambda t: torch.arange(0, 10, 3, dtype=torch.int32, device=t.dev), lambda t: torch.arange(0, 1, 0.1, device=t.dev),
            lambda t: torch.arange(10, 0, -3, device=t.dev), lambda t: torch.arange(3.0, dtype=torch.int64, device=t.dev),
            lambda t: aten.constant_pad_nd(t(cl), [1, 1], 0.0), lambda t: aten.constant_pad_nd(t(cl), [-1, 0], 0.0),
            lambda t: aten.constant_pad_nd(t(x3).transpose(0, 1), [1, 1], 2.0), lambda t: aten.constant_pad_nd(t(x3), [-1, 2, 1, 0], 0.0),
            lambda t: aten.constant_pad_nd(t(x3), [0, 0], 0.0),
            lambda t: torch.logical_not(t(x3).transpose(0, 1)), lambda t: torch.logical_not(t(ints)),
            lambda t: t(x3).masked_fill(t(cond), 1.0), lambda t: t(x3)[0].t().masked_fill(t(cond)[0].t(), 0.5),
            lambda t: t(row).masked_fill(t(cond), 1.0), lambda t: t(ints3).masked_fill(t(cond), t(torch.tensor(3))),
            lambda t: torch.where(t(cond), t(x3), t(row), out=t(torch.empty(0))),
            lambda t: aten._safe_softmax(t(x3).masked_fill(t(cond), float("-inf")), -1),
            # Dropout with p 0 or 1 (or in evaluation) draws nothing that could differ between the two devices.
            lambda t: aten.native_dropout(t(cl), 0.0, True), lambda t: aten.native_dropout(t(x3).half().transpose(0, 2), 1.0, True),
            lambda t: aten.native_dropout(t(cl), 0.5, False), lambda t: aten.native_dropout(t(x3)[:, :0], 0.5, True),
        ]
        class On:
            def __init__(self, dev): self.dev = dev
            def __call__(self, x): return x.to(self.dev)
        for i, f in enumerate(calls):
            wants, gots = f(On("cpu")), f(On("diopi"))
            wants, gots = (wants, gots) if isinstance(wants, tuple) else ((wants,), (gots,))
            for want, got in zip(wants, gots, strict=True):
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


def test_bad_shapes_raise_the_cpu_s_errors():
    # Where the device's own shapes reject a call, they raise what the CPU raises (type and text).
    run("""
        aten = torch.ops.aten
        x, idx = torch.randn(2, 3, 4), torch.tensor([[1, 2]])
        calls = [
            lambda t: torch.nn.functional.embedding(t(idx).float(), t(torch.randn(5, 4))),
            lambda t: torch.nn.functional.embedding(t(idx), t(torch.randn(5, 4, 2))),
            lambda t: aten.embedding_dense_backward(t(x), t(idx).float(), 10, -1, False),
            lambda t: torch.nn.functional.layer_norm(t(x), [3]),
            lambda t: torch.nn.functional.layer_norm(t(x), [4], t(torch.ones(3))),
            lambda t: aten.native_layer_norm(t(x), [], None, None, 1e-5),
            lambda t: torch.where(t(x), t(x), t(x)),
            lambda t: aten.constant_pad_nd(t(x), [1], 0.0),
            lambda t: aten.constant_pad_nd(t(x), [1] * 8, 0.0),
            lambda t: aten.constant_pad_nd(t(x), [-3, -2, 1, 0], 0.0),
            lambda t: torch.arange(0, 5, 0, device=t.dev),
            lambda t: torch.arange(5, 0, 1, device=t.dev),
            lambda t: t(x).masked_fill(t(x), 1.0),
            lambda t: torch.where(t(x) > 0, t(x), t(x), out=t(torch.empty(0, dtype=torch.long))),
            lambda t: t(x).masked_fill(t(x) > 0, t(torch.ones(2))),
            lambda t: t(x).masked_fill(t(torch.ones(3, 1, 1, dtype=torch.bool)), 1.0),
        ]
        class On:
            def __init__(self, dev): self.dev = dev
            def __call__(self, v): return v.to(self.dev)
        for i, f in enumerate(calls):
            texts = []
            for dev in ("cpu", "diopi"):
                try:
                    f(On(dev))
                    texts.append(None)
                except Exception as e:
                    texts.append((type(e).__name__, str(e).splitlines()[0]))
            assert texts[0] is not None and texts[0] == texts[1], (i, texts)
        print("ok")
    """)


def test_an_eager_training_step_of_a_tiny_llama_runs_no_python_meta_kernel():
    # A model from the suite's registry, one forward and backward on the device: every result shape
    # comes from C++. (transformers itself imports torch._dynamo when it loads its model classes, so
    # the check watches the Python meta kernels and decompositions directly rather than sys.modules.)
    run("""
        import collections
        from diopi_torch.suite import models
        m, inp, spec = models.build_with_inputs("llama", device="cpu", small=True)
        m, inp = m.to("diopi"), {k: v.to("diopi") for k, v in inp.items()}
        meta_code = ("torch/_meta_registrations.py", "torch/_refs/", "torch/_prims/", "torch/_prims_common/", "torch/_decomp/")
        ran = collections.Counter()
        def watch(frame, event, arg):
            if event == "call" and any(p in frame.f_code.co_filename for p in meta_code):
                ran[frame.f_code.co_filename.rsplit("torch/", 1)[-1] + ":" + frame.f_code.co_name] += 1
        diopi_torch.reset_stats()
        sys.setprofile(watch)
        models.loss(m(**inp), inp).backward()
        sys.setprofile(None)
        assert not ran, f"Python meta kernels ran in an eager step: {dict(ran.most_common(10))}"
        st = diopi_torch.stats()
        assert st.get("embedding", {}).get("diopi", 0) >= 1 and st.get("where.self", {}).get("fallback", 0) == 0, st
        assert all(p.grad is not None for p in m.parameters() if p.requires_grad)
        print("ok")
    """)
