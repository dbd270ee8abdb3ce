"""Shared fixtures: paths, the built test runtime, the deliberately defective test libraries."""
import os
import shutil
import subprocess
import sys

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TESTS)
import support  # noqa: E402,F401  (puts the harness on sys.path)
from conformance import paths  # noqa: E402


@pytest.fixture(scope="session")
def torch_lib_dir():
    d = paths.default_lib_dir("torch")
    if not os.path.exists(os.path.join(d, "libdiopirt.so")):
        pytest.skip("needs the built test runtime and impl/torch: run `bash scripts/build_impl.sh torch` first")
    return d


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


# The test libraries, each built once per run.
@pytest.fixture(scope="session")
def faulty_lib(tmp_path_factory, torch_lib_dir):
    return build_test_library(tmp_path_factory.mktemp("faulty"), "faulty/faulty_impl.c", "-lm")


@pytest.fixture(scope="session")
def faulty_collective_lib(tmp_path_factory):
    return build_test_library(tmp_path_factory.mktemp("faulty_collective"), "faulty_collective/faulty_collective.c", "-ldl", "-lm")


@pytest.fixture(scope="session")
def hostile_lib(tmp_path_factory, torch_lib_dir):
    return build_test_library(tmp_path_factory.mktemp("hostile"), "hostile/hostile_impl.c", "-lm",
                              flags=("-O1", "-pthread", "-Wall", "-Werror"))


@pytest.fixture(scope="session")
def planted_lib(tmp_path_factory, torch_lib_dir):
    return build_test_library(tmp_path_factory.mktemp("planted"), "planted/planted_impl.c")


@pytest.fixture(scope="session")
def crashing_lib(tmp_path_factory, torch_lib_dir):
    # --no-as-needed: the reference library is needed although no symbol of it is referenced here
    return build_test_library(tmp_path_factory.mktemp("crashing"), "crashing/crashing_impl.cpp", "-Wl,--no-as-needed", "-L", torch_lib_dir,
                              "-ldiopi_impl", f"-Wl,-rpath,{torch_lib_dir}", "-ldl")
