"""Case expansion: names, seeds, dtype and layout rules, config checks."""
import pytest

from conformance import expand, gen, spec
from conformance.reftorch import torch


def _op(**kw):
    base = dict(func="diopiAdd", ref=lambda input, other, alpha: torch.add(input, other, alpha=alpha),
                tensors=dict(input=spec.T(), other=spec.T()), shapes=(((2, 3), (2, 3)), ((), ())),
                dtypes=("float32", "int64"), params=spec.grid(alpha=[1, 2]))
    base.update(kw)
    return spec.Op(**base)


def test_product_and_readable_unique_names():
    cases = expand.expand([("elementwise_binary_arith", _op())])
    assert len(cases) == 2 * 2 * 2
    names = [c.name for c in cases]
    assert len(set(names)) == len(names)
    assert "add::float32::2x3_2x3::alpha=1" in names
    assert "add::int64::0d_0d::alpha=2" in names


def test_seeds_are_deterministic_and_depend_on_base_seed():
    a = expand.expand([("f", _op())], base_seed=0)
    b = expand.expand([("f", _op())], base_seed=0)
    c = expand.expand([("f", _op())], base_seed=7)
    assert [x.seed for x in a] == [x.seed for x in b]
    assert [x.seed for x in a] != [x.seed for x in c]


def test_large_shapes_run_in_one_dtype():
    op = _op(shapes=(((512, 512), (512, 512)),), dtypes=("float16", "float32", "float64"), params=({"alpha": 1},))
    cases = expand.expand([("f", op)])
    assert [c.dtype for c in cases] == ["float32"]


def test_filters_by_fname_and_dtype():
    ops = [("f", _op()), ("f", _op(func="diopiSub", ref=lambda input, other, alpha: input - alpha * other))]
    assert {c.func for c in expand.expand(ops, fnames=["sub"])} == {"diopiSub"}
    assert {c.dtype for c in expand.expand(ops, dtypes=["int64"])} == {"int64"}


def test_fname_matching_rules():
    assert expand.matches("diopiAddInpScalar", ["add"])
    assert expand.matches("diopiAdd", ["diopiAdd"])
    assert not expand.matches("diopiAddcmul", ["add"])
    assert expand.matches("diopiAddcmul", ["add*"])


def test_explicit_cases_pair_shapes_with_params():
    op = _op(shapes=(), cases=((((2, 3), (2, 3)), {"alpha": 1}), (((4,), (4,)), {"alpha": 3})), dtypes=("float32",))
    names = [c.name for c in expand.expand([("f", op)])]
    assert names == ["add::float32::2x3_2x3::alpha=1", "add::float32::4_4::alpha=3"]


def test_unknown_parameter_is_refused_with_its_location(monkeypatch):
    import types
    mod = types.SimpleNamespace(bad=_op(params=({"alhpa": 1},)))
    monkeypatch.setattr(expand, "config_modules", lambda: {"elementwise_binary_arith": mod})
    with pytest.raises(ValueError, match=r"configs/elementwise_binary_arith.py: bad: diopiAdd has no parameter 'alhpa'"):
        expand.load_ops()


def test_tolerance_override_needs_a_reason():
    with pytest.raises(ValueError, match="tol_reason"):
        _op(tol={"float16": (1e-2, 1e-2)})


def test_generators_are_seeded_and_respect_dtypes():
    import numpy as np
    a = gen.randn()(np.random.default_rng(1), (3, 4), "float16")
    b = gen.randn()(np.random.default_rng(1), (3, 4), "float16")
    assert a.dtype == np.float16 and np.array_equal(a, b)
    ints = gen.randn()(np.random.default_rng(1), (100,), "uint8")
    assert ints.dtype == np.uint8 and ints.max() <= 10
    nz = gen.nonzero()(np.random.default_rng(2), (1000,), "float32")
    assert np.abs(nz).min() >= 0.5
    sp = gen.special(p=0.5)(np.random.default_rng(3), (1000,), "float32")
    assert np.isnan(sp).any() and np.isinf(sp).any()


def test_all_configs_load_and_expand():
    ops = expand.load_ops()
    cases = expand.expand(ops)
    assert len(cases) > 1000
    assert len({c.name for c in cases}) == len(cases)
