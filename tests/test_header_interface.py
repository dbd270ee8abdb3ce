"""The headers declare exactly the DIOPI 1.0 interface: every function of
functions.h and functions_ext.h with the same name, parameter types and
order, the same enum values, struct fields and runtime functions."""
import json
import os
import re

import pytest
from pycparser import c_ast, c_parser

from conformance import header

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INTERFACE = os.path.join(ROOT, "proto", "interface", "diopi_v1_interface.json")


def _norm(t):
    t = re.sub(r"\s*\*", "*", t.strip())
    return re.sub(r"\s+", " ", t)


@pytest.fixture(scope="module")
def facts():
    with open(INTERFACE) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def declared():
    return header.load()


def test_every_listed_function_is_declared_in_its_header(facts, declared):
    want = {f["name"]: f for f in facts["functions"] if f["header"] in ("functions.h", "functions_ext.h")}
    assert len(want) == 426
    missing = sorted(set(want) - set(declared))
    assert not missing, f"not declared: {missing[:10]}"
    wrong_header = [n for n, f in want.items() if declared[n].header != f["header"]]
    assert not wrong_header, wrong_header[:10]


@pytest.mark.parametrize("hdr", ["functions.h", "functions_ext.h"])
def test_signatures_match(facts, declared, hdr):
    mismatches = []
    for f in facts["functions"]:
        if f["header"] != hdr:
            continue
        d = declared[f["name"]]
        want = [(_norm(p["type"]), p["name"]) for p in f["params"]]
        got = [(p.ctype, p.name) for p in d.params]
        if want != got or _norm(f["returns"]) != d.returns:
            mismatches.append((f["name"], want, got))
    assert not mismatches, mismatches[:3]


def _runtime_ast():
    with open(header.paths.HEADERS[0]) as fh:
        text = header._PRELUDE + header.preprocess(fh.read())
    return c_parser.CParser().parse(text)


def test_enum_values_match(facts):
    enums = {}
    for node in _runtime_ast().ext:
        if isinstance(node, c_ast.Typedef) and isinstance(node.type.type, c_ast.Enum):
            values, nxt = [], 0
            for e in node.type.type.values.enumerators:
                nxt = int(e.value.value) if e.value is not None else nxt
                values.append([e.name, nxt])
                nxt += 1
            enums[node.name] = values
    for name, values in facts["runtime"]["enums"].items():
        assert enums.get(name) == [list(v) for v in values], name


def _field(d):
    header._strip_name(d.type)
    return header._type_string(d.type), d.name


def test_struct_layouts_match(facts):
    structs = {}
    for node in _runtime_ast().ext:
        if isinstance(node, c_ast.Typedef) and isinstance(node.type.type, c_ast.Struct):
            structs[node.name] = node.type.type
    size = structs["diopiSize_t"]
    assert [_field(d) for d in size.decls] == \
        [(_norm(t), n) for t, n in facts["runtime"]["structs"]["diopiSize_t"]]
    scalar = structs["diopiScalar_t"]
    assert _field(scalar.decls[0]) == ("diopiDtype_t", "stype")
    union = scalar.decls[1].type
    assert isinstance(union, c_ast.Union)
    assert [_field(d) for d in union.decls] == [("double", "fval"), ("int64_t", "ival")]


def test_runtime_functions_match(facts):
    rt = header.runtime_functions()
    for f in facts["runtime"]["functions"]:
        assert f["name"] in rt, f["name"]
        want = []
        for a in filter(None, (s.strip() for s in f["args"].split(","))):
            # the facts keep parameter names where the original has them
            m = re.match(r"^(.*?[\w\*])\s+(\w+)$", a)
            want.append(_norm(m.group(1) if m and not a.endswith("*") else a))
        got = [p.ctype for p in rt[f["name"]].params]
        assert got == want, (f["name"], got, want)
        assert rt[f["name"]].returns == _norm(f["returns"])


def test_opaque_handles_match(facts):
    with open(header.paths.HEADERS[0]) as fh:
        text = fh.read()
    for entry in facts["runtime"]["opaque_handles"]:
        name, target = (s.strip() for s in entry.split("="))
        pattern = r"\s*".join(re.escape(tok) for tok in re.findall(r"\w+|\*", target))
        assert re.search(r"typedef\s+" + pattern + r"\s*" + name + r"\s*;", text), entry


def test_every_function_belongs_to_a_family_with_a_config_module(declared):
    fams = header.families()
    assert "" not in fams, fams.get("")
    configs = os.path.join(ROOT, "diopi_test", "python", "configs")
    modules = {f[:-3] for f in os.listdir(configs) if f.endswith(".py") and not f.startswith("_")}
    assert modules <= set(fams), f"config modules not named after a family: {sorted(modules - set(fams))}"
