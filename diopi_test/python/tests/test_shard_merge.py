"""run_test --shard K/N and --mode merge: the shards partition the selection,
their merged report equals one unsharded run's, and merge refuses shards
that do not belong together. Also the console and progress output that
CI logs and people read."""
import csv
import json
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

from support import make_baselines
from support import run_main

torch = pytest.importorskip("torch", reason="making baselines needs torch")

from conformance import expand, html_report, spec  # noqa: E402
from conformance.reftorch import torch as T  # noqa: E402

SHAPES = (((3, 4), (3, 4)), ((2, 3, 5), (2, 3, 5)))
UNARY = (((3, 4),), ((2, 3, 5),))

# Functions of the faulty library with different verdicts (passed, failed,
# crashed, oob_write, unwritten on noncontig only, not_implemented) over
# two families, plus one the device config skips: every kind of row is cut
# into shards.
OPS = [
    ("elementwise_binary_arith", spec.Op(f"diopi{name}", ref, tensors=dict(input=spec.T(), other=spec.T()), shapes=SHAPES,
                                         dtypes=("float32",), params=({"alpha": 1},)))
    for name, ref in (("Add", lambda input, other, alpha: T.add(input, other, alpha=alpha)),
                      ("Sub", lambda input, other, alpha: T.sub(input, other, alpha=alpha)))
] + [
    ("elementwise_binary_arith", spec.Op("diopiMul", lambda input, other: T.mul(input, other),
                                         tensors=dict(input=spec.T(), other=spec.T()), shapes=SHAPES[:1], dtypes=("float32",))),
] + [
    ("elementwise_unary", spec.Op(f"diopi{name}", ref, tensors=dict(input=spec.T()), shapes=UNARY, dtypes=("float32",)))
    for name, ref in (("Abs", lambda input: T.abs(input)), ("Neg", lambda input: T.neg(input)),
                      ("Relu", lambda input: T.relu(input)), ("Sigmoid", lambda input: T.sigmoid(input)))
]

PROGRESS = re.compile(r"^\[run_test\] (\d+)/(\d+) cases \(\d+%\): (\d+) passed, (\d+) failed, (\d+) other; "
                      r"elapsed [\d:]+, ETA [\d:?]+$")
CLOSING = re.compile(r"^run_test: \d+ passed, \d+ failed, \d+ skipped$", re.M)


def _summary(d):
    with open(d / "summary.json") as f:
        return json.load(f)


def _keys(summary):
    return {(c["case"], c["layout"]) for c in summary["cases"]}


@pytest.fixture(scope="module")
def runs(tmp_path_factory, faulty_lib):
    root = tmp_path_factory.mktemp("shards")
    data = root / "data"
    make_baselines(data, expand.expand(OPS))
    cfg = root / "device_configs.py"
    cfg.write_text('SKIP = {"neg::*": "skipped to put skipped rows into the shards"}\n')
    common = ["--mode", "run_test", "--impl_lib", faulty_lib, "--data_dir", str(data), "--device_config", str(cfg),
              "--timeout", "5"]
    out = {"root": root, "data": data, "common": common, "lib": faulty_lib}
    out["full"] = run_main(*common, "--report_dir", str(root / "full"), "--jobs", "2")
    out["s1"] = run_main(*common, "--report_dir", str(root / "s1"), "--jobs", "2", "--shard", "1/2")
    # shard 2 also shows that --log-level warning silences the progress lines
    out["s2"] = run_main(*common, "--report_dir", str(root / "s2"), "--jobs", "1", "--shard", " 2/2", "--log-level", "warning")
    out["merged"] = run_main("--mode", "merge", str(root / "s1"), str(root / "s2"), "--report_dir", str(root / "merged"))
    for name in ("full", "s1", "s2", "merged"):
        assert out[name].returncode in (0, 1), (name, out[name].stdout[-2000:], out[name].stderr[-2000:])
    return out


def test_shards_partition_the_selection(runs):
    root = runs["root"]
    full, s1, s2 = _summary(root / "full"), _summary(root / "s1"), _summary(root / "s2")
    k1, k2 = _keys(s1), _keys(s2)
    assert k1 and k2 and not k1 & k2
    assert k1 | k2 == _keys(full)
    assert s1["shard"]["selection"] == s2["shard"]["selection"] == full["shard"]["selection"]
    replayed = sum(1 for c in full["cases"] if c["index"] >= 0)
    assert s1["shard"]["selected"] == s2["shard"]["selected"] == replayed
    # round robin: the two halves differ by at most one case
    assert abs(sum(1 for c in s1["cases"] if c["index"] >= 0) - sum(1 for c in s2["cases"] if c["index"] >= 0)) <= 1
    library = {c["case"] for c in full["cases"] if c["case"].startswith("library::")}
    assert library and {c["case"] for c in s1["cases"] if c["index"] < 0} == library
    assert not any(c["index"] < 0 for c in s2["cases"])
    for s in (s1, s2):  # both halves hold skipped rows of the device config
        assert any(c["result"]["verdict"] == "skipped" for c in s["cases"])


def test_merged_report_equals_the_unsharded_run(runs):
    root = runs["root"]
    full, merged = _summary(root / "full"), _summary(root / "merged")
    assert merged["totals"] == full["totals"]
    assert merged["functions"] == full["functions"]
    assert merged["families"] == full["families"]
    verdicts = lambda s: {(c["case"], c["layout"], c["result"]["verdict"]) for c in s["cases"]}  # noqa: E731
    assert verdicts(merged) == verdicts(full)
    assert merged["shard"]["count"] == 1 and len(merged["shard"]["merged_from"]) == 2
    # the tolerance totals count each case once, as the unsharded run does
    assert merged["tolerance_proof"] == full["tolerance_proof"]
    assert merged["tolerance_proof"]["cases"] > 0
    # rows come back in the order of the unsharded selection
    seqs = [c["seq"] for c in merged["cases"]]
    assert seqs == sorted(seqs)

    def csv_rows(d):
        with open(d / "error_report.csv") as f:
            return sorted((r["case"], r["layout"], r["verdict"], r["reason"], r["repro"]) for r in csv.DictReader(f))
    assert csv_rows(root / "merged") == csv_rows(root / "full")

    def junit_counts(d):
        suite = ET.parse(d / "junit.xml").getroot().find("testsuite")
        cases = sorted((c.get("classname"), c.get("name"), tuple(x.tag for x in c)) for c in suite.iter("testcase"))
        return {k: suite.get(k) for k in ("tests", "failures", "errors", "skipped")}, cases
    assert junit_counts(root / "merged") == junit_counts(root / "full")

    def html_cases(d):
        return sorted((c["case"], c["layout"], c["verdict"]) for c in html_report.load_cases(str(d))["cases"])
    assert html_cases(root / "merged") == html_cases(root / "full")
    assert (root / "merged" / "report.html").stat().st_size > 0

    # the same closing line and exit status as the unsharded run
    assert CLOSING.findall(runs["merged"].stdout) == CLOSING.findall(runs["full"].stdout) != []
    assert runs["merged"].returncode == runs["full"].returncode == 1  # the faulty library fails cases


def _refused(*args):
    r = run_main("--mode", "merge", *map(str, args))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    return r.stderr


def test_merge_refuses_what_does_not_belong_together(runs, torch_lib_dir):
    root, common = runs["root"], runs["common"]
    out = root / "refused"
    assert "missing shard 2/2" in _refused(root / "s1", "--report_dir", out)
    assert "different splits" in _refused(root / "s1", root / "full", "--report_dir", out)
    assert "given twice" in _refused(root / "s1", root / "s1", root / "s2", "--report_dir", out)
    shutil.copytree(root / "s1", root / "s1_copy")
    assert "are both shard 1/2" in _refused(root / "s1", root / "s1_copy", root / "s2", "--report_dir", out)
    assert "one of the merged directories" in _refused(root / "s1", root / "s2", "--report_dir", root / "s1")
    assert "not a run_test report" in _refused(root / "s1", root / "data", "--report_dir", out)

    # the second half of another library's run
    lib = runs["lib"]
    other = [a if a != lib else f"{torch_lib_dir}/libdiopi_impl.so" for a in common]
    r = run_main(*other, "--report_dir", str(root / "torch_s2"), "--shard", "2/2", "--log-level", "error")
    assert r.returncode in (0, 1), r.stderr
    assert "merge only shards of one library" in _refused(root / "s1", root / "torch_s2", "--report_dir", out)

    # the second half of another selection (contiguous layouts only)
    r = run_main(*common, "--report_dir", str(root / "contig_s2"), "--shard", "2/2", "--layout", "contiguous", "--log-level", "error")
    assert r.returncode in (0, 1), r.stderr
    assert "another selection" in _refused(root / "s1", root / "contig_s2", "--report_dir", out)

    # a shard report altered to hold a case of the other shard
    shutil.copytree(root / "s2", root / "s2_overlap")
    s1, s2 = _summary(root / "s1"), _summary(root / "s2_overlap")
    stolen = next(c for c in s1["cases"] if c["index"] >= 0)
    s2["cases"].append(stolen)
    (root / "s2_overlap" / "summary.json").write_text(json.dumps(s2))
    assert f"case {stolen['case']} ({stolen['layout']}) is in both" in _refused(root / "s1", root / "s2_overlap", "--report_dir", out)
    assert not out.exists()


def test_plain_progress_lines_when_not_a_tty(runs):
    full = _summary(runs["root"] / "full")
    replayed = [c for c in full["cases"] if c["index"] >= 0 and c["result"]["verdict"] != "skipped"]
    lines = [PROGRESS.match(ln) for ln in runs["full"].stderr.splitlines() if ln.startswith("[run_test]")]
    assert lines and all(lines), runs["full"].stderr
    assert "\r" not in runs["full"].stderr
    done = [int(m.group(1)) for m in lines]
    assert done == sorted(done) and done[-1] == int(lines[-1].group(2)) == len(replayed)
    passed, failed, other = (int(lines[-1].group(i)) for i in (3, 4, 5))
    want_passed = sum(c["result"]["verdict"] == "passed" for c in replayed)
    assert (passed, failed + other) == (want_passed, len(replayed) - want_passed)
    # shard 2 ran with --log-level warning: no progress lines
    assert "[run_test]" not in runs["s2"].stderr


def test_console_summary_is_per_family_and_per_function_with_verbose(runs):
    root = runs["root"]
    full = _summary(root / "full")
    out = runs["full"].stdout.splitlines()
    for fam, c in full["families"].items():
        want = [fam, str(c["functions"]), str(c["cases"]), str(c["passed"]), str(c["failed"]), str(c["other"])]
        assert any(ln.split() == want for ln in out), (fam, runs["full"].stdout)
    assert len(full["families"]) >= 2
    assert not any(ln.split()[:1] == [func] for func in full["functions"] for ln in out)
    verbose = run_main("--mode", "merge", str(root / "s1"), str(root / "s2"), "--report_dir", str(root / "verbose"), "--verbose")
    assert verbose.returncode == runs["full"].returncode
    lines = verbose.stdout.splitlines()
    for func, counts in full["functions"].items():
        row = next((ln.split() for ln in lines if ln.split()[:1] == [func]), None)
        assert row is not None, (func, verbose.stdout)
        assert int(row[1]) == counts["passed"]  # the first count column is passed
    assert CLOSING.findall(verbose.stdout) == CLOSING.findall(runs["full"].stdout)
