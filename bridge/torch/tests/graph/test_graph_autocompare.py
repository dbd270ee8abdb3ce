"""Graph autocompare names the planted wrong diopiSilu node of a compiled step:
its module path, FX node, DIOPI function and mapping line, saved as a case
the replay tool reads (failing on the planted library, passing on impl/torch);
a correct library has no differing node."""
import json
import os
import subprocess
import sys

import pytest

import forked
from device_paths import LIB, ROOT

pytestmark = pytest.mark.needs_device


def _suite(lib, tmp_path):
    out = tmp_path / "out.json"
    proc = forked.run([sys.executable, "-m", "diopi_torch.suite", "--impl_lib", lib, "--models", "llama", "--compile",
                       "--autocompare", "--autocompare_dir", str(tmp_path / "ac"), "--json", str(out)],
                      capture_output=True, text=True, cwd=ROOT, timeout=600,
                      env={**os.environ, "DIOPI_GRAPH_CACHE": str(tmp_path / "cache")})
    return proc, out


def _silu_entry_line():
    from diopi_torch.ops import mapping
    from diopi_torch.graph import lower
    (entry,) = mapping.load().for_op("silu")
    return lower.entry_where(entry)


def test_graph_autocompare_names_the_planted_node(planted, tmp_path):
    proc, out = _suite(planted, tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the step no longer matches eager CPU
    (row,) = json.loads(out.read_text())["models"]
    found = row["autocompare"]
    assert found["node"] == "silu" and found["aten"] == "silu" and found["diopi"] == "diopiSilu", found
    assert found["module"] == "model.model.layers.0.mlp.act_fn", found
    assert found["mapping"] == _silu_entry_line(), found
    assert found["max_abs_diff"] >= 0.5
    case = json.loads(open(found["case_file"]).read())
    assert case["graph_node"] == "silu" and case["diopi"] == "diopiSilu"
    replay = [sys.executable, "-m", "diopi_torch.tools.replay", case["inputs"], "--impl_lib"]
    assert forked.run(replay + [planted], capture_output=True, cwd=ROOT, timeout=300).returncode == 1
    good = forked.run(replay + [LIB], capture_output=True, text=True,
                      cwd=ROOT, timeout=300)
    assert good.returncode == 0, good.stdout + good.stderr


def test_correct_library_has_no_differing_node(tmp_path):
    proc, out = _suite(LIB, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (row,) = json.loads(out.read_text())["models"]
    assert "autocompare" not in row and row["forward_match"] and row["step_match"]
    assert row["compile"]["compiled_nodes"] > 100
    assert row["autocompare_nodes_compared"] > 100  # every DIOPI node of the forward and backward graphs was checked
