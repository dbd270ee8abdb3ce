"""The console summary (per family, per function with --verbose), the
adaptor's conversion count, and summary.json's case rows."""
import io
import json

import numpy as np

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
