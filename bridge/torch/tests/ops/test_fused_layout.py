"""The fused operators' plain implementations (what a step runs on the eager device) give their results the
layout their fake implementations promise: a graph traced with the fake strides may `view` a result where
only that layout allows it (a symbolic graph left on the eager device did, and crashed)."""
import torch

from diopi_torch.ops import fused  # noqa: F401  (registers torch.ops.diopi.*)
from torch._subclasses.fake_tensor import FakeTensorMode


def _fake_strides(op, *args):
    with FakeTensorMode(allow_non_fake_inputs=True) as mode:
        fargs = [mode.from_tensor(a) if isinstance(a, torch.Tensor) else a for a in args]
        out = op(*fargs)
    outs = out if isinstance(out, (tuple, list)) else [out]
    return [o.stride() for o in outs]


def _real_strides(op, *args):
    out = op(*args)
    outs = out if isinstance(out, (tuple, list)) else [out]
    return [o.stride() for o in outs]


def _transposed(b, s, h, d):
    # (b, h, s, d) seen through a transpose of a (b, s, h, d) buffer, as Llama's q/k after their projection
    return torch.randn(b, s, h, d).transpose(1, 2)


def test_rotary_on_a_transposed_input_keeps_its_layout():
    x = _transposed(2, 12, 4, 16)
    cos, sin = torch.randn(1, 1, 12, 8), torch.randn(1, 1, 12, 8)
    op = torch.ops.diopi.rotary_embedding.default
    real = _real_strides(op, x, cos, sin, False, False)
    assert real == _fake_strides(op, x, cos, sin, False, False)
    # the view the traced Llama graph makes of the transposed-back result
    y = op(x, cos, sin, False, False).transpose(1, 2).view(2, 12, 64)
    assert y.shape == (2, 12, 64)


def test_rms_norm_and_backward_on_a_transposed_input_keep_its_layout():
    x, w = _transposed(2, 5, 3, 8), torch.randn(8)
    op = torch.ops.diopi.rms_norm.default
    assert _real_strides(op, x, [8], w, 1e-6)[0] == _fake_strides(op, x, [8], w, 1e-6)[0]
    out, inv = op(x, [8], w, 1e-6)
    bop = torch.ops.diopi.rms_norm_backward.default
    g = torch.randn_like(x)
    assert _real_strides(bop, g, x, w, inv, [8], 1e-6) == _fake_strides(bop, g, x, w, inv, [8], 1e-6)


def test_attention_backward_gradients_take_the_inputs_layout():
    q, k, v = (torch.randn(2, 4, 6, 8).transpose(1, 2) for _ in range(3))  # (b, s, h, d) non-contiguous
    out, lse = torch.ops.diopi.flash_attention.default(q, k, v, 0.35, True)
    bop = torch.ops.diopi.flash_attention_backward.default
    args = (torch.randn_like(out), q, k, v, out, lse, 0.35, True)
    assert _real_strides(bop, *args) == _fake_strides(bop, *args)


def test_layout_fix_keeps_values():
    x = _transposed(2, 7, 2, 8)
    cos, sin = torch.randn(1, 1, 7, 4), torch.randn(1, 1, 7, 4)
    got = torch.ops.diopi.rotary_embedding.default(x, cos, sin, False, False)
    ref = torch.ops.diopi.rotary_embedding.default(x.contiguous(), cos, sin, False, False)
    torch.testing.assert_close(got, ref, rtol=0, atol=0)
