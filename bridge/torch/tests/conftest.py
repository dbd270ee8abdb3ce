"""Shared by the device's tests: the planted library (tests/planted/planted.c),
impl/torch with one wrong kernel (diopiSilu) and one slow one (diopiRsqrt)."""
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TORCH_LIB = os.path.join(ROOT, "build", "torch", "lib")


@pytest.fixture(scope="session")
def planted(tmp_path_factory):
    """Built once per run, linked to build/torch's libdiopi_impl.so (the calls it does not plant go there)."""
    out = tmp_path_factory.mktemp("planted") / "libplanted.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", os.path.join(HERE, "planted", "planted.c"), "-o", str(out),
                    "-I", os.path.join(ROOT, "proto", "include"), "-L", TORCH_LIB, "-Wl,--no-as-needed", "-ldiopi_impl",
                    f"-Wl,-rpath,{TORCH_LIB}", "-Wl,--allow-shlib-undefined", "-ldl"], check=True)
    return str(out)
