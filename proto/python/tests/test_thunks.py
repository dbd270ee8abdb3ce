"""Unit tests of diopi_header.thunks: which slot member and which cast a call
thunk uses for each parameter, and which operators get a thunk at all."""
import os
import shutil
import subprocess

import pytest

import diopi_header
from diopi_header import model, thunks as th

CTX = model.Param("ctx", "diopiContextHandle_t", "context", model.CONTEXT)


def _fn(name, *params, header="functions.h", context=True):
    ps = tuple(model.Param(n, t, model.kind_of(t)) for n, t in params)
    return model.Function(name, header, "diopiError_t", ((CTX,) if context else ()) + ps)


def _by_name(fns):
    return {f.name: f for f in fns}


def test_each_kind_is_read_from_its_member_and_cast_to_its_c_type():
    fn = _fn("diopiAll", ("out", "diopiTensorHandle_t"), ("scalar", "const diopiScalar_t*"), ("size", "diopiSize_t"),
             ("n", "const int64_t"), ("eps", "double"), ("flag", "bool"), ("mode", "diopiRoundMode_t"))
    [t] = th.thunks(_by_name([fn]))
    assert t.name == "diopiAll" and t.function is fn
    got = [(x.kind, x.member, x.cast) for x in t.args]
    assert got == [
        ("tensor_out", "p", "static_cast<diopiTensorHandle_t>(a[0].p)"),
        ("scalar", "p", "static_cast<const diopiScalar_t*>(a[1].p)"),
        ("size", "z", "a[2].z"),                                  # a diopiSize_t needs no cast
        ("int", "i", "static_cast<int64_t>(a[3].i)"),             # the const of a value type is dropped
        ("float", "d", "static_cast<double>(a[4].d)"),
        ("bool", "b", "static_cast<bool>(a[5].b)"),
        ("enum_round", "i", "static_cast<diopiRoundMode_t>(a[6].i)"),
    ]


def test_a_slot_without_a_bool_member_reads_bools_from_the_integer():
    fn = _fn("diopiF", ("flag", "const bool"), ("p", "const bool*"))
    [t] = th.thunks(_by_name([fn]), members="pzid", slots="s")
    assert [(x.member, x.cast) for x in t.args] == [("i", "static_cast<bool>(s[0].i)"),
                                                    ("p", "static_cast<const bool*>(s[1].p)")]


def test_only_operators_with_every_parameter_expressible_get_a_thunk():
    fns = _by_name([
        _fn("diopiOk", ("x", "diopiConstTensorHandle_t")),
        _fn("diopiList", ("xs", "diopiConstTensorHandle_t*"), ("n", "int64_t")),
        _fn("diopiNotAnOperator", ("x", "diopiConstTensorHandle_t"), header="collective.h"),
        _fn("diopiNoContext", ("x", "diopiConstTensorHandle_t"), context=False),
        _fn("diopiComm", ("c", "diopiCommHandle_t")),                    # a kind no slot holds
        _fn("diopiOdd", ("u", "struct unknown")),                        # "unknown" kind
    ])
    assert [t.name for t in th.thunks(fns)] == ["diopiOk", "diopiList"]
    # a generator whose graph cannot express a tensor list keeps it out
    assert [t.name for t in th.thunks(fns, kinds={"tensor_in", "int"})] == ["diopiOk"]


def test_misuse_is_refused():
    with pytest.raises(ValueError, match="members"):
        th.thunks({}, members="pid")
    with pytest.raises(ValueError, match="comm"):
        th.thunks({}, kinds={"tensor_in", "comm"})


def test_the_header_model_gives_every_expressible_operator_a_thunk():
    funcs = diopi_header.load()
    names = [t.name for t in th.thunks()]
    want = [f.name for f in funcs.values() if f.header in th.OPERATOR_HEADERS and f.params
            and f.params[0].kind == model.CONTEXT and all(p.kind in th.SLOT_MEMBER for p in f.params[1:])]
    assert names == want and "diopiAdd" in names
    add = _by_name(th.thunks())["diopiAdd"]
    assert [(x.param.name, x.member) for x in add.args] == [("out", "p"), ("input", "p"), ("other", "p"), ("alpha", "p")]


@pytest.mark.parametrize("members", ["pzidb", "pzid"])
def test_every_thunk_of_the_headers_compiles(tmp_path, members):
    """The casts are valid C++ for every operator: each thunk calls the
    declared function through a pointer of its own type."""
    if shutil.which("c++") is None:
        pytest.skip("no c++ on PATH to check the generated casts")
    fields = {"p": "void* p;", "z": "diopiSize_t z;", "i": "int64_t i;", "d": "double d;", "b": "bool b;"}
    lines = ["#include <diopi/functions.h>", "#include <diopi/functions_ext.h>", "#include <cstdint>",
             "struct Slot { " + " ".join(fields[m] for m in members) + " };"]
    items = th.thunks(members=members)
    assert items, "no operator to check"
    for t in items:
        call = ", ".join(["ctx"] + [x.cast for x in t.args])
        lines.append(f"diopiError_t t_{t.name}(void (*f)(), diopiContextHandle_t ctx, const Slot* a) "
                     f"{{ return reinterpret_cast<decltype(&::{t.name})>(f)({call}); }}")
    src = tmp_path / "thunks.cpp"
    src.write_text("\n".join(lines) + "\n")
    res = subprocess.run(["c++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-I", diopi_header.INCLUDE_DIR, str(src)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-4000:]
