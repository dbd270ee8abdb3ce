"""Locations inside the repository, resolved from this file."""
import os

import diopi_header

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(os.path.dirname(PYTHON_DIR))
INCLUDE_DIR = diopi_header.INCLUDE_DIR  # the standard's headers: the header model knows where they are
TESTRT_INCLUDE_DIR = os.path.join(REPO_ROOT, "diopi_test", "csrc", "include")
HEADERS = list(diopi_header.HEADERS)
TESTRT_HEADER = os.path.join(TESTRT_INCLUDE_DIR, "diopi_test", "testrt.h")
DEFAULT_DATA_DIR = os.path.join(REPO_ROOT, "data")
DEFAULT_REPORT_DIR = os.path.join(REPO_ROOT, "reports")


def default_lib_dir(vendor="torch"):
    return os.path.join(REPO_ROOT, "build", vendor, "lib")
