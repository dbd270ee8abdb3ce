"""Shared fixtures: paths, the built test runtime, small baselines."""
import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402,F401  (puts the harness on sys.path)
from conformance import paths  # noqa: E402


@pytest.fixture(scope="session")
def torch_lib_dir():
    d = paths.default_lib_dir("torch")
    if not os.path.exists(os.path.join(d, "libdiopirt.so")):
        pytest.skip("needs the built test runtime and impl/torch: run `bash scripts/build_impl.sh torch` first")
    return d


@pytest.fixture(scope="session")
def faulty_lib(tmp_path_factory, torch_lib_dir):
    """The deliberately defective library of tests/faulty, compiled here."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the faulty test library")
    out = tmp_path_factory.mktemp("faulty") / "libfaulty.so"
    src = os.path.join(os.path.dirname(__file__), "faulty", "faulty_impl.c")
    subprocess.run([cc, "-std=c11", "-O1", "-shared", "-fPIC", "-Wall", "-Werror", "-I", paths.INCLUDE_DIR, src, "-o", str(out), "-lm"],
                   check=True)
    return str(out)
