"""Helpers shared by the harness tests."""
import os
import shutil
import subprocess
import sys

import pytest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)
MAIN = os.path.join(PYTHON_DIR, "main.py")

TESTS = os.path.dirname(os.path.abspath(__file__))

from conformance import paths  # noqa: E402  (the harness, on sys.path above)

# The forking runner of the device's tests (see its doc): gen_data imports torch, which a fork finds done.
_DEVICE_TESTS = os.path.join(os.path.dirname(os.path.dirname(PYTHON_DIR)), "bridge", "torch", "tests")
if _DEVICE_TESTS not in sys.path:
    sys.path.insert(0, _DEVICE_TESTS)
import forked  # noqa: E402


def run_main(*args, env=None, timeout=600):
    """Runs main.py in a subprocess; returns CompletedProcess. gen_data's runs (the mode that imports torch) are
    forked from an interpreter that imported it; the other modes, which a vendor runs without torch, are not."""
    if "gen_data" in args:
        return forked.run([sys.executable, MAIN, *args], capture_output=True, text=True, cwd=PYTHON_DIR, env=env,
                          timeout=timeout, preload=forked.TORCH)
    return subprocess.run([sys.executable, MAIN, *args], capture_output=True, text=True, cwd=PYTHON_DIR, env=env, timeout=timeout)


def save_cases(data_dir, func, cases, family="test"):
    """Stores records as gen_data commits them (with the manifest index the
    loader checks them against); returns the manifest record."""
    from conformance import store
    cases = [dict(c, dtype=c.get("dtype", "float32"), layouts=c.get("layouts", ["contiguous"])) for c in cases]
    index = [[c["name"], c["dtype"], c["layouts"], 0] for c in cases]
    return store.commit_function(str(data_dir), func, cases, {"index": index, "family": family}, {})


def make_baselines(data_dir, cases):
    """Generates the baselines of `cases` into data_dir; any case that fails to generate fails the test."""
    from conformance import gen_data  # here: it imports torch, which not every test has
    res = gen_data.generate(cases, str(data_dir))
    assert not res["failures"], res["failures"]


def compiler(cxx=False, what="the test library"):
    """The C (or C++) compiler; skips, saying what it was wanted for, when there is none."""
    found = shutil.which("c++") or shutil.which("g++") if cxx else shutil.which("cc") or shutil.which("gcc")
    if found is None:
        pytest.skip(f"no {'C++' if cxx else 'C'} compiler to build {what}")
    return found


def build_test_library(out_dir, source, *link, flags=("-O1", "-Wall", "-Werror")):
    """Compiles one of the deliberately defective test libraries (tests/<folder>/<file>.c or .cpp) into
    out_dir/lib<folder>.so."""
    cxx = source.endswith(".cpp")
    out = os.path.join(str(out_dir), f"lib{os.path.dirname(source)}.so")
    subprocess.run([compiler(cxx, f"the test library {source}"), "-std=c++17" if cxx else "-std=c11", "-shared", "-fPIC", *flags,
                    "-I", paths.INCLUDE_DIR, os.path.join(TESTS, source), "-o", out, *link], check=True)
    return out

