"""Activations: relu, sigmoid, hardtanh, hardswish, threshold, gelu, leaky_relu, silu (forward, in place,
backward) and the tanh/sigmoid backward from the saved output.

diopiTanh and diopiTanhInp are covered by configs/elementwise_unary.py.

Backward references: autograd in float64 at the given input, cast to the case dtype. Backward functions
that receive the forward's output (tanh, sigmoid) are defined on that output, so their reference applies
the derivative formula to the given (rounded) output in float64.
"""
import inspect

from conformance.gen import randn, special
from conformance.reftorch import torch, F
from conformance.spec import FLOAT, Op, T, grid

SHAPES = (((2, 3),), ((),), ((0, 3),), ((2, 8, 7, 7),), ((1024, 1024),))  # relu and sigmoid: one 1M-element case each
SMALL = SHAPES[:4]
# The other functions: one case above LARGE_ELEMENTS (float32 only) to cross ATen's parallel grain.
MEDIUM = SMALL + (((256, 300),),)
SPECIAL = (((64,),),)


def _twice(shapes):
    """(grad_output, input) shape pairs of a backward case."""
    return tuple((s[0], s[0]) for s in shapes)


def _grad(fn):
    """Reference backward: autograd of fn(x, **params) at `input`, seeded with grad_output."""
    names = list(inspect.signature(fn).parameters)[1:]

    def ref(grad_output, input, **params):
        x = input.detach().double().requires_grad_(True)
        y = fn(x, **{k: params[k] for k in names})
        (g,) = torch.autograd.grad(y, x, grad_output.double())
        return g.to(input.dtype)
    return ref


# ---- relu
relu = Op("diopiRelu", lambda input: torch.relu(input), tensors=dict(input=T()), shapes=SHAPES, dtypes=FLOAT + ("int32", "int64", "int8", "uint8"))
relu_special = Op("diopiRelu", lambda input: torch.relu(input), tensors=dict(input=T(special())), shapes=(((64,),),), dtypes=FLOAT, name="relu_special")
relu_inp = Op("diopiReluInp", lambda input: input.relu_(), tensors=dict(input=T()), shapes=SHAPES[:4], dtypes=FLOAT)

# ---- sigmoid
sigmoid = Op("diopiSigmoid", lambda input: torch.sigmoid(input), tensors=dict(input=T(randn(scale=4))), shapes=SHAPES, dtypes=FLOAT)
sigmoid_special = Op("diopiSigmoid", lambda input: torch.sigmoid(input), tensors=dict(input=T(special())), shapes=SPECIAL, dtypes=FLOAT,
                     name="sigmoid_special")
sigmoid_inp = Op("diopiSigmoidInp", lambda input: input.sigmoid_(), tensors=dict(input=T(randn(scale=4))), shapes=SHAPES[:4], dtypes=FLOAT)


def _saved(fn):
    """prepare: the forward's output at a generated `x`, rounded to the case dtype."""
    return lambda x: {"output": fn(x.double()).to(x.dtype)}


sigmoid_backward = Op(
    "diopiSigmoidBackward", lambda grad_output, output: (grad_output.double() * output.double() * (1 - output.double())).to(output.dtype),
    tensors=dict(grad_output=T(), x=T(randn(scale=3))), extra=("x",), prepare=_saved(torch.sigmoid),
    shapes=_twice(MEDIUM), dtypes=FLOAT)

# ---- tanh (backward only; forward in elementwise_unary)
tanh_backward = Op(
    "diopiTanhBackward", lambda grad_output, output: (grad_output.double() * (1 - output.double() ** 2)).to(output.dtype),
    tensors=dict(grad_output=T(), x=T(randn(scale=2))), extra=("x",), prepare=_saved(torch.tanh),
    shapes=_twice(MEDIUM), dtypes=FLOAT)

# ---- hardtanh
HARDTANH = ({"min_val": -1.0, "max_val": 1.0}, {"min_val": -0.5, "max_val": 2.0}, {"min_val": 0.0, "max_val": 6.0})
hardtanh = Op("diopiHardtanh", lambda input, min_val, max_val: F.hardtanh(input, min_val, max_val), tensors=dict(input=T(randn(scale=3))),
              shapes=MEDIUM, params=HARDTANH, dtypes=FLOAT)
hardtanh_int_bounds = Op("diopiHardtanh", lambda input, min_val, max_val: F.hardtanh(input, min_val, max_val),
                         tensors=dict(input=T(randn(scale=3))), shapes=SMALL[:1], params=({"min_val": -2, "max_val": 3},),
                         dtypes=FLOAT, name="hardtanh_int_bounds")
hardtanh_special = Op("diopiHardtanh", lambda input, min_val, max_val: F.hardtanh(input, min_val, max_val), tensors=dict(input=T(special())),
                      shapes=SPECIAL, params=HARDTANH[:1], dtypes=FLOAT, name="hardtanh_special")
hardtanh_inp = Op("diopiHardtanhInp", lambda input, min_val, max_val: F.hardtanh_(input, min_val, max_val), tensors=dict(input=T(randn(scale=3))),
                  shapes=SMALL, params=HARDTANH[:2], dtypes=FLOAT)
hardtanh_backward = Op("diopiHardtanhBackward", _grad(lambda x, min_val, max_val: F.hardtanh(x, min_val, max_val)),
                       tensors=dict(grad_output=T(), input=T(randn(scale=3))), shapes=_twice(MEDIUM), params=HARDTANH, dtypes=FLOAT)

# ---- hardswish: x * relu6(x + 3) / 6
hardswish = Op("diopiHardswish", lambda input: F.hardswish(input), tensors=dict(input=T(randn(scale=4))), shapes=MEDIUM, dtypes=FLOAT)
hardswish_special = Op("diopiHardswish", lambda input: F.hardswish(input), tensors=dict(input=T(special())), shapes=SPECIAL, dtypes=FLOAT,
                       name="hardswish_special")
hardswish_inp = Op("diopiHardswishInp", lambda input: F.hardswish(input, inplace=True), tensors=dict(input=T(randn(scale=4))), shapes=SMALL,
                   dtypes=FLOAT)
hardswish_backward = Op("diopiHardswishBackward", _grad(lambda x: F.hardswish(x)), tensors=dict(grad_output=T(), input=T(randn(scale=4))),
                        shapes=_twice(MEDIUM), dtypes=FLOAT)

# ---- threshold: x > threshold ? x : value
THRESHOLD = ({"threshold": 0.0, "value": 0.0}, {"threshold": 0.5, "value": -1.0}, {"threshold": -1.0, "value": 2.0})
threshold = Op("diopiThreshold", lambda input, threshold, value: F.threshold(input, threshold, value), tensors=dict(input=T(randn(scale=2))),
               shapes=MEDIUM, params=THRESHOLD, dtypes=FLOAT)
threshold_special = Op("diopiThreshold", lambda input, threshold, value: F.threshold(input, threshold, value), tensors=dict(input=T(special())),
                       shapes=SPECIAL, params=THRESHOLD[1:2], dtypes=FLOAT, name="threshold_special")
threshold_inp = Op("diopiThresholdInp", lambda input, threshold, value: F.threshold_(input, threshold, value),
                   tensors=dict(input=T(randn(scale=2))), shapes=SMALL, params=THRESHOLD[:2], dtypes=FLOAT)
threshold_backward = Op("diopiThresholdBackward", _grad(lambda x, threshold: F.threshold(x, threshold, 0.0)),
                        tensors=dict(grad_output=T(), input=T(randn(scale=2))), shapes=_twice(MEDIUM),
                        params=tuple({"threshold": p["threshold"]} for p in THRESHOLD), dtypes=FLOAT)

# ---- gelu: exact erf form or the tanh approximation
GELU = grid(approximate=["none", "tanh"])
gelu = Op("diopiGelu", lambda input, approximate: F.gelu(input, approximate=approximate), tensors=dict(input=T(randn(scale=3))),
          shapes=MEDIUM, params=GELU, dtypes=FLOAT)
# gelu(+inf) = +inf and gelu(-inf) = NaN (inf * 0), as float64 evaluates them (ATen's vectorised float32 erf path
# gives NaN at +inf, so the reference is computed in float64).
gelu_special = Op("diopiGelu", lambda input, approximate: F.gelu(input.double(), approximate=approximate).to(input.dtype),
                  tensors=dict(input=T(special())),
                  shapes=SPECIAL, params=GELU, dtypes=FLOAT, name="gelu_special")
gelu_backward = Op("diopiGeluBackward", _grad(lambda x, approximate: F.gelu(x, approximate=approximate)),
                   tensors=dict(grad_output=T(), input=T(randn(scale=3))), shapes=_twice(MEDIUM), params=GELU, dtypes=FLOAT)

# ---- leaky_relu
SLOPES = grid(negative_slope=[0.01, 0.2, -0.5])
leaky_relu = Op("diopiLeakyRelu", lambda input, negative_slope: F.leaky_relu(input, negative_slope), tensors=dict(input=T()),
                shapes=MEDIUM, params=SLOPES, dtypes=FLOAT)
leaky_relu_special = Op("diopiLeakyRelu", lambda input, negative_slope: F.leaky_relu(input, negative_slope), tensors=dict(input=T(special())),
                        shapes=SPECIAL, params=SLOPES[:1], dtypes=FLOAT, name="leaky_relu_special")
leaky_relu_inp = Op("diopiLeakyReluInp", lambda input, negative_slope: F.leaky_relu_(input, negative_slope), tensors=dict(input=T()),
                    shapes=SMALL, params=SLOPES[:2], dtypes=FLOAT)
leaky_relu_backward = Op("diopiLeakyReluBackward", _grad(lambda x, negative_slope: F.leaky_relu(x, negative_slope)),
                         tensors=dict(grad_output=T(), input=T()), shapes=_twice(MEDIUM),
                         params=tuple(dict(p, input_is_result=False) for p in SLOPES), dtypes=FLOAT)


def _leaky_from_result(grad_output, x, negative_slope):
    """input_is_result: the case passes the forward's output; the gradient is still taken at x."""
    return _grad(lambda t, negative_slope: F.leaky_relu(t, negative_slope))(grad_output, x, negative_slope=negative_slope)


leaky_relu_backward_result = Op(
    "diopiLeakyReluBackward", _leaky_from_result, tensors=dict(grad_output=T(), x=T()), extra=("x",),
    prepare=lambda x, negative_slope: {"input": F.leaky_relu(x.double(), negative_slope).to(x.dtype)},
    shapes=_twice(SMALL), params=tuple({"negative_slope": s, "input_is_result": True} for s in (0.01, 0.2)), dtypes=FLOAT,
    name="leaky_relu_backward_result")

# ---- silu: x * sigmoid(x)
silu = Op("diopiSilu", lambda input: F.silu(input), tensors=dict(input=T(randn(scale=3))), shapes=MEDIUM, dtypes=FLOAT)
silu_special = Op("diopiSilu", lambda input: F.silu(input), tensors=dict(input=T(special())), shapes=SPECIAL, dtypes=FLOAT, name="silu_special")
silu_inp = Op("diopiSiluInp", lambda input: F.silu(input, inplace=True), tensors=dict(input=T(randn(scale=3))), shapes=SMALL, dtypes=FLOAT)
silu_backward = Op("diopiSiluBackward", _grad(lambda x: F.silu(x)), tensors=dict(grad_output=T(), input=T(randn(scale=3))),
                   shapes=_twice(MEDIUM), dtypes=FLOAT)
