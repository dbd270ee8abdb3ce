"""Losses: mse, smooth_l1, bce, bce_with_logits, sigmoid focal, nll (and the V2 pair with totalWeight),
cross entropy (class indices and class probabilities), ctc; forward and backward, over the three
reductions.

Forward references are the torch.nn.functional losses in the case dtype (the sigmoid focal loss, a
composite, in float64). Backward references are autograd in float64 at the given inputs, seeded with
grad_output, whose shape is the loss's: the broadcast input shape for "none", 0-d for "mean"/"sum".
CTC has no half-precision CPU kernel in ATen: its cases are float32/float64 only.
"""
import inspect

from conformance.compare import Defined
from conformance.gen import mask, randint, randn, uniform
from conformance.reftorch import torch, F
from conformance.spec import FLOAT, Op, T, grid

REDUCTIONS = ("none", "mean", "sum")
FLOAT64 = ("float32", "float64")  # ctc
MEDIUM = (256, 300)  # above LARGE_ELEMENTS: runs in float32 only


def _bshape(*shapes):
    """Broadcast shape of several shapes (plain Python: configs load without torch)."""
    n = max(len(s) for s in shapes)
    out = []
    for k in range(n):
        dims = {s[len(s) - n + k] for s in shapes if len(s) - n + k >= 0} - {1}
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def _go_shape(out_shape, reduction):
    return tuple(out_shape) if reduction == "none" else ()


def _grad_wrt(fn, wrt="input"):
    """Reference backward: autograd in float64 of fn(**kwargs) with respect to kwargs[wrt], seeded with
    grad_output. Float tensors are promoted to float64; integer tensors (targets, lengths) pass as they are."""
    names = list(inspect.signature(fn).parameters)

    def ref(grad_output, **kw):
        args = {}
        for k in names:
            v = kw.get(k)
            if isinstance(v, torch.Tensor) and v.is_floating_point():
                v = v.detach().double()
            args[k] = v
        x = args[wrt].requires_grad_(True)
        (g,) = torch.autograd.grad(fn(**args), x, grad_output.double())
        return g.to(kw[wrt].dtype)
    return ref


# ---------------------------------------------------------------- mse
# (input, target): same shapes, 0-d, empty, 3-d, broadcasting, one medium case
PAIRS = (((2, 3), (2, 3)), ((), ()), ((0, 4), (0, 4)), ((4, 5, 6), (4, 5, 6)), ((3, 1, 5), (4, 5)), (MEDIUM, MEDIUM))

mse_loss = Op("diopiMSELoss", lambda input, target, reduction: F.mse_loss(*torch.broadcast_tensors(input, target), reduction=reduction),
              tensors=dict(input=T(), target=T()), shapes=PAIRS, params=grid(reduction=REDUCTIONS), dtypes=FLOAT)
mse_loss_backward = Op(
    "diopiMSELossBackward",
    _grad_wrt(lambda input, target, reduction: F.mse_loss(*torch.broadcast_tensors(input, target), reduction=reduction)),
    tensors=dict(grad_output=T(), input=T(), target=T()),
    cases=tuple(((_go_shape(_bshape(i, t), r), i, t), {"reduction": r}) for i, t in PAIRS for r in REDUCTIONS), dtypes=FLOAT)

# ---------------------------------------------------------------- smooth L1 (beta = 0 is L1)
SL1_PAIRS = PAIRS[:4] + PAIRS[5:]
SL1_PARAMS = tuple({"reduction": r, "beta": 1.0} for r in REDUCTIONS) + ({"reduction": "mean", "beta": 0.5}, {"reduction": "sum", "beta": 0.0})
smooth_l1_loss = Op("diopiSmoothL1Loss", lambda input, target, reduction, beta: F.smooth_l1_loss(input, target, reduction=reduction, beta=beta),
                    tensors=dict(input=T(), target=T()), shapes=SL1_PAIRS, params=SL1_PARAMS, dtypes=FLOAT)
smooth_l1_loss_backward = Op(
    "diopiSmoothL1LossBackward",
    _grad_wrt(lambda input, target, reduction, beta: F.smooth_l1_loss(input, target, reduction=reduction, beta=beta)),
    tensors=dict(grad_output=T(), input=T(), target=T()),
    cases=tuple(((_go_shape(i, p["reduction"]), i, t), p) for i, t in SL1_PAIRS for p in SL1_PARAMS), dtypes=FLOAT)

# ---------------------------------------------------------------- binary cross entropy on probabilities
PROB = uniform(0.02, 0.98)
# (input, weight): weight broadcasts to the input
BCE_SHAPES = (((4, 3), (3,)), ((), ()), ((0, 3), (3,)), ((2, 3, 5), (2, 3, 5)), ((2, 3, 5), (1, 3, 1)), (MEDIUM, (300,)))


def _bce(input, target, reduction, weight=None):
    return F.binary_cross_entropy(input, target, weight, reduction=reduction)


bce_loss = Op("diopiBCELoss", _bce, tensors=dict(input=T(PROB), target=T(uniform()), weight=T(uniform(0.5, 2.0))),
              cases=tuple(((i, i, w), {"reduction": r}) for i, w in BCE_SHAPES for r in REDUCTIONS), dtypes=FLOAT)
bce_loss_no_weight = Op("diopiBCELoss", _bce, tensors=dict(input=T(PROB), target=T(mask(0.5))),
                        cases=tuple(((i, i), {"reduction": r}) for i, _ in BCE_SHAPES[:4] for r in REDUCTIONS), dtypes=FLOAT,
                        name="bce_loss_no_weight")
bce_loss_backward = Op(
    "diopiBCELossBackward", _grad_wrt(_bce), tensors=dict(grad_output=T(), input=T(PROB), target=T(uniform()), weight=T(uniform(0.5, 2.0))),
    cases=tuple(((_go_shape(i, r), i, i, w), {"reduction": r}) for i, w in BCE_SHAPES for r in REDUCTIONS), dtypes=FLOAT)
bce_loss_backward_no_weight = Op(
    "diopiBCELossBackward", _grad_wrt(_bce), tensors=dict(grad_output=T(), input=T(PROB), target=T(uniform())),
    cases=tuple(((_go_shape(i, r), i, i), {"reduction": r}) for i, _ in BCE_SHAPES[:4] for r in REDUCTIONS), dtypes=FLOAT,
    name="bce_loss_backward_no_weight")

# ---------------------------------------------------------------- binary cross entropy on logits
LOGIT = randn(scale=3)
# (input, weight, pos_weight); weight and pos_weight broadcast to the input (pos_weight along the class dim)
BCEL_SHAPES = (((4, 3), (3,), (3,)), ((), (), ()), ((0, 3), (3,), (3,)), ((2, 3, 5), (2, 3, 5), (5,)), ((2, 3, 5), (1, 3, 1), (1, 5)),
               (MEDIUM, (300,), (300,)))


def _bcel(input, target, reduction, weight=None, pos_weight=None):
    return F.binary_cross_entropy_with_logits(input, target, weight, reduction=reduction, pos_weight=pos_weight)


def _bcel_ops(stem, func, ref, with_go):
    """The four weight / pos_weight combinations of a BCE-with-logits function."""
    ops = []
    for use_w, use_pw, suffix in ((True, True, ""), (False, False, "_plain"), (True, False, "_weight"), (False, True, "_pos_weight")):
        tensors = dict(grad_output=T()) if with_go else {}
        tensors.update(input=T(LOGIT), target=T(uniform()))
        if use_w:
            tensors["weight"] = T(uniform(0.5, 2.0))
        if use_pw:
            tensors["pos_weight"] = T(uniform(0.5, 3.0))
        rows = BCEL_SHAPES if (use_w and use_pw) else BCEL_SHAPES[:4]
        cases = []
        for i, w, pw in rows:
            for r in REDUCTIONS:
                shapes = ((_go_shape(i, r),) if with_go else ()) + (i, i) + ((w,) if use_w else ()) + ((pw,) if use_pw else ())
                cases.append((shapes, {"reduction": r}))
        ops.append(Op(func, ref, tensors=tensors, cases=tuple(cases), dtypes=FLOAT, name=stem + suffix,
                      accumulation=_bcel_grad_steps if with_go else None))
    return ops


def _bcel_grad_steps(reduction, weight=None, pos_weight=None):
    """Depth of the gradient (tolerances.resolve): sigmoid(x) (exp, +1, reciprocal) and - target (4); pos_weight adds
    the factor (pos_weight - 1) * target + 1 applied to sigmoid and pos_weight * target (2 on the longest path);
    then * weight, * grad_output, and / N for "mean". Each may round to a half dtype in a correct library."""
    return {"steps": 5 + (2 if pos_weight is not None else 0) + (weight is not None) + (reduction == "mean")}


bce_with_logits = _bcel_ops("bce_with_logits", "diopiBCEWithLogits", _bcel, False)
bce_with_logits_backward = _bcel_ops("bce_with_logits_backward", "diopiBCEWithLogitsBackward", _grad_wrt(_bcel), True)

# ---------------------------------------------------------------- sigmoid focal loss (RetinaNet)


def _focal(inputs, targets, alpha, gamma, reduction):
    """alpha_t * (1 - p_t)^gamma * bce_with_logits(inputs, targets); alpha < 0 leaves out alpha_t."""
    p = torch.sigmoid(inputs)
    ce = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * ((1 - p_t) ** gamma)
    if alpha >= 0:
        loss = (alpha * targets + (1 - alpha) * (1 - targets)) * loss
    if reduction == "mean":
        return loss.mean()
    return loss.sum() if reduction == "sum" else loss


def _focal_steps(reduction):
    """Depth of the loss (tolerances.resolve): sigmoid (exp, +1, reciprocal), p_t = p * t + (1 - p) * (1 - t) (3 on
    the longest path), 1 - p_t, the power, * the cross entropy, * alpha_t, and / N for "mean". Each may round to a half
    dtype in a correct library that writes the formula with tensor ops."""
    return {"steps": 10 + (reduction == "mean")}


FOCAL_SHAPES = ((8, 4), (), (0, 4), (2, 3, 5), MEDIUM)
FOCAL_PARAMS = (tuple({"alpha": 0.25, "gamma": 2.0, "reduction": r} for r in REDUCTIONS)
                + ({"alpha": -1.0, "gamma": 0.0, "reduction": "mean"}, {"alpha": 0.5, "gamma": 1.5, "reduction": "sum"}))
sigmoid_focal_loss = Op(
    "diopiSigmoidFocalLoss", lambda inputs, targets, alpha, gamma, reduction: _focal(inputs.double(), targets.double(), alpha, gamma,
                                                                                     reduction).to(inputs.dtype),
    tensors=dict(inputs=T(randn(scale=2)), targets=T(mask(0.3))), shapes=tuple((s, s) for s in FOCAL_SHAPES), params=FOCAL_PARAMS,
    dtypes=FLOAT, accumulation=_focal_steps)


def _focal_backward(grad_output, input, target, alpha, gamma, reduction):
    g = _grad_wrt(lambda input, target, alpha, gamma, reduction: _focal(input, target, alpha, gamma, reduction))(
        grad_output, input=input, target=target, alpha=alpha, gamma=gamma, reduction=reduction)
    return grad_output, g  # grad_output is declared non-const but only read


sigmoid_focal_loss_backward = Op(
    "diopiSigmoidFocalLossBackward", _focal_backward,
    tensors=dict(grad_output=T(), input=T(randn(scale=2)), target=T(mask(0.3))),
    cases=tuple(((_go_shape(s, p["reduction"]), s, s), p) for s in FOCAL_SHAPES for p in FOCAL_PARAMS),
    dtypes=FLOAT)

# ---------------------------------------------------------------- nll
# (input, target): (N, C), unbatched (C), (N, C, d1, d2), (N, C, d1), empty batch
NLL_SHAPES = (((6, 5), (6,)), ((5,), ()), ((2, 4, 3, 3), (2, 3, 3)), ((3, 6, 4), (3, 4)), ((0, 5), (0,)), ((512, 200), (512,)))
NLL_PARAMS = (tuple({"reduction": r, "ignore_index": -100} for r in REDUCTIONS)
              + ({"reduction": "mean", "ignore_index": 1}, {"reduction": "none", "ignore_index": 2}))
TARGET = T(randint(0, 60), dtype="int64")  # taken modulo the class count in _classes
WEIGHT = T(uniform(0.5, 2.0))


def _class_dim(input):
    return input.shape[0] if input.dim() == 1 else input.shape[1]


def _classes(input, target):
    """prepare: class indices in range for the input's class count."""
    return {"target": target % _class_dim(input)}


def _nll(input, target, reduction, ignore_index, weight=None):
    return F.nll_loss(input, target, weight, ignore_index=ignore_index, reduction=reduction)


def _nll_total_weight(input, target, ignore_index, weight=None):
    """Sum of weight[target] over targets other than ignore_index (every reduction)."""
    w = weight if weight is not None else torch.ones(_class_dim(input), dtype=input.dtype)
    valid = target != ignore_index
    return (w[target.masked_fill(~valid, 0)] * valid).sum().to(input.dtype)


def _nll_ops(stem, func, ref, kind, prepare=_classes):
    """Weighted and unweighted variants; kind: forward, backward."""
    ops = []
    for use_w, suffix in ((True, ""), (False, "_no_weight")):
        tensors = dict(grad_output=T()) if kind == "backward" else {}
        tensors.update(input=T(), target=TARGET)
        if use_w:
            tensors["weight"] = WEIGHT
        rows = NLL_SHAPES if use_w else NLL_SHAPES[:3]
        cases = []
        for i, t in rows:
            c = i[0] if len(i) == 1 else i[1]
            for p in NLL_PARAMS:
                shapes = ((_go_shape(t, p["reduction"]),) if kind == "backward" else ()) + (i, t) + (((c,),) if use_w else ())
                cases.append((shapes, p))
        ops.append(Op(func, ref, tensors=tensors, cases=tuple(cases), dtypes=FLOAT, prepare=prepare, name=stem + suffix))
    return ops


nll_loss = _nll_ops("nll_loss", "diopiNLLLoss", _nll, "forward")
nll_loss_backward = _nll_ops("nll_loss_backward", "diopiNLLLossBackward", _grad_wrt(_nll), "backward")
nll_loss_v2 = _nll_ops("nll_loss_v2", "diopiNLLLossV2",
                       lambda input, target, reduction, ignore_index, weight=None: (
                           _nll(input, target, reduction, ignore_index, weight), _nll_total_weight(input, target, ignore_index, weight)),
                       "forward")


def _classes_and_total(input, target, ignore_index, weight=None):
    target = target % _class_dim(input)
    return {"target": target, "totalWeight": _nll_total_weight(input, target, ignore_index, weight)}


nll_loss_v2_backward = _nll_ops("nll_loss_v2_backward", "diopiNLLLossV2Backward", _grad_wrt(_nll), "backward", prepare=_classes_and_total)

# ---------------------------------------------------------------- cross entropy
# class-index targets: (input, target) as for nll
CE_SHAPES = NLL_SHAPES
CE_PARAMS = (tuple({"reduction": r, "ignore_index": -100, "label_smoothing": 0.0} for r in REDUCTIONS)
             + ({"reduction": "mean", "ignore_index": 1, "label_smoothing": 0.0}, {"reduction": "mean", "ignore_index": -100, "label_smoothing": 0.1},
                {"reduction": "sum", "ignore_index": 2, "label_smoothing": 0.25}, {"reduction": "none", "ignore_index": 0, "label_smoothing": 0.1}))
# class-probability targets have the input's shape; ignore_index does not apply
CE_PROB_SHAPES = ((6, 5), (5,), (2, 4, 3, 3), (0, 5), (512, 200))
CE_PROB_PARAMS = (tuple({"reduction": r, "ignore_index": -100, "label_smoothing": 0.0} for r in REDUCTIONS)
                  + ({"reduction": "mean", "ignore_index": -100, "label_smoothing": 0.2},))


def _ce(input, target, reduction, ignore_index, label_smoothing, weight=None):
    return F.cross_entropy(input, target, weight, ignore_index=ignore_index, reduction=reduction, label_smoothing=label_smoothing)


def _probabilities(input, target):
    """prepare: class probabilities along the class dim from generated scores."""
    return {"target": torch.softmax(target.double(), 0 if input.dim() == 1 else 1).to(target.dtype)}


def _ce_ops(stem, func, ref, kind):
    ops = []
    for use_w, probs, suffix in ((True, False, ""), (False, False, "_no_weight"), (True, True, "_prob"), (False, True, "_prob_no_weight")):
        tensors = dict(grad_output=T()) if kind == "backward" else {}
        tensors.update(input=T(randn(scale=2)), target=T() if probs else TARGET)
        if use_w:
            tensors["weight"] = WEIGHT
        cases = []
        rows = [(s, s) for s in CE_PROB_SHAPES] if probs else list(CE_SHAPES)
        if not use_w:
            rows = rows[:3]
        for i, t in rows:
            c = i[0] if len(i) == 1 else i[1]
            for p in (CE_PROB_PARAMS if probs else CE_PARAMS):
                out = t if not probs else (i[:1] + i[2:] if len(i) > 1 else ())
                shapes = ((_go_shape(out, p["reduction"]),) if kind == "backward" else ()) + (i, t) + (((c,),) if use_w else ())
                cases.append((shapes, p))
        ops.append(Op(func, ref, tensors=tensors, cases=tuple(cases), dtypes=FLOAT, prepare=_probabilities if probs else _classes,
                      name=stem + suffix))
    return ops


cross_entropy_loss = _ce_ops("cross_entropy_loss", "diopiCrossEntropyLoss", _ce, "forward")
cross_entropy_loss_backward = _ce_ops("cross_entropy_loss_backward", "diopiCrossEntropyLossBackward", _grad_wrt(_ce), "backward")


# int32 class indices: the header lists them beside int64 (torch's own cross_entropy takes int64 only, so the
# reference widens them; a library must not refuse them).
def _ce_long(input, target, reduction, ignore_index, label_smoothing, weight=None):
    return _ce(input, target.long(), reduction, ignore_index, label_smoothing, weight)


def _ce_int32_ops(stem, func, ref, kind):
    cases = []
    for i, t in list(CE_SHAPES)[:3]:
        c = i[0] if len(i) == 1 else i[1]
        for p in CE_PARAMS[:4]:
            cases.append((((_go_shape(t, p["reduction"]),) if kind == "backward" else ()) + (i, t, (c,)), p))
    tensors = dict(grad_output=T()) if kind == "backward" else {}
    tensors.update(input=T(randn(scale=2)), target=T(randint(0, 60), dtype="int32"), weight=WEIGHT)
    return Op(func, ref, tensors=tensors, cases=tuple(cases), dtypes=("float32", "float64"), prepare=_classes, name=stem)


cross_entropy_loss_int32 = _ce_int32_ops("cross_entropy_loss_int32_target", "diopiCrossEntropyLoss", _ce_long, "forward")
cross_entropy_loss_backward_int32 = _ce_int32_ops("cross_entropy_loss_backward_int32_target", "diopiCrossEntropyLossBackward",
                                                  _grad_wrt(_ce_long), "backward")

# ---------------------------------------------------------------- CTC
# (T, N, C, S): targets padded to (N, S), or concatenated (1-d) when S is None. The lengths are derived in
# _ctc_prepare from the generated values: input lengths in [T - 2, T], target lengths in [1, S]. The
# (5, 3, 4, 4) row makes some samples infeasible (infinite loss: zero_infinity matters).
CTC_SHAPES = ((12, 3, 5, 4), (5, 3, 4, 4), (30, 4, 12, 8), (10, 3, 6, None))
CTC_PARAMS = tuple({"reduction": r, "zero_infinity": z, "blank": 0} for r in REDUCTIONS for z in (False, True))


def _ctc_params(c):
    """The parameter sets of a shape with c classes: blank 0, and blank c - 1 once."""
    return CTC_PARAMS + ({"reduction": "mean", "zero_infinity": False, "blank": c - 1},)


def _ctc_shapes(t, n, c, s):
    return (t, n, c), ((n * 3,) if s is None else (n, s)), (n,), (n,)


def _ctc_prepare(log_probs, targets, input_lengths, target_lengths, blank):
    """log-softmax scores; class indices other than blank; consistent lengths."""
    t, n, c = log_probs.shape
    lp = torch.log_softmax(log_probs.double(), 2).to(log_probs.dtype)
    tg = targets % (c - 1)
    tg = tg + (tg >= blank).long()
    il = t - input_lengths % 3
    if targets.dim() == 1:
        tl = torch.full((n,), 3, dtype=torch.int64)
    else:
        tl = 1 + target_lengths % targets.shape[1]
    return {"log_probs": lp, "targets": tg, "input_lengths": il, "target_lengths": tl}


def _ctc_defined(log_alpha, input_lengths, target_lengths):
    """The entries of log_alpha the header defines: t < input length and s < 2 * target length + 1 of each sample."""
    t = torch.arange(log_alpha.shape[1]).view(1, -1, 1)
    s = torch.arange(log_alpha.shape[2]).view(1, 1, -1)
    return (t < input_lengths.view(-1, 1, 1)) & (s < (2 * target_lengths + 1).view(-1, 1, 1))


def _ctc(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity):
    lp = log_probs.double()
    out = F.ctc_loss(lp, targets, input_lengths, target_lengths, blank=blank, reduction=reduction, zero_infinity=zero_infinity)
    nll, alpha = torch.ops.aten._ctc_loss(lp, targets, input_lengths, target_lengths, blank, zero_infinity)
    # The rest of log_alpha is unspecified (a library may leave it unwritten): compared only where defined.
    alpha = Defined(alpha.to(log_probs.dtype), _ctc_defined(alpha, input_lengths, target_lengths))
    return out.to(log_probs.dtype), nll.to(log_probs.dtype), alpha


CTC_TENSORS = dict(log_probs=T(randn(scale=2)), targets=T(randint(0, 1000), dtype="int64"),
                   input_lengths=T(randint(0, 1000), dtype="int64"), target_lengths=T(randint(0, 1000), dtype="int64"))
ctc_loss = Op("diopiCTCLoss", _ctc, tensors=CTC_TENSORS, prepare=_ctc_prepare,
              cases=tuple((_ctc_shapes(*s), p) for s in CTC_SHAPES for p in _ctc_params(s[2])), dtypes=FLOAT64)


def _ctc_backward_prepare(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    r = _ctc_prepare(log_probs, targets, input_lengths, target_lengths, blank)
    nll, alpha = torch.ops.aten._ctc_loss(r["log_probs"].double(), r["targets"], r["input_lengths"], r["target_lengths"], blank,
                                          zero_infinity)
    r["neg_log_likelihood"] = nll.to(log_probs.dtype)
    # NaN in the undefined entries: the header says the backward does not read them, and NaN would show if it did.
    defined = _ctc_defined(alpha, r["input_lengths"], r["target_lengths"])
    r["log_alpha"] = alpha.masked_fill(~defined, float("nan")).to(log_probs.dtype)
    return r


ctc_loss_backward = Op(
    "diopiCTCLossBackward",
    _grad_wrt(lambda log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity:
              F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=blank, reduction=reduction, zero_infinity=zero_infinity),
              wrt="log_probs"),
    tensors=dict(grad_output=T(), **CTC_TENSORS), prepare=_ctc_backward_prepare,
    cases=tuple((((s[1],) if p["reduction"] == "none" else (),) + _ctc_shapes(*s), p) for s in CTC_SHAPES for p in _ctc_params(s[2])),
    dtypes=FLOAT64)
