"""run_test --repro: the C reproducers of failing cases build with their
documented command and, run alone against the library, report the same
verdict as the harness and exit non-zero."""
import csv
import os
import re
import shlex
import shutil
import subprocess

import pytest

from support import make_baselines
from support import run_main

torch = pytest.importorskip("torch", reason="making baselines needs torch")

from conformance import expand, repro, spec  # noqa: E402
from conformance.reftorch import torch as T  # noqa: E402

# A few defects of tests/faulty (one verdict each) and one correct function.
_PAIR = (((3, 4), (3, 4)),)
OPS = [
    ("elementwise_binary_arith", spec.Op("diopiAdd", lambda input, other, alpha: T.add(input, other, alpha=alpha),
                                         tensors=dict(input=spec.T(), other=spec.T()), shapes=_PAIR, dtypes=("float32",),
                                         params=({"alpha": 1},))),
    ("elementwise_binary_arith", spec.Op("diopiSub", lambda input, other, alpha: T.sub(input, other, alpha=alpha),
                                         tensors=dict(input=spec.T(), other=spec.T()), shapes=_PAIR, dtypes=("float32",),
                                         params=({"alpha": 1},))),
    ("elementwise_binary_arith", spec.Op("diopiMul", lambda input, other: T.mul(input, other), tensors=dict(input=spec.T(), other=spec.T()),
                                         shapes=_PAIR, dtypes=("float32",), layouts=("contiguous",), layout_reason="one crash is enough")),
] + [
    ("elementwise_unary", spec.Op(f"diopi{name}", ref, tensors=dict(input=spec.T()), shapes=(((2, 3, 5),),), dtypes=("float32",)))
    for name, ref in (("Abs", lambda input: T.abs(input)), ("Neg", lambda input: T.neg(input)), ("Tanh", lambda input: T.tanh(input)),
                      ("Relu", lambda input: T.relu(input)))
]


@pytest.fixture(scope="module")
def repro_run(tmp_path_factory, faulty_lib):
    base = tmp_path_factory.mktemp("repro")
    data, reports, out = base / "data", base / "reports", base / "c"
    make_baselines(data, expand.expand(OPS))
    proc = run_main("--mode", "run_test", "--impl_lib", faulty_lib, "--data_dir", str(data), "--report_dir", str(reports),
                    "--timeout", "10", "--repro", str(out))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    with open(reports / "error_report.csv") as f:
        rows = [r for r in csv.DictReader(f) if not r["case"].startswith("library::")]
    return proc, rows, out


def _build_and_run(repro_c):
    """Builds with the command documented at the top of repro.c, runs it."""
    with open(repro_c) as f:
        text = f.read()
    m = re.search(r"^ \*   (cc .*)$", text, re.M)
    assert m, "repro.c documents no build command"
    case_dir = os.path.dirname(repro_c)
    build = subprocess.run(shlex.split(m.group(1)) + ["-Wall", "-Werror"], cwd=case_dir, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    return subprocess.run(["./repro"], cwd=case_dir, capture_output=True, text=True, timeout=60)


def _row(rows, func, layout):
    return next(r for r in rows if r["function"] == func and r["layout"] == layout)


def test_every_failing_case_gets_a_reproducer(repro_run):
    proc, rows, out = repro_run
    assert rows
    for r in rows:
        assert r["repro_c"].startswith(str(out)) and os.path.isfile(r["repro_c"]), r
        assert r["repro"].startswith("python main.py --mode run_test --case ")  # the Python repro stays
        files = os.listdir(os.path.join(os.path.dirname(r["repro_c"]), "data"))
        assert "tensors.txt" in files and any(f.endswith(".bin") for f in files)
    # Passing cases get none: only the failing ones' folders exist.
    assert sorted(os.listdir(out)) == sorted(os.path.basename(os.path.dirname(r["repro_c"])) for r in rows)
    assert f"repro: {len(rows)} C reproducers" in proc.stdout


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler to build the reproducers")
@pytest.mark.parametrize("func,layout,verdict", [
    ("diopiSub", "noncontig", "failed"),             # wrong values, strided tensors
    ("diopiAbs", "contiguous", "oob_write"),         # guard bytes overwritten
    ("diopiNeg", "noncontig", "input_modified"),     # read-only input changed
    ("diopiRelu", "noncontig", "gap_write"),         # strides ignored: writes between the output's elements
])
def test_reproducer_reports_the_harness_verdict(repro_run, func, layout, verdict):
    _, rows, _ = repro_run
    row = _row(rows, func, layout)
    assert row["verdict"] == verdict, row
    run = _build_and_run(row["repro_c"])
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"verdict: {verdict}\n" in run.stdout
    assert f"harness verdict: {verdict} (reproduced)" in run.stdout
    if row["mismatches"]:  # same comparison: same count and first index as the harness
        reason = next(line for line in run.stdout.splitlines() if line.startswith("reason:"))
        assert f": {row['mismatches']}/" in reason
        assert "first at " + row["first_index"] in reason


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler to build the reproducers")
def test_crash_reproduces_by_crashing(repro_run):
    _, rows, _ = repro_run
    row = _row(rows, "diopiMul", "contiguous")
    assert row["verdict"] == "crashed", row
    run = _build_and_run(row["repro_c"])
    assert run.returncode < 0, run.stdout + run.stderr  # died of a signal, as the harness's worker did
    assert "verdict: crashed" in run.stdout


def test_reproducer_data_describes_the_strided_layout(repro_run):
    _, rows, _ = repro_run
    case_dir = os.path.dirname(_row(rows, "diopiSub", "noncontig")["repro_c"])
    with open(os.path.join(case_dir, "data", "tensors.txt")) as f:
        lines = {parts[0]: parts[1:] for parts in (line.split() for line in f if not line.startswith("#"))}
    role, dtype, shape, strides, offset, elems = lines["input.bin"]
    assert (role, dtype, shape, offset) == ("input", "float32", "3,4", "0")
    assert strides != "4,1"  # the non-contiguous variant, not a contiguous copy
    assert os.path.getsize(os.path.join(case_dir, "data", "input.bin")) == int(elems) * 4
    assert lines["out.expected.bin"][0] == "expected"


def test_c_literals():
    assert repro.c_string('a"b\\c\n\x01') == '"a\\"b\\\\c\\n\\001"'
    assert repro.c_double(float("inf")) == "INFINITY" and repro.c_double(float("nan")) == "NAN"
    assert repro.c_int(2**40) == f"INT64_C({2**40})" and repro.c_int(-(2**63)) == "INT64_MIN"
    assert repro.slug("a::b c", "noncontig") != repro.slug("a::b c", "contiguous")


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler to build the libraries and the reproducer")
def test_reproducer_uses_the_runtime_it_was_told_to(tmp_path, faulty_lib, torch_lib_dir):
    """A vendor folder that holds its own libdiopirt.so (a decoy here, which
    the vendor library even names as a dependency), a library named
    libdiopi_impl.so like the reference one beside the test runtime: the
    reproducer links the runtime run_test used and loads the library run_test
    tested, whatever the folders hold and whatever LD_LIBRARY_PATH says."""
    vendor = tmp_path / "vendor"
    vendor.mkdir()
    (tmp_path / "decoy.c").write_text('#include <stdio.h>\nint dt_init(void) { fprintf(stderr, "the decoy runtime\\n"); return 1; }\n'
                                      'int dt_init_device(const void* rt, const void* err) { return dt_init(); }\n')
    subprocess.run(["cc", "-shared", "-fPIC", str(tmp_path / "decoy.c"), "-Wl,-soname,libdiopirt.so", "-o", str(vendor / "libdiopirt.so")],
                   check=True)
    src = os.path.join(os.path.dirname(__file__), "faulty", "faulty_impl.c")
    subprocess.run(["cc", "-std=c11", "-shared", "-fPIC", "-I", repro.paths.INCLUDE_DIR, src, "-o", str(vendor / "libdiopi_impl.so"),
                    "-Wl,--no-as-needed", f"-L{vendor}", "-ldiopirt", "-Wl,-rpath,$ORIGIN", "-lm"], check=True)
    data, reports, out = tmp_path / "data", tmp_path / "reports", tmp_path / "c"
    make_baselines(data, expand.expand(OPS[1:2]))  # diopiSub: wrong values
    proc = run_main("--mode", "run_test", "--impl_lib", str(vendor / "libdiopi_impl.so"), "--runtime_lib",
                    os.path.join(torch_lib_dir, "libdiopirt.so"), "--data_dir", str(data), "--report_dir", str(reports),
                    "--repro", str(out), "--layout", "contiguous")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    with open(reports / "error_report.csv") as f:
        row = next(r for r in csv.DictReader(f) if r["function"] == "diopiSub")
    case_dir = os.path.dirname(row["repro_c"])
    with open(row["repro_c"]) as f:
        build = re.search(r"^ \*   (cc .*)$", f.read(), re.M).group(1)
    assert build.count("libdiopirt.so") == 1 and str(vendor) not in build  # only the runtime run_test used
    made = subprocess.run(shlex.split(build) + ["-Wall", "-Werror"], cwd=case_dir, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    env = dict(os.environ, LD_LIBRARY_PATH=str(vendor))  # as a vendor's shell may have it
    run = subprocess.run(["./repro"], cwd=case_dir, capture_output=True, text=True, timeout=60, env=env)
    assert "decoy" not in run.stderr and run.returncode == 1, run.stdout + run.stderr
    assert "harness verdict: failed (reproduced)" in run.stdout, run.stdout
