"""--mode bench: one row per function, timed in the asked dtype or (named)
in the function's most common one, random functions included, and a
summary that names the slow functions."""
import os
import re

import pytest

from support import run_main

pytest.importorskip("torch", reason="making the baselines needs torch")


def test_bench_rows_and_summary(tmp_path, torch_lib_dir):
    data = tmp_path / "data"
    proc = run_main("--mode", "gen_data", "--data_dir", str(data), "--fname", "abs", "randperm")
    assert proc.returncode == 0, proc.stderr[-2000:]
    lib = os.path.join(torch_lib_dir, "libdiopi_impl.so")
    proc = run_main("--mode", "bench", "--impl_lib", lib, "--baseline_lib", lib, "--data_dir", str(data), "--fname", "abs", "randperm")
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = {m.group(1): m.groups() for m in re.finditer(r"^(diopi\w+)\s+(\S+)\s+(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x$",
                                                         proc.stdout, re.M)}
    assert set(rows) == {"diopiAbs", "diopiAbsInp", "diopiRandperm"}, proc.stdout
    assert rows["diopiAbs"][2] == "float32" and rows["diopiRandperm"][2] == "int64"  # randperm has no float case
    for _, _, _, _, base_us, cand_us, ratio in rows.values():
        assert float(base_us) > 0 and float(cand_us) > 0
        # The ratio comes from the unrounded times: it lies where the printed times (one decimal) allow, give or
        # take its own last digit (two decimals). Small times make that a wide band: 2.1 / 2.0 allows 1.00..1.11.
        b, c, r = float(base_us), float(cand_us), float(ratio)
        assert (b - 0.05) / (c + 0.05) - 0.005 <= r <= (b + 0.05) / max(c - 0.05, 1e-9) + 0.005, (b, c, r)
    assert re.search(r"^geometric mean \(memory-bound, 3 functions\): [\d.]+x$", proc.stdout, re.M)
    assert re.search(r"^functions below 0.5x: \d+", proc.stdout, re.M)
