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


def test_documented_dtypes_agree_with_the_facts(facts):
    """Where DIOPI 1.0 documents a parameter's dtypes, ours list every one of
    them. Ours may list more, where DIOPI 1.0's own words promise them (floor:
    "integer inputs are returned unchanged" beside a float-only list); a
    dtype list is a promise to callers, so widening it breaks none of them.
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
            if want and not want <= set(p.dtypes):
                wrong.append((f["name"], p.name, sorted(want), p.dtypes))
    assert not wrong, wrong[:5]


def test_every_function_belongs_to_a_family_with_a_config_module():
    fams = diopi_header.families()
    assert "" not in fams, fams.get("")
    configs = os.path.join(ROOT, "diopi_test", "python", "configs")
    modules = {f[:-3] for f in os.listdir(configs) if f.endswith(".py") and not f.startswith("_")}
    assert modules <= set(fams), f"config modules not named after a family: {sorted(modules - set(fams))}"
