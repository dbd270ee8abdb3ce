"""The README's "bringing up a model" walk-through runs as written: its bash
blocks, in order, in one shell, from the repository root, writing into a
temporary folder (OUT) instead of reports/bringup."""
import os
import re
import subprocess

import pytest

from device_paths import ROOT
SECTION = "### Bringing up a model: the tools"

pytestmark = pytest.mark.needs_device


def walkthrough_blocks():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    start = text.index(SECTION)
    nxt = re.compile(r"^#{2,3} ", re.M).search(text, start + len(SECTION))  # the section ends at the next heading
    return re.findall(r"```bash\n(.*?)```", text[start:nxt.start() if nxt else None], re.S)


def test_walkthrough_runs_as_written(tmp_path):
    blocks = walkthrough_blocks()
    assert len(blocks) == 3
    out = tmp_path / "bringup"
    proc = subprocess.run(["bash", "-c", "\n".join(blocks)], capture_output=True, text=True, cwd=ROOT, timeout=900,
                          env=dict(os.environ, OUT=str(out)))
    text = proc.stdout
    assert proc.returncode == 0, text + proc.stderr  # the last command, the precision analysis, succeeds
    # 1. The suite: llama does not match on the chip; the timed run puts the slow function first.
    assert re.search(r"^llama\s+fp32\s+\d+\s+NO", text, re.M), text
    rows = [line for line in text.splitlines() if "ATen operator -> DIOPI function" in line]
    assert len(rows) == 2  # the suite's --time table and step 3's
    for header in rows:
        first = text.splitlines()[text.splitlines().index(header) + 1]
        assert "aten::rsqrt -> diopiRsqrt" in first and "out=float32[2,8,1] input=float32[2,8,1]" in first, first
    # 2. The profiler's table, sorted by device time, starts with rsqrt.
    table = text[text.index("Self DIOPI"):]
    names = [line.split()[0] for line in table.splitlines()[2:4]]
    assert set(names) == {"aten::rsqrt", "diopiRsqrt"}, table[:600]
    assert (out / "trace.json").exists() and (out / "timer.csv").exists()
    # 4, 5. The logits differ, and match once silu runs on the CPU.
    before = float(re.search(r"max \|diopi - eager\|: (\S+)", text).group(1))
    after = float(re.search(r"silu on the CPU: (\S+)", text).group(1))
    assert before > 1e-2 and after < 1e-5, (before, after)
    assert "{'named': 2}" in text
    silu = [line for line in text.splitlines() if " aten::silu -> diopiSilu(" in line]
    assert len(silu) == 2 and all("float32[2,8,128]{1024,128,1}" in line for line in silu)
    # 6, 7. The capture: the chip fails exactly its two silu calls, impl/torch passes them all.
    assert "op capture: 7 calls saved" in text
    failed = re.findall(r"\[failed\] (\S+) \(captured\)", text)
    assert sorted(failed) == ["silu::float32::call002", "silu::float32::call005"], text
    assert re.search(r"run_test: \d+ passed, 0 failed", text), text  # impl/torch
    assert re.search(r"^diopiRsqrt .* \d+\.\d+x$", text, re.M) and "failed, not timed" in text
    # 8. The precision analysis lists the two wrong calls first.
    lines = text[text.index("precision: "):].splitlines()
    assert lines[2].startswith("silu::float32::call") and lines[3].startswith("silu::float32::call")
    assert all(line.startswith("rsqrt::") and " 0/16 " in line for line in lines[4:9]), lines
