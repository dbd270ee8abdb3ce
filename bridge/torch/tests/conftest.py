"""The pytest side of the `diopi` device's tests: the `needs_device` mark
(skipped, saying what to build, when the device or impl/torch is missing) and
the planted library, built once per run. The paths live in device_paths.py.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_paths import NEEDS_DEVICE, build_planted, device_missing  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", f"needs_device: {NEEDS_DEVICE}")


def pytest_runtest_setup(item):
    if item.get_closest_marker("needs_device"):
        why = device_missing()
        if why:
            pytest.skip(why)


@pytest.fixture(scope="session")
def planted(tmp_path_factory):
    """The planted library, built once per run."""
    return build_planted(tmp_path_factory.mktemp("planted"))
