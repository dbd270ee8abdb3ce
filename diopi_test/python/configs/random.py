"""Random sampling. No value baselines: each case lists property checks
(support, moments on large samples, permutation validity, dropout scaling)
and run_test also requires the same seed to reproduce the same bits."""
import math

from conformance.gen import randn, uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT, Op, T

BIG = 200_000          # large enough for tight moment bounds; runs in float32 only
SHAPES = (((BIG,),), ((3, 4),), ((),), ((0, 5),))
_LAYOUT_REASON = "outputs only: nothing to lay out differently"


def _n(t):
    return t.numel()


def _moments(name, t, mean, std):
    return [{"check": "moments", "output": name, "mean": mean, "std": std}] if _n(t) >= 10_000 else []


def _uniform_checks(inout, **kw):
    lo, hi = kw["from"], kw["to"]
    half = inout.dtype in (torch.float16, torch.bfloat16)   # rounding may reach the upper bound
    return [{"check": "range", "output": "inout", "lo": lo, "hi": hi, "hi_inclusive": half}] + \
        _moments("inout", inout, (lo + hi) / 2, (hi - lo) / math.sqrt(12))


uniform_inp = Op("diopiUniformInp", lambda inout: inout, tensors=dict(inout=T()), shapes=SHAPES, dtypes=FLOAT,
                 params=({"from": -2.0, "to": 3.0}, {"from": 0.0, "to": 1.0}), checks=_uniform_checks)


def _normal_checks(out=None, inout=None, mean=0.0, std=1.0):
    name, t = ("out", out) if out is not None else ("inout", inout)
    return _moments(name, t, mean, std) + [{"check": "range", "output": name, "lo": -math.inf, "hi": math.inf}]


normal = Op("diopiNormal", lambda out: out, tensors=dict(out=T()), shapes=SHAPES, dtypes=FLOAT,
            params=({"mean": 0.0, "std": 1.0}, {"mean": 3.0, "std": 0.5}), checks=_normal_checks)
normal_inp = Op("diopiNormalInp", lambda inout: inout, tensors=dict(inout=T()), shapes=SHAPES, dtypes=FLOAT,
                params=({"mean": -1.0, "std": 2.0},), checks=_normal_checks)


def _standardized(mean, std):
    return lambda **kw: [{"check": "standardized", "output": "out", "mean": mean, "std": std}]


TENSOR_SHAPES = (((BIG,), (BIG,)), ((3, 4), (3, 4)), ((2, 3), (3,)))
normal_tensor = Op("diopiNormalTensor", lambda mean, std: torch.empty(torch.broadcast_shapes(mean.shape, std.shape), dtype=mean.dtype),
                   tensors=dict(mean=T(randn(scale=3)), std=T(uniform(0.5, 2.0))), shapes=TENSOR_SHAPES, dtypes=FLOAT,
                   checks=_standardized("$in:mean", "$in:std"))
normal_tensor_scalar = Op("diopiNormalTensorScalar", lambda mean: torch.empty_like(mean),
                          tensors=dict(mean=T(randn(scale=3))), shapes=(((BIG,),), ((3, 4),)), dtypes=FLOAT,
                          params=({"std": 0.5},), checks=lambda std, **kw: [{"check": "standardized", "output": "out", "mean": "$in:mean", "std": std}])
normal_scalar_tensor = Op("diopiNormalScalarTensor", lambda std: torch.empty_like(std),
                          tensors=dict(std=T(uniform(0.5, 2.0))), shapes=(((BIG,),), ((3, 4),)), dtypes=FLOAT,
                          params=({"mean": 1.5},), checks=lambda mean, **kw: [{"check": "standardized", "output": "out", "mean": mean, "std": "$in:std"}])

bernoulli = Op("diopiBernoulli", lambda input: torch.empty_like(input), tensors=dict(input=T(uniform(0.0, 1.0))),
               shapes=SHAPES, dtypes=FLOAT, checks=lambda **kw: [{"check": "bernoulli", "output": "out", "p": "$in:input"}])
bernoulli_inp = Op("diopiBernoulliInp", lambda inout: inout, tensors=dict(inout=T(uniform(0.0, 1.0))),
                   shapes=SHAPES, dtypes=FLOAT, checks=lambda **kw: [{"check": "bernoulli", "output": "inout", "p": "$in:inout"}])
bernoulli_scalar = Op("diopiBernoulliScalar", lambda out: out, tensors=dict(out=T()), shapes=SHAPES, dtypes=FLOAT,
                      params=({"p": 0.3}, {"p": 0.0}, {"p": 1.0}), checks=lambda p, **kw: [{"check": "bernoulli", "output": "out", "p": p}])


def _random_checks(inout, **kw):
    lo, hi = kw["from"], kw.get("to")
    if hi is None:  # up to the largest value the dtype holds exactly
        hi = {torch.float16: 2 ** 11, torch.bfloat16: 2 ** 8, torch.float32: 2 ** 24, torch.float64: 2 ** 53,
              torch.int64: 2 ** 63 - 1, torch.int32: 2 ** 31 - 1, torch.int16: 2 ** 15 - 1, torch.int8: 2 ** 7 - 1,
              torch.uint8: 2 ** 8 - 1, torch.bool: 1}[inout.dtype]
        return [{"check": "range", "output": "inout", "lo": lo, "hi": hi, "hi_inclusive": True}]
    return [{"check": "range", "output": "inout", "lo": lo, "hi": hi},
            {"check": "values_in", "output": "inout", "values": list(range(lo, hi))}] if hi - lo <= 64 else \
        [{"check": "range", "output": "inout", "lo": lo, "hi": hi}]


random_inp = Op("diopiRandomInp", lambda inout: inout, tensors=dict(inout=T()), shapes=SHAPES,
                dtypes=FLOAT + ("int64", "int32", "int16", "int8"),
                params=({"from": 0, "to": 10}, {"from": -5, "to": 5}, {"from": 0, "to": None}), checks=_random_checks)
random_inp_unsigned = Op("diopiRandomInp", lambda inout: inout, tensors=dict(inout=T()), shapes=SHAPES[1:], dtypes=("uint8", "bool"),
                         params=({"from": 0, "to": 2}, {"from": 0, "to": None}), checks=_random_checks)

randperm = Op("diopiRandperm", lambda out, n: torch.randperm(n, dtype=out.dtype), tensors=dict(out=T()),
              cases=((((n,),), {"n": n}) for n in (0, 1, 7, 1000, 100_000)), dtypes=("int64", "int32"),
              large_dtypes=("int64",), checks=lambda n, **kw: [{"check": "permutation", "output": "out", "n": n}],
              layouts=("contiguous",), layout_reason=_LAYOUT_REASON)


def _dropout_checks(p, train, input, **kw):
    if not train or p == 0.0:
        return [{"check": "dropout", "output": "out", "input": "$in:input", "p": 0.0, "mask": "$out:mask"}]
    return [{"check": "dropout", "output": "out", "input": "$in:input", "p": p, "mask": "$out:mask"}]


dropout = Op("diopiDropout", lambda input: (torch.empty_like(input), torch.empty(input.shape, dtype=torch.bool)),
             tensors=dict(input=T(uniform(0.5, 2.0))), shapes=SHAPES, dtypes=FLOAT,
             params=({"p": 0.3, "train": True}, {"p": 0.5, "train": False}, {"p": 1.0, "train": True}), checks=_dropout_checks)
dropout_inp = Op("diopiDropoutInp", lambda input: (input, torch.empty(input.shape, dtype=torch.bool)),
                 tensors=dict(input=T(uniform(0.5, 2.0))), shapes=SHAPES, dtypes=FLOAT,
                 params=({"p": 0.3, "train": True}, {"p": 0.5, "train": False}),
                 checks=lambda p, train, **kw: [{"check": "dropout", "output": "input", "input": "$in:input",
                                                 "p": p if train else 0.0, "mask": "$out:mask"}])

multinomial = Op("diopiMultinomial", lambda input, num_samples, replacement: torch.multinomial(input, num_samples, replacement),
                 tensors=dict(input=T(uniform(0.0, 1.0))),
                 cases=((((8,),), {"num_samples": 5, "replacement": False}), (((4, 10),), {"num_samples": 10, "replacement": False}),
                        (((3, 6),), {"num_samples": 20, "replacement": True})),
                 dtypes=("float32", "float64"),
                 checks=lambda replacement, **kw: [{"check": "multinomial", "output": "out", "input": "$in:input", "replacement": replacement}])
