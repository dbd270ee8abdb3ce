"""The counted CPU fallback never turns a model that works on CUDA into an
error: an operator ATen hands to this device for which the CPU has no kernel
(or no kernel for the dtype) is computed another way (csrc/aten/decompose.cpp).

The walk: every ATen operator that can reach the device's boxed fallback
(no kernel of the device, no composite kernel that decomposes it first), has
no CPU kernel, and has a CUDA kernel (PyTorch's native_functions.yaml, which
torchgen ships) is a place where CUDA works and the fallback would fail.
Each such operator must be one ATen never gives to a non-CUDA tensor (listed
below, with the reason), or a gap named as such; anything new fails the test.
"""
import os
import subprocess
import sys
import textwrap

import pytest

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device


def run(code, **env):
    src = f"import torch, diopi_torch\ndiopi_torch.load({LIB!r})\n" + textwrap.dedent(code)
    proc = forked.run([sys.executable, "-c", src], capture_output=True, text=True, cwd=ROOT, timeout=600,
                      env={**os.environ, "DIOPI_IMPL_LIB": "", **env}, preload=forked.TORCH)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


# Operators ATen never gives to a tensor of this device, by the reason why.
NEVER_RECEIVED = {
    "kernels of a CUDA library (cuDNN, MIOpen, cuSPARSELt): ATen chooses them only for CUDA tensors": (
        "cudnn_", "_cudnn_", "miopen_", "_use_cudnn_ctc_loss", "_use_miopen_ctc_loss", "_cslt_",
        "_sparse_semi_structured_", "_to_sparse_semi_structured"),
    "fused attention kernels: chosen by _fused_sdp_choice, which answers MATH on this device": (
        "_flash_attention_", "_efficient_attention_", "_scaled_dot_product_flash_attention",
        "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention", "_cudnn_attention_",
        "_triton_scaled_dot_attention", "_triton_multi_head_attention", "_fill_mem_eff_dropout_mask_"),
    "CUDA's depthwise convolutions: this device's convolutions go to convolution_overrideable": (
        "_conv_depthwise2d", "conv_depthwise3d"),
    "the derivative of CUDA's _fused_rms_norm: on this device _fused_rms_norm decomposes (CompositeImplicitAutograd)": (
        "_fused_rms_norm_backward",),
}

# Operators a user or a library may call on this device that still fail, as on the CPU: known gaps.
NOT_YET = {
    "the legacy fused dropout pair (nn.Dropout uses native_dropout, which the device serves)": (
        "_fused_dropout", "_masked_scale"),
    "the key-based Philox generator API": ("_philox_",),
    "low-precision GEMMs of quantization libraries (torchao)": (
        "_weight_int4pack_mm", "_convert_weight_to_int4pack", "_mixed_dtypes_linear", "_scaled_grouped_mm"),
}


def _classify(name, table):
    base = name.split("::", 1)[1].split(".")[0]
    return next((why for why, prefixes in table.items() if any(base.startswith(p) for p in prefixes)), None)


def test_every_operator_the_fallback_can_receive_has_a_way_to_run():
    proc = run("""
        import json, os, yaml, torchgen
        C = torch._C
        has = C._dispatch_has_kernel_for_dispatch_key
        path = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native", "native_functions.yaml")
        cuda = {}
        entries = yaml.load(open(path), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        for e in entries:
            keys = {k.strip() for ks in (e.get("dispatch") or {}) for k in ks.split(",")}
            cuda[e["func"].split("(")[0]] = (keys, e.get("structured_delegate"))
        def on_cuda(name):
            keys, delegate = cuda.get(name[len("aten::"):], (set(), None))
            return "CUDA" in keys or (delegate is not None and "CUDA" in cuda.get(delegate, (set(), None))[0])
        reach = [n for n in C._dispatch_get_all_op_names() if n.startswith("aten::")
                 and not has(n, "PrivateUse1") and not any(has(n, k) for k in (
                     "CompositeImplicitAutograd", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"))]
        gaps = sorted(n for n in reach if not has(n, "CPU") and on_cuda(n))
        served = ["aten::" + n for n in ("_thnn_fused_lstm_cell", "_thnn_fused_lstm_cell_backward_impl", "_thnn_fused_gru_cell",
                                         "_thnn_fused_gru_cell_backward", "mm.dtype", "bmm.dtype", "addmm.dtype",
                                         "baddbmm.dtype", "record_stream", "histc", "batch_norm_stats",
                                         "batch_norm_elemt", "batch_norm_gather_stats_with_counts",
                                         "batch_norm_backward_reduce", "batch_norm_backward_elemt")]
        print(json.dumps({"reach": len(reach), "gaps": gaps, "served": {n: has(n, "PrivateUse1") for n in served}}))
        print("ok")
    """)
    import json
    found = json.loads(proc.stdout.strip().splitlines()[-2])
    assert found["reach"] > 100, found["reach"]            # the walk saw the operators that fall back
    assert all(found["served"].values()), found["served"]  # the device's own kernels for what the CPU lacks
    unexplained = [n for n in found["gaps"] if not _classify(n, NEVER_RECEIVED) and not _classify(n, NOT_YET)]
    assert not unexplained, "CUDA serves these, the CPU fallback cannot: " + ", ".join(unexplained)
    # every listed reason still names an operator (a stale entry hides nothing)
    for table in (NEVER_RECEIVED, NOT_YET):
        for why, prefixes in table.items():
            for p in prefixes:
                assert any(n.split("::", 1)[1].split(".")[0].startswith(p) for n in found["gaps"]), (why, p)


def test_recurrent_layers_and_cells_train_as_on_the_cpu():
    run("""
        torch.manual_seed(0)
        layers = [torch.nn.LSTM(4, 5, num_layers=2, bidirectional=True), torch.nn.GRU(4, 5, num_layers=2),
                  torch.nn.LSTM(4, 5, batch_first=True, proj_size=3), torch.nn.RNN(4, 5)]
        cells = [torch.nn.LSTMCell(4, 5), torch.nn.GRUCell(4, 5), torch.nn.LSTMCell(4, 5, bias=False), torch.nn.GRUCell(4, 5, bias=False)]
        x = torch.randn(3, 2, 4)
        diopi_torch.reset_stats()
        for m in layers + cells:
            d = __import__("copy").deepcopy(m).to("diopi")
            xin = x if m in layers else x[0]
            xd = xin.to("diopi").requires_grad_(); xc = xin.clone().requires_grad_()
            out_c, out_d = m(xc), d(xd)
            flat = lambda o: [t for t in (o if isinstance(o, tuple) else (o,)) for t in (t if isinstance(t, tuple) else (t,))]
            loss_c = sum((t * t).sum() for t in flat(out_c)); loss_d = sum((t * t).sum() for t in flat(out_d))
            loss_c.backward(); loss_d.backward()
            for a, b in zip(flat(out_c), flat(out_d)):
                assert torch.allclose(a, b.cpu(), atol=1e-5), (m, (a - b.cpu()).abs().max())
            assert torch.allclose(xc.grad, xd.grad.cpu(), atol=1e-5), m
            for (n, p), q in zip(m.named_parameters(), d.parameters()):
                assert torch.allclose(p.grad, q.grad.cpu(), atol=1e-5), (m, n, (p.grad - q.grad.cpu()).abs().max())
        # double backward takes ATen's differentiable cell formulas, as on CUDA
        cell = torch.nn.GRUCell(4, 5).to("diopi"); h = torch.randn(2, 5, device="diopi", requires_grad=True)
        g, = torch.autograd.grad(cell(x[0].to("diopi"), h).square().sum(), h, create_graph=True)
        g.sum().backward()
        assert h.grad is not None and torch.isfinite(h.grad.cpu()).all()
        st = diopi_torch.stats()
        for op in ("_thnn_fused_lstm_cell", "_thnn_fused_gru_cell", "_thnn_fused_lstm_cell_backward_impl", "_thnn_fused_gru_cell_backward"):
            assert st.get(op, {}).get("fallback", 0) == 0, (op, st.get(op))
        assert st["sigmoid"]["functions"] and st["tanh"]["functions"], st.get("sigmoid")   # the cell's pieces on DIOPI
        print("ok")
    """)


def test_integer_histc_counts_as_cuda_does():
    run("""
        torch.manual_seed(0)
        for dtype in (torch.int32, torch.int64, torch.uint8, torch.int16):
            v = torch.randint(0 if dtype == torch.uint8 else -3, 8, (200,)).to(dtype)
            d = v.to("diopi")
            # integer values in [min, max]: the same bins as the CPU's histc of the same numbers as floats
            for bins, lo, hi in ((8, 0, 7), (4, 0, 7), (3, 1, 5), (8, 0, 0), (11, 0, 0)):
                got = torch.histc(d, bins=bins, min=lo, max=hi)
                want = torch.histc(v.double(), bins=bins, min=lo, max=hi)
                assert got.device.type == "diopi" and got.dtype == dtype, (got.device, got.dtype)
                assert torch.equal(got.cpu(), want.to(dtype)), (dtype, bins, lo, hi, got.cpu(), want)
        out = torch.empty(0, dtype=torch.int32, device="diopi")
        torch.histc(torch.tensor([1, 1, 2], dtype=torch.int32, device="diopi"), bins=2, min=1, max=2, out=out)
        assert out.cpu().tolist() == [2, 1], out
        # integers are counted by the device's own operators: nothing fell back
        st = diopi_torch.stats()
        assert not {op: c["fallback"] for op, c in st.items() if c["fallback"]}, st
        assert any(fn.startswith("diopiIndexPut") for c in st.values() for fn in c["functions"]), st
        # a float histc still computes on the CPU, counted
        f = torch.histc(torch.tensor([0.5, 1.5, 1.7], device="diopi"), bins=2, min=0, max=2)
        assert f.cpu().tolist() == [1.0, 2.0]
        st = diopi_torch.stats()["histc"]
        assert st["fallback"] == 1 and len(st["reasons"]) == 1, st
        for bad, text in ((lambda: torch.histc(torch.tensor([1], device="diopi"), bins=0), "bins must be > 0"),
                          (lambda: torch.histc(torch.tensor([1], device="diopi"), bins=2, min=3, max=1), "max must be larger than min")):
            try:
                bad(); raise AssertionError("no error")
            except RuntimeError as e:
                assert text in str(e), e
        print("ok")
    """)


def test_products_with_an_output_dtype_and_record_stream():
    run("""
        torch.manual_seed(0)
        a, b = torch.randn(3, 4).bfloat16(), torch.randn(4, 5).bfloat16()
        r = torch.mm(a.to("diopi"), b.to("diopi"), out_dtype=torch.float32)
        assert r.dtype == torch.float32 and torch.allclose(r.cpu(), a.float() @ b.float(), atol=1e-5)
        ab, bb = torch.randn(2, 3, 4).half(), torch.randn(2, 4, 5).half()
        r = torch.bmm(ab.to("diopi"), bb.to("diopi"), out_dtype=torch.float32)
        assert r.dtype == torch.float32 and torch.allclose(r.cpu(), ab.float() @ bb.float(), atol=1e-4)
        c = torch.randn(3, 5)
        r = torch.addmm(c.to("diopi"), a.to("diopi"), b.to("diopi"), out_dtype=torch.float32, beta=0.5, alpha=2)
        assert torch.allclose(r.cpu(), 0.5 * c + 2 * (a.float() @ b.float()), atol=1e-4)
        try:
            torch.mm(a.to("diopi"), b.to("diopi"), out_dtype=torch.float16); raise AssertionError("no error")
        except RuntimeError as e:
            assert "out_dtype must be the same as input dtype or fp32 for fp16/bf16 inputs" in str(e), e
        x = torch.arange(4., device="diopi")
        s = torch.diopi.Stream()
        with torch.diopi.stream(s):
            y = x * 2
        x.record_stream(s)
        assert x.cpu().tolist() == [0., 1., 2., 3.] and y.cpu().tolist() == [0., 2., 4., 6.]
        print("ok")
    """)


def test_sync_batch_norm_kernels_match_batch_norm():
    # what nn.SyncBatchNorm does on each of two ranks, here two halves of one batch, against eager CPU batch norm
    run("""
        import torch.nn.functional as F
        torch.manual_seed(0)
        x, w, b, g = torch.randn(6, 3, 4, 5), torch.randn(3), torch.randn(3), torch.randn(6, 3, 4, 5)
        eps, momentum = 1e-5, 0.1
        rm, rv = torch.zeros(3), torch.ones(3)
        xc = x.clone().requires_grad_(); wc = w.clone().requires_grad_(); bc = b.clone().requires_grad_()
        ref = F.batch_norm(xc, rm, rv, wc, bc, training=True, momentum=momentum, eps=eps)
        ref.backward(g)
        d = lambda t: t.to("diopi")
        halves = [d(x[:2]), d(x[2:])]
        stats = [torch.batch_norm_stats(h, eps) for h in halves]
        counts = torch.tensor([2 * 4 * 5, 4 * 4 * 5], dtype=torch.float32, device="diopi")
        drm, drv = d(torch.zeros(3)), d(torch.ones(3))
        mean, invstd = torch.batch_norm_gather_stats_with_counts(
            halves[0], torch.stack([s[0] for s in stats]), torch.stack([s[1] for s in stats]), drm, drv, momentum, eps, counts)
        assert torch.allclose(drm.cpu(), rm, atol=1e-5) and torch.allclose(drv.cpu(), rv, atol=1e-5), (drm, rm, drv, rv)
        out = torch.cat([torch.batch_norm_elemt(h, d(w), d(b), mean, invstd, eps) for h in halves])
        assert torch.allclose(out.cpu(), ref.detach(), atol=1e-5)
        gh = [d(g[:2]), d(g[2:])]
        red = [torch.batch_norm_backward_reduce(gi, h, mean, invstd, d(w), True, True, True) for gi, h in zip(gh, halves)]
        sum_dy, sum_dy_xmu = red[0][0] + red[1][0], red[0][1] + red[1][1]
        assert torch.allclose((red[0][2] + red[1][2]).cpu(), wc.grad, atol=1e-4) and torch.allclose((red[0][3] + red[1][3]).cpu(), bc.grad, atol=1e-4)
        icounts = counts.to(torch.int32)
        grad_in = torch.cat([torch.batch_norm_backward_elemt(gi, h, mean, invstd, d(w), sum_dy, sum_dy_xmu, icounts)
                             for gi, h in zip(gh, halves)])
        assert torch.allclose(grad_in.cpu(), xc.grad, atol=1e-4), (grad_in.cpu() - xc.grad).abs().max()
        print("ok")
    """)


def test_a_16_bit_call_the_cpu_lacks_a_kernel_for_runs_widened_to_32_bits():
    run("""
        import torch.nn.functional as F
        g = torch.Generator().manual_seed(0)
        x = torch.randn(1, 2, 4, 4, 4, generator=g)
        scores, target = torch.randn(3, 5, generator=g), torch.tensor([0, 4, 2])
        multi = torch.tensor([[3, 0, -1, 1, 2], [1, -1, 0, 0, 0], [4, 2, 1, -1, 0]])
        a, b = torch.randn(3, 4, generator=g), torch.randn(5, 4, generator=g)
        x, scores, a, b = (t.half().float() for t in (x, scores, a, b))  # float16 values: widening them is exact
        cases = {"avg_pool3d.out": (lambda t: F.avg_pool3d(t, 2), (x,)),
                 "multi_margin_loss": (lambda s, t: F.multi_margin_loss(s, t, reduction="none"), (scores, target)),
                 "multilabel_margin_loss_forward": (lambda s, t: F.multilabel_margin_loss(s, t), (scores, multi)),
                 "_cdist_forward": (torch.cdist, (a, b))}
        diopi_torch.reset_stats()
        for name, (f, args) in cases.items():
            try:  # the CPU has no float16 kernel: without widening the device would raise this
                f(*[t.half() if t.is_floating_point() else t for t in args])
                raise AssertionError(name + " has a float16 CPU kernel now: pick another case")
            except NotImplementedError as e:
                assert "not implemented for 'Half'" in str(e), e
            # the CPU in float32 and cast back, as the device computes it
            want = f(*args).half()
            got = f(*[(t.half() if t.is_floating_point() else t).to("diopi") for t in args])
            assert got.dtype == torch.float16 and torch.equal(got.cpu(), want), (name, got, want)
        # out=: the result written (and resized) into the caller's float16 tensor
        out = torch.empty(0, dtype=torch.float16, device="diopi")
        r = torch.ops.aten.avg_pool3d.out(x.half().to("diopi"), [2, 2, 2], out=out)
        assert r is out and out.shape == (1, 2, 2, 2, 2) and torch.equal(out.cpu(), F.avg_pool3d(x, 2).half())
        # complex32 widens to complex64; angle's real result narrows to float16, the dtype CUDA gives
        c = torch.tensor([1 + 2j, 0.5 - 1j, 3j]).to(torch.complex32)
        got = c.to("diopi").angle()
        assert got.dtype == torch.float16 and torch.equal(got.cpu(), c.to(torch.complex64).angle().half()), got
        st = diopi_torch.stats()
        assert st["angle"]["reasons"] == {"widened to 32 bits (no mapping entry)": 1}, st["angle"]
        for name in cases:
            assert st[name]["reasons"] == {"widened to 32 bits (no mapping entry)": 1 + (name == "avg_pool3d.out")}, (name, st[name])
        # another error propagates as the CPU raises it: an integer dtype is not widened, nor is a bad shape
        for bad in (lambda d: F.multi_margin_loss(torch.ones(3, 5, dtype=torch.long, device=d), target.to(d)),
                    lambda d: F.avg_pool3d(torch.ones(1, 2, 1, 4, 4, dtype=torch.half, device=d), 2)):
            errors = []
            for d in ("cpu", "diopi"):
                try:
                    bad(d)
                except (RuntimeError, NotImplementedError) as e:
                    errors.append((type(e), str(e).splitlines()[0]))
            assert len(errors) == 2 and errors[0] == errors[1], errors
            assert "not implemented for 'Long'" in errors[0][1] or "smaller than kernel size" in errors[0][1], errors
        st = diopi_torch.stats()
        assert st["multi_margin_loss"]["reasons"]["no mapping entry"] == 1, st["multi_margin_loss"]
        print("ok")
    """)


def test_a_dtype_the_librarys_own_aten_lacks_falls_back_like_a_missing_kernel():
    # impl/torch computes with ATen; where ATen has no kernel for a dtype it answers diopiDtypeNotSupported (not an
    # ordinary error), so the device computes the call another way: widened, or raising the CPU's own error.
    if os.sep + os.path.join("build", "torch") + os.sep not in LIB:
        pytest.skip(f"impl/torch's answer for dtypes its ATen lacks; this run's library is {LIB}")
    run("""
        c = torch.tensor([1 + 2j, 0.5 - 1j, 3j]).to(torch.complex32)
        diopi_torch.reset_stats()
        for f in (torch.exp, torch.sum):
            got, want = f(c.to("diopi")), f(c.to(torch.complex64)).to(torch.complex32)
            # compared in complex64: the CPU has no complex32 equal either
            assert got.dtype == torch.complex32 and torch.equal(got.cpu().to(torch.complex64), want.to(torch.complex64)), (f, got, want)
        st = diopi_torch.stats()
        assert st["exp"]["reasons"] == {"widened to 32 bits (diopiExp returned diopiDtypeNotSupported)": 1}, st["exp"]
        u = torch.tensor([1, 2], dtype=torch.uint16)
        errors = []
        for t in (u, u.to("diopi")):
            try:
                t + t
            except NotImplementedError as e:
                errors.append(str(e).splitlines()[0])
        assert len(errors) == 2 and errors[0] == errors[1] and "not implemented for 'UInt16'" in errors[0], errors
        print("ok")
    """)
