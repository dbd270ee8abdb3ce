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


# ---------------------------------------------------------------- the converse: documented dtypes have cases
# Functions the configs cannot give a baseline: the harness checks them by a
# property in every run instead (conformance/library_checks.py), so their
# dtypes are not a config's to cover.
def _library_checked():
    from conformance.library_checks import LIBRARY_CHECKS
    return set(LIBRARY_CHECKS)


# (function, parameter) -> (dtypes, reason): documented dtypes of a main
# input that no config case may give, each with why. Keep it empty if at
# all possible: a dtype nobody can compute belongs out of the doc list, and
# one that can be computed belongs in a case.
NO_CASE_FOR = {}


def _collective_dtypes():
    """{function: {parameter: {dtype, ...}}} the collective conformance gives
    (configs/collective.py, run by `main.py --mode collective`): collectives
    have no baselines, so their cases are not Op configs."""
    from conformance import collective_cases
    out = {}
    for c in collective_cases.expand(2):
        if c["dtype"] == "none" or c["kind"] in ("invalid", "matmul_all_reduce"):
            continue
        out.setdefault(c["func"], {}).setdefault("input", set()).add(c["dtype"])
        if c["kind"] == "send_recv":  # each send meets its receive
            out.setdefault("diopiCommRecv", {}).setdefault("out", set()).add(c["dtype"])
    return out


def _config_dtypes_by_param():
    """{function: {parameter: {dtype, ...}}} over the expanded family cases
    (and the collective cases), and {function: parameters some case
    generates in the case's dtype}."""
    ops = expand.load_ops()
    funcs = diopi_header.load()
    given, varied = _collective_dtypes(), {}
    for case in expand.expand(ops):
        op = case.op
        if op.prepare is not None:
            # A tensor no case generates is built by `prepare` from plain
            # values (diopiAmpUpdateScaleInp's found_inf): the case's dtype is
            # all the config says of it.
            for p in funcs[op.func].params:
                if (p.kind in ("tensor_in", "tensor_array_in") and p.name not in op.tensors
                        and p.name not in case.params and p.name not in op.extra):
                    given.setdefault(op.func, {}).setdefault(p.name, set()).add(case.dtype)
        for name, t in op.tensors.items():
            # Unlike above, arguments `prepare` reads count at their generated
            # dtype: nearly every prepare reads the data tensor only for its
            # shape and rewrites an index beside it. One that turns generated
            # keys into indices of another dtype makes an index parameter look
            # covered in float dtypes, which an index never documents.
            if name in op.extra:
                continue
            given.setdefault(op.func, {}).setdefault(name, set()).add(t.dtype or case.dtype)
            if t.dtype is None:
                varied.setdefault(op.func, set()).add(name)
    return given, varied


def main_input(fn, varied):
    """The parameter whose dtype a function is "for": the first tensor
    parameter read by the call (input or in-place inout, in header order)
    that the cases generate in the case's dtype, i.e. the one the configs
    sweep dtypes over. An index or mask that every case fixes (int64
    indices before the data in diopiMultiHeadAttentionVarLen) is therefore
    not it. Without such a parameter: the first documented input, so a
    function with no cases at all still has its dtypes checked."""
    tensors = [p for p in fn.params if p.kind in TENSOR_KINDS and p.dtypes]
    read = [p for p in tensors if p.role in ("input", "inout")]
    for group in (read, tensors):
        for p in group:
            if p.name in varied:
                return p
    return read[0] if read else None


def _uncovered(functions):
    given, varied = _config_dtypes_by_param()
    exempt = _library_checked()
    missing = []
    for fn in functions.values():
        if fn.name in exempt:
            continue
        p = main_input(fn, varied.get(fn.name, set()))
        if p is None:
            continue
        have = given.get(fn.name, {}).get(p.name, set())
        allowed = set(NO_CASE_FOR.get((fn.name, p.name), ((), ""))[0])
        lack = [d for d in p.dtypes if d not in have and d not in allowed]
        if lack:
            missing.append(f"{fn.name}({p.name}): documented {', '.join(lack)} without a case"
                           f" (cases give {', '.join(sorted(have)) or 'none'})")
    return missing


def test_every_documented_main_input_dtype_has_a_case(functions):
    """Every dtype the header documents for a function's main input is
    computed by at least one case of the family configs: a documented dtype
    without a case is a promise nobody checks (a vendor may refuse it, or
    compute it wrongly, and pass). A dtype the operation cannot compute is
    taken out of the doc list instead (so it is refused explicitly:
    diopiDtypeNotSupported for a dtype not listed)."""
    missing = _uncovered(functions)
    assert not missing, f"{len(missing)} documented dtypes without a case:\n" + "\n".join(missing)


def test_no_case_exceptions_are_needed_and_reasoned(functions):
    """Each exception names a documented dtype of the function's main input,
    says why, and is still needed (no case gives that dtype)."""
    given, varied = _config_dtypes_by_param()
    for (func, name), (dtypes, reason) in NO_CASE_FOR.items():
        fn = functions[func]
        assert reason.strip(), f"{func}({name}): an exception needs its reason"
        p = main_input(fn, varied.get(func, set()))
        assert p is not None and p.name == name, f"{func}({name}) is not the main input"
        assert set(dtypes) <= set(p.dtypes), f"{func}({name}): {dtypes} not all documented"
        stale = set(dtypes) & given.get(func, {}).get(name, set())
        assert not stale, f"{func}({name}): cases give {sorted(stale)} now; drop the exception"


def test_the_converse_check_sees_main_inputs(functions):
    """Guards the coverage test against passing vacuously."""
    given, varied = _config_dtypes_by_param()
    checked = [fn for fn in functions.values()
               if fn.name not in _library_checked() and main_input(fn, varied.get(fn.name, set())) is not None]
    assert len(checked) > 300
    assert main_input(functions["diopiMultiHeadAttentionVarLen"],
                      varied.get("diopiMultiHeadAttentionVarLen", set())).name != "cum_seq_q"


# ---------------------------------------------------------------- the model case sets have family cases too
READ_KINDS = ("tensor_in", "tensor_array_in")


def _generated_dtypes():
    """{function: {parameter: {dtype, ...}}} of the tensors the family configs
    generate themselves (not those `prepare` builds or rewrites: their dtype
    is known only once prepare ran with torch)."""
    out = {}
    for case in expand.expand(expand.load_ops()):
        op = case.op
        for name, t in op.tensors.items():
            if name in op.extra or name in _rewritten_by_prepare(op):
                continue
            out.setdefault(op.func, {}).setdefault(name, set()).add(t.dtype or case.dtype)
    return out


def test_model_case_dtypes_have_family_cases(functions):
    """Every dtype a captured model case set passes a read-only tensor
    parameter is one some family config case passes it as well: the
    generic suite, which a vendor runs first and at small sizes, then covers
    what the models need (it found torch's float32 step counts of fused
    AdamW, which only int64 cases had). A parameter no family case generates
    itself, because `prepare` derives it (max-pool indices from the forward),
    is judged by the documented-dtype test above alone."""
    generated = _generated_dtypes()
    missing, judged = [], 0
    for where, func, name, dtype in model_uses(functions):
        if functions[func].param(name).kind not in READ_KINDS or name not in generated.get(func, {}):
            continue
        judged += 1
        have = generated[func][name]
        if dtype not in have:
            missing.append(f"{where}: {func}({name}) in {dtype}; family cases give {', '.join(sorted(have))}")
    assert judged > 100  # the check sees the model calls
    assert not missing, f"{len(missing)} model dtypes without a family case:\n" + "\n".join(sorted(set(missing)))
