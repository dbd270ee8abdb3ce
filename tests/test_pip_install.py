"""The harness installs as a package: `pip install ".[replay]"` into a fresh
venv from a clean copy of the tree gives a `diopi-conformance` console
script that replays baselines without torch, with the header model and
every file it reads at run time inside the installed package.

The venv fixture takes about half a minute (a wheel build and the pinned
packages from the index)."""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN_PY = os.path.join(ROOT, "diopi_test", "python", "main.py")
# What a clean clone lacks (.gitignore): build trees, baselines, reports, caches.
_NOT_IN_A_CLONE = ("build", "data", "reports", ".git", "__pycache__", "*.egg-info", ".pytest_cache", ".venv*")
# pip's words for an index it cannot reach, as opposed to a pin it cannot satisfy.
_OFFLINE = ("NewConnectionError", "Failed to establish a new connection", "Temporary failure in name resolution",
            "Network is unreachable", "ProxyError", "Max retries exceeded")


def _files(top):
    return {os.path.relpath(os.path.join(d, f), top) for d, _, names in os.walk(top) for f in names}


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    src = tmp_path_factory.mktemp("clone") / "diopi"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*_NOT_IN_A_CLONE), symlinks=True)
    return src


@pytest.fixture(scope="module")
def install(tmp_path_factory, clone):
    """A fresh venv with the clone installed as ".[replay]" (not editable):
    (its bin/, the files the install added to the clone)."""
    env_dir = tmp_path_factory.mktemp("venv-replay")
    made = subprocess.run([sys.executable, "-m", "venv", str(env_dir)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"python -m venv does not work here (Debian: apt install python3-venv): {made.stderr.strip()[-200:]}")
    before = _files(clone)
    pip = subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check",
                          "--retries", "1", f"{clone}[replay]"], capture_output=True, text=True, timeout=900)
    out = pip.stdout + pip.stderr
    if pip.returncode != 0 and any(s in out for s in _OFFLINE):
        pytest.skip("pip cannot reach a package index for the replay extra's pins (no network?)")
    assert pip.returncode == 0, out[-3000:]
    return env_dir / "bin", sorted(_files(clone) - before)


@pytest.fixture(scope="module")
def venv(install):
    return install[0]


def _run(cmd, cwd=None, timeout=300, venv=False):
    """`venv`: a program of the test's venv, which must see only what is installed there, not an outer PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} if venv else None
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd, timeout=timeout, env=env)


def _options(help_text):
    return set(re.findall(r"(?<![\w-])--[a-z][a-z_]*", help_text))


def test_torch_is_not_importable_in_the_replay_venv(venv):
    res = _run([venv / "python", "-c", "import torch"], venv=True)
    assert res.returncode != 0 and "No module named 'torch'" in res.stderr, res.stderr


def test_console_script_takes_the_options_of_main_py(venv):
    installed = _run([venv / "diopi-conformance", "--help"], venv=True)
    assert installed.returncode == 0, installed.stderr
    assert installed.stdout.startswith("usage: diopi-conformance")
    tree = _run([sys.executable, MAIN_PY, "--help"])
    assert tree.returncode == 0, tree.stderr
    assert "--mode" in _options(installed.stdout)
    assert _options(installed.stdout) == _options(tree.stdout)


def test_installed_package_carries_what_it_reads(venv, clone):
    probe = ("import importlib, json, os, pkgutil, sysconfig, conformance, diopi_header\n"
             "from conformance import paths, model_cases\n"
             "site = sysconfig.get_paths()['purelib']\n"
             "print(json.dumps({'in_tree': paths.IN_TREE, 'include': diopi_header.INCLUDE_DIR,\n"
             "  'headers': [os.path.isfile(h) for h in diopi_header.HEADERS], 'testrt': paths.TESTRT_HEADER,\n"
             "  'repro_c': os.path.isfile(os.path.join(os.path.dirname(conformance.__file__), 'repro_runtime.c')),\n"
             "  'models': model_cases.names(), 'functions': len(diopi_header.load()),\n"
             "  'configs': importlib.import_module(paths.CONFIG_PACKAGE).__file__,\n"
             "  'families': sorted(m.name for m in pkgutil.iter_modules([paths.CONFIG_DIR])), 'top_level': os.listdir(site),\n"
             "  'v1': diopi_header.V1_INTERFACE, 'data_dir': paths.DEFAULT_DATA_DIR}))\n")
    cwd = clone.parent
    res = _run([venv / "python", "-c", probe], cwd=cwd, venv=True)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout)
    site = str(venv.parent)
    assert not got["in_tree"]
    assert got["include"].startswith(site) and all(got["headers"])
    assert got["testrt"].startswith(site) and os.path.isfile(got["testrt"])
    assert got["repro_c"]
    assert "llama2_7b" in got["models"]
    assert got["functions"] > 400
    # The case configs come inside the harness's package (importing them needs torch: gen_data's side), and no
    # top-level `configs` another distribution could own.
    assert got["configs"].startswith(site) and os.path.join("site-packages", "conformance", "configs", "") in got["configs"]
    assert "elementwise_binary_arith" in got["families"] and "configs" not in got["top_level"]
    assert got["v1"].startswith(site) and os.path.isfile(got["v1"])
    # Installed, the defaults are relative to the current directory.
    assert got["data_dir"] == os.path.join(str(cwd), "data")


def test_installed_header_model_checks_the_v1_interface_by_itself(venv, tmp_path):
    """check-v1 without an argument reads the interface facts the wheel carries (run outside any checkout)."""
    res = _run([venv / "python", "-m", "diopi_header", "check-v1"], cwd=tmp_path, venv=True)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert re.search(r"check-v1: [1-9]\d* function\(s\) of \d+ in shipped headers checked, .*; 0 problem\(s\)", res.stdout), res.stdout


def test_install_writes_only_ignored_build_output_into_the_tree(install):
    added = install[1]
    # pyproject.toml sends setuptools' output to build/python, apart from the CMake trees.
    assert any(p.startswith(os.path.join("build", "python", "")) for p in added)
    stray = [p for p in added if not (p.startswith("build" + os.sep) or p.split(os.sep)[0].endswith(".egg-info"))]
    assert not stray, stray[:10]


def _built_library():
    for vendor in ("cpu", "torch"):
        lib = os.path.join(ROOT, "build", vendor, "lib")
        if os.path.exists(os.path.join(lib, "libdiopi_impl.so")) and os.path.exists(os.path.join(lib, "libdiopirt.so")):
            return vendor, os.path.join(lib, "libdiopi_impl.so")
    pytest.skip("needs a built library and test runtime: run `bash scripts/build_impl.sh cpu` first")


def test_installed_script_replays_as_main_py_does(venv, tmp_path):
    vendor, impl = _built_library()
    if importlib.util.find_spec("torch") is None:
        pytest.skip("the baselines of this test are made with torch, which this Python lacks")
    data = tmp_path / "data"
    sel = ["--fname", "add_scalar", "--filter_dtype", "float32"]
    gen = _run([sys.executable, MAIN_PY, "--mode", "gen_data", *sel, "--data_dir", data])
    assert gen.returncode == 0, gen.stderr
    run = ["--mode", "run_test", *sel, "--data_dir", data, "--impl_lib", impl, "--jobs", "1"]
    devcfg = os.path.join(ROOT, "impl", vendor, "device_configs.py")
    if os.path.exists(devcfg):
        run += ["--device_config", devcfg]
    installed = _run([venv / "diopi-conformance", *run, "--report_dir", tmp_path / "installed"], cwd=tmp_path, venv=True)
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
    tree = _run([sys.executable, MAIN_PY, *run, "--report_dir", tmp_path / "tree"])
    assert tree.returncode == 0, tree.stdout[-2000:] + tree.stderr[-2000:]
    totals = [json.loads((tmp_path / d / "summary.json").read_text())["totals"] for d in ("installed", "tree")]
    assert totals[0]["passed"] > 0
    assert totals[0] == totals[1]


def _pins(lines):
    pins = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"not an exact pin: {line}"
            pins[name.strip().lower()] = version.strip()
    return pins


def test_extras_pin_what_the_requirements_files_pin():
    tomllib = pytest.importorskip("tomllib", reason="tomllib (Python 3.11+) reads pyproject.toml")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    with open(os.path.join(ROOT, "requirements.txt")) as f:
        everything = _pins(f)
    with open(os.path.join(ROOT, "requirements-replay.txt")) as f:
        replay_file = _pins(f)
    extra = {name: _pins(reqs) for name, reqs in extras.items()}
    assert set(extra) == {"replay", "reference", "bridge"}
    assert "torch" not in extra["replay"]
    assert extra["reference"]["torch"] == extra["bridge"]["torch"] == everything["torch"]
    assert replay_file.items() <= extra["replay"].items()
    for name, pins in extra.items():
        for pkg, version in pins.items():
            assert everything.get(pkg) == version, f"extra {name}: {pkg}=={version}, requirements.txt: {everything.get(pkg)}"
