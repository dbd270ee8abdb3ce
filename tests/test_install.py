"""The installed package works as documented: a project outside the tree
finds it with find_package(diopi 1.0 CONFIG) and with pkg-config, links the
vendor library and the test runtime, and calls operators from C and C++; a
vendor builds its own libdiopi_impl.so against diopi::headers alone."""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "torch")
CONSUMER = os.path.join(ROOT, "tests", "consumer")

pytestmark = pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "lib", "libdiopi_impl.so")),
                                reason="needs build/torch (bash scripts/build_impl.sh torch)")


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("install")
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True, capture_output=True)
    return prefix


def test_layout_of_the_installed_package(prefix):
    lib = prefix / "lib"
    for path in ["include/diopi/diopirt.h", "include/diopi/functions.h", "include/diopi_test/testrt.h",
                 "lib/libdiopi_impl.so", "lib/libdiopirt.so", "lib/cmake/diopi/diopiConfig.cmake",
                 "lib/cmake/diopi/diopiConfigVersion.cmake", "lib/pkgconfig/diopi.pc", "lib/pkgconfig/diopirt.pc"]:
        assert (prefix / path).exists(), path
    assert 'set(DIOPI_VENDOR "torch")' in (lib / "cmake" / "diopi" / "diopiConfig.cmake").read_text()


def test_cmake_consumer_builds_and_runs(prefix, tmp_path):
    build = tmp_path / "consumer"
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    conf = subprocess.run(["cmake", "-S", CONSUMER, "-B", str(build), *gen, f"-DCMAKE_PREFIX_PATH={prefix}"],
                          capture_output=True, text=True)
    assert conf.returncode == 0, conf.stdout + conf.stderr
    assert "vendor torch" in conf.stdout
    subprocess.run(["cmake", "--build", str(build)], check=True, capture_output=True)
    for exe, vendor in (("consumer_c", "torch"), ("consumer_cxx", "torch"), ("consumer_vendor_c", "consumer")):
        run = subprocess.run([str(build / exe)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and run.stdout.strip() == f"ok {vendor}", run.stdout + run.stderr


def test_the_documented_target_names_are_the_installed_ones(prefix):
    """diopiConfig.cmake documents each target; the exports define exactly those."""
    cmake_dir = prefix / "lib" / "cmake" / "diopi"
    documented = set(re.findall(r"^# (diopi::\w+) ", (cmake_dir / "diopiConfig.cmake").read_text(), re.M))
    defined = set()
    for f in cmake_dir.glob("diopi*Targets.cmake"):
        defined |= set(re.findall(r"^add_library\((diopi::\w+) ", f.read_text(), re.M))
    assert documented == defined == {"diopi::headers", "diopi::impl", "diopi::testrt"}, (documented, defined)


def test_version_check_refuses_another_major(prefix, tmp_path):
    (tmp_path / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES C)\n"
                                             "find_package(diopi 2.0 CONFIG REQUIRED)\n")
    conf = subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(tmp_path / "b"), f"-DCMAKE_PREFIX_PATH={prefix}"],
                          capture_output=True, text=True)
    assert conf.returncode != 0 and "1.0.0" in conf.stderr


@pytest.mark.skipif(not shutil.which("pkg-config"), reason="pkg-config is not installed")
@pytest.mark.parametrize("program", ["add.c", "vendor_name.c"])
def test_pkg_config_consumer(prefix, tmp_path, program):
    """add.c calls the runtime itself; vendor_name.c calls only the operator
    library, so only libdiopi_impl.so needs the runtime. --as-needed (the
    default of several distributions' compilers) drops a library that nothing
    linked before it needs: the flags must list the runtime after the library."""
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "diopirt"], capture_output=True, text=True, env=env,
                           check=True).stdout.split()
    exe = tmp_path / "prog"
    build = subprocess.run(["cc", "-std=c11", "-Wl,--as-needed", os.path.join(CONSUMER, program), *flags, "-o", str(exe)],
                           capture_output=True, text=True)
    assert build.returncode == 0, " ".join(flags) + "\n" + build.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok torch", run.stdout + run.stderr
