"""Every dtype a conformance case gives a tensor argument is one the header
documents for that parameter ("Dtypes: ..." in its @param line).

A case config that passes a dtype the header does not list either tests
behaviour the standard does not promise (the config is wrong) or shows a
promise the header forgot to write down (the doc is wrong); both are
contract bugs a vendor would trip over. Cases are enumerated the way the
harness enumerates them (conformance.expand for configs/<family>.py, the
captured calls of configs/model_config/*.yaml); nothing here runs torch or
loads a library.
"""
import inspect
import os
import sys

import pytest

import diopi_header

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "diopi_test", "python")
if HARNESS not in sys.path:
    sys.path.insert(0, HARNESS)

from conformance import expand, spec  # noqa: E402  (needs the harness on sys.path)

TENSOR_KINDS = ("tensor_in", "tensor_out", "tensor_array_in", "tensor_array_out")


@pytest.fixture(scope="module")
def functions():
    return diopi_header.load()


def _rewritten_by_prepare(op):
    """Tensor arguments whose final value `prepare` derives (with torch) from
    the generated one: the generated dtype is not what reaches the C call
    (float sort keys that become int64 indices, for instance), so only the
    model case sets, which record the real call, can speak for them."""
    if op.prepare is None:
        return set()
    return set(inspect.signature(op.prepare).parameters) & set(op.tensors)


def config_uses():
    """(where, function, parameter, dtype) for every tensor argument of every
    expanded case of the family configs."""
    ops = expand.load_ops()
    skipped = {id(op): _rewritten_by_prepare(op) for _, op in ops}
    seen = set()
    for case in expand.expand(ops):
        op = case.op
        for name, t in op.tensors.items():
            if name in op.extra or name in skipped[id(op)]:
                continue
            dtype = t.dtype or case.dtype
            key = (op.func, name, dtype)
            if key not in seen:
                seen.add(key)
                yield (f"configs/{case.family}.py: {case.name}", op.func, name, dtype)


def _tensor_dtypes(desc):
    if isinstance(desc, dict) and "tensor" in desc:
        yield desc["dtype"]
    elif isinstance(desc, list):
        for d in desc:
            yield from _tensor_dtypes(d)


def model_uses(functions):
    """The same for the captured model case sets: inputs and outputs, as the
    model's ATen call produced them. Keys that are not parameters of the
    function (helpers the capture records for the reference) are not C
    arguments and are left out."""
    yaml = pytest.importorskip("yaml", reason="reading the model case sets needs PyYAML")
    from conformance import model_cases  # imports yaml itself

    del yaml
    seen = set()
    for model in model_cases.names():
        for c in model_cases.load(model)["cases"]:
            fn = functions.get(c["diopi"])
            names = {p.name for p in fn.params} if fn else set()
            for name, desc in c["diopi_args"].items():
                if name not in names:
                    continue
                for dtype in _tensor_dtypes(desc):
                    key = (c["diopi"], name, dtype)
                    if key not in seen:
                        seen.add(key)
                        yield (f"configs/model_config/{model}.yaml: {c['name']}", c["diopi"], name, dtype)


def _undocumented(uses, functions):
    wrong = []
    for where, func, name, dtype in uses:
        fn = functions[func]
        p = fn.param(name)
        if p.kind not in TENSOR_KINDS:
            wrong.append(f"{where}: {func}({name}) is not a tensor parameter but the case gives it a {dtype} tensor")
        elif dtype not in p.dtypes:
            listed = ", ".join(p.dtypes) or "none"
            wrong.append(f"{where}: {func}({name}) gets {dtype}; the header documents {listed}")
    return sorted(set(wrong))


def test_config_cases_use_documented_dtypes(functions):
    wrong = _undocumented(config_uses(), functions)
    assert not wrong, f"{len(wrong)} undocumented dtypes, e.g.:\n" + "\n".join(wrong[:25])


def test_model_cases_use_documented_dtypes(functions):
    wrong = _undocumented(model_uses(functions), functions)
    assert not wrong, f"{len(wrong)} undocumented dtypes, e.g.:\n" + "\n".join(wrong[:25])


def test_every_tensor_parameter_documents_its_dtypes(functions):
    """A tensor parameter without a dtype list leaves a vendor guessing what
    diopiDtypeNotSupported may be returned for."""
    missing = [f"{fn.name}({p.name})" for fn in functions.values() for p in fn.params
               if p.kind in TENSOR_KINDS and not p.dtypes]
    assert not missing, f"{len(missing)} tensor parameters without 'Dtypes: ...': {missing[:20]}"


def test_the_check_sees_cases():
    """Guards the tests above against passing vacuously (a config path or
    loader change that yields no cases)."""
    uses = list(config_uses())
    assert len({u[1] for u in uses}) > 300, "expected the family configs to cover most functions"
    assert all(d in spec.ALL + ("complex64", "complex128") for _, _, _, d in uses)
