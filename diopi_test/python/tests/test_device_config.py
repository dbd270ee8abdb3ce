"""Vendor device configs: skips and tolerances with reasons, read as data."""
import pytest

from conformance import device_config, tolerances


def _write(tmp_path, text):
    p = tmp_path / "device_configs.py"
    p.write_text(text)
    return str(p)


def test_skip_and_tolerance_matching(tmp_path):
    cfg = device_config.load(_write(tmp_path, '''"""doc"""
SKIP = {"add::float64::*": "float64 is computed in float32 after the adaptor's cast"}
TOLERANCES = {"mm::float16::*": {"float16": (1e-2, 1e-2), "reason": "fp32 accumulation"}}
'''))
    assert "float32" in cfg.skip_reason("add::float64::2x3_2x3::alpha=1")
    assert cfg.skip_reason("add::float32::2x3_2x3::alpha=1") is None
    assert cfg.tolerance("mm::float16::3x4_4x5") == {"float16": (1e-2, 1e-2, tolerances.VENDOR)}
    assert cfg.unused() == []


def test_stale_entries_are_reported(tmp_path):
    cfg = device_config.load(_write(tmp_path, 'SKIP = {"gone::*": "was flaky"}\n'))
    cfg.skip_reason("add::float32::2")
    assert cfg.unused() == [("SKIP", "gone::*")]


@pytest.mark.parametrize("text,msg", [
    ('import os\nSKIP = {}\n', "only literal"),
    ('SKIP = {"a": ""}\n', "needs a reason"),
    ('SKIP = dict(a="b")\n', "must be a literal"),
    ('TOLERANCES = {"a": {"float16": (1, 2)}}\n', "needs a 'reason'"),
    ('TOLERANCES = {"a": {"float16": 1, "reason": "r"}}\n', "must be \\(atol, rtol\\)"),
    ('SKIP = {\n', "device_configs.py:"),
])
def test_malformed_configs_are_refused_with_location(tmp_path, text, msg):
    with pytest.raises(device_config.DeviceConfigError, match=msg):
        device_config.load(_write(tmp_path, text))
