"""Eager scaled_dot_product_attention on the device: one diopiFlashAttention
call forward and one diopiFlashAttentionBackward call backward (their
customized relatives with a boolean mask or dropout) where the header's functions
compute the call (csrc/aten/attention.cpp), PyTorch's math path elsewhere;
both compared with eager CPU, outputs and gradients."""
import os
import sys
import textwrap

import pytest

import forked
from device_paths import CPU_LIB, LIB, ROOT

pytestmark = pytest.mark.needs_device

COMMON = """
import torch, torch.nn.functional as F

def attention(shape_q, heads_k, seq_k, dtype=torch.float32, **kw):
    b, hq, sq, d = shape_q
    g = torch.Generator().manual_seed(sq * 131 + heads_k)
    q = torch.randn(b, sq, hq, d, generator=g).to(dtype).transpose(1, 2)   # as models lay q out: heads after the sequence
    k = torch.randn(b, seq_k, heads_k, d, generator=g).to(dtype).transpose(1, 2)
    v = torch.randn(b, seq_k, heads_k, d, generator=g).to(dtype).transpose(1, 2)
    grad = torch.randn(b, hq, sq, d, generator=g).to(dtype)
    results = []
    for dev in ("cpu", "diopi"):
        leaves = [t.detach().to(dev).requires_grad_() for t in (q, k, v)]
        mask = kw.get("attn_mask")
        args = dict(kw, attn_mask=mask.to(dev)) if mask is not None else kw
        diopi_torch.reset_stats()
        out = F.scaled_dot_product_attention(*leaves, **args)
        out.backward(grad.to(dev))
        fns = {}
        for c in diopi_torch.stats().values():
            for fn, n in c["functions"].items():
                fns[fn] = fns.get(fn, 0) + n
        results.append((out, [t.grad for t in leaves], fns))
    (o, gs, _), (od, gds, fns) = results
    tol = 1e-5 if dtype == torch.float32 else 2e-2
    for want, got in zip([o] + gs, [od] + gds):
        assert got.device.type == "diopi" and got.shape == want.shape and got.dtype == want.dtype
        err = (got.cpu().float() - want.float()).abs().max().item()
        assert err <= tol * max(1.0, want.abs().max().item()), (shape_q, heads_k, seq_k, kw, err)
    return od, gds, fns
"""


def run(code, lib=LIB):
    src = f"import torch, diopi_torch\ndiopi_torch.load({lib!r})\n" + COMMON + textwrap.dedent(code)
    proc = forked.run([sys.executable, "-c", src], capture_output=True, text=True, cwd=ROOT, timeout=600,
                      env={**os.environ, "DIOPI_IMPL_LIB": ""}, preload=forked.TORCH)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), proc.stdout[-3000:] + proc.stderr[-3000:]


@pytest.mark.parametrize("lib", [LIB, CPU_LIB], ids=["impl-torch", "impl-cpu"])
def test_attention_is_one_call_each_way(lib):
    if not os.path.exists(lib):
        pytest.skip(f"{lib} is not built (scripts/build_impl.sh)")
    run("""
        cases = [((2, 4, 8, 16), 4, 8, {}), ((2, 4, 8, 16), 4, 8, {"is_causal": True}),
                 ((2, 4, 8, 16), 2, 8, {"is_causal": True, "enable_gqa": True}),  # grouped-query attention
                 ((2, 4, 5, 16), 4, 9, {}), ((1, 2, 6, 8), 2, 6, {"scale": 0.3}), ((1, 2, 1, 8), 2, 7, {})]
        for shape_q, hk, sk, kw in cases:
            out, grads, fns = attention(shape_q, hk, sk, **kw)
            assert fns.get("diopiFlashAttention") == 1 and fns.get("diopiFlashAttentionBackward") == 1, (kw, fns)
            assert not any(f in fns for f in ("diopiSoftmax", "diopiBmm", "diopiMatmul")), (kw, fns)
            # laid out as the query (a model's q: heads after the sequence), gradients as their inputs
            assert out.stride() == (shape_q[2] * shape_q[1] * shape_q[3], shape_q[3], shape_q[1] * shape_q[3], 1), out.stride()
        out, grads, fns = attention((2, 4, 8, 16), 4, 8, dtype=torch.bfloat16, is_causal=True)
        assert fns.get("diopiFlashAttention") == 1, fns
        # a boolean mask (True: the pair takes part): the header's customized flash attention, whose mask marks
        # the pairs left out; a query row with every key masked gets zeros, as PyTorch's math path gives
        g = torch.Generator().manual_seed(5)
        for shape_q, hk, sk, shape_m, kw in [((2, 4, 8, 16), 4, 8, (8, 8), {}), ((2, 4, 8, 16), 4, 8, (2, 1, 1, 8), {}),
                                             ((2, 4, 8, 16), 2, 8, (2, 1, 8, 8), {"enable_gqa": True}),
                                             ((2, 4, 5, 16), 4, 9, (5, 9), {}), ((1, 2, 6, 8), 2, 6, (6, 6), {"fully_masked_row": 2})]:
            mask = torch.rand(*shape_m, generator=g) > 0.4
            mask[..., 0] = True
            if kw.pop("fully_masked_row", None) is not None:
                mask[2] = False
            out, grads, fns = attention(shape_q, hk, sk, attn_mask=mask, **kw)
            assert fns.get("diopiCustomizedFlashAttention") == 1 and fns.get("diopiCustomizedFlashAttentionBackward") == 1, fns
            assert "diopiSoftmax" not in fns and "diopiFlashAttention" not in fns, fns
        print("ok")
    """, lib)


def test_attention_outside_the_header_takes_the_math_path():
    run("""
        for shape_q, hk, sk, kw in [((2, 4, 8, 16), 4, 8, {"attn_mask": torch.randn(8, 8)}),  # additive: no header function
                                    ((2, 4, 5, 16), 4, 8, {"is_causal": True}),  # ATen's causal mask is top-left aligned, DIOPI's bottom-right
                                    ((2, 4, 8, 16), 2, 8, {})]:  # fewer key heads without enable_gqa: the math path's error
            try:
                out, grads, fns = attention(shape_q, hk, sk, **kw)
            except RuntimeError as e:
                assert hk != shape_q[1] and "enable_gqa" not in kw, e
                continue
            assert "diopiFlashAttention" not in fns and fns.get("diopiSoftmax") == 1, (kw, fns)
        # the fused kernels turned off as on CUDA
        from torch.nn.attention import SDPBackend, sdpa_kernel
        with sdpa_kernel([SDPBackend.MATH]):
            out, grads, fns = attention((2, 4, 8, 16), 4, 8, is_causal=True)
        assert "diopiFlashAttention" not in fns and fns.get("diopiSoftmax") == 1, fns
        # dropout with ATen's additive mask: the math path (its random numbers are not the CPU's: only where calls go is compared)
        q = torch.randn(2, 4, 8, 8, device="diopi", requires_grad=True)
        diopi_torch.reset_stats()
        F.scaled_dot_product_attention(q, q, q, attn_mask=torch.randn(8, 8, device="diopi"), dropout_p=0.5).sum().backward()
        fns = {fn for c in diopi_torch.stats().values() for fn in c["functions"]}
        assert "diopiCustomizedFlashAttention" not in fns and "diopiDropout" in fns, fns
        print("ok")
    """)


def test_attention_named_to_the_cpu_is_computed_there():
    run("""
        names = ["diopiFlashAttention", "diopiFlashAttentionBackward", "diopiCustomizedFlashAttention",
                 "diopiCustomizedFlashAttentionBackward"]
        mask = torch.rand(8, 8, generator=torch.Generator().manual_seed(2)) > 0.4
        mask[:, 0] = True
        for kw in ({"is_causal": True}, {"attn_mask": mask}):
            with diopi_torch.fallback(ops=names):
                out, grads, fns = attention((2, 4, 8, 16), 4, 8, **kw)
            st = diopi_torch.stats()
            assert not any(n in fns for n in names), fns
            assert st["_scaled_dot_product_fused_attention_overrideable"]["fallback"] == 1, st
            assert st["_scaled_dot_product_fused_attention_overrideable_backward"]["fallback"] == 1, st
        print("ok")
    """)


# Dropout draws its own random numbers, so the device is compared with the CPU through the mask it drew: the same seed
# gives the same draw, so attention over identity values returns the dropped probabilities themselves (zero where a
# probability was dropped), and the step's output and gradients must be the math path's for that keep mask.
DROPOUT = """
    B, H, S, pd = 2, 3, 8, 0.3
    g = torch.Generator().manual_seed(0)
    q, k, v, w = (torch.randn(B, H, S, S, generator=g) for _ in range(4))
    bool_mask = torch.rand(B, 1, S, S, generator=g) > 0.2
    eye = torch.eye(S).expand(B, H, S, S).contiguous()
    names = ["diopiCustomizedFlashAttention", "diopiCustomizedFlashAttentionBackward"]
    for named in (False, True):
        for kw in ({}, {"attn_mask": bool_mask}, {"is_causal": True}):
            dkw = dict(kw, attn_mask=kw["attn_mask"].to("diopi")) if "attn_mask" in kw else kw
            with diopi_torch.fallback(ops=names if named else []):
                torch.manual_seed(5)
                dropped = F.scaled_dot_product_attention(q.to("diopi"), k.to("diopi"), eye.to("diopi"), dropout_p=pd, **dkw).cpu()
                torch.manual_seed(5)
                leaves = [t.to("diopi").requires_grad_() for t in (q, k, v)]
                diopi_torch.reset_stats()
                out = F.scaled_dot_product_attention(*leaves, dropout_p=pd, **dkw)
                (out * w.to("diopi")).sum().backward()
            fns = {fn: n for c in diopi_torch.stats().values() for fn, n in c["functions"].items()}
            if named:
                assert not any(n in fns for n in names), fns
            else:
                assert fns.get("diopiCustomizedFlashAttention") == 1 and fns.get("diopiCustomizedFlashAttentionBackward") == 1, fns
                assert "diopiSoftmax" not in fns and "diopiDropout" not in fns, fns
            keep = dropped != 0
            kept = keep.float().mean().item()
            assert 0.25 < kept < 0.8, (kw, kept)  # some dropped, some kept
            ref_leaves = [t.clone().requires_grad_() for t in (q, k, v)]
            scores = ref_leaves[0] @ ref_leaves[1].transpose(-1, -2) / S ** 0.5
            if "attn_mask" in kw:
                scores = scores.masked_fill(~bool_mask, float("-inf"))
            if kw.get("is_causal"):
                scores = scores.masked_fill(~torch.ones(S, S, dtype=torch.bool).tril(), float("-inf"))
            ref = (torch.softmax(scores, -1) * keep / (1 - pd)) @ ref_leaves[2]
            (ref * w).sum().backward()
            for got, want in zip([out] + [t.grad for t in leaves], [ref] + [t.grad for t in ref_leaves]):
                err = (got.detach().cpu() - want.detach()).abs().max().item()
                assert err < 1e-5, (named, kw, err)
    print("ok")
"""


@pytest.mark.parametrize("lib", [LIB, CPU_LIB], ids=["impl-torch", "impl-cpu"])
def test_attention_with_dropout_is_one_call_each_way_and_the_backward_uses_the_forwards_mask(lib):
    if not os.path.exists(lib):
        pytest.skip(f"{lib} is not built (scripts/build_impl.sh)")
    run(DROPOUT, lib)


def test_autocompare_judges_attention_with_a_mask_or_dropout():
    # Its CPU reference of the backward is written out (autograd records nothing inside a dispatch mode), and with
    # dropout it is computed with the keep mask the forward drew.
    run("""
        from diopi_torch.tools.autocompare import AutoCompare
        g = torch.Generator().manual_seed(4)
        for kw in ({"dropout_p": 0.3}, {"dropout_p": 0.3, "is_causal": True}, {"attn_mask": torch.rand(2, 1, 8, 8, generator=g) > 0.2},
                   {"attn_mask": torch.rand(2, 1, 8, 8, generator=g) > 0.2, "dropout_p": 0.3}):
            q, k, v = (torch.randn(2, 4, 8, 16, generator=g).to("diopi").requires_grad_() for _ in range(3))
            kw = dict(kw, attn_mask=kw["attn_mask"].to("diopi")) if "attn_mask" in kw else kw
            import tempfile
            with AutoCompare(torch.nn.Linear(2, 2), "attention", 1e-5, out_dir=tempfile.mkdtemp()) as ac:
                F.scaled_dot_product_attention(q, k, v, **kw).sum().backward()
            assert ac.first is None and ac.compared >= 3, (kw, ac.first, ac.compared)
        print("ok")
    """, CPU_LIB)
