"""Real ATen calls, one for each entry of aten_to_diopi.yaml where possible.

    calls = harvest(mapping)      # entry where -> (OpOverload, args, kwargs), CPU tensors

The calls are recorded (TorchDispatchMode) while the suite's models train a
step on the CPU and while the snippets below run; for each entry the first
call the entry applies to is kept, chosen by mapping.AtenMapping.select as
the device chooses. Snippets are ordinary PyTorch user code (forward and,
where there is one, backward), for the operators the models do not reach.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

aten = torch.ops.aten


def _r(*shape, grad=True, seed=[0]):
    seed[0] += 1
    g = torch.Generator().manual_seed(seed[0])
    return torch.randn(*shape, generator=g).requires_grad_(grad)


def _back(y):
    (y.float().sum() if y.is_floating_point() else y.sum()).backward()


def _i(*shape, high=4):
    return torch.randint(0, high, shape, generator=torch.Generator().manual_seed(7))


SNIPPETS = [
    lambda: _back(F.conv3d(_r(1, 2, 4, 4, 4), _r(3, 2, 2, 2, 2), _r(3))),
    lambda: _back(F.conv_transpose2d(_r(1, 2, 4, 4), _r(2, 3, 2, 2), _r(3))),
    lambda: _back(F.conv1d(_r(1, 2, 8), _r(3, 2, 3), _r(3))),
    lambda: _back(F.conv2d(_r(1, 2, 5, 5), _r(3, 2, 3, 3), _r(3), padding=1)),
    lambda: _back(F.avg_pool2d(_r(1, 2, 4, 4), 2)),
    lambda: _back(F.adaptive_avg_pool2d(_r(1, 2, 4, 4), 2)),
    lambda: F.relu_(_r(2, 3, grad=False)),
    lambda: _back(torch.sigmoid(_r(2, 3))),
    lambda: F.hardtanh(_r(2, 3, grad=False)),
    lambda: F.leaky_relu(_r(2, 3, grad=False), 0.2),
    lambda: F.group_norm(_r(2, 4, 3), 2, _r(4, grad=False), _r(4, grad=False)),
    lambda: _back(F.mse_loss(_r(2, 3), _r(2, 3, grad=False))),
    lambda: torch.baddbmm(_r(2, 3, 5, grad=False), _r(2, 3, 4, grad=False), _r(2, 4, 5, grad=False)),
    lambda: aten.add.Scalar(_r(2, 3, grad=False), 2.0),
    lambda: aten.add_.Scalar(_r(2, 3, grad=False), 2.0),
    lambda: _r(2, 3, grad=False).sub_(_r(2, 3, grad=False)),
    lambda: _r(2, 3, grad=False).mul_(3.0),
    lambda: _r(2, 3, grad=False).div_(3.0),
    lambda: torch.exp(_r(2, 3, grad=False)),
    lambda: torch.erf(_r(2, 3, grad=False)),
    lambda: torch.reciprocal(_r(2, 3, grad=False)),
    lambda: torch.pow(_r(2, 3, grad=False).abs(), _r(2, 3, grad=False)),
    lambda: torch.maximum(_r(2, 3, grad=False), _r(2, 3, grad=False)),
    lambda: torch.clamp(_r(2, 3, grad=False), -0.5, 0.5),
    lambda: torch.where(_r(2, 3, grad=False) > 0, _r(2, 3, grad=False), _r(2, 3, grad=False), out=torch.empty(2, 3)),
    lambda: [f(_r(2, 3, grad=False), _r(2, 3, grad=False)) for f in (torch.eq, torch.ne, torch.lt, torch.le, torch.gt)],
    lambda: [f(_r(2, 3, grad=False), 0.1) for f in (torch.ne, torch.le, torch.ge)],
    lambda: [f(_r(2, 3, grad=False), _r(2, 3, grad=False), out=torch.empty(2, 3, dtype=torch.bool))
             for f in (torch.le, torch.lt, torch.ge, torch.gt)],
    lambda: torch.isneginf(torch.tensor([1.0, -float("inf")])),
    lambda: torch.isneginf(torch.tensor([1.0, -float("inf")]), out=torch.empty(2, dtype=torch.bool)),
    lambda: torch.isin(_i(5), _i(3)),
    lambda: torch.isin(_i(5), _i(3), out=torch.empty(5, dtype=torch.bool)),
    lambda: torch.logical_not(_i(4) > 1),
    lambda: [torch.bitwise_and(_i(4), _i(4)), torch.bitwise_or(_i(4), _i(4)), torch.bitwise_not(_i(4))],
    lambda: [torch.sum(_r(2, 3, grad=False)), torch.mean(_r(2, 3, grad=False))],
    lambda: [torch.any(_i(4) > 1), torch.any(_i(2, 3) > 1, dim=1), torch.all(_i(4) > 1), torch.all(_i(2, 3) > 1, dim=1),
             torch.any(_i(4) > 1, out=torch.empty((), dtype=torch.bool)),
             torch.all(_i(4) > 1, out=torch.empty((), dtype=torch.bool)),
             torch.any(_i(2, 3) > 1, dim=1, out=torch.empty(2, dtype=torch.bool)),
             torch.all(_i(2, 3) > 1, dim=1, out=torch.empty(2, dtype=torch.bool))],
    lambda: [torch.max(_r(2, 3, grad=False)), torch.max(_r(2, 3, grad=False), 1), torch.min(_r(2, 3, grad=False)),
             torch.min(_r(2, 3, grad=False), 1)],
    lambda: torch.ceil(_r(2, 3, grad=False), out=torch.empty(2, 3)),
    lambda: [torch.cumsum(_r(2, 3, grad=False), 1), torch.argmax(_r(2, 3, grad=False), 1)],
    lambda: [torch.std(_r(2, 3, grad=False), 1), torch.linalg.vector_norm(_r(2, 3, grad=False))],
    lambda: _back(F.interpolate(_r(1, 2, 3, 3), size=(6, 6), mode="nearest")),
    lambda: _back(F.interpolate(_r(1, 2, 3, 3), size=(6, 6), mode="bilinear")),
    lambda: [torch.sort(_r(5, grad=False)), torch.sort(_r(5, grad=False), stable=True)],
    lambda: [torch.scatter(_r(2, 3, grad=False), 1, _i(2, 2, high=3), _r(2, 2, grad=False), out=torch.empty(2, 3)),
             torch.scatter(_r(2, 3, grad=False), 1, _i(2, 2, high=3), 1.5),
             torch.scatter(_r(2, 3, grad=False), 1, _i(2, 2, high=3), 1.5, out=torch.empty(2, 3))],
    lambda: [torch.index_add(_r(4, 3, grad=False), 0, _i(2), _r(2, 3, grad=False)),
             torch.index_add(_r(4, 3, grad=False), 0, _i(2), _r(2, 3, grad=False), out=torch.empty(4, 3))],
    lambda: torch.index_select(_r(4, 3, grad=False), 0, _i(2)),
    lambda: aten.index.Tensor_out(_r(4, 3, grad=False), [_i(2)], out=torch.empty(2, 3)),
    lambda: _r(4, 3, grad=False).index_put_((_i(2),), _r(2, 3, grad=False), accumulate=True),
    lambda: [torch.masked_fill(_r(2, 3, grad=False), _i(2, 3) > 1, torch.tensor(2.0)),
             torch.masked_fill(_r(2, 3, grad=False), _i(2, 3) > 1, 2.0),
             _r(2, 3, grad=False).masked_fill_(_i(2, 3) > 1, torch.tensor(2.0))],
    lambda: [torch.flip(_r(2, 3, grad=False), [1]), F.pad(_r(1, 2, 4, 4, grad=False), (1, 1, 1, 1), mode="reflect"),
             F.pad(_r(1, 2, 4, grad=False), (1, 1), mode="reflect"), torch.roll(_r(2, 3, grad=False), 1, 1),
             torch.triu(_r(3, 3, grad=False)), torch.tril(_r(3, 3, grad=False))],
    lambda: [_r(2, 3, grad=False).fill_(2.0), _r(2, 3, grad=False).zero_()],
    lambda: [torch.arange(1, 7), torch.arange(1, 7, 2)],
    lambda: [torch.empty(5).normal_(), torch.empty(5).uniform_(), torch.empty(5, dtype=torch.int64).random_(0, 9),
             torch.empty(5, dtype=torch.int64).random_(9), torch.empty(5, dtype=torch.int64).random_()],
    lambda: [torch.randperm(5), torch.randperm(5, generator=torch.Generator().manual_seed(1)),
             torch.bernoulli(torch.rand(5)), torch.empty(5).bernoulli_(0.5), torch.bernoulli(torch.rand(5), 0.5),
             torch.multinomial(torch.rand(5), 2)],
    lambda: aten.native_dropout(_r(2, 3, grad=False), 0.5, True),
    lambda: aten.lift_fresh_copy(_r(2, 3, grad=False)),
    lambda: aten.copy(_r(2, 3, grad=False), _r(3, grad=False)),
    lambda: [aten.fill.Tensor(_r(2, 3, grad=False), torch.tensor(2.0)), aten.fill.Scalar(_r(2, 3, grad=False), 2.0)],
    lambda: [torch.full((2, 3), 2.0), _r(2, 3, grad=False).new_full((2, 2), 2.0), torch.ones(2, 3),
             _r(2, 3, grad=False).new_ones((2, 2))],
    lambda: [torch.slice_scatter(_r(4, 3, grad=False), _r(2, 3, grad=False), 0, 1, 3),
             torch.select_scatter(_r(4, 3, grad=False), _r(3, grad=False), 0, 1)],
    lambda: aten._native_batch_norm_legit_functional(_r(2, 3, 4, grad=False), _r(3, grad=False), _r(3, grad=False),
                                                     torch.zeros(3), torch.ones(3), True, 0.1, 1e-5),
    lambda: [torch.softmax(_r(2, 3, grad=False), -1), aten.mul_.Scalar(_r(2, 3, grad=False), 3.0),
             aten.div_.Scalar(_r(2, 3, grad=False), 3.0), torch.topk(_r(5, grad=False), 2),
             torch.scatter(_r(2, 3, grad=False), 1, _i(2, 2, high=3), _r(2, 2, grad=False))],
    lambda: [_r(4, 3, grad=False)[_i(2)], torch.nonzero(_i(5) > 1),
             aten._index_put_impl_(_r(4, 3, grad=False), [_i(2)], _r(2, 3, grad=False), True, False)],
    lambda: aten._amp_foreach_non_finite_check_and_unscale_([_r(3, grad=False), _r(2, grad=False)], torch.zeros(1),
                                                           torch.ones(1)),
    lambda: aten._amp_update_scale_(torch.ones(1), torch.zeros(1, dtype=torch.int32), torch.zeros(1), 2.0, 0.5, 2),
    lambda: aten._fused_adamw_([_r(3, grad=False)], [_r(3, grad=False)], [torch.zeros(3)], [torch.zeros(3)], [],
                               [torch.ones(())], lr=1e-3, beta1=0.9, beta2=0.999, weight_decay=0.01, eps=1e-8,
                               amsgrad=False, maximize=False),
    lambda: [torch.floor_divide(_i(2, 3, high=9) - 4, _i(2, 3, high=3) + 1), aten.floor_divide.Scalar(_i(6, high=9), 2),
             aten.index_put(_r(4, 3, grad=False), [_i(5)], _r(5, 3, grad=False), True)],
    lambda: aten._native_batch_norm_legit_no_training(_r(2, 3, 4, grad=False), _r(3, grad=False), _r(3, grad=False),
                                                      torch.zeros(3), torch.ones(3), 0.1, 1e-5),
]


def harvest(amap, models=True):
    """Entry where -> (func, args, kwargs), the first real call each entry serves."""
    from diopi_torch.capture import Recorder
    from diopi_torch.ops import schemas
    found = {}
    names = set(amap.aten_ops)

    class Record(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            name = schemas.overload_name(func)
            if name in names:
                env = Recorder._bind(func, args, kwargs)
                env["result"] = out
                try:
                    entry = amap.select(name, env)
                except Exception:  # a condition these arguments cannot answer
                    entry = None
                if entry is not None and entry.where not in found:
                    found[entry.where] = (func, _detach(args), _detach(kwargs))
            return out
    if models:
        from diopi_torch.suite import recipes
        from diopi_torch.suite import models as suite
        for name in ("llama", "bert", "gpt2", "t5", "resnet", "convnext", "cnn"):
            model = suite.MODELS[name]
            m = suite.build(model)
            with Record():
                recipes.train(recipes.RECIPES["fp32"], m, [suite.inputs(model, m)], torch.device("cpu"))
    for snippet in SNIPPETS:
        with Record():
            snippet()
    return found


def _detach(x):
    return torch.utils._pytree.tree_map(lambda t: t.detach().clone() if isinstance(t, torch.Tensor) else t, x)
