"""Optimizer steps (SGD, Adam, AdamW, fused AdamW, Adadelta, RMSprop), gradient-norm clipping and the AMP
loss-scaling helpers.

Each reference is one step of the torch.optim algorithm written out with tensor math in float64 and cast once to
the parameter's dtype. Parameters and optimizer state are in-place arguments: the reference returns their values
after the step. State the step leaves alone by contract (a momentum buffer with momentum 0, the AMSGrad maximum
without amsgrad, RMSprop's grad_avg when not centred) is passed as NULL. Running second moments are generated
positive, as a real optimizer state is. `float` parameters reach the library through a C float, so the references
use their float32-rounded values.
"""
import math

import numpy as np

from conformance.gen import positive, randint, randn, special, uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT_NO_BF16, Op, T, TList

_F = ("float32", "float64")  # dtypes of the double-parameter SGD and gradient clipping
_STATE = positive(0.05, 2.0)

# shapes of one parameter: 0-d, empty, 1-D, 2-D, 4-D (channels_last applies), one large
_SHAPES = ((), (0,), (7,), (3, 4), (2, 3, 4, 5), (300, 256))


def _f32(x):
    return float(np.float32(x))


def _d(t):
    return None if t is None else t.double()


def _cast(t, like):
    return None if t is None else t.to(like.dtype)


def _per_shape(combos, n_tensors, big_combos=1):
    """(shapes, params) pairs: every combo on the small shapes, the first `big_combos` on the large one."""
    out = []
    for s in _SHAPES:
        big = math.prod(s) > 65536
        for p in (combos[:big_combos] if big else combos):
            out.append(((s,) * n_tensors, p))
    return tuple(out)


# ---------------------------------------------------------------- SGD
def _sgd_prepare(buf, momentum):
    return {"buf": buf if momentum != 0 else None}


def _sgd_ref(param, grad, buf, lr, momentum, dampening, weight_decay, nesterov):
    p, g = param.double(), grad.double()
    d = g + weight_decay * p
    b = None
    if momentum != 0:
        b = momentum * buf.double() + (1 - dampening) * d
        d = d + momentum * b if nesterov else b
    # grad may be overwritten with the decayed gradient (header): its value after the call is not checked
    return _cast(p - lr * d, param), None, _cast(b, param)


_SGD_COMBOS = (
    dict(lr=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False),
    dict(lr=0.01, momentum=0.9, dampening=0.0, weight_decay=0.0, nesterov=False),
    dict(lr=0.05, momentum=0.9, dampening=0.0, weight_decay=1e-2, nesterov=True),
    dict(lr=0.5, momentum=0.5, dampening=0.3, weight_decay=1e-3, nesterov=False),
    dict(lr=1e-3, momentum=0.0, dampening=0.0, weight_decay=0.1, nesterov=False),
)

sgd = Op("diopiSgd", _sgd_ref, tensors=dict(param=T(), grad=T(), buf=T()), cases=_per_shape(_SGD_COMBOS, 3, 2),
         prepare=_sgd_prepare, dtypes=_F)


# ---------------------------------------------------------------- Adam / AdamW
def _adam_math(p, g, m, v, vmax, lr, beta1, beta2, eps, weight_decay, step, amsgrad, decoupled, maximize=False):
    if maximize:
        g = -g
    if decoupled:
        p = p * (1 - lr * weight_decay)
    elif weight_decay != 0:
        g = g + weight_decay * p
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    bc1, bc2 = 1 - beta1 ** step, 1 - beta2 ** step
    if amsgrad:
        vmax = torch.maximum(vmax, v)
        denom = vmax.sqrt() / math.sqrt(bc2) + eps
    else:
        vmax = None
        denom = v.sqrt() / math.sqrt(bc2) + eps
    return p - (lr / bc1) * m / denom, m, v, vmax


def _adam_prepare(max_exp_avg_sq, amsgrad):
    return {"max_exp_avg_sq": max_exp_avg_sq if amsgrad else None}


def _adam_ref(decoupled):
    def ref(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step, amsgrad):
        p, m, v, vmax = _adam_math(param.double(), grad.double(), exp_avg.double(), exp_avg_sq.double(), _d(max_exp_avg_sq),
                                   _f32(lr), _f32(beta1), _f32(beta2), _f32(eps), _f32(weight_decay), step, amsgrad, decoupled)
        return _cast(p, param), _cast(m, param), _cast(v, param), _cast(vmax, param)
    return ref


_ADAM_COMBOS = (
    dict(lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, step=1, amsgrad=False),
    dict(lr=1e-2, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=1e-2, step=10, amsgrad=True),
    dict(lr=0.1, beta1=0.8, beta2=0.9, eps=1e-6, weight_decay=0.0, step=3, amsgrad=True),
    dict(lr=5e-3, beta1=0.5, beta2=0.99, eps=1e-3, weight_decay=0.1, step=100, amsgrad=False),
    dict(lr=1e-3, beta1=0.0, beta2=0.5, eps=1e-8, weight_decay=1e-4, step=2, amsgrad=False),
)
_ADAM_TENSORS = dict(param=T(), grad=T(), exp_avg=T(randn(0.3)), exp_avg_sq=T(_STATE), max_exp_avg_sq=T(_STATE))

adam = Op("diopiAdam", _adam_ref(False), tensors=_ADAM_TENSORS, cases=_per_shape(_ADAM_COMBOS, 5, 2),
          prepare=_adam_prepare, dtypes=FLOAT_NO_BF16)
adam_w = Op("diopiAdamW", _adam_ref(True), tensors=_ADAM_TENSORS, cases=_per_shape(_ADAM_COMBOS, 5, 2),
            prepare=_adam_prepare, dtypes=FLOAT_NO_BF16)


# ---------------------------------------------------------------- fused AdamW over lists
def _fused_ref(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr, beta1, beta2, eps, weight_decay, amsgrad,
               maximize):
    res = [[], [], [], []]
    for i, p in enumerate(params):
        vmax = _d(max_exp_avg_sqs[i]) if amsgrad else None
        out = _adam_math(p.double(), grads[i].double(), exp_avgs[i].double(), exp_avg_sqs[i].double(), vmax, lr, beta1, beta2, eps,
                         weight_decay, float(state_steps[i]), amsgrad, True, maximize)
        for j in range(4):
            res[j].append(_cast(out[j], p))
    # without amsgrad the maxima are passed too, and must come back untouched
    return res[0], res[1], res[2], (res[3] if amsgrad else max_exp_avg_sqs)


# lists of parameter shapes; every list of state has the same shapes, steps are 0-d
_FUSED_LISTS = (((3, 4),), ((5,), (2, 3), ()), ((2, 3, 4, 5), (0, 3), (17,)), ((64,) * 1, (4, 4, 4), (9, 1)), ((300, 256), (1000,)))
_FUSED_COMBOS = (
    dict(lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=1e-2, amsgrad=False, maximize=False),
    dict(lr=1e-2, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, amsgrad=True, maximize=False),
    dict(lr=0.1, beta1=0.8, beta2=0.95, eps=1e-6, weight_decay=0.1, amsgrad=False, maximize=True),
    dict(lr=5e-3, beta1=0.5, beta2=0.9, eps=1e-4, weight_decay=1e-3, amsgrad=True, maximize=True),
)


def _fused_cases():
    out = []
    for shapes in _FUSED_LISTS:
        big = sum(math.prod(s) for s in shapes) > 65536
        ls = list(shapes)
        for p in (_FUSED_COMBOS[:1] if big else _FUSED_COMBOS):
            out.append(((ls, ls, ls, ls, ls, [()] * len(ls)), p))
    return tuple(out)


fused_adam_w = Op(
    "diopiFusedAdamW", _fused_ref,
    tensors=dict(params=TList(), grads=TList(), exp_avgs=TList(randn(0.3)), exp_avg_sqs=TList(_STATE), max_exp_avg_sqs=TList(_STATE),
                 state_steps=TList(randint(1, 20), "int64")),
    cases=_fused_cases(), dtypes=FLOAT_NO_BF16 + ("bfloat16",))
# Step counts may be float32 tensors too (torch's fused AdamW keeps them so on every device; the captured
# training steps pass them that way).
fused_adam_w_float_steps = Op(
    "diopiFusedAdamW", _fused_ref,
    tensors=dict(params=TList(), grads=TList(), exp_avgs=TList(randn(0.3)), exp_avg_sqs=TList(_STATE), max_exp_avg_sqs=TList(_STATE),
                 state_steps=TList(randint(1, 20), "float32")),
    cases=_fused_cases()[:6], dtypes=("float32", "bfloat16"), name="fused_adam_w_float_steps")


# ---------------------------------------------------------------- Adadelta
def _adadelta_ref(param, grad, square_avg, acc_delta, lr, rho, eps, weight_decay):
    lr, rho, eps, wd = _f32(lr), _f32(rho), _f32(eps), _f32(weight_decay)
    p, g, sq, acc = param.double(), grad.double(), square_avg.double(), acc_delta.double()
    g = g + wd * p
    sq = rho * sq + (1 - rho) * g * g
    delta = (acc + eps).sqrt() / (sq + eps).sqrt() * g
    acc = rho * acc + (1 - rho) * delta * delta
    return _cast(p - lr * delta, param), _cast(sq, param), _cast(acc, param)


_ADADELTA_COMBOS = (dict(lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0), dict(lr=0.5, rho=0.95, eps=1e-4, weight_decay=1e-2),
                    dict(lr=0.1, rho=0.0, eps=1e-6, weight_decay=0.0), dict(lr=2.0, rho=0.5, eps=1e-2, weight_decay=0.1))



def _adadelta_steps(weight_decay):
    """Depth of the step (tolerances.resolve): g*g, *(1-rho), rho*sq, + (4); +eps, sqrt (2); /, *g (2) give delta;
    delta*delta, *(1-rho), rho*acc, + (4) give acc_delta, the longest path (param's ends with lr*, - after delta).
    Weight decay adds wd*p, + in front. Each may round to a half dtype in a correct library (in-place tensor ops)."""
    return {"steps": 12 + (2 if weight_decay else 0)}


adadelta = Op("diopiAdadelta", _adadelta_ref, tensors=dict(param=T(), grad=T(), square_avg=T(_STATE), acc_delta=T(_STATE)),
              cases=_per_shape(_ADADELTA_COMBOS, 4, 2), dtypes=FLOAT_NO_BF16, accumulation=_adadelta_steps)


# ---------------------------------------------------------------- RMSprop
def _rms_prepare(grad_avg, momentum_buf, centered, momentum):
    return {"grad_avg": grad_avg if centered else None, "momentum_buf": momentum_buf if momentum > 0 else None}


def _rms_ref(param, grad, square_avg, grad_avg, momentum_buf, lr, alpha, eps, weight_decay, momentum, centered):
    lr, alpha, eps, wd, mom = _f32(lr), _f32(alpha), _f32(eps), _f32(weight_decay), _f32(momentum)
    p, g, sq = param.double(), grad.double(), square_avg.double()
    g = g + wd * p
    sq = alpha * sq + (1 - alpha) * g * g
    ga = buf = None
    if centered:
        ga = alpha * grad_avg.double() + (1 - alpha) * g
        avg = (sq - ga * ga).sqrt() + eps
    else:
        avg = sq.sqrt() + eps
    if mom > 0:
        buf = mom * momentum_buf.double() + g / avg
        p = p - lr * buf
    else:
        p = p - lr * g / avg
    return _cast(p, param), _cast(sq, param), _cast(ga, param), _cast(buf, param)


_RMS_COMBOS = (
    dict(lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False),
    dict(lr=1e-3, alpha=0.9, eps=1e-6, weight_decay=1e-2, momentum=0.9, centered=True),
    dict(lr=0.1, alpha=0.5, eps=1e-4, weight_decay=0.0, momentum=0.0, centered=True),
    dict(lr=5e-3, alpha=0.99, eps=1e-8, weight_decay=0.1, momentum=0.5, centered=False),
)

# square_avg >= grad_avg^2 keeps the centred variance estimate positive, as a real optimizer state does
rmsprop = Op("diopiRmsprop", _rms_ref,
             tensors=dict(param=T(), grad=T(), square_avg=T(positive(1.0, 3.0)), grad_avg=T(uniform(-0.9, 0.9)), momentum_buf=T(randn(0.3))),
             cases=_per_shape(_RMS_COMBOS, 5, 2), prepare=_rms_prepare, dtypes=FLOAT_NO_BF16)


# ---------------------------------------------------------------- gradient clipping
def _clip_ref(grads, max_norm, norm_type, error_if_nonfinite):
    if not grads:
        return 0.0, []
    gs = [g.double() for g in grads]
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in gs]), norm_type)
    coef = min(1.0, max_norm / (float(total) + 1e-6))
    return float(total), [(g * coef).to(x.dtype) for g, x in zip(gs, grads)]


_CLIP_LISTS = (((3, 4),), ((5,), (2, 3), ()), ((2, 3, 4, 5), (0, 3), (17,)), ((64,), (4, 4, 4), (9, 1), (3,)), (), ((300, 256), (1000,)))
_CLIP_COMBOS = tuple(dict(max_norm=m, norm_type=n, error_if_nonfinite=e)
                     for m, n, e in ((1.0, 2.0, False), (1e3, 2.0, True), (0.5, 1.0, False), (2.0, float("inf"), True), (0.1, 3.0, False)))


def _clip_cases():
    out = []
    for shapes in _CLIP_LISTS:
        big = sum(math.prod(s) for s in shapes) > 65536
        for p in (_CLIP_COMBOS[:1] if big else _CLIP_COMBOS):
            if p["norm_type"] == float("inf") and any(0 in s for s in shapes):
                continue  # the infinity norm of an empty tensor is undefined (torch raises)
            out.append(((list(shapes),), p))
    return tuple(out)


def _accum_clip(grads):
    return max([g.numel() for g in grads] + [len(grads), 1])


clip_grad_norm = Op("diopiClipGradNorm", _clip_ref, tensors=dict(grads=TList()), cases=_clip_cases(), dtypes=("float64",),
                    accumulation=_accum_clip)
# The total norm is a plain double output: the harness compares it with the first tolerance entry of the case.
clip_grad_norm_f32 = Op("diopiClipGradNorm", _clip_ref, tensors=dict(grads=TList()), cases=_clip_cases(), dtypes=("float32",),
                        accumulation=_accum_clip, tol={"float32": (1e-5, 1e-5)},
                        tol_reason="the total norm (a double output) of float32 gradients is a float32 sum rounded once",
                        name="clip_grad_norm_f32")


# ---------------------------------------------------------------- AMP
def _unscale_prepare(found_inf, found_before):
    return {"found_inf": torch.full((1,), float(found_before), dtype=torch.float32)}


def _unscale_ref(scaled_grads, found_inf, inv_scale):
    inv = inv_scale.double().reshape(())
    bad = any(not bool(torch.isfinite(g).all()) for g in scaled_grads)
    found = found_inf.clone()
    if bad:
        found.fill_(1.0)
    return [(g.double() * inv).to(g.dtype) for g in scaled_grads], found


_UNSCALE_LISTS = (((3, 4),), ((5,), (2, 3), ()), ((2, 3, 4, 5), (0, 3), (17,)), ((64,), (4, 4, 4), (9, 1)), ((300, 256), (1000,)))


def _unscale_cases():
    out = []
    for shapes in _UNSCALE_LISTS:
        big = sum(math.prod(s) for s in shapes) > 65536
        for found_before in ((0,) if big else (0, 1)):
            out.append(((list(shapes), (1,), (1,)), dict(found_before=found_before)))
    return tuple(out)


_INV_SCALE = T(uniform(0.0005, 2.0), "float32")

amp_foreach_non_finite_check_and_unscale_inp = [
    Op("diopiAmpForeachNonFiniteCheckAndUnscaleInp", _unscale_ref,
       tensors=dict(scaled_grads=TList(gen), found_inf=T(dtype="float32"), inv_scale=_INV_SCALE), cases=_unscale_cases(),
       prepare=_unscale_prepare, extra=("found_before",), dtypes=FLOAT_NO_BF16,
       name=f"amp_foreach_non_finite_check_and_unscale_inp_{tag}")
    for tag, gen in (("finite", randn(100.0)), ("special", special(0.02)))
]


def _update_prepare(scale_value, tracker_value, found):
    return {"current_scale": torch.tensor([scale_value], dtype=torch.float32),
            "growth_tracker": torch.tensor([tracker_value], dtype=torch.int32),
            "found_inf": torch.tensor([float(found)], dtype=torch.float32)}


def _update_ref(current_scale, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval):
    scale = float(current_scale[0])
    tracker = int(growth_tracker[0])
    if float(found_inf[0]) != 0:
        scale, tracker = scale * scale_backoff_factor, 0
    else:
        tracker += 1
        if tracker == growth_interval:
            with np.errstate(over="ignore"):
                grown = np.float32(scale) * np.float32(scale_growth_factor)  # the scale is a float32 tensor
            if math.isfinite(grown):
                scale = float(grown)
            tracker = 0
    return torch.tensor([scale], dtype=torch.float32), torch.tensor([tracker], dtype=torch.int32)


amp_update_scale_inp = Op(
    "diopiAmpUpdateScaleInp", _update_ref, tensors={},
    cases=tuple(((), dict(scale_value=s, tracker_value=t, found=f, scale_growth_factor=g, scale_backoff_factor=b, growth_interval=i))
                for s, t, f, g, b, i in ((65536.0, 0, 0, 2.0, 0.5, 2000), (65536.0, 1999, 0, 2.0, 0.5, 2000), (65536.0, 1999, 1, 2.0, 0.5, 2000),
                                         (1024.0, 5, 1, 2.0, 0.25, 10), (1.0, 0, 0, 4.0, 0.5, 1), (3e38, 2, 0, 2.0, 0.5, 3),
                                         (8.0, 2, 0, 1.5, 0.5, 3), (0.5, 0, 1, 2.0, 0.5, 1), (65536.0, 1998, 0, 2.0, 0.5, 2000),
                                         (65536.0, 0, 1, 2.0, 0.5, 2000), (1e-30, 9, 0, 2.0, 0.5, 10), (1e-30, 3, 1, 2.0, 0.5, 10),
                                         (100.0, 0, 0, 1.001, 0.999, 1), (100.0, 0, 1, 1.001, 0.999, 1), (2.0**120, 0, 0, 2.0**10, 0.5, 1),
                                         (3.0, 4, 0, 3.0, 1.0 / 3.0, 5), (3.0, 4, 2.5, 3.0, 1.0 / 3.0, 5), (7.0, 0, 0, 2.0, 0.5, 2))),
    prepare=_update_prepare, extra=("scale_value", "tracker_value", "found"), dtypes=("float32",))
