"""Verdicts come from runs of the case (tests/planted): a case slow only
after earlier calls left state behind is `order_dependent` and names the
earlier calls that make it so; one that was slow once (as on a briefly
overloaded machine) and not after the same earlier calls again passed; a
function that crashes for one argument value is charged only for the
cases that crashed, each with the library's own error line; with a cap on
crashes, the cases not run are `skipped` with the reason."""
import csv
import json
import os

import pytest

from support import make_baselines
from support import run_main

torch = pytest.importorskip("torch", reason="making baselines needs torch")

from conformance import expand, spec  # noqa: E402
from conformance.reftorch import torch as T  # noqa: E402

SHAPES = tuple(((n, 3),) for n in range(1, 9))  # 8 cases, 16 replays with the non-contiguous layout
STATE_CALLS = 10  # diopiAbs hangs on the next new input once a process saw this many
SPIKE_AT = 4      # the call of diopiNeg (counted across processes) that hangs once
SLOPES = ({"negative_slope": 0.01}, {"negative_slope": 0.2}, {"negative_slope": -0.5})  # -0.5 crashes
OPS = [
    ("elementwise_unary", spec.Op("diopiAbs", lambda input: T.abs(input), tensors=dict(input=spec.T()), shapes=SHAPES,
                                  dtypes=("float32",))),
    ("elementwise_unary", spec.Op("diopiNeg", lambda input: T.neg(input), tensors=dict(input=spec.T()), shapes=SHAPES,
                                  dtypes=("float32",))),
    ("activation", spec.Op("diopiLeakyRelu", lambda input, negative_slope: T.nn.functional.leaky_relu(input, negative_slope),
                           tensors=dict(input=spec.T()), shapes=SHAPES[:3], params=SLOPES, dtypes=("float32",))),
]


@pytest.fixture(scope="module")
def planted_data(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    make_baselines(data, expand.expand(OPS))
    return str(data)


def _run(lib, data, reports, torch_lib_dir, *extra, env=None):
    proc = run_main("--mode", "run_test", "--impl_lib", lib, "--runtime_lib", os.path.join(torch_lib_dir, "libdiopirt.so"),
                    "--data_dir", data, "--report_dir", str(reports), "--timeout", "1", "--jobs", "1", *extra,
                    env=dict(os.environ, **(env or {})))
    with open(os.path.join(reports, "summary.json")) as f:
        summary = json.load(f)
    return proc, summary


@pytest.fixture(scope="module")
def planted_run(tmp_path_factory, planted_lib, planted_data, torch_lib_dir):
    reports = tmp_path_factory.mktemp("reports")
    spike = tmp_path_factory.mktemp("spike") / "calls"
    proc, summary = _run(planted_lib, planted_data, reports, torch_lib_dir,
                         env={"DIOPI_PLANTED_STATE_CALLS": str(STATE_CALLS), "DIOPI_PLANTED_SPIKE": str(spike),
                              "DIOPI_PLANTED_SPIKE_AT": str(SPIKE_AT)})
    return proc, summary, str(reports)


def _of(summary, func):
    return [c for c in summary["cases"] if c["function"] == func]


def test_state_left_by_earlier_calls_is_order_dependent_naming_them(planted_run):
    proc, summary, _ = planted_run
    rows = _of(summary, "diopiAbs")
    charged = [c for c in rows if c["result"]["verdict"] != "passed"]
    # The first 10 different inputs of a worker pass; the 11th hangs. The first worker runs 10 cases, then the 11th is charged;
    # the remaining 5 run in a fresh worker and pass.
    assert len(rows) == 16 and len(charged) == 1, [c["result"] for c in charged]
    (case,) = charged
    res = case["result"]
    assert res["verdict"] == "order_dependent", res
    earlier = [f"{c['case']}" + ("" if c["layout"] == "contiguous" else f" ({c['layout']})") for c in rows[:STATE_CALLS]]
    # The replays found exactly the run of earlier calls that makes it hang: the 10 before it.
    assert res["prefix"] == earlier, res["prefix"]
    assert "passed alone in a fresh worker" in res["message"] and "that make it fail" in res["message"], res["message"]
    assert proc.returncode == 1


def test_a_case_slow_once_is_not_charged(planted_run):
    _, summary, _ = planted_run
    rows = _of(summary, "diopiNeg")
    assert len(rows) == 16 and all(c["result"]["verdict"] == "passed" for c in rows), [c["result"] for c in rows]
    warned = [c["result"] for c in rows if c["result"].get("warnings")]
    # the one that hung says so, and why it was not charged
    assert len(warned) == 1 and "not charged" in warned[0]["warnings"][0] and "timeout" in warned[0]["warnings"][0], warned


def test_a_crash_for_one_argument_value_leaves_every_other_case_its_own_verdict(planted_run):
    _, summary, _ = planted_run
    rows = _of(summary, "diopiLeakyRelu")
    crashed = [c for c in rows if c["result"]["verdict"] == "crashed"]
    others = [c for c in rows if "negative_slope=-0.5" not in c["case"]]
    assert len(rows) == 18 and len(crashed) == 6, [(c["case"], c["result"]["verdict"]) for c in rows]
    assert all("negative_slope=-0.5" in c["case"] and not c["result"].get("not_run") for c in crashed)
    assert others and all(c["result"]["verdict"] == "passed" for c in others)


def test_a_crash_message_is_the_library_error_line_not_stack_frames(planted_run):
    proc, summary, reports = planted_run
    crashed = [c["result"] for c in _of(summary, "diopiLeakyRelu") if c["result"]["verdict"] == "crashed"]
    what = "what():  planted: a negative slope below -0.25 is not supported"
    assert crashed and all(what in r["message"] and "frame #" not in r["message"] and "SIGABRT" in r["message"] for r in crashed)
    assert all("frame #36" in r["output"] for r in crashed)  # the whole output is kept in its own column
    with open(os.path.join(reports, "error_report.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["verdict"] == "crashed"]
    assert rows and all(what in r["reason"] and "frame #" not in r["reason"] for r in rows)
    with open(os.path.join(reports, "junit.xml")) as f:
        junit = f.read()
    assert "planted: a negative slope below -0.25 is not supported" in junit
    assert what in proc.stdout


def test_a_crash_cap_skips_with_the_reason_and_counts_it(planted_lib, planted_data, torch_lib_dir, tmp_path):
    proc, summary = _run(planted_lib, planted_data, tmp_path, torch_lib_dir, "--fname", "leaky_relu",
                         "--max_crashes_per_function", "1")
    rows = summary["cases"]
    crashed = [c["result"] for c in rows if c["result"]["verdict"] == "crashed"]
    skipped = [c["result"] for c in rows if c["result"]["verdict"] == "skipped"]
    assert len(crashed) == 1 and not crashed[0].get("not_run"), crashed
    assert skipped and all(r.get("not_run") and "already crashed 1 times" in r["message"] for r in skipped)
    # every case is either run (its own verdict) or skipped with the reason, and the summary says how many were not run
    assert all(c["result"]["verdict"] != "skipped" or c["result"]["message"] for c in rows)
    assert f"{len(skipped)} not run" in proc.stdout, proc.stdout[-1500:]
