"""run_test against a library with one planted defect per function: every
defect gets its own verdict, the run completes, and the exit code says so."""
import csv
import json
import os

import pytest

from support import make_baselines
from support import run_main

torch = pytest.importorskip("torch", reason="making baselines needs torch")

from conformance import expand, spec  # noqa: E402
from conformance.reftorch import torch as T  # noqa: E402

SHAPES = (((3, 4), (3, 4)), ((2, 3, 5), (2, 3, 5)))
UNARY = (((3, 4),), ((2, 3, 5),))

OPS = [
    ("elementwise_binary_arith", spec.Op("diopiAdd", lambda input, other, alpha: T.add(input, other, alpha=alpha),
                                         tensors=dict(input=spec.T(), other=spec.T()), shapes=SHAPES, dtypes=("float32",), params=({"alpha": 1},))),
    ("elementwise_binary_arith", spec.Op("diopiSub", lambda input, other, alpha: T.sub(input, other, alpha=alpha),
                                         tensors=dict(input=spec.T(), other=spec.T()), shapes=SHAPES, dtypes=("float32",), params=({"alpha": 1},))),
    ("elementwise_binary_arith", spec.Op("diopiMul", lambda input, other: T.mul(input, other),
                                         tensors=dict(input=spec.T(), other=spec.T()), shapes=SHAPES[:1], dtypes=("float32",))),
    ("elementwise_binary_arith", spec.Op("diopiDiv", lambda input, other, rounding_mode: T.div(input, other),
                                         tensors=dict(input=spec.T(), other=spec.T()), shapes=SHAPES[:1], dtypes=("float32",),
                                         params=({"rounding_mode": None},), layouts=("contiguous",), layout_reason="one hang is enough")),
] + [
    ("elementwise_unary", spec.Op(f"diopi{name}", ref, tensors=dict(input=spec.T()), shapes=UNARY, dtypes=("float32",)))
    for name, ref in (("Abs", lambda input: T.abs(input)), ("Neg", lambda input: T.neg(input)), ("Exp", lambda input: T.exp(input)),
                      ("Relu", lambda input: T.relu(input)), ("Sqrt", lambda input: T.sqrt(T.abs(input))),
                      ("Tanh", lambda input: T.tanh(input)), ("Sigmoid", lambda input: T.sigmoid(input)))
]

EXPECTED = {
    "diopiAdd": {"passed"},
    "diopiSub": {"failed"},
    "diopiMul": {"crashed"},
    "diopiDiv": {"timeout"},
    "diopiAbs": {"oob_write"},
    "diopiNeg": {"input_modified"},
    "diopiExp": {"unwritten"},
    "diopiRelu": {"passed", "gap_write"},  # contiguous passes; into a strided output it writes between the elements
    "diopiSqrt": {"no_message"},
    "diopiTanh": {"metadata_changed"},
    "diopiSigmoid": {"not_implemented"},
    "diopiGetVendorName": {"passed"},     # library checks run with every run_test
    "diopiGetImplVersion": {"failed"},    # returns an empty string
}


@pytest.fixture(scope="module")
def faulty_run(tmp_path_factory, faulty_lib):
    data = tmp_path_factory.mktemp("data")
    reports = tmp_path_factory.mktemp("reports")
    cases = expand.expand(OPS)
    make_baselines(data, cases)
    proc = run_main("--mode", "run_test", "--impl_lib", faulty_lib, "--data_dir", str(data), "--report_dir", str(reports),
                    "--timeout", "3", "--jobs", "2")
    with open(reports / "summary.json") as f:
        summary = json.load(f)
    with open(reports / "error_report.csv") as f:
        rows = list(csv.DictReader(f))
    proc.reports = reports
    return proc, summary, rows


def test_every_defect_gets_its_verdict(faulty_run):
    proc, summary, _ = faulty_run
    for func, want in EXPECTED.items():
        got = {v for v, n in summary["functions"][func].items() if n}
        assert got == want, (func, got, proc.stdout[-3000:])


def test_stride_blindness_fails_only_noncontiguous(faulty_run):
    proc, _, rows = faulty_run
    relu = [r for r in rows if r["function"] == "diopiRelu"]
    assert relu and all(r["layout"] == "noncontig" for r in relu)
    assert "only with non-contiguous layouts: diopiRelu" in proc.stdout


def test_run_completes_and_exit_code_is_nonzero(faulty_run):
    proc, summary, rows = faulty_run
    assert proc.returncode == 1, proc.stderr
    total = sum(sum(c.values()) for c in summary["functions"].values())
    # every case was accounted for although workers died along the way
    assert total == sum(1 for _ in rows) + summary["totals"]["passed"]
    crashed = [r for r in rows if r["verdict"] == "crashed"]
    assert crashed and "SIGSEGV" in crashed[0]["reason"]


def test_failures_carry_a_repro_line_and_errors(faulty_run):
    _, _, rows = faulty_run
    sub = next(r for r in rows if r["function"] == "diopiSub")
    assert sub["repro"].startswith("python main.py --mode run_test --case ")
    assert float(sub["max_abs"]) > 0 and int(sub["mismatches"]) > 0


def test_junit_report_has_a_case_per_replay_and_the_verdicts(faulty_run):
    junitparser = pytest.importorskip("junitparser")
    proc, summary, rows = faulty_run
    xml = junitparser.JUnitXml.fromfile(str(proc.reports / "junit.xml"))
    (suite,) = list(xml)
    cases = list(suite)
    total = sum(sum(c.values()) for c in summary["functions"].values())
    assert len(cases) == suite.tests == total
    by_class = {}
    for c in cases:
        by_class.setdefault(c.classname, []).append(c)
    sub = by_class["elementwise_binary_arith.diopiSub"]
    failed = [c for c in sub if c.result and isinstance(c.result[0], junitparser.Failure)]
    assert failed and failed[0].result[0].message.startswith("failed: ")
    assert "repro: python main.py --mode run_test --case " in failed[0].result[0].text
    crashed = [c for cs in by_class.values() for c in cs if c.result and isinstance(c.result[0], junitparser.Error)]
    assert any(c.result[0].type == "crashed" for c in crashed)
    skipped = [c for c in by_class["activation.diopiSigmoid"] if c.result]
    assert skipped and all(isinstance(c.result[0], junitparser.Skipped) for c in skipped)
    assert suite.failures + suite.errors + suite.skipped == len(rows)  # the CSV lists every case not passed
    # Every case that ran carries its time (a replay takes well over the microsecond JUnit's six decimals show),
    # the crashes included (the harness's wait for the answer); the suite's time is their sum.
    ran = [c for c in cases if not (c.result and isinstance(c.result[0], junitparser.Skipped))]
    assert ran and all(c.time > 0 for c in ran), [c.name for c in ran if not c.time > 0][:5]
    assert suite.time == pytest.approx(sum(c.time for c in cases), abs=1e-3)


def _chromium():
    import shutil
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(not _chromium(), reason="Chromium is not installed (scripts/setup.sh installs Debian's chromium)")
def test_html_report_in_a_real_browser(faulty_run, tmp_path):
    """report.html loads in headless Chromium without console errors, has a
    row per function, its filters work, and shows a second run beside it."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (requirements.txt)")
    from conformance import html_report

    proc, summary, _ = faulty_run
    functions = set(summary["functions"])
    failing = {f for f, c in summary["functions"].items()
               if any(n for v, n in c.items() if v not in ("passed", "skipped", "not_implemented"))}
    other = html_report.load_cases(str(proc.reports))
    for c in other["cases"]:  # "yesterday": everything passed
        c["verdict"] = "passed"
    other["library"] = "yesterday"
    today = html_report.load_cases(str(proc.reports))["cases"]
    page_path = html_report.write(str(tmp_path), today, "faulty vs yesterday", "faulty", compare=other)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            page = browser.new_page()
            errors = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto("file://" + page_path)
            rows = page.locator("tr.function")
            assert {rows.nth(i).get_attribute("data-function") for i in range(rows.count())} == functions
            assert "other: passed" in page.locator("#matrix thead").inner_text()
            page.fill("#filter", "sub")
            names = [rows.nth(i).get_attribute("data-function") for i in range(rows.count())]
            assert names and all("sub" in n.lower() for n in names)
            page.fill("#filter", "")
            page.check("#failing")
            assert {rows.nth(i).get_attribute("data-function") for i in range(rows.count())} == failing
            page.uncheck("#failing")
            page.select_option("#family", "activation")
            fams = {rows.nth(i).get_attribute("data-function") for i in range(rows.count())}
            assert fams and "diopiSigmoid" in fams and "diopiSub" not in fams
            repro = page.locator("#failures code").first.inner_text()
            assert repro.startswith("python main.py --mode run_test --case ")
            assert not errors, errors
        finally:
            browser.close()
