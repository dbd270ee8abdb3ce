"""Fused matmul + all-reduce on a communicator of one rank.

The harness runs a single process, so the communication group has one member and the all-reduce is the identity:
out = x1 @ x2 (+ bias). The reference is float64 math cast once. `group` is "", which the header defines as a world
of one rank. The same function over a real communicator of several ranks is checked by the collective conformance
(`main.py --mode collective`, configs/collective.py).
"""
from conformance.gen import randn
from conformance.spec import FLOAT, Op, T


def _prepare(bias, has_bias):
    return {"bias": bias if has_bias else None}


def _ref(x1, x2, bias):
    y = x1.double() @ x2.double()
    if bias is not None:
        y = y + bias.double()
    return y.to(x1.dtype)


# (x1, x2, bias): 2-D, batched 3-D, a single row, K = 1, an empty M, a long K
_SHAPES = (((4, 8), (8, 5), (5,)), ((2, 3, 16), (16, 7), (7,)), ((1, 32), (32, 3), (3,)), ((6, 1), (1, 4), (4,)), ((0, 8), (8, 5), (5,)),
           ((3, 256), (256, 6), (6,)), ((2, 64, 128), (128, 96), (96,)), ((16, 65536), (65536, 8), (8,)))

matmul_all_reduce = Op(
    "diopiMatmulAllReduce", _ref, tensors=dict(x1=T(), x2=T(), bias=T(randn(0.5))),
    cases=tuple((s, dict(group="", reduce_op="sum", comm_turn=0, stream_mode=m, has_bias=b))
                for s in _SHAPES for b, m in ((True, 0), (False, 1))),
    prepare=_prepare, extra=("has_bias",), dtypes=FLOAT, accumulation=lambda x1: x1.shape[-1])
