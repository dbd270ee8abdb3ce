"""impl/cpu's graph compiler (diopi/graph.h), also as the simulated chip runs it: a graph of fusible elementwise
chains around an unfused call compiles to one executable whose outputs equal
the same nodes run one call at a time (impl/cpu's own functions), and a node
it cannot serve is declined by index rather than run wrongly. The graph runs
in a child process (graph_child.py), as all vendor code in the harness."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conformance import paths

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(params=["cpu", "sim"])
def graph_lib(request):
    """impl/cpu's compiler, and the same compiler in the simulated chip (device memory, runs queued on its
    worker; with DIOPI_SIM_JITTER=1 when the runs start is random)."""
    lib = os.environ.get("DIOPI_GRAPH_TEST_LIB") if request.param == "cpu" else None
    lib = lib or os.path.join(paths.default_lib_dir(request.param), "libdiopi_impl.so")
    if not os.path.exists(lib):
        pytest.skip(f"needs impl/{request.param} built: bash scripts/build_impl.sh {request.param}")
    return lib


def _child(lib, case):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(HERE)] + sys.path), DIOPI_SIM_JITTER="1")
    res = subprocess.run([sys.executable, os.path.join(HERE, "graph_child.py"), lib, case],
                         capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_the_library_exports_a_graph_compiler(graph_lib):
    assert _child(graph_lib, "absent")["exported"]


def test_fused_graph_equals_the_calls_one_by_one(graph_lib):
    r = _child(graph_lib, "chain")
    assert r["compile_rc"] == 0 and not r["declined"], r
    assert r["run_rc"] == 0, r["run_error"]
    assert r["call_rcs"] == [0] * 7
    for got, want in zip(r["graph"], r["calls"]):
        got, want = np.array(got), np.array(want)
        assert np.isfinite(want).all() and np.abs(want).max() > 0  # the reference computed something
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_a_call_on_a_view_is_declined_by_index(graph_lib):
    r = _child(graph_lib, "declined")
    assert r["compile_rc"] == 0, r["error"]
    assert r["declined"] == [7]


def test_one_compilation_serves_every_size_of_a_symbol(graph_lib):
    r = _child(graph_lib, "symbols")
    assert r["compile_rc"] == 0 and not r["declined"], r
    assert [len(run["graph"]) for run in r["runs"]] == [5, 2]
    for run in r["runs"]:
        assert run["rc"] == 0, run["error"]
        assert run["call_rcs"] == [0, 0]
        want = np.array(run["calls"])
        assert np.all(want > 0)  # exp of a softmax: the reference ran
        np.testing.assert_allclose(np.array(run["graph"]), want, rtol=1e-5, atol=1e-6)


def test_integer_arguments_literal_and_symbolic(graph_lib):
    # graph.h 1.1: a plain integer array is literal (a dim of -1 is declined by no one), symbols only where a kind says
    r = _child(graph_lib, "literals")
    assert r["compile_rc"] == 0 and not r["declined"], r
    assert r["run_rc"] == 0, r["run_error"]
    assert r["call_rcs"] == [0, 0, 0]
    for got, want in zip(r["graph"], r["calls"]):
        got, want = np.array(got), np.array(want)
        assert np.abs(want).max() > 0
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_a_size_by_pointer_and_an_unused_generator_are_served_dropout_is_declined(graph_lib):
    r = _child(graph_lib, "pointers")
    assert r["dropout_rc"] == 0 and r["dropout_declined"] == [1], r  # attention with dropout: the framework's
    assert r["compile_rc"] == 0 and not r["declined"], r
    assert r["run_rc"] == 0, r["run_error"]
    assert r["call_rcs"] == [0, 0]
    for got, want in zip(r["graph"], r["calls"]):
        got, want = np.array(got), np.array(want)
        assert np.abs(want).max() > 0
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
