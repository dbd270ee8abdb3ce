"""Shared fixtures: paths, the built test runtime, the deliberately defective test libraries."""
import os
import sys

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TESTS)
import support  # noqa: E402,F401  (puts the harness on sys.path)
from conformance import paths  # noqa: E402
from support import build_test_library  # noqa: E402


@pytest.fixture(scope="session")
def torch_lib_dir():
    d = paths.default_lib_dir("torch")
    if not os.path.exists(os.path.join(d, "libdiopirt.so")):
        pytest.skip("needs the built test runtime and impl/torch: run `bash scripts/build_impl.sh torch` first")
    return d


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
def crashing_graph_lib(tmp_path_factory):
    return build_test_library(tmp_path_factory.mktemp("crashing_graph"), "crashing_graph/crashing_graph.c", "-ldl")


@pytest.fixture(scope="session")
def crashing_lib(tmp_path_factory, torch_lib_dir):
    # --no-as-needed: the reference library is needed although no symbol of it is referenced here
    return build_test_library(tmp_path_factory.mktemp("crashing"), "crashing/crashing_impl.cpp", "-Wl,--no-as-needed", "-L", torch_lib_dir,
                              "-ldiopi_impl", f"-Wl,-rpath,{torch_lib_dir}", "-ldl")
