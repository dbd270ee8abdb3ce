"""`pip install bridge/torch` (not editable) into a fresh virtual environment
that sees the system's torch: the installed package carries the built
extension (setup.py copies it into diopi_torch/_lib) and the mapping (package
data), imports from site-packages with no checkout on its path, and runs the
model suite's llama on a vendor library (impl/cpu when built, else
impl/torch)."""
import os
import subprocess
import sys
import textwrap

import pytest

from device_paths import BRIDGE, CPU_LIB, LIB, ROOT

pytestmark = pytest.mark.needs_device

CHECK = textwrap.dedent("""
    import os, sys
    import diopi_torch
    from diopi_torch import _C
    from diopi_torch.ops import mapping
    site = sys.argv[1]
    for path in (diopi_torch.__file__, _C.extension_path(), mapping.DEFAULT_PATH):
        assert path.startswith(site) and os.path.exists(path), (path, site)   # all from the installed copy
    assert os.path.dirname(_C.extension_path()) == _C.PACKAGED
    assert len(mapping.load().entries) > 100
    print("ok")
""")


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("installed")
    venv = tmp / "venv"
    # No pip of its own: the system's pip installs into it, building with the system's setuptools.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    src = tmp / "src"  # a copy of the package sources, so the build leaves nothing in the checkout
    subprocess.run(["cp", "-r", BRIDGE, str(src)], check=True)
    for junk in ("build", "diopi_torch.egg-info"):
        subprocess.run(["rm", "-rf", str(src / junk)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DIOPI_TORCH_EXT")}
    env["DIOPI_BRIDGE_BUILD_DIR"] = os.path.join(ROOT, "build", "bridge")
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", "--no-build-isolation",
                          "--no-index", str(src)], capture_output=True, text=True, env=env, timeout=600)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    site = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True,
                          text=True, check=True).stdout.strip()
    return py, site, {k: v for k, v in env.items() if k != "DIOPI_BRIDGE_BUILD_DIR"}, tmp


def test_the_installed_package_finds_its_extension_and_mapping(venv):
    py, site, env, tmp = venv
    proc = subprocess.run([py, "-c", CHECK, site], capture_output=True, text=True, cwd=str(tmp), env=env, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr


def test_the_installed_package_runs_the_suite(venv, tmp_path):
    py, site, env, tmp = venv
    lib = CPU_LIB if os.path.exists(CPU_LIB) else LIB
    out = tmp_path / "suite.json"
    proc = subprocess.run([py, "-m", "diopi_torch.suite", "--models", "llama", "--impl_lib", lib, "--json", str(out)],
                          capture_output=True, text=True, cwd=str(tmp), env=env, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert out.exists() and "llama" in out.read_text(), proc.stdout[-2000:]
