"""The report counts cases that passed only through the adaptor's conversions."""
import io

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
