"""--mode graph_replay without torch: a graph written by hand in the captured
format (bridge/torch/diopi_torch/graph/capture.py) with numpy's outputs as the
recorded ones passes on impl/cpu's graph compiler; a wrong recorded output
fails naming the node that wrote it; corrupt, foreign and mismatched files are
refused before any library runs; a graph whose compiler kills the worker is
charged alone and the next graph runs in a new worker; a library without a
graph compiler is one clear error. The device's test (bridge/torch/tests/graph/test_graph_capture.py)
replays graphs captured from a real compiled model."""
import json
import os

import numpy as np
import pytest

from conformance import graph_replay, paths
from support import run_main

CPU_LIB = os.environ.get("DIOPI_GRAPH_TEST_LIB") or os.path.join(paths.default_lib_dir("cpu"), "libdiopi_impl.so")
TORCH_LIB = os.path.join(paths.default_lib_dir("torch"), "libdiopi_impl.so")


def _t(role, index, shape, first, last, stride=None):
    return {"role": role, "index": index, "dtype": "float32", "shape": shape, "stride": stride, "view_of": -1,
            "offset": 0, "first_use": first, "last_use": last}


def _tensor(i):
    return {"kind": "tensor", "value": i}


def write_graph(folder, name="g"):
    """x (2,3) transposed-strided input, y (3,), s 0-d: t = x + 0.5 y; out0 = t * x; out1 = tanh(t); out2 = s * s (0-d)."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    y = rng.standard_normal((3,)).astype(np.float32)
    t = x + np.float32(0.5) * y
    sc = np.array(1.5, dtype=np.float32)
    graph = {
        "format": "diopi-graph", "version": 1000, "name": name, "num_inputs": 3, "num_outputs": 3, "num_symbols": 0,
        "tensors": [_t("input", 0, [2, 3], 0, 1, stride=[1, 2]), _t("input", 1, [3], 0, 0),
                    _t("intermediate", -1, [2, 3], 0, 2), _t("output", 0, [2, 3], 1, 1), _t("output", 1, [2, 3], 2, 2),
                    _t("input", 2, [], 3, 3), _t("output", 2, [], 3, 3)],
        "nodes": [{"function": "diopiAdd", "args": [_tensor(2), _tensor(0), _tensor(1),
                                                    {"kind": "scalar", "dtype": "float64", "value": 0.5}]},
                  {"function": "diopiMul", "args": [_tensor(3), _tensor(2), _tensor(0)]},
                  {"function": "diopiTanh", "args": [_tensor(4), _tensor(2)]},
                  {"function": "diopiMul", "args": [_tensor(6), _tensor(5), _tensor(5)]}],
        "capture": {"model": "hand", "plan": name, "library": "numpy", "values": f"{name}.npz"},
    }
    with open(os.path.join(folder, f"{name}.json"), "w") as f:
        json.dump(graph, f)
    values = {"input0": x, "input1": y, "input2": sc, "output0": t * x, "output1": np.tanh(t), "output2": sc * sc}
    np.savez(os.path.join(folder, f"{name}.npz"), **values)
    return graph, values


def _needs(lib):
    if not os.path.exists(lib):
        pytest.skip(f"needs {lib} (scripts/build_impl.sh)")
    return lib


def replay(folder, lib, *extra):
    return run_main("--mode", "graph_replay", "--graphs", str(folder), "--impl_lib", lib, "--report_dir",
                    str(folder) + "-report", *extra)


def test_a_hand_written_graph_passes_on_impl_cpu(tmp_path):
    write_graph(tmp_path)
    r = replay(tmp_path, _needs(CPU_LIB))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "graph_replay: 1 graphs, 1 passed, 0 declined, 0 failed" in r.stdout
    report = json.load(open(str(tmp_path) + "-report/graph_replay.json"))
    assert report["counts"]["passed"] == 1


def test_a_wrong_recorded_output_fails_naming_its_writer(tmp_path):
    _, values = write_graph(tmp_path)
    values["output1"] = values["output1"] * np.float32(1.01)  # as if the reference were wrong by 1%
    np.savez(tmp_path / "g.npz", **values)
    r = replay(tmp_path, _needs(CPU_LIB))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "g.json: failed: output 1, last written by node 2 (diopiTanh)" in r.stdout, r.stdout
    assert "output 0" not in r.stdout and "output 2" not in r.stdout  # the other outputs still match


def test_a_0d_output_is_compared_as_0d(tmp_path):
    _, values = write_graph(tmp_path)
    values["output2"] = np.array(2.0, dtype=np.float32)  # 1.5 * 1.5 is 2.25
    np.savez(tmp_path / "g.npz", **values)
    r = replay(tmp_path, _needs(CPU_LIB))
    assert r.returncode == 1
    assert "failed: output 2, last written by node 3 (diopiMul)" in r.stdout and "got 2.25, expected 2.0" in r.stdout, r.stdout


@pytest.mark.parametrize("damage, says", [
    (lambda g: g.update(version=2000), "graph version 2000"),
    (lambda g: g.pop("nodes"), "missing key 'nodes'"),
    (lambda g: g.update(format="something"), "not a captured graph"),
    (lambda g: g["nodes"][1].update(function="diopiNoSuchThing"), "'diopiNoSuchThing' is not a function"),
    (lambda g: g["nodes"][1]["args"].pop(), "2 arguments, the function takes 3"),
    (lambda g: g["nodes"][2]["args"][0].update(value=99), "tensor index out of range"),
    (lambda g: g["tensors"][0].update(shape=[3, 2]), "input0 has shape [2, 3], the graph says [3, 2]"),
])
def test_a_damaged_graph_is_refused(tmp_path, damage, says):
    graph, _ = write_graph(tmp_path)
    damage(graph)
    with open(tmp_path / "g.json", "w") as f:
        json.dump(graph, f)
    with pytest.raises(graph_replay.Refused, match=says.replace("[", r"\[").replace("(", r"\(")):
        graph_replay.load(str(tmp_path / "g.json"))


def test_refused_files_are_reported_and_not_run(tmp_path):
    write_graph(tmp_path)
    with open(tmp_path / "bad.json", "w") as f:
        f.write('{"format": "diopi-graph", "version": 1000, "na')  # cut short
    np.savez(tmp_path / "g.npz", input0=np.zeros((2, 3), np.float32))  # values without the rest
    r = replay(tmp_path, _needs(CPU_LIB))
    assert r.returncode == 1
    assert "bad.json: refused: not readable as JSON" in r.stdout
    assert "g.json: refused: values g.npz lack input1, input2, output0, output1, output2" in r.stdout
    assert "0 passed" in r.stdout and "2 refused" in r.stdout


def test_a_library_without_a_graph_compiler_is_one_clear_error(tmp_path):
    write_graph(tmp_path)
    r = replay(tmp_path, _needs(TORCH_LIB))
    assert r.returncode == 1
    assert "has no graph compiler" in r.stderr and "passed" not in r.stdout


def test_no_graphs_is_a_usage_error(tmp_path):
    r = replay(tmp_path, _needs(CPU_LIB))
    assert r.returncode == 2 and "no captured graph" in r.stderr


def test_a_worker_killed_by_the_compiler_costs_only_its_graph(tmp_path, crashing_graph_lib, monkeypatch):
    # The planted compiler (tests/crashing_graph) forwards to impl/cpu's but aborts on graphs named crash*.
    cpu = _needs(CPU_LIB)
    monkeypatch.setenv("DIOPI_GRAPH_FORWARD", cpu)
    for name in ("a_before", "crash", "z_after"):
        write_graph(tmp_path, name)
    proc = replay(tmp_path, crashing_graph_lib, "--runtime_lib", os.path.join(os.path.dirname(cpu), "libdiopirt.so"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    with open(str(tmp_path) + "-report/graph_replay.json") as f:
        rows = {r["graph"]: r for r in json.load(f)["rows"]}
    assert rows["a_before.json"]["verdict"] == "passed" and rows["z_after.json"]["verdict"] == "passed", rows
    crashed = rows["crash.json"]
    assert crashed["verdict"] == "error", crashed
    assert "the worker died (signal 6)" in crashed["message"] and "compiling crash went wrong" in crashed["message"], crashed
    assert "graph_replay: 3 graphs, 2 passed, 0 declined, 0 failed, 1 error, 0 refused" in proc.stdout
    import xml.etree.ElementTree as ET
    suite = ET.parse(str(tmp_path) + "-report/junit.xml").getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("errors"), suite.get("failures")) == ("3", "1", "0")
    error = suite.find("testcase[@name='crash.json']/error")
    assert error is not None and "signal 6" in error.get("message") and "repro: python main.py --mode graph_replay" in error.text
