"""Locations the harness reads and writes, resolved from this file.

In a checkout (python main.py, or an editable install) they are the
repository's own folders. Installed from a wheel (`pip install ".[replay]"`),
the test runtime's headers come with the package, and the current directory
stands for the repository root: data/, reports/, build/<vendor>/lib and
impl/<vendor>/device_configs.py are looked up under it, so running
diopi-conformance from a checkout's root gives the same defaults as
main.py. Options (--data_dir, --report_dir, --impl_lib, --device_config)
override them either way.
"""
import os

import diopi_header

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(PACKAGE_DIR)  # holds conformance/: diopi_test/python or site-packages
_TREE_ROOT = os.path.dirname(os.path.dirname(PYTHON_DIR))
_TREE_TESTRT_INCLUDE = os.path.join(_TREE_ROOT, "diopi_test", "csrc", "include")
IN_TREE = os.path.isfile(os.path.join(_TREE_TESTRT_INCLUDE, "diopi_test", "testrt.h"))

REPO_ROOT = _TREE_ROOT if IN_TREE else os.getcwd()
INCLUDE_DIR = diopi_header.INCLUDE_DIR  # the standard's headers: the header model knows where they are
# The wheel maps diopi_test/csrc/include to conformance/include (pyproject.toml).
TESTRT_INCLUDE_DIR = _TREE_TESTRT_INCLUDE if IN_TREE else os.path.join(PACKAGE_DIR, "include")
HEADERS = list(diopi_header.HEADERS)
# The case configs: the top-level package `configs` beside conformance/ in the tree; the wheel carries them as
# conformance.configs, so that it installs no top-level package of so common a name.
CONFIG_PACKAGE = "configs" if IN_TREE else "conformance.configs"
CONFIG_DIR = os.path.join(PYTHON_DIR, "configs") if IN_TREE else os.path.join(PACKAGE_DIR, "configs")
TESTRT_HEADER = os.path.join(TESTRT_INCLUDE_DIR, "diopi_test", "testrt.h")
DEFAULT_DATA_DIR = os.path.join(REPO_ROOT, "data")
DEFAULT_REPORT_DIR = os.path.join(REPO_ROOT, "reports")


def default_lib_dir(vendor="torch"):
    return os.path.join(REPO_ROOT, "build", vendor, "lib")
