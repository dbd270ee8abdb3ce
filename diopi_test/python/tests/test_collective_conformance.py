"""`main.py --mode collective`: the collective interface checked on several rank processes at once.

impl/torch passes every case on 2 ranks; a library with planted defects (tests/faulty_collective) gets a verdict
naming the collective and the case for each defect (a wrong reduction on one dtype, a rank-dependent result, a
hang, a crash), and the run ends; a library without the interface is reported as not implementing it."""
import csv
import json
import os
import shlex
import subprocess
import time

import numpy as np
import pytest

from support import PYTHON_DIR, run_main

from conformance import collective_cases as cc, pace  # noqa: E402


def _summary(report_dir):
    with open(os.path.join(report_dir, "summary.json")) as f:
        return json.load(f)


def _verdicts(summary):
    return {c["case"]: c["result"] for c in summary["cases"]}


def _exports_collectives(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
    return out.returncode == 0 and "diopiCommInitRank" in out.stdout


@pytest.fixture(scope="module")
def torch_impl(torch_lib_dir):
    lib = os.path.join(torch_lib_dir, "libdiopi_impl.so")
    if not _exports_collectives(lib):
        pytest.skip("impl/torch was built without the collective interface (no gloo/ headers: apt-get install libgloo-dev)")
    return lib


# ---------------------------------------------------------------- the cases themselves
def test_case_names_are_unique_and_name_their_world_size():
    for ws in (2, 4):
        cases = cc.expand(ws)
        names = [c["name"] for c in cases]
        assert len(names) == len(set(names))
        assert all(f"::ws{ws}::" in n for n in names)
        assert cases[0]["kind"] == "init"


def test_cases_take_dtypes_and_reductions_from_the_header():
    import diopi_header
    cases = cc.expand(2)
    want = set(diopi_header.load()["diopiCommAllGather"].param("input").dtypes) & set(cc.dtypes.NAMES)
    assert {c["dtype"] for c in cases if c["kind"] == "all_gather"} == want
    assert {c["op"] for c in cases if c["kind"] == "all_reduce"} == {"sum", "prod", "min", "max", "avg"}
    refused = {(c["dtype"], c["op"]) for c in cases if c.get("expect") == "refuse"}
    assert ("int32", "avg") in refused and ("complex64", "max") in refused and ("float32", "avg") not in refused


def test_expected_values_follow_the_header_rules():
    a, b = np.array([True, False, False]), np.array([True, True, False])
    assert cc.reduce_arrays([a, b], "bool", "sum").tolist() == [True, True, False]
    assert cc.reduce_arrays([a, b], "bool", "min").tolist() == [True, False, False]
    i8 = np.array([100], np.int8)
    assert cc.reduce_arrays([i8, i8], "int8", "sum").tolist() == [-56]  # wraps as int8 arithmetic does
    f = cc.reduce_arrays([np.float32([1.0]), np.float32([2.0])], "float32", "avg")
    assert f.tolist() == [1.5]


def test_inputs_differ_by_rank_and_repeat_by_seed():
    case = next(c for c in cc.expand(2) if c["kind"] == "all_reduce" and c["dtype"] == "float32")
    r0, r1 = cc.inputs(case, 0)["input"], cc.inputs(case, 1)["input"]
    assert not np.array_equal(r0, r1)
    assert np.array_equal(r0, cc.inputs(case, 0)["input"])


def test_world_size_is_checked():
    proc = run_main("--mode", "collective", "--world_size", "1")
    assert proc.returncode == 2 and "--world_size" in proc.stderr


# ---------------------------------------------------------------- against libraries
def test_impl_torch_passes_every_case_on_two_ranks(tmp_path, torch_impl):
    t0 = time.monotonic()
    proc = run_main("--mode", "collective", "--world_size", "2", "--impl_lib", torch_impl, "--report_dir", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    s = _summary(tmp_path)
    cases = s["cases"]
    assert len(cases) == len(cc.expand(2)) > 500
    assert all(c["result"]["verdict"] == "passed" for c in cases)
    funcs = {c["function"] for c in cases}
    assert {"diopiCommAllReduce", "diopiCommBroadcast", "diopiCommReduce", "diopiCommAllGather", "diopiCommReduceScatter",
            "diopiCommAllToAll", "diopiCommSend", "diopiCommBarrier", "diopiCommGroupEnd", "diopiCommInitRank",
            "diopiMatmulAllReduce"} <= funcs
    assert "collective: " in proc.stdout and time.monotonic() - t0 < 240


def test_a_library_without_the_interface_is_not_implemented(tmp_path, faulty_lib, torch_lib_dir):
    proc = run_main("--mode", "collective", "--world_size", "2", "--fname", "comm_all_reduce", "--impl_lib", faulty_lib,
                    "--runtime_lib", os.path.join(torch_lib_dir, "libdiopirt.so"), "--report_dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-2000:]
    verdicts = {c["result"]["verdict"] for c in _summary(tmp_path)["cases"]}
    assert verdicts == {"not_implemented"}


@pytest.fixture(scope="module")
def defective_run(tmp_path_factory, faulty_collective_lib, torch_impl, torch_lib_dir):
    reports = tmp_path_factory.mktemp("faulty_collective_reports")
    env = dict(os.environ, DIOPI_FAULTY_FORWARD=torch_impl)
    slowdown = pace.measure()
    t0 = time.monotonic()
    proc = run_main("--mode", "collective", "--world_size", "2", "--impl_lib", faulty_collective_lib,
                    "--runtime_lib", os.path.join(torch_lib_dir, "libdiopirt.so"), "--timeout", "5",
                    "--fname", "comm_all_reduce", "comm_barrier", "comm_all_to_all", "comm_broadcast",
                    "--filter_dtype", "int32", "float64", "float32", "--report_dir", str(reports), env=env)
    seconds = time.monotonic() - t0
    # The run's deadlines follow the machine's pace (capped at pace.CAP): so does the bound on its length.
    slowdown = min(max(slowdown, pace.measure()), pace.CAP)
    return proc, _summary(reports), reports, env, (seconds, slowdown)


def test_the_defective_run_ends_and_fails(defective_run):
    proc, _, _, _, (seconds, slowdown) = defective_run
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert seconds < 180 * slowdown, (seconds, slowdown)  # one hang costs --timeout, not the run


def test_a_wrong_reduction_on_one_dtype_fails_only_there(defective_run):
    _, s, _, _, _ = defective_run
    v = _verdicts(s)
    max_int32 = [n for n in v if n.startswith("comm_all_reduce::ws2::int32::") and "op=max" in n and "::0x3::" not in n]
    assert max_int32 and all(v[n]["verdict"] == "failed" and "values differ" in v[n]["message"] for n in max_int32)
    others = [n for n in v if n.startswith("comm_all_reduce::ws2::int32::") and ("op=max" not in n or "::0x3::" in n)]
    assert others and all(v[n]["verdict"] == "passed" for n in others)
    assert all(v[n]["verdict"] == "passed" for n in v if n.startswith("comm_all_reduce::ws2::float32::"))


def test_a_rank_dependent_result_is_caught_within_tolerance(defective_run):
    _, s, _, _, _ = defective_run
    v = _verdicts(s)
    sums = [n for n in v if n.startswith("comm_all_reduce::ws2::float64::") and "op=sum" in n and "::contiguous" in n
            and "::0x3::" not in n]
    assert sums and all(v[n]["verdict"] == "failed" and "rank-dependent result: rank 1" in v[n]["message"] for n in sums)


def test_a_hang_is_a_timeout_of_its_collective(defective_run):
    _, s, _, _, _ = defective_run
    v = _verdicts(s)
    barrier = [n for n in v if n.startswith("comm_barrier::")]
    assert barrier and all(v[n]["verdict"] == "timeout" and "rank 1" in v[n]["message"] for n in barrier)
    # the ranks were replaced: later collectives still ran and passed
    assert any(n.startswith("comm_broadcast::") and r["verdict"] == "passed" for n, r in v.items())


def test_a_crash_names_the_rank_and_spares_the_other_cases(defective_run):
    _, s, _, _, _ = defective_run
    v = _verdicts(s)
    split = [n for n in v if n.startswith("comm_all_to_all::") and "splits=equal" not in n]
    equal = [n for n in v if n.startswith("comm_all_to_all::") and "splits=equal" in n]
    assert split and all(v[n]["verdict"] == "crashed" and "rank 0 was killed by SIGABRT" in v[n]["message"] for n in split)
    assert equal and all(v[n]["verdict"] == "passed" for n in equal)


def test_the_repro_line_replays_one_failing_case(defective_run, tmp_path):
    _, _, reports, env, _ = defective_run
    with open(os.path.join(reports, "error_report.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["verdict"] == "failed" and "int32" in r["case"]]
    assert rows
    argv = shlex.split(rows[0]["repro"])
    assert argv[:4] == ["python", "main.py", "--mode", "collective"] and rows[0]["case"] in argv
    proc = subprocess.run(["python3"] + argv[1:] + ["--report_dir", str(tmp_path)], cwd=PYTHON_DIR, capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 1, proc.stderr[-2000:]
    replay = _verdicts(_summary(tmp_path))
    assert replay[rows[0]["case"]]["verdict"] == "failed" and len(replay) == 2  # the case, and the communicator it needs
