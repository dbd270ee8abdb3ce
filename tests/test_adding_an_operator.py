"""CONTRIBUTING.md's promise: a new operator declared in the header is picked
up everywhere from there, and breaks no test.

The declaration is added to a copy of the headers (DIOPI_INCLUDE_DIR points
every tool at it), as step 1 of the recipe would add it to the checkout.
"""
import os
import shutil
import subprocess
import sys

import pytest

import diopi_header

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "diopi_test", "python")
NEW = "diopiCubeExample"
DECLARATION = f"""
/**
 * @brief Computes the cube x*x*x of each element (an operator added by the contributing recipe's test).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float32, float64.
 * @param[in] input source tensor. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiErrorOccurred for
 *         NULL required handles or inconsistent shapes (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t {NEW}(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);
"""


@pytest.fixture(scope="module")
def include(tmp_path_factory):
    dst = tmp_path_factory.mktemp("hdr") / "include"
    shutil.copytree(diopi_header.INCLUDE_DIR, dst)
    header = dst / "diopi" / "functions.h"
    text = header.read_text()
    anchor = "DIOPI_API diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);\n"
    assert anchor in text
    header.write_text(text.replace(anchor, anchor + DECLARATION, 1))
    return dst


def _env(include):
    return dict(os.environ, DIOPI_INCLUDE_DIR=str(include))


def test_the_header_model_places_it_in_its_family(include):
    old, new = diopi_header.standard(), diopi_header.standard_in(str(include))
    assert set(new.functions) - set(old.functions) == {NEW}
    fn = new.functions[NEW]
    assert fn.family == old.functions["diopiAbs"].family
    roles = {p.name: p.role for p in fn.params}
    assert roles["out"] == "output" and roles["input"] == "input"
    assert set(fn.param("input").dtypes) == {"float32", "float64"}


def test_it_is_an_addition_not_a_break(include):
    res = subprocess.run([sys.executable, "-m", "diopi_header", "abi-diff", diopi_header.INCLUDE_DIR, str(include)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"+ function {NEW}" in res.stdout and "0 breaking" in res.stdout
    res = subprocess.run([sys.executable, "-m", "diopi_header", "check-v1", diopi_header.V1_INTERFACE, "--include", str(include)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_coverage_lists_it_as_declared_but_not_implemented(include):
    lib = os.path.join(ROOT, "build", "cpu", "lib", "libdiopi_impl.so")
    if not os.path.exists(lib):
        pytest.skip("impl/cpu is not built (scripts/build_impl.sh cpu); coverage needs a library")
    report = include.parent / "coverage"
    res = subprocess.run([sys.executable, "main.py", "--mode", "coverage", "--impl_lib", lib, "--report_dir", str(report)],
                         cwd=HARNESS, capture_output=True, text=True, env=_env(include), timeout=300)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    lists = {ln.split(" (")[0]: ln.split(":", 1)[1].split() for ln in res.stdout.splitlines()
             if ln.startswith(("not implemented (", "without cases ("))}
    assert NEW in lists.get("not implemented", []), res.stdout[-2000:]
    assert NEW in lists.get("without cases", []), res.stdout[-2000:]


def test_the_header_tests_still_pass(include):
    """The tests that read the headers, run on the headers with the addition."""
    tests = [os.path.join(ROOT, "proto", "python", "tests"), os.path.join(ROOT, "tests", "test_header_compile.py"),
             os.path.join(ROOT, "tests", "test_header_interface.py")]
    # The recipe regenerates the operator reference; its staleness test then reads that one.
    reference = include.parent / "operators.md"
    subprocess.run([sys.executable, "-m", "diopi_header", "reference", str(reference), "--include", str(include)],
                   check=True, capture_output=True, text=True)
    assert NEW in reference.read_text()
    env = dict(_env(include), DIOPI_OPERATOR_REFERENCE=str(reference))
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=ROOT,
                         capture_output=True, text=True, env=env, timeout=600)
    assert res.returncode == 0, res.stdout[-3000:]
