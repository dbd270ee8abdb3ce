"""The headers declare exactly the DIOPI 1.0 interface: every function of
functions.h and functions_ext.h with the same name, parameter types and
order, the same enum values, struct fields and runtime functions. The facts
live in the repository (proto/interface), and the checks are the ones
`python -m diopi_header check-v1` runs."""
import json
import os

import pytest

import diopi_header
from diopi_header import abi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INTERFACE = os.path.join(ROOT, "proto", "interface", "diopi_v1_interface.json")


@pytest.fixture(scope="module")
def facts():
    with open(INTERFACE) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def problems(facts):
    found, _ = abi.check_v1(facts, diopi_header.standard())
    return found


def _area(problems, area):
    return [str(p) for p in problems if p.area == area]


def test_the_package_reads_the_facts_of_this_checkout():
    assert os.path.samefile(diopi_header.V1_INTERFACE, INTERFACE)


def test_every_listed_function_is_declared_in_its_header(facts):
    declared = diopi_header.load()
    want = {f["name"]: f for f in facts["functions"] if f["header"] in ("functions.h", "functions_ext.h")}
    assert want, "the facts list no function of functions.h / functions_ext.h"
    missing = sorted(set(want) - set(declared))
    assert not missing, f"not declared: {missing[:10]}"
    wrong_header = [n for n, f in want.items() if declared[n].header != f["header"]]
    assert not wrong_header, wrong_header[:10]


def test_signatures_match(problems):
    assert not _area(problems, "functions"), _area(problems, "functions")[:3]


def test_enum_values_match(facts, problems):
    assert set(facts["runtime"]["enums"]) <= set(diopi_header.enums())
    assert not _area(problems, "enums")


def test_struct_layouts_match(problems):
    assert not _area(problems, "structs")
    scalar = diopi_header.structs()["diopiScalar_t"]
    assert [(f.ctype, f.name) for f in scalar.fields] == [("diopiDtype_t", "stype"),
                                                          ("union{double fval; int64_t ival;}", "(anonymous)")]


def test_runtime_functions_match(problems):
    assert not _area(problems, "runtime")


def test_opaque_handles_match(problems):
    assert not _area(problems, "handles")


def test_version_matches(problems):
    assert not _area(problems, "version")


# Dtypes DIOPI 1.0 documents that no implementation can compute, left out of
# our lists so that the contract says what a call can do (the caller gets
# diopiDtypeNotSupported, as from DIOPI 1.0's own reference on ATen). Each is
# refused by torch itself; (function, parameter) -> (dtypes, why).
_INT = ("int8", "uint8", "int16", "int32", "int64")
_FLOAT_RESULT_IN_PLACE = "an in-place call stores a floating-point result into the integer input (torch: result type Float can't be cast)"
NOT_COMPUTABLE = {
    **{(f, "input"): (_INT, _FLOAT_RESULT_IN_PLACE) for f in (
        "diopiSinInp", "diopiAsinInp", "diopiCosInp", "diopiAcosInp", "diopiTanInp", "diopiLogInp", "diopiLog2Inp")},
    **{(f, "input"): (("bool",), "subtraction of a bool tensor is not defined (torch refuses it: use logical_xor)") for f in (
        "diopiSub", "diopiSubInp", "diopiSubScalar", "diopiSubInpScalar")},
    **{(f, "input"): (("bool",), "the quotient (float, or floor/trunc not defined for bool) cannot be stored in place in a bool tensor")
       for f in ("diopiDivInp", "diopiDivInpScalar")},
    ("diopiUniformInp", "inout"): (("int8", "int16", "int32", "int64"), "samples of a continuous distribution are not integers (torch: uniform_ not implemented for them)"),
}


def test_documented_dtypes_agree_with_the_facts(facts):
    """Where DIOPI 1.0 documents a parameter's dtypes, ours list every one of
    them. Ours may list more, where DIOPI 1.0's own words promise them (floor:
    "integer inputs are returned unchanged" beside a float-only list); a
    dtype list is a promise to callers, so widening it breaks none of them.
    Ours list fewer only for the promises nobody can keep (NOT_COMPUTABLE).
    (Directions are not compared: DIOPI 1.0 documents many in-place
    parameters as [in], ours say [in,out].)"""
    declared = diopi_header.load()
    wrong = []
    for f in facts["functions"]:
        d = declared.get(f["name"])
        if d is None:
            continue
        for fp, p in zip(f["params"], d.params):
            want = {t.replace(" ", "").lstrip("*") for t in fp.get("doc_dtypes") or ()}
            want -= set(NOT_COMPUTABLE.get((f["name"], p.name), ((), ""))[0])
            if want and not want <= set(p.dtypes):
                wrong.append((f["name"], p.name, sorted(want), p.dtypes))
    assert not wrong, wrong[:5]


def test_not_computable_dtypes_stay_out(facts):
    """The narrowings above are real: DIOPI 1.0 lists each dtype, ours does not."""
    declared = diopi_header.load()
    listed = {(f["name"], fp["name"]): set(fp.get("doc_dtypes") or ()) for f in facts["functions"] for fp in f["params"]}
    for (func, name), (dtypes, why) in NOT_COMPUTABLE.items():
        assert why
        assert set(dtypes) <= listed[(func, name)], (func, name)
        assert not set(dtypes) & set(declared[func].param(name).dtypes), (func, name)


def test_every_function_belongs_to_a_family_with_a_config_module():
    fams = diopi_header.families()
    assert "" not in fams, fams.get("")
    configs = os.path.join(ROOT, "diopi_test", "python", "configs")
    modules = {f[:-3] for f in os.listdir(configs) if f.endswith(".py") and not f.startswith("_")}
    assert modules <= set(fams), f"config modules not named after a family: {sorted(modules - set(fams))}"
