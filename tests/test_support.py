"""proto/support: the header-only pieces the device, the test runtime and the
ATen vendor share (dtype table, JSON writer, the caller's half of diopirt.h
as a template), and the plan schema of compiled graphs with its generator."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUPPORT = os.path.join(ROOT, "proto", "support", "include")
INCLUDE = os.path.join(ROOT, "proto", "include")
SCHEMA = os.path.join(ROOT, "bridge", "torch", "diopi_torch", "graph", "plan_schema.py")
GENERATOR = os.path.join(ROOT, "bridge", "torch", "codegen", "plan_schema.py")
# An awkward string for the JSON writer: quotes, backslash, control characters, UTF-8.
ECHO = 'a "quoted" \\ back\tslash\nline \x01 é'


def _cxx():
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler on PATH")
    return cxx


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """What the toy caller (tests/support/caller_runtime_check.cpp) saw, built as C++17 without warnings."""
    cxx = _cxx()
    out = tmp_path_factory.mktemp("support") / "check"
    cmd = [cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", INCLUDE, "-I", SUPPORT,
           os.path.join(ROOT, "tests", "support", "caller_runtime_check.cpp"), "-o", str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    run = subprocess.run([str(out), ECHO], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_json_writer_round_trips_awkward_strings(report):
    assert report["echo"] == ECHO


def test_dtype_table_matches_the_header_and_torch(report):
    import diopi_header
    torch = pytest.importorskip("torch")
    codes = diopi_header.dtypes()  # name -> value, read from diopirt.h
    table = {int(k): v for k, v in report["dtypes"].items()}
    assert {name for name, _ in table.values()} == set(codes)
    for value, (name, size) in table.items():
        assert codes[name] == value, name
        # element sizes from an independent source: torch's own dtypes (tfloat32 is stored as float32)
        twin = {"tfloat32": "float32", "complex32": "chalf"}.get(name, name)
        assert size == getattr(torch, twin).itemsize, name


def test_caller_runtime_answers_through_the_traits(report):
    status = _status()
    assert report["shape_status"] == status["diopiSuccess"] and report["shape"] == [2, 3]
    assert report["numel_status"] == status["diopiSuccess"] and report["numel"] == 6
    assert report["elem"] == report["dtypes"][str(report["dtype"])][1]
    assert report["version"]


def test_caller_runtime_rejects_bad_arguments(report):
    status = _status()
    assert report["null_handle"] == status["diopiErrorOccurred"]
    assert report["null_out"] == status["diopiErrorOccurred"]
    assert report["buffer_negative"] == status["diopiErrorOccurred"]
    assert report["negative_size"] == status["diopiErrorOccurred"]
    assert report["unsupported_dtype"] == status["diopiDtypeNotSupported"]


def test_no_exception_crosses_the_c_abi(report):
    assert report["throwing_traits"] == _status()["diopiErrorOccurred"]
    assert report["error"] == "poisoned tensor"


def test_buffers_and_generator_state(report):
    import diopi_header
    status = _status()
    codes = diopi_header.dtypes()
    assert report["buffer_status"] == status["diopiSuccess"]
    assert report["buffer_bytes"] == 10 and report["buffer_dtype"] == codes["int8"]
    assert report["state_status"] == status["diopiSuccess"] and report["state"] == [1, 2, 3]
    assert report["state_device"] == _enum("diopiDevice_t")["diopi_host"]
    assert report["set_state_status"] == status["diopiSuccess"] and report["set_state_size"] == 3


def _enum(name):
    import diopi_header
    return {e.name: e.value for e in diopi_header.enums()[name].enumerators}


def _status():
    return _enum("diopiError_t")


# ---------------------------------------------------------------- plan schema

def _load_schema():
    """The schema module by path: it is data only, and importing diopi_torch would load the device."""
    spec = importlib.util.spec_from_file_location("plan_schema_under_test", SCHEMA)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _generate(tmp_path, schema=SCHEMA):
    return subprocess.run([sys.executable, GENERATOR, "--out", str(tmp_path), "--schema", str(schema)],
                          capture_output=True, text=True)


def test_plan_schema_header_compiles_with_every_code(tmp_path):
    res = _generate(tmp_path)
    assert res.returncode == 0, res.stderr
    header = (tmp_path / "plan_schema.hpp").read_text()
    ps = _load_schema()
    for table in (ps.ARGS, ps.EAGER, ps.BASES, ps.SCALARS):
        for code, name, _, _ in table:
            assert f'{{"{code}", ' in header and f"::{name}, " in header, (code, name)
    src = tmp_path / "t.cpp"
    src.write_text('#include "plan_schema.hpp"\n'
                   'static_assert(diopi_torch::graph::plan::find(diopi_torch::graph::plan::kArgKindCodes, "t").has_value());\n'
                   'static_assert(!diopi_torch::graph::plan::find(diopi_torch::graph::plan::kArgKindCodes, "no such").has_value());\n'
                   "int main() { return 0; }\n")
    res = subprocess.run([_cxx(), "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", str(tmp_path), str(src), "-o",
                          str(tmp_path / "t")], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_plan_schema_codes_by_name():
    ps = _load_schema()
    for codes, table in ((ps.ARG, ps.ARGS), (ps.EAGER_ARG, ps.EAGER), (ps.BASE, ps.BASES), (ps.SCALAR, ps.SCALARS)):
        for code, name, payload, _ in table:
            assert getattr(codes, name) == code
            assert codes.payload(code) == payload
    with pytest.raises(ValueError):
        ps.ARG.payload("no such code")


@pytest.mark.parametrize("entry,replacement,message", [
    ('("zp", "SizePtr", "ints"', '("z", "SizePtr", "ints"', "already used"),
    ('("zp", "SizePtr", "ints"', '("zp", "SizePtr", "intz"', "payload 'intz'"),
    ('("zp", "SizePtr", "ints"', '("zp", "class", "ints"', "not usable"),
    ('("zp", "SizePtr", "ints"', '("zp", "SizePtr", "ints", "extra"', "four strings"),
])
def test_a_bad_schema_entry_stops_the_generator_at_its_line(tmp_path, entry, replacement, message):
    text = open(SCHEMA).read()
    assert entry in text
    line = text[:text.index(entry)].count("\n") + 1
    bad = tmp_path / "bad_schema.py"
    bad.write_text(text.replace(entry, replacement, 1))
    res = _generate(tmp_path, bad)
    assert res.returncode != 0
    assert res.stderr.startswith(f"{bad}:{line}: "), res.stderr
    assert message in res.stderr
    assert not (tmp_path / "plan_schema.hpp").exists()
