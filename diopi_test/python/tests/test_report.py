"""The console summary (per family, per function with --verbose), the
adaptor's conversion count, and summary.json's case rows."""
import io
import json

import numpy as np
import pytest

from conformance import report, runner


def _item(func, name):
    return runner.WorkItem(func, 0, "contiguous", name, 1.0)


def test_conversions_are_summarised():
    rep = report.Report()
    rep.add(_item("diopiAdd", "a"), {"verdict": "passed", "message": "", "conversions": "input:float64->float32; out:float32->float64"})
    rep.add(_item("diopiAdd", "b"), {"verdict": "passed", "message": ""})
    rep.add(_item("diopiConvolution2d", "c"), {"verdict": "passed", "message": "", "conversions": "input:NCHW->NHWC"})
    rep.add(_item("diopiMul", "d"), {"verdict": "failed", "message": "x", "conversions": "input:int64->int32"})
    assert rep.conversion_summary() == (2, 1, 2)
    out = io.StringIO()
    rep.print_summary(out)
    assert "passed through the adaptor's conversions: 2 cases of 2 functions (1 only through dtype casts" in out.getvalue()


def test_no_line_without_conversions():
    rep = report.Report()
    rep.add(_item("diopiAdd", "a"), {"verdict": "passed", "message": ""})
    out = io.StringIO()
    rep.print_summary(out)
    assert "adaptor" not in out.getvalue()


def _mixed_report():
    """Rows of three functions in two families, with every kind of verdict class."""
    rep = report.Report()
    rows = [("diopiAdd", "add::a", "passed"), ("diopiAdd", "add::b", "failed"), ("diopiSub", "sub::a", "crashed"),
            ("diopiSub", "sub::b", "passed"), ("diopiRelu", "relu::a", "not_implemented"), ("diopiRelu", "relu::b", "skipped")]
    for func, name, verdict in rows:
        rep.add(_item(func, name), {"verdict": verdict, "message": "m"})
    return rep, rows


def test_default_summary_has_a_line_per_family():
    rep, rows = _mixed_report()
    out = io.StringIO()
    rep.print_summary(out)
    lines = [ln.split() for ln in out.getvalue().splitlines()]
    for fam in {report.family_of(func) for func, _, _ in rows}:
        mine = [r for r in rows if report.family_of(r[0]) == fam]
        passed = sum(v == "passed" for _, _, v in mine)
        failed = sum(v in ("failed", "crashed") for _, _, v in mine)
        want = [fam, str(len({f for f, _, _ in mine})), str(len(mine)), str(passed), str(failed), str(len(mine) - passed - failed)]
        assert want in lines, (want, out.getvalue())
    assert not any(line[:1] == [func] for func, _, _ in rows for line in lines)
    # the closing line scripts read stays
    assert out.getvalue().rstrip().splitlines()[-1] == "run_test: 2 passed, 2 failed, 1 skipped"


def test_verbose_summary_has_a_line_per_function():
    rep, rows = _mixed_report()
    out = io.StringIO()
    rep.print_summary(out, verbose=True)
    lines = [ln.split() for ln in out.getvalue().splitlines()]
    header = next(line for line in lines if line[:1] == ["function"])
    for func in {f for f, _, _ in rows}:
        line = next(line for line in lines if line[:1] == [func])
        counts = dict(zip(header[1:], map(int, line[1:])))
        assert counts == {v: sum(1 for f, _, x in rows if f == func and x == v) for v in header[1:]}


def test_summary_json_keeps_every_row(tmp_path):
    rep, _ = _mixed_report()
    # workers may answer with numpy scalars and arrays
    rep.add(_item("diopiMul", "mul::a"), {"verdict": "failed", "message": "m", "max_abs": np.float32(0.5),
                                          "first_index": np.array([1, 2])})
    rep.write(str(tmp_path), None, None, {"mode": "run_test", "shard": {"index": 2, "count": 3}})
    with open(tmp_path / "summary.json") as f:
        data = json.load(f)
    assert [(c["function"], c["case"], c["result"]["verdict"]) for c in data["cases"]] == \
        [(i.func, i.name, r["verdict"]) for i, r in rep.rows]
    assert data["cases"][-1]["result"]["max_abs"] == 0.5 and data["cases"][-1]["result"]["first_index"] == [1, 2]
    assert data["shard"] == {"index": 2, "count": 3}
    assert data["families"] == rep.per_family()


def _every_verdict_report():
    """A run with one function per verdict the harness knows (two cases each,
    one of them that verdict) and one function with all of them."""
    from conformance.verdicts import VERDICTS
    rep = report.Report()
    funcs = sorted(f for f in __import__("diopi_header").load() if f.startswith("diopi"))[:len(VERDICTS) + 1]
    for func, verdict in zip(funcs, VERDICTS):
        rep.add(_item(func, f"{func}::float32::a"), {"verdict": "passed", "message": ""})
        rep.add(_item(func, f"{func}::float32::b"), {"verdict": verdict, "message": f"why {verdict}"})
    for k, verdict in enumerate(VERDICTS):
        rep.add(_item(funcs[-1], f"{funcs[-1]}::float16::{k}"), {"verdict": verdict, "message": f"why {verdict}"})
    return rep, dict(zip(funcs, VERDICTS)), funcs[-1]


def test_junit_carries_every_verdict_as_its_own_type(tmp_path):
    junitparser = pytest.importorskip("junitparser", reason="junitparser is not installed (requirements.txt)")
    from conformance.verdicts import FAILING, VERDICTS
    rep, _, _ = _every_verdict_report()
    rep.write(str(tmp_path), None, None, {"mode": "run_test"})
    (suite,) = list(junitparser.JUnitXml.fromfile(str(tmp_path / "junit.xml")))
    types = {}
    for case in suite:
        for r in case.result:
            types.setdefault(r.type, set()).add(type(r).__name__)
    for verdict in VERDICTS:
        if verdict == "passed":
            continue
        assert verdict in types, verdict
        if verdict in FAILING:
            assert types[verdict] <= {"Failure", "Error"}, (verdict, types[verdict])


def _chromium():
    import shutil
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(not _chromium(), reason="Chromium is not installed (scripts/setup.sh installs Debian's chromium)")
def test_html_report_shows_every_verdict(tmp_path):
    """The page's summary line and matrix have every verdict of the run: a
    column each, the count in each function's row, the total in the summary."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (requirements.txt)")
    from conformance.verdicts import VERDICTS
    rep, verdict_of, everything = _every_verdict_report()
    rep.write(str(tmp_path), None, None, {"mode": "run_test"})
    totals = rep.totals()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                                                                       "--disable-background-networking", "--disable-sync"])
        try:
            page = browser.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto("file://" + str(tmp_path / "report.html"))
            summary = page.locator("#totals").inner_text()
            columns = [th.get_attribute("data-verdict") for th in page.locator("#matrix thead th[data-verdict]").all()]
            assert columns == list(VERDICTS)
            for verdict in VERDICTS:
                assert f"{totals[verdict]} {verdict}" in summary, (verdict, summary)
            for func, verdict in verdict_of.items():
                row = page.locator(f'tr.function[data-function="{func}"]')
                cell = row.locator(f'td[data-verdict="{verdict}"]').inner_text()
                assert cell == ("2" if verdict == "passed" else "1"), (func, verdict, cell)
            row = page.locator(f'tr.function[data-function="{everything}"]')
            assert [row.locator(f'td[data-verdict="{v}"]').inner_text() for v in VERDICTS] == ["1"] * len(VERDICTS)
            assert not errors, errors
        finally:
            browser.close()
