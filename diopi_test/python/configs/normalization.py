"""Normalization: batch norm (with the synchronized batch norm pieces: stats, gather with counts, elemt, backward
reduce, backward elemt), layer norm (normalized_shape and begin_norm_axis forms), group norm, instance norm and Lp
normalize; forward and backward.

References work in float64 and round once to the case dtype. A backward that takes saved statistics (mean, rstd,
save_invstd ...) gets those the forward gives - rstd is always 1/sqrt(var + eps), the convention of DIOPI 1.0, also
where the parameter is named running_var / running_std - computed by `prepare` in float64 and rounded to the case
dtype as a forward in that dtype would store them; layer and group norm references evaluate the backward at exactly
those statistics (ATen's float64 backward kernels). Other backward references are autograd in float64 at the given
inputs, seeded with grad_output. Tolerances scale with the number of elements behind each statistic (`accumulation`).
"""
import math

from conformance.gen import randint, randn, uniform
from conformance.reftorch import torch, F
from conformance.spec import Op, T

HALF_UP = ("float16", "float32", "float64")   # the header's dtypes for group / instance norm
HALF_BF_UP = HALF_UP + ("bfloat16",)           # batch and layer norm, forward and backward
F32_64 = ("float32", "float64")               # synchronized batch norm pieces
EPS = 1e-5
POS = uniform(0.5, 2.0)                       # variances, inverse stds, counts
X = randn(scale=2.0, shift=0.5)               # inputs: a mean and a spread away from 0 and 1


def _d(t):
    return None if t is None else t.detach().double()


def _cast(ts, like):
    return tuple(None if t is None else t.to(like.dtype) for t in ts)


def _autograd(fn, grad_output, wrt, **kw):
    """Gradients of fn(**kw) (float64) with respect to the named arguments; None for an argument that is None."""
    args = {k: (_d(v) if isinstance(v, torch.Tensor) and v.is_floating_point() else v) for k, v in kw.items()}
    live = [k for k in wrt if args.get(k) is not None]
    for k in live:
        args[k].requires_grad_(True)
    grads = torch.autograd.grad(fn(**args), [args[k] for k in live], grad_output.double(), allow_unused=True, materialize_grads=True)
    by = dict(zip(live, grads))
    return [by.get(k) for k in wrt]


def _ops(func, stem, ref, tensors, cases, **kw):
    """One Op per set of tensors present: a case leaves out (passes NULL for) an optional tensor by leaving it out of
    its shapes dict; each such set becomes its own Op, named after what it leaves out."""
    groups = {}
    for shapes, params in cases:
        groups.setdefault(tuple(k for k in tensors if k in shapes), []).append((shapes, params))
    ops = []
    for names, cs in groups.items():
        missing = [k for k in tensors if k not in names]
        ops.append(Op(func, ref, tensors={k: tensors[k] for k in names}, cases=tuple(cs),
                      name=stem + ("_without_" + "_".join(missing) if missing else ""), **kw))
    return ops


def _per_channel(x):
    """Elements behind one per-channel statistic of an (N, C, ...) tensor."""
    return max(x.numel() // max(x.shape[1], 1), 1)


# ================================================================ batch norm
# (input shape, training, affine, with running stats); training needs more than one value per channel.
BN_ROWS = (
    ((4, 3), True, True, True), ((4, 3, 5), True, True, True), ((2, 3, 4, 5), True, True, True), ((2, 3, 2, 3, 4), True, True, True),
    ((2, 3, 4, 5), True, False, True), ((2, 3, 4, 5), True, True, False), ((2, 3, 4, 5), True, False, False), ((1, 4, 1, 7), True, True, True),
    ((4, 3), False, True, True), ((2, 3, 4, 5), False, True, True), ((2, 3, 4, 5), False, False, True), ((0, 3, 4), False, True, True),
    ((2, 3, 2, 3, 4), False, True, True), ((16, 32, 64, 32), True, True, True),
)
BN_PARAMS = ({"momentum": 0.1, "eps": 1e-5}, {"momentum": 0.5, "eps": 1e-3})


def _bn_shapes(shape, affine, running):
    c = (shape[1],)
    return dict(input=shape, weight=c if affine else None, bias=c if affine else None,
                running_mean=c if running else None, running_var=c if running else None)


def _bn_cases(rows, params):
    out = []
    for shape, training, affine, running in rows:
        for p in (params if math.prod(shape) <= 65536 else params[:1]):
            shapes = {k: v for k, v in _bn_shapes(shape, affine, running).items() if v is not None}
            out.append((shapes, dict(p, training=training)))
    return tuple(out)


def _batch_norm(input, training, momentum, eps, weight=None, bias=None, running_mean=None, running_var=None):
    x = input.double()
    rm, rv = _d(running_mean), _d(running_var)
    rm = rm.clone() if rm is not None else None
    rv = rv.clone() if rv is not None else None
    out = F.batch_norm(x, rm, rv, _d(weight), _d(bias), training, momentum, eps)
    if training:
        dims = [0] + list(range(2, x.dim()))
        var, mean = torch.var_mean(x, dims, correction=0)
        save = (mean, torch.rsqrt(var + eps))
    else:
        save = (None, None)  # the header asks for the saved statistics in training mode only: NULL here
    return _cast((out,) + save + (rm, rv), input)


batch_norm = _ops("diopiBatchNorm", "batch_norm", _batch_norm,
                tensors=dict(input=T(X), weight=T(), bias=T(), running_mean=T(), running_var=T(POS)),
                cases=_bn_cases(BN_ROWS, BN_PARAMS), dtypes=HALF_BF_UP, accumulation=lambda input: _per_channel(input))


def _bn_saved(input, training, eps):
    """save_mean / save_invstd as the forward stores them (training), else absent."""
    if not training:
        return {"save_mean": None, "save_invstd": None}
    x = input.double()
    var, mean = torch.var_mean(x, [0] + list(range(2, x.dim())), correction=0)
    return {"save_mean": mean.to(input.dtype), "save_invstd": torch.rsqrt(var + eps).to(input.dtype)}


def _bn_grad(grad_output, input, training, eps, weight=None, running_mean=None, running_var=None, with_wb=True):
    def fwd(input, weight):
        return F.batch_norm(input, _d(running_mean), _d(running_var), weight, None, training, 0.0, eps)
    w = weight if weight is not None else torch.ones(input.shape[1], dtype=input.dtype)
    gi, gw = _autograd(fwd, grad_output, ("input", "weight"), input=input, weight=w)
    gb = grad_output.double().sum([0] + list(range(2, input.dim())))
    if not with_wb:
        gw, gb = None, None
    return _cast((gi, gw, gb), input)


# (input shape, training, affine); evaluation cases take running statistics.
BN_BWD_ROWS = (
    ((4, 3), True, True), ((4, 3, 5), True, True), ((2, 3, 4, 5), True, True), ((2, 3, 2, 3, 4), True, True), ((2, 3, 4, 5), True, False),
    ((1, 4, 1, 7), True, True), ((4, 3), False, True), ((2, 3, 4, 5), False, True), ((2, 3, 4, 5), False, False), ((0, 3, 4), False, True),
    ((8, 16, 32, 32), True, True),
)


def _bn_bwd_cases():
    out = []
    for shape, training, affine in BN_BWD_ROWS:
        c = (shape[1],)
        shapes = dict(grad_output=shape, input=shape)
        if affine:
            shapes["weight"] = c
        if not training:
            shapes.update(running_mean=c, running_var=c)
        out.append((shapes, {"training": training, "eps": 1e-5, "with_wb": True}))
        if training and affine and shape == (2, 3, 4, 5):
            out.append((shapes, {"training": training, "eps": 1e-5, "with_wb": False}))  # grad_weight / grad_bias NULL
    return tuple(out)


batch_norm_backward = _ops("diopiBatchNormBackward", "batch_norm_backward", _bn_grad,
                         tensors=dict(grad_output=T(), input=T(X), weight=T(), running_mean=T(), running_var=T(POS)),
                         cases=_bn_bwd_cases(), dtypes=HALF_BF_UP, prepare=_bn_saved, extra=("with_wb",),
                         accumulation=lambda input: _per_channel(input),
                         tol={"float16": (4e-3, 4e-3), "bfloat16": (3e-2, 3e-2, 0.1)},
                         tol_reason="the library works from the 16-bit-rounded saved statistics, the reference from exact ones "
                                    "(ATen's bfloat16 grad_weight lands 7% off: proven for a 10% error in bfloat16)")

# ---------------------------------------------------------------- synchronized batch norm pieces
STATS_SHAPES = (((4, 3),), ((4, 3, 5),), ((2, 3, 4, 5),), ((2, 3, 2, 3, 4),), ((1, 5, 1, 1),), ((32, 64, 32, 16),))


def _stats(input, eps):
    x = input.double()
    var, mean = torch.var_mean(x, [0] + list(range(2, x.dim())), correction=0)
    return _cast((mean, torch.rsqrt(var + eps)), input)


batch_norm_stats = Op("diopiBatchNormStats", _stats, tensors=dict(input=T(X)), shapes=STATS_SHAPES,
                      params=({"eps": 1e-5}, {"eps": 0.1}), dtypes=HALF_UP, accumulation=lambda input: _per_channel(input))


def _gather(input, mean_all, invstd_all, counts, momentum, eps, running_mean=None, running_var=None):
    m, iv, n = mean_all.double(), invstd_all.double(), counts.double()
    eps = float(torch.tensor(eps, dtype=torch.float32))  # a C float
    momentum = float(torch.tensor(momentum, dtype=torch.float32))
    total = n.sum()
    mean = (m * n[:, None]).sum(0) / total
    var = ((iv.pow(-2) - eps + (m - mean).pow(2)) * n[:, None]).sum(0) / total
    rm = rv = None
    if running_mean is not None:
        rm = running_mean.double() * (1 - momentum) + mean * momentum
        rv = running_var.double() * (1 - momentum) + var * total / (total - 1) * momentum
    return _cast((mean, torch.rsqrt(var + eps), rm, rv), input)


GATHER_ROWS = ((1, 3), (4, 3), (8, 16), (2, 1))


def _gather_cases():
    out = []
    for world, c in GATHER_ROWS:
        for running in (True, False):
            shapes = dict(input=(2, c, 3), mean_all=(world, c), invstd_all=(world, c), counts=(world,))
            if running:
                shapes.update(running_mean=(c,), running_var=(c,))
            out.append((shapes, {"momentum": 0.1, "eps": 1e-5}))
    out.append((dict(input=(2, 5, 3), mean_all=(3, 5), invstd_all=(3, 5), counts=(3,), running_mean=(5,), running_var=(5,)),
                {"momentum": 1.0, "eps": 0.01}))
    return tuple(out)


batch_norm_gather_stats_with_counts = _ops(
    "diopiBatchNormGatherStatsWithCounts", "batch_norm_gather_stats_with_counts", _gather,
    tensors=dict(input=T(), mean_all=T(), invstd_all=T(POS), counts=T(randint(2, 200)), running_mean=T(), running_var=T(POS)),
    cases=_gather_cases(), dtypes=F32_64)

ELEMT_SHAPES = ((4, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 3, 4), (0, 3, 4))


def _elemt(input, mean, invstd, weight=None, bias=None):
    y = (input.double() - _cview(mean, input)) * _cview(invstd, input)
    if weight is not None:
        y = y * _cview(weight, input)
    if bias is not None:
        y = y + _cview(bias, input)
    return y.to(input.dtype)


def _cview(v, x):
    return v.double().reshape([1, -1] + [1] * (x.dim() - 2))


batch_norm_elemt = _ops(
    "diopiBatchNormElemt", "batch_norm_elemt", _elemt, tensors=dict(input=T(), weight=T(), bias=T(), mean=T(), invstd=T(POS)),
    cases=tuple((dict(input=s, weight=(s[1],), bias=(s[1],), mean=(s[1],), invstd=(s[1],)), {"eps": 1e-5}) for s in ELEMT_SHAPES)
    + tuple((dict(input=s, mean=(s[1],), invstd=(s[1],)), {"eps": 1e-5}) for s in ELEMT_SHAPES[1:3]),
    dtypes=F32_64)


def _bwd_reduce(grad_out, input, mean, invstd, input_g, weight_g, bias_g):
    dims = [0] + list(range(2, input.dim()))
    dy = grad_out.double()
    sdy = dy.sum(dims)
    sdyxmu = (dy * (input.double() - _cview(mean, input))).sum(dims)
    return _cast((sdy if input_g else None, sdyxmu if input_g else None, sdyxmu * invstd.double() if weight_g else None,
                  sdy if bias_g else None), input)


def _reduce_cases():
    out = []
    for s in ((4, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 3, 4), (0, 3, 4)):
        c = (s[1],)
        for ig, wg, bg in ((True, True, True), (True, False, False), (False, True, False), (False, False, True), (False, True, True)):
            out.append((dict(grad_out=s, input=s, mean=c, invstd=c, weight=c), {"input_g": ig, "weight_g": wg, "bias_g": bg}))
    out.append((dict(grad_out=(2, 3, 4, 5), input=(2, 3, 4, 5), mean=(3,), invstd=(3,)), {"input_g": True, "weight_g": True, "bias_g": True}))
    out.append((dict(grad_out=(16, 32, 64, 32), input=(16, 32, 64, 32), mean=(32,), invstd=(32,), weight=(32,)),
                {"input_g": True, "weight_g": True, "bias_g": True}))
    return tuple(out)


batch_norm_backward_reduce = _ops(
    "diopiBatchNormBackwardReduce", "batch_norm_backward_reduce", _bwd_reduce,
    tensors=dict(grad_out=T(), input=T(randn(shift=0.5)), mean=T(randn(scale=0.3, shift=0.5)), invstd=T(POS), weight=T()),
    cases=_reduce_cases(), dtypes=F32_64, accumulation=lambda input: _per_channel(input))


def _bwd_elemt(grad_out, input, mean, invstd, sum_dy, sum_dy_xmu, count, weight=None):
    total = count.double().sum()
    iv = _cview(invstd, input)
    gi = (grad_out.double() - _cview(sum_dy, input) / total - (input.double() - _cview(mean, input)) * iv * iv
          * _cview(sum_dy_xmu, input) / total) * iv
    if weight is not None:
        gi = gi * _cview(weight, input)
    return gi.to(input.dtype)


def _bwd_elemt_cases():
    out = []
    for s, world in (((4, 3), 2), ((4, 3, 5), 1), ((2, 3, 4, 5), 4), ((2, 3, 2, 3, 4), 3), ((0, 3, 4), 2)):
        c = (s[1],)
        shapes = dict(grad_out=s, input=s, mean=c, invstd=c, weight=c, sum_dy=c, sum_dy_xmu=c, count=(world,))
        out.append((shapes, {}))
        if s == (2, 3, 4, 5):
            out.append(({k: v for k, v in shapes.items() if k != "weight"}, {}))
    return tuple(out)


batch_norm_backward_elemt = _ops(
    "diopiBatchNormBackwardElemt", "batch_norm_backward_elemt", _bwd_elemt,
    tensors=dict(grad_out=T(), input=T(randn(shift=0.5)), mean=T(randn(scale=0.3, shift=0.5)), invstd=T(POS), weight=T(),
                 sum_dy=T(randn(scale=4.0)), sum_dy_xmu=T(randn(scale=4.0)), count=T(randint(1, 64), dtype="int32")),
    cases=_bwd_elemt_cases(), dtypes=F32_64)

# ================================================================ layer norm
# (input shape, normalized_shape, affine: "wb" weight and bias, "w" weight only, "" neither)
LN_ROWS = (
    ((4, 8), (8,), "wb"), ((2, 3, 8), (8,), "wb"), ((2, 3, 8), (3, 8), "wb"), ((2, 3, 4, 5), (4, 5), "wb"), ((2, 3, 8), (8,), ""),
    ((2, 3, 8), (8,), "w"), ((2, 3, 8), (8,), "b"), ((7,), (7,), "wb"), ((0, 8), (8,), "wb"), ((3, 1), (1,), "wb"), ((1024, 1024), (1024,), "wb"),
)


def _ln_stats(x, ns, eps):
    dims = list(range(x.dim() - len(ns), x.dim()))
    if x.numel() == 0:  # no slices (var_mean would warn about them)
        z = torch.zeros(x.shape[:x.dim() - len(ns)], dtype=x.dtype)
        return z, z
    var, mean = torch.var_mean(x, dims, correction=0)
    return mean, torch.rsqrt(var + eps)


def _layer_norm(input, normalized_shape, eps, weight=None, bias=None):
    x = input.double()
    out = F.layer_norm(x, normalized_shape, _d(weight), _d(bias), eps)
    return _cast((out,) + _ln_stats(x, normalized_shape, eps), input)


def _ln_shapes(shape, ns, affine, grad=False):
    d = dict(grad_output=shape) if grad else {}
    d["input"] = shape
    if "w" in affine:
        d["weight"] = ns
    if "b" in affine:
        d["bias"] = ns
    return d


layer_norm = _ops("diopiLayerNorm", "layer_norm", _layer_norm, tensors=dict(input=T(X), weight=T(), bias=T()),
                cases=tuple((_ln_shapes(s, ns, a), {"normalized_shape": ns, "eps": eps}) for s, ns, a in LN_ROWS
                            for eps in ((1e-5, 1e-2) if s[0] < 1024 else (1e-5,))),
                dtypes=HALF_BF_UP, accumulation=lambda input, normalized_shape: math.prod(normalized_shape))


def _ln_bwd_terms(input, k):
    """grad_input sums over each slice (the trailing k dims), grad_weight / grad_bias over the slices."""
    inner = math.prod(input.shape[input.dim() - k:])
    return max(inner, input.numel() // max(inner, 1))


def _ln_saved(input, normalized_shape):
    mean, rstd = _ln_stats(input.double(), normalized_shape, EPS)
    return {"mean": mean.to(input.dtype), "rstd": rstd.to(input.dtype)}


def _ln_grad(grad_output, input, normalized_shape, mean, rstd, weight=None, bias=None):
    """The backward at the statistics the case passes (mean, rstd = 1/sqrt(var + eps) as the forward stores them in the
    case dtype), in float64: the header defines the backward from those, so a library that uses them as given is
    compared with the same function, not with the gradient at the exact, unrounded statistics."""
    ns = list(normalized_shape)
    stat = tuple(input.shape[:input.dim() - len(ns)]) + (1,) * len(ns)
    # grad_weight / grad_bias are passed as NULL (None here) when the forward had no weight / bias.
    gi, gw, gb = torch.ops.aten.native_layer_norm_backward(grad_output.double(), input.double(), ns, mean.double().reshape(stat),
                                                           rstd.double().reshape(stat), _d(weight), _d(bias),
                                                           [True, weight is not None, bias is not None])
    return _cast((gi, gw if weight is not None else None, gb if bias is not None else None), input)


layer_norm_backward = _ops(
    "diopiLayerNormBackward", "layer_norm_backward", _ln_grad, tensors=dict(grad_output=T(), input=T(X), weight=T(), bias=T()),
    # Not (3, 1): a slice of one element has x - mean = 0 and rstd = 1/sqrt(eps), so the zero gradient comes out as
    # rounding noise amplified ~300 times; it tests cancellation, not layer norm.
    cases=tuple((_ln_shapes(s, ns, a, grad=True), {"normalized_shape": ns}) for s, ns, a in LN_ROWS if s[0] < 1024 and ns != (1,))
    + ((_ln_shapes((256, 1024), (1024,), "wb", grad=True), {"normalized_shape": (1024,)}),),
    dtypes=HALF_BF_UP, prepare=_ln_saved, accumulation=lambda input, normalized_shape: _ln_bwd_terms(input, len(normalized_shape)))

# ---------------------------------------------------------------- layer norm, begin_norm_axis form
GB_ROWS = (((4, 8), 1, "wb"), ((2, 3, 8), 2, "wb"), ((2, 3, 8), 1, "wb"), ((2, 3, 4, 5), -2, "wb"), ((2, 3, 8), -1, ""),
           ((2, 3, 4, 5), 0, "wb"), ((0, 8), 1, "wb"), ((7,), 0, "wb"))


def _gb_ns(shape, axis):
    return tuple(shape[axis % len(shape):])


def _layer_norm_gb(input, eps, begin_norm_axis, weight=None, bias=None):
    # running_var receives rstd = 1/sqrt(var + eps) despite its name (as in DIOPI 1.0): what the backward takes.
    return _layer_norm(input, _gb_ns(input.shape, begin_norm_axis), eps, weight, bias)


layer_norm_gb = _ops("diopiLayerNormGB", "layer_norm_gb", _layer_norm_gb, tensors=dict(input=T(X), weight=T(), bias=T()),
                   cases=tuple((_ln_shapes(s, _gb_ns(s, ax), a), {"eps": 1e-5, "begin_norm_axis": ax}) for s, ax, a in GB_ROWS),
                   dtypes=HALF_UP, accumulation=lambda input, begin_norm_axis: math.prod(_gb_ns(tuple(input.shape), begin_norm_axis)))


def _gb_saved(input, begin_norm_axis):
    # running_std is, despite its name, rstd = 1/sqrt(var + eps) as diopiLayerNormGB writes it into running_var.
    mean, rstd = _ln_stats(input.double(), _gb_ns(input.shape, begin_norm_axis), EPS)
    return {"running_mean": mean.to(input.dtype), "running_std": rstd.to(input.dtype)}


def _gb_grad(grad_output, input, begin_norm_axis, running_mean, running_std, weight=None, bias=None):
    return _ln_grad(grad_output, input, _gb_ns(input.shape, begin_norm_axis), running_mean, running_std, weight, bias)


layer_norm_gb_backward = _ops(
    "diopiLayerNormGBBackward", "layer_norm_gb_backward", _gb_grad, tensors=dict(grad_output=T(), input=T(X), weight=T(), bias=T()),
    cases=tuple((_ln_shapes(s, _gb_ns(s, ax), a, grad=True), {"begin_norm_axis": ax}) for s, ax, a in GB_ROWS),
    dtypes=HALF_UP, prepare=_gb_saved, accumulation=lambda input, begin_norm_axis: _ln_bwd_terms(input, len(_gb_ns(input.shape, begin_norm_axis))))

# ================================================================ group norm
# (input shape, num_groups, affine)
GN_ROWS = (((2, 6, 4, 4), 3, True), ((2, 6, 4, 4), 1, True), ((2, 6, 4, 4), 6, True), ((2, 6, 4, 4), 2, False), ((3, 4), 2, True),
           ((2, 4, 7), 4, True), ((2, 8, 2, 3, 4), 4, True), ((1, 4, 1, 1), 2, True), ((0, 4, 3), 2, True), ((8, 32, 32, 32), 8, True))


def _gn_shapes(shape, affine, grad=False):
    d = dict(grad_output=shape) if grad else {}
    d["input"] = shape
    if affine:
        d["weight"] = (shape[1],)
        if not grad:
            d["bias"] = (shape[1],)
    return d


def _gn_stats(x, g, eps):
    n = x.shape[0]
    if x.numel() == 0:
        z = torch.zeros(n, g, dtype=x.dtype)
        return z, z
    var, mean = torch.var_mean(x.reshape(n, g, -1), -1, correction=0)
    return mean, torch.rsqrt(var + eps)


def _group_norm(input, num_groups, eps, weight=None, bias=None):
    x = input.double()
    out = F.group_norm(x, num_groups, _d(weight), _d(bias), eps)
    return _cast((out,) + _gn_stats(x, num_groups, eps), input)


def _gn_terms(input, num_groups):
    return max(input.numel() // max(input.shape[0] * num_groups, 1), 1)


group_norm = _ops("diopiGroupNorm", "group_norm", _group_norm, tensors=dict(input=T(X), weight=T(), bias=T()),
                cases=tuple((_gn_shapes(s, a), {"num_groups": g, "eps": eps}) for s, g, a in GN_ROWS
                            for eps in ((1e-5, 1e-2) if s[0] < 8 else (1e-5,))),
                dtypes=HALF_UP, accumulation=_gn_terms)


def _gn_saved(input, num_groups):
    mean, rstd = _gn_stats(input.double(), num_groups, EPS)
    return {"mean": mean.to(input.dtype), "rstd": rstd.to(input.dtype)}


def _gn_grad(grad_output, input, num_groups, mean, rstd, weight=None):
    """The backward at the statistics the case passes (mean, rstd = 1/sqrt(var + eps) in the case dtype), in float64;
    see _ln_grad. grad_weight is an output even without weight (that of an all-ones scale)."""
    n, c = input.shape[0], input.shape[1]
    hw = input.numel() // (n * c) if n * c else 0
    w = _d(weight) if weight is not None else torch.ones(c, dtype=torch.float64)
    if input.numel() == 0:
        gi, gw, gb = torch.zeros(input.shape, dtype=torch.float64), torch.zeros(c, dtype=torch.float64), torch.zeros(c, dtype=torch.float64)
    else:
        gi, gw, gb = torch.ops.aten.native_group_norm_backward(grad_output.double().contiguous(), input.double().contiguous(),
                                                               mean.double().reshape(n, num_groups), rstd.double().reshape(n, num_groups),
                                                               w, n, c, hw, num_groups, [True, True, True])
    return _cast((gi, gw, gb), input)


group_norm_backward = _ops(
    "diopiGroupNormBackward", "group_norm_backward", _gn_grad, tensors=dict(grad_output=T(), input=T(X), weight=T()),
    cases=tuple((_gn_shapes(s, a, grad=True), {"num_groups": g}) for s, g, a in GN_ROWS if s[0] < 8)
    + ((_gn_shapes((4, 32, 32, 32), True, grad=True), {"num_groups": 8}),),
    dtypes=HALF_UP, prepare=_gn_saved, accumulation=lambda input, num_groups: max(_gn_terms(input, num_groups), _per_channel(input)))

# ================================================================ instance norm (channel dim `axis`)
# (input shape, axis, affine: "sb" scale and bias, "s" scale only, "" neither)
IN_ROWS = (((2, 3, 8), 1, "sb"), ((2, 3, 4, 5), 1, "sb"), ((2, 3, 2, 3, 4), 1, "sb"), ((2, 4, 5, 3), -1, "sb"), ((2, 5, 3), 2, "sb"),
           ((2, 3, 4, 5), 1, ""), ((2, 3, 4, 5), 1, "s"), ((1, 2, 1, 3), 1, "sb"), ((0, 3, 4), 1, "sb"), ((2, 3, 4, 5), 1, "b"),
           ((16, 16, 32, 32), 1, "sb"))


def _in_shapes(shape, axis, affine, grad=False):
    d = dict(grad_output=shape) if grad else {}
    d["input"] = shape
    c = (shape[axis],)
    if "s" in affine:
        d["scale"] = c
    if "b" in affine:
        d["bias"] = c
    return d


def _instance(input, axis, eps, scale=None, bias=None):
    # Written out (F.instance_norm refuses an empty batch): biased statistics over the spatial dims of each (n, c).
    xm = input.movedim(axis, 1)
    dims = list(range(2, xm.dim()))
    mean = xm.mean(dims, keepdim=True)
    var = ((xm - mean) ** 2).mean(dims, keepdim=True)
    y = (xm - mean) * torch.rsqrt(var + eps)
    view = [1, -1] + [1] * (xm.dim() - 2)
    if scale is not None:
        y = y * scale.reshape(view)
    if bias is not None:
        y = y + bias.reshape(view)
    return y.movedim(1, axis)


def _instance_norm(input, axis, eps, scale=None, bias=None):
    return _instance(input.double(), axis, eps, _d(scale), _d(bias)).to(input.dtype)


def _in_terms(input, axis):
    return max(input.numel() // max(input.shape[0] * input.shape[axis], 1), 1)


instance_norm = _ops("diopiInstanceNorm", "instance_norm", _instance_norm, tensors=dict(input=T(X), scale=T(), bias=T()),
                   cases=tuple((_in_shapes(s, ax, a), {"axis": ax, "eps": eps}) for s, ax, a in IN_ROWS
                               for eps in ((1e-5, 1e-2) if s[0] < 16 else (1e-5,))),
                   dtypes=HALF_UP, accumulation=_in_terms)


def _in_grad(grad_output, input, axis, eps, scale=None, bias=None):
    def fwd(input, scale, bias):
        return _instance(input, axis, eps, scale, bias)
    c = input.shape[axis]
    s = scale if scale is not None else torch.ones(c, dtype=input.dtype)
    b = bias if bias is not None else torch.zeros(c, dtype=input.dtype)
    gi, gs, gb = _autograd(fwd, grad_output, ("input", "scale", "bias"), input=input, scale=s, bias=b)
    return _cast((gi, gs, gb), input)


instance_norm_backward = _ops(
    "diopiInstanceNormBackward", "instance_norm_backward", _in_grad, tensors=dict(grad_output=T(), input=T(X), scale=T(), bias=T()),
    cases=tuple((_in_shapes(s, ax, a, grad=True), {"axis": ax, "eps": 1e-5}) for s, ax, a in IN_ROWS if s[0] < 16),
    dtypes=HALF_UP, accumulation=lambda input, axis: _in_terms(input, axis) * max(input.shape[0], 1),  # grad_scale: N*L terms
    tol={"float16": (4e-3, 4e-3)}, tol_reason="the library recomputes float16 statistics in float32, the reference in float64")

# ================================================================ Lp normalize
NZ_ROWS = (((4, 5), 1), ((4, 5), 0), ((2, 3, 4), -1), ((2, 3, 4), 1), ((7,), 0), ((3, 1), 1), ((0, 4), 1), ((256, 1024), 1))
NZ_PS = (2.0, 1.0, 3.0, 0.5, float("inf"))


def _normalize(input, p, axis, eps):
    return F.normalize(input.double(), p, axis, eps).to(input.dtype)


normalize = Op("diopiNormalize", _normalize, tensors=dict(input=T()),
               cases=tuple(((s,), {"p": p, "axis": ax, "eps": 1e-12}) for s, ax in NZ_ROWS for p in (NZ_PS if s[0] < 256 else (2.0,)))
               + tuple(((s,), {"p": 2.0, "axis": ax, "eps": 4.0}) for s, ax in NZ_ROWS[:3]),  # eps above some norms: clamped
               dtypes=HALF_UP, accumulation=lambda input, axis: input.shape[axis] if input.dim() else 1)


def _normalize_grad(grad_output, input, p, axis, eps):
    (gi,) = _autograd(lambda input: F.normalize(input, p, axis, eps), grad_output, ("input",), input=input)
    return gi.to(input.dtype)


normalize_backward = Op(
    "diopiNormalizeBackward", _normalize_grad, tensors=dict(grad_output=T(), input=T()),
    cases=tuple(((s, s), {"p": p, "axis": ax, "eps": 1e-12}) for s, ax in NZ_ROWS for p in (NZ_PS if s[0] < 256 else (2.0,)))
    + tuple(((s, s), {"p": 2.0, "axis": ax, "eps": 4.0}) for s, ax in NZ_ROWS[:3]),
    # Besides the two sums over the axis (the norm, and grad_output . input) the gradient is a composite of depth 9 on
    # its longest path: |x|^p, the p-th root, its clamp to eps, power p + 1, x * |x|^(p-2), * the dot, /, go / norm, -.
    dtypes=HALF_UP, accumulation=lambda input, axis: {"terms": input.shape[axis] if input.dim() else 1, "steps": 9})
