"""Autocompare names the one planted wrong call of a library."""
import json
import os
import subprocess
import sys

import pytest

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device


def test_autocompare_names_the_planted_call(planted, tmp_path):
    out = tmp_path / "out.json"
    proc = forked.run([sys.executable, "-m", "diopi_torch.suite", "--impl_lib", planted, "--models", "llama",
                       "--autocompare", "--autocompare_dir", str(tmp_path / "ac"), "--json", str(out)],
                      capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the model no longer matches eager CPU
    (row,) = json.loads(out.read_text())["models"]
    found = row["autocompare"]
    assert found["aten"] == "silu" and found["diopi"] == "diopiSilu", found
    assert found["module"].startswith("model.model.layers.0.mlp"), found
    assert found["max_abs_diff"] >= 0.5
    case = json.loads(open(found["case_file"]).read())
    assert case["diopi_call"]["args"]["out"]["shape"] == found["shapes"][0]
    # The saved case replays on its own: it fails against the planted library, passes against impl/torch.
    replay = [sys.executable, "-m", "diopi_torch.tools.replay", case["inputs"], "--impl_lib"]
    assert forked.run(replay + [planted], capture_output=True, cwd=ROOT, timeout=300).returncode == 1
    good = forked.run(replay + [LIB], capture_output=True, text=True,
                      cwd=ROOT, timeout=300)
    assert good.returncode == 0, good.stdout + good.stderr
    # And as a case of the conformance harness, replayed through the C ABI by run_test.
    harness = os.path.join(ROOT, "diopi_test", "python")
    env = dict(os.environ, DIOPI_MODEL_CASES=os.path.dirname(case["harness_case_set"]))
    data = str(tmp_path / "data")
    main = [sys.executable, "main.py", "--model_name", "autocompare_llama", "--data_dir", data]
    gen = subprocess.run(main + ["--mode", "gen_data"], capture_output=True, text=True, cwd=harness, env=env, timeout=300)
    assert gen.returncode == 0, gen.stdout + gen.stderr
    bad = subprocess.run(main + ["--mode", "run_test", "--impl_lib", planted, "--report_dir", str(tmp_path / "r1")],
                         capture_output=True, text=True, cwd=harness, env=env, timeout=300)
    assert bad.returncode == 1 and "[failed] autocompare_llama.000::" in bad.stdout, bad.stdout + bad.stderr
    ok = subprocess.run(main + ["--mode", "run_test", "--impl_lib", LIB,
                                "--report_dir", str(tmp_path / "r2")], capture_output=True, text=True, cwd=harness,
                        env=env, timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr


def test_correct_library_has_no_differing_call(tmp_path):
    out = tmp_path / "out.json"
    proc = forked.run([sys.executable, "-m", "diopi_torch.suite", "--models", "llama", "--autocompare",
                       "--autocompare_dir", str(tmp_path / "ac"), "--json", str(out)],
                      capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (row,) = json.loads(out.read_text())["models"]
    assert "autocompare" not in row and row["forward_match"] and row["step_match"]
