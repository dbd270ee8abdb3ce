"""The argument description (conformance/arguments.py): what a case record
says each C parameter receives, and that the replay (call.py) and the C
reproducer (repro.py) both render exactly that."""
import os
import types

import diopi_header
import numpy as np
import pytest

from conformance import arguments as A
from conformance import dtypes, enums, paths, repro, store


def _enc(values, dtype="float32"):
    return store.encode_array(np.asarray(values, dtype=dtypes.storage(dtype)), dtype)


def _fn(name):
    return diopi_header.load()[name]


def _record(func, inputs, outputs, **extra):
    return dict(func=func, name=f"{func}::test", inputs=inputs, outputs=outputs, **extra)


X = np.arange(6, dtype=np.float32).reshape(2, 3)
ADD = _record("diopiAdd", {"input": _enc(X), "other": _enc(X + 1), "alpha": 2}, {"out": _enc(3 * X + 2)})


def _forms(described):
    return {a.name: a.form for a in described.args}


def test_each_parameter_becomes_one_described_argument():
    d = A.describe(_fn("diopiAdd"), ADD)
    assert _forms(d) == {"ctx": A.CONTEXT, "out": A.TENSOR, "input": A.TENSOR, "other": A.TENSOR, "alpha": A.SCALAR}
    out, inp, alpha = (next(a for a in d.args if a.name == n) for n in ("out", "input", "alpha"))
    assert (out.tensors[0].role, out.tensors[0].shape, out.expected) == (A.OUTPUT, (2, 3), ADD["outputs"]["out"])
    assert out.produces and out.prefilled and not inp.produces
    assert np.array_equal(inp.tensors[0].array, X) and inp.tensors[0].role == A.INPUT
    assert (alpha.ctype, alpha.scalar_field) == ("int64", ("ival", 2))

    cat = A.describe(_fn("diopiCat"), _record("diopiCat", {"tensors": [_enc(X)] * 3, "dim": 0}, {"out": _enc(np.zeros((6, 3)))}))
    tensors, num_inputs = cat.args[2], cat.args[3]
    assert (tensors.form, tensors.ctype) == (A.TENSOR_LIST, "diopiConstTensorHandle_t")
    assert [t.label for t in tensors.tensors] == ["tensors[0]", "tensors[1]", "tensors[2]"]
    assert (num_inputs.form, num_inputs.value) == (A.NUMBER, 3)  # not in the record: the array's length

    div = A.describe(_fn("diopiDiv"), _record("diopiDiv", {"input": _enc(X), "other": _enc(X), "rounding_mode": "floor"}, {}))
    mode = div.args[-1]
    assert (mode.form, mode.value, mode.spelling) == (A.ENUM, enums.config_values("enum_round")["floor"], "floor")
    assert div.args[1].form == A.NULL  # no reference for out: the case passes NULL

    pad = A.describe(_fn("diopiPad"), _record("diopiPad", {"input": _enc(X), "pad": [1, 1], "mode": "constant", "value": 0.5}, {}))
    assert [(a.form, a.value) for a in pad.args[3:]] == [(A.SIZE, (1, 1)), (A.STRING, "constant"), (A.VALUE_PTR, 0.5)]
    assert pad.args[-1].ctype == "double"


def test_outputs_the_library_writes():
    inplace = A.describe(_fn("diopiForeachaddInpScalar"),
                         _record("diopiForeachaddInpScalar", {"inputs": [_enc(X), _enc(X)], "other": 1.0}, {"inputs": [_enc(X), _enc(X)]}))
    lst = inplace.args[1]
    assert (lst.form, lst.ctype, [t.role for t in lst.tensors]) == (A.TENSOR_LIST, "diopiTensorHandle_t", [A.INPLACE] * 2)
    assert lst.produces and not lst.prefilled
    nonzero = A.describe(_fn("diopiNonzero"), _record("diopiNonzero", {"input": _enc(X)}, {"out": _enc([[0, 1]], "int64")}))
    assert nonzero.args[1].form == A.ALLOCATED and nonzero.args[1].produces
    equal = A.describe(_fn("diopiEqual"), _record("diopiEqual", {"input": _enc(X), "other": _enc(X)}, {"out": True}))
    assert (equal.args[1].form, equal.args[1].ctype, equal.args[1].expected) == (A.NUMBER_OUT, "bool", True)


def test_inputs_are_laid_out_with_the_sentinel_in_their_gaps():
    t = A.describe(_fn("diopiAdd"), ADD, "noncontig").args[2].tensors[0]
    assert list(t.strides) == A.layout_strides((2, 3), "noncontig") and t.strides != (3, 1)
    storage = t.storage()
    assert storage.size == A.storage_elements(t.shape, t.strides)
    view = np.lib.stride_tricks.as_strided(storage, t.shape, [s * 4 for s in t.strides])
    assert np.array_equal(view, X)
    holes = np.ones(storage.size, dtype=bool)
    holes[[sum(i * s for i, s in zip(idx, t.strides)) for idx in np.ndindex(*t.shape)]] = False
    assert holes.any() and np.isnan(storage[holes]).all()


def test_outputs_start_as_the_sentinel_of_their_variant():
    out = A.describe(_fn("diopiAdd"), ADD, "contiguous", sentinel_variant=1).args[1].tensors[0]
    assert out.fill == 1 and (out.storage() == np.float32(-12345.0)).all()
    ints = A.TensorArg("out", A.OUTPUT, "int32", (4,), (1,), fill=0)
    assert ints.storage().tobytes() == b"\x5a" * 16


def test_layout_of_each_tensor():
    # A model case: named tensors keep the strides the model produced;
    # elements of a tensor list are replayed contiguous.
    rec = dict(ADD, captured_strides={"input": [1, 2], "out": [1, 2]})
    d = A.describe(_fn("diopiAdd"), rec, "captured")
    assert [a.tensors[0].strides for a in d.args[1:4]] == [(1, 2), (1, 2), (3, 1)]
    # A fuzz mutation gives one input its own (stride-0) view.
    d = A.describe(_fn("diopiAdd"), dict(ADD, fuzz_layouts={"other": "stride0"}))
    assert [a.tensors[0].strides for a in d.args[1:4]] == [(3, 1), (3, 1), (0, 1)]
    assert A.describe(_fn("diopiAdd"), dict(ADD, fuzz_alias=["out", "input"])).alias == ("out", "input")


def test_records_that_cannot_become_a_call():
    bad_enum = _record("diopiDiv", {"input": _enc(X), "other": _enc(X), "rounding_mode": "sideways"}, {})
    with pytest.raises(A.CaseError, match="rounding_mode: 'sideways' is not one of"):
        A.describe(_fn("diopiDiv"), bad_enum)
    with pytest.raises(A.CaseError, match="the case gives no value for dim"):
        A.describe(_fn("diopiCat"), _record("diopiCat", {"tensors": [_enc(X)]}, {}))


def test_reproducer_writes_the_described_tensors():
    rec = dict(ADD, captured_strides={"input": [1, 2], "out": [1, 2]})
    described = A.describe(_fn("diopiAdd"), rec, "captured", 1)
    prog = repro._Program(_fn("diopiAdd"), rec, "captured", 1)
    tensors = [t for a in described.args for t in a.tensors]
    files = [f for f in prog.files if f.role != "expected"]
    assert [(f.role, f.dtype, f.shape, f.strides, f.data) for f in files] == \
        [(t.role, t.dtype, t.shape, t.strides, t.storage().tobytes()) for t in tensors]
    assert prog.args == ["ctx", "out", "input", "other", "&alpha"]


def _runtime_path():
    for vendor in ("torch", "cpu"):
        path = os.path.join(paths.default_lib_dir(vendor), "libdiopirt.so")
        if os.path.exists(path):
            return path
    pytest.skip("needs the built test runtime (bash scripts/build_impl.sh cpu)")


@pytest.fixture(scope="module")
def runtime():
    """The test runtime alone: tensors and contexts, no operator library."""
    from conformance import binding
    ffi = binding.ffi()
    rt = ffi.dlopen(_runtime_path(), ffi.RTLD_NOW | ffi.RTLD_GLOBAL)
    assert rt.dt_init() == 0
    return types.SimpleNamespace(ffi=ffi, rt=rt, string=lambda c: ffi.string(c).decode())


@pytest.mark.parametrize("layout,variant", [("noncontig", 0), ("captured", 1)])
def test_replay_and_reproducer_make_the_same_tensors(runtime, layout, variant):
    from conformance.call import Call, metadata

    rec = dict(ADD, captured_strides={"input": [1, 2]})
    prog = repro._Program(_fn("diopiAdd"), rec, layout, variant)
    call = Call(runtime, _fn("diopiAdd"), rec, layout, variant)
    try:
        made = [(metadata(runtime, t.handle)[:2], t.storage_bytes()) for t in call.tensors]
        written = [((f.shape, f.strides), f.data) for f in prog.files if f.role != "expected"]
        assert made == written
        assert [label for label, _ in call.read_only] == ["input", "other"]
        assert [a.name for a, _ in call.outputs] == ["out"]
        assert call.args[-1].stype == dtypes.enum_value("int64") and call.args[-1].ival == 2
    finally:
        call.close()
