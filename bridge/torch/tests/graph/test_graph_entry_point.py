"""torch.compile(model, backend="diopi") finds the backend through the package's
torch_dynamo_backends entry point: a copy of the package is installed the way
scripts/setup.sh installs it (editable, so the mapping file beside the package
is found) into a fresh virtual environment that sees the system's torch, and a
script that never imports diopi_torch.graph compiles a model with it."""
import os
import subprocess
import sys
import textwrap

import pytest

from device_paths import BRIDGE, EXT, LIB


def test_pyproject_declares_the_backend():
    import tomllib
    with open(os.path.join(BRIDGE, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["entry-points"]["torch_dynamo_backends"] == {"diopi": "diopi_torch.graph:backend"}


@pytest.mark.needs_device
def test_installed_package_registers_the_backend(tmp_path):
    venv = tmp_path / "venv"
    # No pip of its own: the system's pip installs into it, building with the system's setuptools.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # Install from a copy of the package sources, so the build leaves nothing in the checkout.
    src = tmp_path / "src"
    subprocess.run(["cp", "-r", BRIDGE, str(src)], check=True)
    for junk in ("build", "diopi_torch.egg-info"):
        subprocess.run(["rm", "-rf", str(src / junk)], check=True)
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", "--no-build-isolation",
                          "--no-index", "-e", str(src)],
                         capture_output=True, text=True, env=env)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    code = textwrap.dedent("""
        import sys, torch
        import diopi_torch                       # the device; not its graph package
        diopi_torch.load()                       # DIOPI_IMPL_LIB
        assert "diopi_torch.graph" not in sys.modules
        assert diopi_torch.__file__.startswith(sys.argv[1]), diopi_torch.__file__   # the installed copy
        assert "diopi" in torch._dynamo.list_backends()
        m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.SiLU(), torch.nn.Linear(16, 4))
        x = torch.randn(3, 8)
        ref = m(x)
        md = m.to("diopi")
        out = torch.compile(md, backend="diopi")(x.to("diopi"))
        assert "diopi_torch.graph" in sys.modules
        assert torch.allclose(out.cpu(), ref, atol=1e-5), (out.cpu() - ref).abs().max()
        print(diopi_torch.stats()["graph"]["compiled_nodes"])
    """)
    proc = subprocess.run([py, "-c", code, str(src)], capture_output=True, text=True, cwd=str(tmp_path), timeout=600,
                          env={**env, "DIOPI_IMPL_LIB": LIB, "DIOPI_TORCH_EXT": EXT,
                               "DIOPI_GRAPH_CACHE": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert int(proc.stdout.strip().splitlines()[-1]) >= 3  # two linear layers and a SiLU lowered
