"""gen_data end to end on a few functions: deterministic, refuses nothing
it wrote, and run_test replays it without importing torch."""
import json
import os

import pytest

from support import PYTHON_DIR, run_main

pytest.importorskip("torch", reason="gen_data needs torch")


def _files(d):
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            if f.endswith(".pkl"):
                out[f] = open(os.path.join(root, f), "rb").read()
    return out


def test_same_seed_gives_byte_identical_baselines(tmp_path):
    for sub in ("a", "b"):
        r = run_main("--mode", "gen_data", "--fname", "add", "softmax", "cat", "--data_dir", str(tmp_path / sub))
        assert r.returncode == 0, r.stderr
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert a and a == b


def test_run_test_never_imports_torch(tmp_path, torch_lib_dir):
    data = tmp_path / "data"
    assert run_main("--mode", "gen_data", "--fname", "add", "mm", "--data_dir", str(data)).returncode == 0
    # A `torch` package that explodes on import, first on the path.
    fake = tmp_path / "fake" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('run_test must not import torch')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "fake"))
    r = run_main("--mode", "run_test", "--fname", "add", "mm", "--data_dir", str(data), "--report_dir", str(tmp_path / "rep"), env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert " 0 failed" in r.stdout


def test_bad_input_gives_one_line_error_and_exit_2_or_3(tmp_path):
    r = run_main("--mode", "run_test", "--data_dir", str(tmp_path / "nothing"))
    assert r.returncode == 3  # no baselines: a data problem
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1
    r = run_main("--mode", "gen_data", "--fname", "no_such_operator", "--data_dir", str(tmp_path / "x"))
    assert r.returncode == 2 and r.stderr.startswith("error: --fname 'no_such_operator' is no function")


def test_altered_baseline_stops_run_test_before_any_case(tmp_path, torch_lib_dir):
    data = tmp_path / "data"
    assert run_main("--mode", "gen_data", "--fname", "relu", "--data_dir", str(data)).returncode == 0
    path = data / json.loads((data / "manifest.json").read_text())["files"]["diopiRelu"]["path"]
    blob = bytearray(path.read_bytes())
    blob[100] ^= 0xFF
    path.write_bytes(bytes(blob))
    r = run_main("--mode", "run_test", "--fname", "relu", "--data_dir", str(data), "--report_dir", str(tmp_path / "rep"))
    assert r.returncode == 3 and "does not match the sha256" in r.stderr
    assert not (tmp_path / "rep").exists()


def test_library_that_cannot_load_is_a_clear_error(tmp_path):
    data = tmp_path / "data"
    assert run_main("--mode", "gen_data", "--fname", "relu", "--data_dir", str(data)).returncode == 0
    r = run_main("--mode", "run_test", "--data_dir", str(data), "--impl_lib", str(tmp_path / "missing.so"))
    assert r.returncode == 2 and "not found" in r.stderr
