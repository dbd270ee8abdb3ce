"""run_test against a library whose functions crash (tests/crashing: every
function but four is impl/torch's): every case of a function that crashes
on every case is run and charged `crashed`, each in a worker forked from a
loaded one; a function that crashes only in one dtype has each case run; and what
the library printed before it died is in the report row, the console and a
`--case` re-run."""
import json
import os

import pytest

from support import make_baselines
from support import run_main

torch = pytest.importorskip("torch", reason="making baselines needs torch")

from conformance import expand  # noqa: E402

ALWAYS = {"diopiAdd": "what():  crashing: diopiAdd has no kernel for this device yet",  # a C++ exception's abort
          "diopiMul": "crashing: diopiMul about to write through a NULL pointer",     # stdout, never flushed
          "diopiSub": "crashing: diopiSub gave up"}                                  # stderr, then abort()
JOBS = 2


@pytest.fixture(scope="module")
def crashing_run(tmp_path_factory, crashing_lib, torch_lib_dir):
    data = tmp_path_factory.mktemp("data")
    reports = tmp_path_factory.mktemp("reports")
    cases = expand.expand(expand.load_ops(), fnames=("add", "mul", "sub", "div"), dtypes=("float32", "float16"))
    make_baselines(data, cases)
    proc = run_main("--mode", "run_test", "--impl_lib", crashing_lib, "--runtime_lib", os.path.join(torch_lib_dir, "libdiopirt.so"),
                    "--data_dir", str(data), "--report_dir", str(reports), "--jobs", str(JOBS))
    with open(reports / "summary.json") as f:
        summary = json.load(f)
    return proc, summary, str(data)


def _results(summary, func):
    return [c for c in summary["cases"] if c["function"] == func]


def test_every_case_of_an_always_crashing_function_is_crashed(crashing_run):
    proc, summary, _ = crashing_run
    assert proc.returncode == 1, proc.stderr
    for func in ALWAYS:
        rows = _results(summary, func)
        assert rows and all(c["result"]["verdict"] == "crashed" for c in rows), func
    others = {f for f in summary["functions"] if f not in ALWAYS and f != "diopiDiv" and not f.startswith("diopiGet")}
    assert others and all(set(v for v, n in summary["functions"][f].items() if n) == {"passed"} for f in others)


def test_every_crash_is_a_case_that_ran(crashing_run):
    _, summary, _ = crashing_run
    rows = [c["result"] for f in ALWAYS for c in _results(summary, f)]
    # No case is charged without running: every crashed verdict comes from a worker that died in that case's call.
    assert rows and all(r["verdict"] == "crashed" and not r.get("not_run") and "during the call" in r["message"] for r in rows)
    add = [r for c in _results(summary, "diopiAdd") for r in [c["result"]]]
    assert all("killed by SIGABRT" in r["message"] for r in add)
    # Crashes stay cheap: workers are forked from a process that loaded the library once.
    assert summary["forked"] is True, summary.get("forked")


def test_a_function_crashing_in_one_dtype_runs_every_case(crashing_run):
    _, summary, _ = crashing_run
    rows = _results(summary, "diopiDiv")
    half = [c["result"] for c in rows if "::float16::" in c["case"]]
    single = [c["result"] for c in rows if "::float32::" in c["case"]]
    assert half and all(r["verdict"] == "crashed" and not r.get("not_run") for r in half)
    assert single and all(r["verdict"] == "passed" for r in single)


def test_a_crash_keeps_what_the_library_printed_last(crashing_run):
    proc, summary, _ = crashing_run
    for func, words in ALWAYS.items():
        ran = [c["result"] for c in _results(summary, func) if not c["result"].get("not_run")]
        assert ran and all(words in r["message"] and words in r["output"] for r in ran), (func, ran[:1])
    assert ALWAYS["diopiAdd"] in proc.stdout  # the console's list of cases not passed


def test_a_case_rerun_alone_keeps_it_too(crashing_run, crashing_lib, torch_lib_dir, tmp_path):
    _, summary, data = crashing_run
    case = _results(summary, "diopiAdd")[-1]
    proc = run_main("--mode", "run_test", "--case", case["case"], "--layout", case["layout"], "--impl_lib", crashing_lib,
                    "--runtime_lib", os.path.join(torch_lib_dir, "libdiopirt.so"), "--data_dir", data, "--report_dir", str(tmp_path),
                    "--jobs", "1")
    assert proc.returncode == 1, proc.stderr
    assert f"[crashed] {case['case']} ({case['layout']}): the worker was killed by SIGABRT" in proc.stdout
    assert ALWAYS["diopiAdd"] in proc.stdout
    with open(tmp_path / "error_report.csv") as f:
        assert ALWAYS["diopiAdd"] in f.read()
