"""Unit tests of the header model (diopi_header): parsing, roles, dtypes,
enums, versions, and the abi-diff / check-v1 commands."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import diopi_header
from diopi_header import abi, model, parse

HERE = os.path.dirname(os.path.abspath(__file__))


def test_import_does_no_parsing():
    code = ("import diopi_header, sys; "
            "assert diopi_header.standard.cache_info().currsize == 0; "
            "assert 'pycparser' not in sys.modules, 'parsing machinery loaded at import'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_paths_point_at_the_checkout():
    assert os.path.isfile(diopi_header.RUNTIME_HEADER)
    names = [os.path.basename(h) for h in diopi_header.HEADERS]
    # diopirt.h, the operator headers, then every other header of the folder by name
    assert names[:3] == ["diopirt.h", "functions.h", "functions_ext.h"] and {"collective.h", "device.h"} <= set(names)
    assert names[3:] == sorted(names[3:]) and len(names) == len(os.listdir(os.path.dirname(diopi_header.RUNTIME_HEADER)))
    # DIOPI_INCLUDE_DIR points every tool at other headers (tests/test_adding_an_operator.py runs these tests so)
    expected = os.environ.get("DIOPI_INCLUDE_DIR") or os.path.join(HERE, "..", "..", "include")
    assert os.path.samefile(diopi_header.INCLUDE_DIR, expected)


def test_load_is_cached_and_keyed_by_name():
    funcs = diopi_header.load()
    assert funcs is diopi_header.load()
    assert all(name == fn.name for name, fn in funcs.items())
    # one entry per DIOPI_API declaration of the operator headers
    declared = 0
    for h in diopi_header.HEADERS[1:]:
        with open(h) as f:
            declared += len(re.findall(r"^DIOPI_API\b", f.read(), re.M))
    assert len(funcs) == declared
    assert not set(funcs) & set(diopi_header.runtime_functions())


def test_records_are_frozen():
    fn = diopi_header.load()["diopiAdd"]
    with pytest.raises(AttributeError):
        fn.name = "x"
    with pytest.raises(AttributeError):
        fn.params[0].kind = "x"


def test_public_api_of_a_function():
    fn = diopi_header.load()["diopiAdd"]
    assert fn.header == "functions.h" and fn.returns == "diopiError_t"
    assert [p.name for p in fn.params] == ["ctx", "out", "input", "other", "alpha"]
    assert fn.param("alpha") == fn.params[4]
    with pytest.raises(KeyError):
        fn.param("nope")
    assert [p.name for p in fn.outputs] == ["out"]
    assert fn.family == "elementwise_binary_arith"
    assert fn.brief.startswith("Computes out = input + alpha * other")
    assert fn.signature == ("diopiError_t(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, "
                            "diopiConstTensorHandle_t, const diopiScalar_t*)")


def test_param_positional_construction_still_works():
    p = diopi_header.Param("out", "diopiTensorHandle_t", "tensor_out")
    assert p.is_output and p.role == "" and p.dtypes == () and not p.optional


def test_roles_from_doc_directions():
    f = diopi_header.load()
    add = f["diopiAdd"]
    assert [p.role for p in add.params] == ["context", "output", "input", "input", "input"]
    inp = f["diopiAddInp"]
    assert inp.param("input").role == diopi_header.INOUT and inp.param("input").direction == "inout"
    assert [p.name for p in inp.inputs] == ["input", "other", "alpha"]
    bn = f["diopiBatchNorm"]
    assert bn.param("running_mean").role == diopi_header.INOUT
    assert bn.param("running_mean").optional
    for fn in f.values():
        for p in fn.params:
            assert p.role in diopi_header.ROLES, (fn.name, p)
            if p.kind == "tensor_in":
                assert p.role == diopi_header.INPUT, (fn.name, p.name)


def test_optional_parameters_follow_the_doc():
    f = diopi_header.load()
    conv = f["diopiConvolution2d"]
    assert conv.param("bias").optional
    assert not conv.param("input").optional
    assert f["diopiConvolution2dBackward"].param("bias_sizes").optional   # "NULL means no bias gradient"


def test_documented_dtypes():
    f = diopi_header.load()
    assert f["diopiConvolution2d"].param("input").dtypes == ("float32", "float16", "float64", "bfloat16")
    assert f["diopiAdd"].param("alpha").dtypes == ("float32", "float64", "int32", "int64")
    assert f["diopiBatchNormStats"].param("invstd").dtypes == ("float32", "float16", "float64")
    known = set(diopi_header.dtypes()) | {"double", "char*", "string"}
    for fn in f.values():
        for p in fn.params:
            assert set(p.dtypes) <= known, (fn.name, p.name, p.dtypes)


@pytest.mark.parametrize("text,want", [
    ("x. Dtypes: float32, float16, float64.", ("float32", "float16", "float64")),
    ("x. Dtypes: float32, * float16, float64.", ("float32", "float16", "float64")),
    ("mode. Dtypes: char *.", ("char*",)),
    ("no list here", ()),
    ("x; Dtypes: int64; more", ("int64",)),
])
def test_dtype_list_parsing(text, want):
    assert parse.documented_dtypes(text) == want


def test_doc_block_parsing():
    doc = parse.parse_doc("""
 * @brief Does a thing
 *        over two lines.
 * @param[in] ctx context.
 * @param[in,out] x value, may be NULL. Dtypes: float32,
 *     float64.
 * @param[out] y result
 * @return diopiSuccess
""")
    assert doc.brief == "Does a thing over two lines."
    assert doc.params["x"][0] == "inout"
    assert parse.documented_dtypes(doc.params["x"][1]) == ("float32", "float64")
    assert parse.is_optional(doc.params["x"][1]) and not parse.is_optional(doc.params["y"][1])
    assert doc.params["y"] == ("out", "result")


def test_families_cover_every_function():
    fams = diopi_header.families()
    assert "" not in fams
    assert sum(len(v) for v in fams.values()) == len(diopi_header.load())
    assert "diopiConvolution2d" in fams["convolution"]


def test_enums_from_diopirt():
    enums = diopi_header.enums()
    runtime = {name for name, e in enums.items() if e.header == "diopirt.h"}
    assert runtime == {"diopiDtype_t", "diopiError_t", "diopiMemoryFormat_t", "diopiReduction_t",
                       "diopiRoundMode_t", "diopiDevice_t"}
    assert enums["diopiError_t"].value_of("diopiDtypeNotSupported") == 1000
    assert enums["diopiError_t"].enumerator_of(13) == "diopiNoImplement"
    assert enums["diopiError_t"].enumerators[0].doc == "the call completed"
    assert enums["diopiMemoryFormat_t"].as_dict()["ChannelsLast1d"] == 4
    assert diopi_header.enum("diopiRoundMode_t").as_dict() == \
        {"RoundModeNone": 0, "RoundModeTrunc": 1, "RoundModeFloor": 2, "RoundModeEND": 3}
    assert diopi_header.error_codes()["diopiSuccess"] == 0


def test_dtypes_table():
    d = diopi_header.dtypes()
    assert d["int8"] == 0 and d["float32"] == 9 and d["bfloat16"] == 12 and d["complex128"] == 16
    assert "unsupported" not in d
    assert len(set(d.values())) == len(d)


def test_version_and_macros():
    v = diopi_header.version()
    m = diopi_header.macros()
    assert (v.major, v.minor, v.patch) == (m["DIOPI_VER_MAJOR"], m["DIOPI_VER_MINOR"], m["DIOPI_VER_PATCH"])
    assert v.number == m["DIOPI_VERSION"] == v.major * 1000 + v.minor * 100 + v.patch
    assert str(v) == f"{v.major}.{v.minor}.{v.patch}"


def test_structs_and_handles():
    s = diopi_header.structs()
    assert [(f.ctype, f.name) for f in s["diopiSize_t"].fields] == [("const int64_t*", "data"), ("int64_t", "len")]
    assert s["diopiScalar_t"].fields[1] == model.Field("union{double fval; int64_t ival;}", "(anonymous)")
    td = diopi_header.standard().typedefs
    assert td["diopiConstTensorHandle_t"] == "const struct diopiTensor*"
    assert "int64_t" not in td


def test_runtime_functions():
    rt = diopi_header.runtime_functions()
    assert rt["diopiGetVersion"].returns == "const char*" and rt["diopiGetVersion"].params == ()
    assert [p.ctype for p in rt["diopiGetTensorData"].params] == ["diopiTensorHandle_t", "void**"]


def test_cdef_source_is_plain_c():
    src = diopi_header.cdef_source()
    assert "#" not in src and "DIOPI_API" not in src and "/*" not in src
    assert "diopiAdd(" in src


@pytest.mark.parametrize("name,want", [("diopiAddInpScalar", "add_inp_scalar"), ("diopiConvolution2d", "convolution2d"),
                                       ("diopiCTCLoss", "ctc_loss"), ("diopiNLLLossV2", "nll_loss_v2")])
def test_snake(name, want):
    assert diopi_header.snake(name) == want


# ---------------------------------------------------------------- abi-diff / check-v1
def _copy_headers(tmp_path):
    dst = tmp_path / "include"
    shutil.copytree(diopi_header.INCLUDE_DIR, dst)
    return dst


def _edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "diopi_header", *map(str, args)], capture_output=True, text=True)


def test_abi_diff_identical(tmp_path):
    new = _copy_headers(tmp_path)
    res = _cli("abi-diff", diopi_header.INCLUDE_DIR, new)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 breaking" in res.stdout


def test_abi_diff_additions_are_not_breaking(tmp_path):
    new = _copy_headers(tmp_path)
    _edit(new / "diopi" / "diopirt.h", "    ReductionEND = 3,", "    ReductionEND = 3,\n    ReductionMax = 4,")
    with open(new / "diopi" / "functions_ext.h", "a") as f:
        f.write("\nDIOPI_API diopiError_t diopiBrandNew(diopiContextHandle_t ctx, diopiTensorHandle_t out);\n")
    old_std, new_std = diopi_header.standard(), diopi_header.standard_in(str(new))
    changes = abi.diff(old_std, new_std)
    assert {(c.change, c.what, c.name) for c in changes} == {
        ("added", "enumerator", "diopiReduction_t::ReductionMax"), ("added", "function", "diopiBrandNew")}
    assert not any(c.breaking for c in changes)
    assert _cli("abi-diff", diopi_header.INCLUDE_DIR, new).returncode == 0


def test_abi_diff_breaking_changes(tmp_path):
    new = _copy_headers(tmp_path)
    _edit(new / "diopi" / "diopirt.h", "diopiNoImplement = 13,", "diopiNoImplement = 17,")
    _edit(new / "diopi" / "functions.h", "diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,",
          "diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t input,")
    text = (new / "diopi" / "functions.h").read_text()
    (new / "diopi" / "functions.h").write_text(re.sub(r"DIOPI_API diopiError_t diopiSub\(.*?\);\n", "", text, flags=re.S))
    changes = abi.diff(diopi_header.standard(), diopi_header.standard_in(str(new)))
    got = {(c.change, c.what, c.name): c.breaking for c in changes}
    assert got[("changed", "enumerator", "diopiError_t::diopiNoImplement")]
    assert got[("changed", "function", "diopiAdd")]
    assert got[("removed", "function", "diopiSub")]
    res = _cli("abi-diff", diopi_header.INCLUDE_DIR, new)
    assert res.returncode == 1
    assert "- function diopiSub" in res.stdout and "[BREAKING]" in res.stdout


def test_abi_diff_parameter_rename_is_reported_but_not_breaking(tmp_path):
    new = _copy_headers(tmp_path)
    _edit(new / "diopi" / "functions.h", "diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out,",
          "diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t result,")
    changes = abi.diff(diopi_header.standard(), diopi_header.standard_in(str(new)))
    assert [(c.name, c.breaking) for c in changes] == [("diopiAdd", False)]


def test_check_v1_passes_on_the_checkout():
    res = _cli("check-v1", diopi_header.V1_INTERFACE)
    assert res.returncode == 0, res.stdout
    assert "0 problem(s)" in res.stdout


def test_check_v1_reports_a_changed_enum_value(tmp_path):
    with open(diopi_header.V1_INTERFACE) as f:
        facts = json.load(f)
    facts["runtime"]["enums"]["diopiDtype_t"][0][1] = 99
    facts["functions"] = [f for f in facts["functions"] if f["name"] != "diopiAdd"] + [
        {"header": "functions.h", "name": "diopiNotThere", "returns": "diopiError_t", "params": []}]
    problems, notes = abi.check_v1(facts, diopi_header.standard())
    assert {p.area for p in problems} == {"enums", "functions"}
    assert any("diopiNotThere" in p.message for p in problems)
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(facts))
    assert _cli("check-v1", path).returncode == 1


# ---------------------------------------------------------------- import graph
def _imports(folder, skip=()):
    """Top-level names imported by the .py files of a folder (sub-folders named in `skip` left out)."""
    names = set()
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if os.path.join(root, d) not in skip]
        for f in files:
            if f.endswith(".py"):
                with open(os.path.join(root, f)) as fh:
                    names |= set(re.findall(r"^\s*(?:from|import)\s+(\w+)", fh.read(), re.M))
    return names


def test_the_header_model_sits_at_the_bottom():
    root = os.path.join(HERE, "..", "..", "..")
    tools = {"conformance", "codegen", "diopi_torch"}
    assert not _imports(os.path.dirname(diopi_header.__file__)) & tools
    # the adaptor's codegen reads the header model, never the harness
    assert "conformance" not in _imports(os.path.join(root, "adaptor", "codegen"))
    assert "diopi_header" in _imports(os.path.join(root, "adaptor", "codegen"))
    # harness, adaptor and device sit side by side above it: none imports another
    # (the harness runs the device's capture as a separate process)
    harness = _imports(os.path.join(root, "diopi_test", "python", "conformance"))
    pkg = os.path.join(root, "bridge", "torch", "diopi_torch")
    bringup = os.path.join(pkg, "tools")
    device = _imports(pkg, skip=(bringup,)) | _imports(os.path.join(root, "bridge", "torch", "codegen"))
    assert "diopi_header" in harness and "diopi_header" in device
    assert not harness & {"diopi_torch", "codegen"}
    assert "conformance" not in device
    assert "diopi_torch" not in _imports(os.path.join(root, "adaptor", "codegen"))
    # the bring-up tools (diopi_torch.tools) alone join the two: capture turns the device's calls into the
    # harness's baselines, precision replays them. They import the harness only inside the functions
    # that need it, so `import diopi_torch` never loads it and the device runs where it is absent.
    assert "conformance" in _imports(bringup)
    for f in os.listdir(bringup):
        if f.endswith(".py"):
            with open(os.path.join(bringup, f)) as fh:
                assert not re.search(r"^(?:from|import)\s+conformance", fh.read(), re.M), f


# ---------------------------------------------------------------- collective.h
def test_the_collective_header_is_its_own_family_with_its_own_types():
    std = diopi_header.standard()
    comm = [fn for fn in std.functions.values() if fn.header == "collective.h"]
    assert comm and {fn.family for fn in comm} == {"collective"}
    assert diopi_header.families()["collective"] == [fn.name for fn in comm]
    assert diopi_header.enum("diopiReduceOp_t").header == "collective.h"
    assert diopi_header.enum("diopiReduceOp_t").as_dict() == {
        "diopiReduceSum": 0, "diopiReduceProd": 1, "diopiReduceMin": 2, "diopiReduceMax": 3, "diopiReduceAvg": 4}
    assert diopi_header.structs()["diopiCommUniqueId_t"].fields == (model.Field("char [128]", "internal"),)
    assert std.typedefs["diopiCommHandle_t"] == "struct diopiComm*"
    assert diopi_header.macros()["DIOPI_COMM_UNIQUE_ID_BYTES"] == 128


def test_the_collective_header_has_its_own_version():
    v = diopi_header.header_versions()["collective.h"]
    m = diopi_header.macros()
    assert (v.major, v.minor, v.patch, v.number) == (m["DIOPI_COMM_VER_MAJOR"], m["DIOPI_COMM_VER_MINOR"],
                                                     m["DIOPI_COMM_VER_PATCH"], m["DIOPI_COMM_VERSION"])
    assert diopi_header.version().number == m["DIOPI_VERSION"]  # the standard's own version is diopirt.h's


def test_collective_parameters_have_kinds_and_roles():
    f = diopi_header.load()
    init = f["diopiCommInitRank"]
    assert [(p.name, p.kind, p.role) for p in init.params] == [
        ("comm", "comm_out", "output"), ("world_size", "int", "input"), ("unique_id", "unique_id", "input"),
        ("rank", "int", "input"), ("timeout_ms", "int", "input")]
    assert f["diopiCommGetName"].param("name").kind == "string_out"
    ar = f["diopiCommAllReduce"]
    assert [p.kind for p in ar.params] == ["context", "comm", "tensor_out", "tensor_in", "enum_reduce_op"]
    assert "bfloat16" in ar.param("input").dtypes and "uint32" not in ar.param("input").dtypes
    assert "uint32" in f["diopiCommAllGather"].param("input").dtypes
    assert f["diopiCommBroadcast"].param("input").optional and f["diopiCommReduce"].param("out").optional
    assert f["diopiCommGroupStart"].params == ()
    unknown = [(fn.name, p.name) for fn in f.values() if fn.header == "collective.h" for p in fn.params if p.kind == "unknown"]
    assert not unknown


def test_abi_diff_sees_the_collective_header(tmp_path):
    """Adding collective.h is an addition; taking it away, or renumbering
    its enum, is breaking; a new MAJOR of its own version is breaking."""
    src = os.path.join(diopi_header.INCLUDE_DIR, "diopi")
    without = tmp_path / "without" / "diopi"
    shutil.copytree(src, without)
    os.remove(without / "collective.h")
    old, new = diopi_header.standard_in(str(without)), diopi_header.standard()
    added = abi.diff(old, new)
    assert added and not [c for c in added if c.breaking]
    assert {("enum", "diopiReduceOp_t"), ("interface version", "collective.h")} <= {(c.what, c.name) for c in added}
    assert any(c.breaking and c.name == "diopiCommAllReduce" for c in abi.diff(new, old))
    bumped = tmp_path / "bumped" / "diopi"
    shutil.copytree(src, bumped)
    text = (bumped / "collective.h").read_text()
    text = text.replace("#define DIOPI_COMM_VER_MAJOR 1", "#define DIOPI_COMM_VER_MAJOR 2")
    text = text.replace("diopiReduceAvg = 4", "diopiReduceAvg = 5")
    (bumped / "collective.h").write_text(text)
    changes = abi.diff(new, diopi_header.standard_in(str(bumped)))
    breaking = {(c.what, c.name) for c in changes if c.breaking}
    assert ("enumerator", "diopiReduceOp_t::diopiReduceAvg") in breaking
    assert ("interface version", "collective.h") in breaking


# ---------------------------------------------------------------- graph.h
def test_the_graph_header_is_in_the_model_with_its_own_version_and_no_operators():
    assert "graph.h" in diopi_header.HEADER_NAMES
    std = diopi_header.standard()
    m = diopi_header.macros()
    v = diopi_header.header_versions()["graph.h"]
    assert (v.major, v.minor, v.patch, v.number) == (m["DIOPI_GRAPH_VER_MAJOR"], m["DIOPI_GRAPH_VER_MINOR"],
                                                     m["DIOPI_GRAPH_VER_PATCH"], m["DIOPI_GRAPH_VERSION"])
    assert not [fn for fn in std.functions.values() if fn.header == "graph.h"]  # only the entry point's type
    table = [f.name for f in diopi_header.structs()["diopiGraphCompiler_t"].fields]
    assert table[:2] == ["version", "size"] and {"compile", "run", "destroy"} <= set(table)
    assert [f.name for f in diopi_header.structs()["diopiGraph_t"].fields][:2] == ["version", "size"]
    assert diopi_header.enum("diopiGraphArgKind_t").header == "graph.h"
    assert std.typedefs["diopiGraphExecutableHandle_t"] == "struct diopiGraphExecutable*"


def test_abi_diff_sees_the_graph_header(tmp_path):
    """graph.h is an addition; a field inserted into its table (not appended) is breaking."""
    src = os.path.join(diopi_header.INCLUDE_DIR, "diopi")
    without = tmp_path / "without" / "diopi"
    shutil.copytree(src, without)
    os.remove(without / "graph.h")
    old, new = diopi_header.standard_in(str(without)), diopi_header.standard()
    added = abi.diff(old, new)
    assert added and not [c for c in added if c.breaking]
    assert {("struct", "diopiGraph_t"), ("interface version", "graph.h")} <= {(c.what, c.name) for c in added}
    moved = tmp_path / "moved" / "diopi"
    shutil.copytree(src, moved)
    text = (moved / "graph.h").read_text()
    text = text.replace("    /** Number of tensors. */\n    int32_t num_tensors;\n", "")
    text = text.replace("    /** The nodes, in execution order. */\n", "    /** Number of tensors. */\n    int32_t num_tensors;\n"
                        "    /** The nodes, in execution order. */\n")
    (moved / "graph.h").write_text(text)
    breaking = {(c.what, c.name) for c in abi.diff(new, diopi_header.standard_in(str(moved))) if c.breaking}
    assert ("struct", "diopiGraph_t") in breaking
