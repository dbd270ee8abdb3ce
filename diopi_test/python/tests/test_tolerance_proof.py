"""Tolerances that can fail: every case's bound rejects a wrong answer (the
expected values off by tolerances.WRONG, zeros, their mean) or says why a
check cannot apply; derived bounds are capped by the output's magnitude."""
import os

import numpy as np
import pytest

from conformance import checks, device_config, dtypes, paths, proof, store, tolerances


def _enc(values, dtype):
    return store.encode_array(dtypes.from_values(np.asarray(values), dtype), dtype)


def test_a_proven_bound_rejects_each_wrong_answer():
    e = np.random.default_rng(0).standard_normal((8, 4))
    tol = tolerances.resolve("float32", scale=tolerances.magnitude(e))
    assert tolerances.prove(e, "float32", tol) == ([], {})
    # The same values with a bound that accepts anything fail all three checks.
    failed, _ = tolerances.prove(e, "float32", (10.0, 0.0))
    assert failed == ["wrong", "zeros", "mean"]


def test_a_small_gradient_of_a_mean_gets_an_atol_of_its_own_size():
    # The shape of sigmoid_focal_loss_backward's bfloat16 mean case: every expected element below 0.0051,
    # where bfloat16's default atol (0.01) accepted zeros, the mean and any output.
    e = dtypes.to_values(dtypes.from_values(np.random.default_rng(1).uniform(-0.0051, 0.0051, (8, 4)), "bfloat16"), "bfloat16")
    uncapped = tolerances.resolve("bfloat16")
    assert tolerances.prove(e, "bfloat16", uncapped)[0] == ["wrong", "zeros", "mean"]
    atol, rtol = checks.output_tolerance(_enc(e, "bfloat16"), None)
    assert atol <= tolerances.MAGNITUDE["bfloat16"] * 0.0051 and rtol <= tolerances.RTOL_CAP["bfloat16"]
    assert tolerances.prove(e, "bfloat16", (atol, rtol)) == ([], {})
    # run_test's own check: zeros fail, the right values pass.
    enc = _enc(e, "bfloat16")
    assert checks.check_output("grad", (dtypes.from_values(np.zeros((8, 4)), "bfloat16"), "bfloat16"), enc, None)[0]
    assert checks.check_output("grad", (dtypes.from_values(e, "bfloat16"), "bfloat16"), enc, None) == (None, None)


def test_float32_elements_of_4e_6_are_not_all_within_atol():
    e = np.random.default_rng(2).uniform(1e-6, 4e-6, (256, 300)).astype(np.float32)
    assert tolerances.prove(e, "float32", tolerances.resolve("float32"))[0]  # atol 1e-5 accepts anything
    tol = checks.output_tolerance(_enc(e, "float32"), None)
    assert tolerances.prove(e, "float32", tol) == ([], {})


def test_caps_keep_the_caps_below_the_wrong_answer():
    for dtype, wrong in tolerances.WRONG.items():
        assert tolerances.RTOL_CAP[dtype] + tolerances.MAGNITUDE[dtype] < wrong, dtype


def test_checks_that_cannot_apply_say_why():
    assert tolerances.prove(np.zeros(5), "float32", (1e-5, 1e-5)) == ([], dict.fromkeys(tolerances.CHECKS, tolerances.ALL_ZERO))
    # Empty: only a wrong shape can be wrong, and it is rejected; no constant to try.
    assert tolerances.prove(np.zeros(0), "float32", (1e-5, 1e-5)) == ([], {"zeros": tolerances.EMPTY, "mean": tolerances.EMPTY})
    # NaN and infinities are compared by identity: a finite element or zeros fail.
    assert tolerances.prove(np.array([np.nan, np.inf]), "float32", (1e-5, 1e-5)) == ([], {"mean": tolerances.NOT_FINITE})
    assert tolerances.prove(np.array([1.5]), "float32", (1e-5, 1e-5)) == ([], {"mean": tolerances.ONE_VALUE})
    assert tolerances.prove(np.full(6, 2.0), "float32", (1e-5, 1e-5)) == ([], {"mean": tolerances.CONSTANT})
    # Integers and bools are compared exactly: one element off by one (flipped) is the wrong answer tried.
    assert tolerances.prove(np.array([1, 2, 3]), "int32", None) == ([], {})
    # Integers all the same: a constant output is the answer.
    assert tolerances.prove(np.array([7, 7]), "int64", None) == ([], {"mean": tolerances.EXACT_CONSTANT})
    assert tolerances.prove(np.array([False, False]), "bool", None) == ([], dict.fromkeys(("zeros", "mean"), tolerances.ALL_ZERO))


def test_a_vendor_allowance_is_used_as_given_and_a_larger_wrong_answer_grows_the_caps(tmp_path):
    path = tmp_path / "device_configs.py"
    path.write_text('TOLERANCES = {"loss::bfloat16::*": {"bfloat16": (2e-2, 2e-2), "reason": "sums in double"}}\n')
    over = device_config.load(str(path)).tolerance("loss::bfloat16::4")
    assert tolerances.resolve("bfloat16", over, scale=0.005) == (2e-2, 2e-2)
    assert tolerances.resolve("bfloat16", {"bfloat16": (2e-2, 2e-2)}, scale=0.005) == (
        tolerances.MAGNITUDE["bfloat16"] * 0.005, tolerances.RTOL_CAP["bfloat16"])
    atol, rtol = tolerances.resolve("bfloat16", {"bfloat16": (1.0, 1.0, 0.03)}, scale=1.0)
    assert rtol == pytest.approx(3 * tolerances.RTOL_CAP["bfloat16"]) and atol == pytest.approx(3 * tolerances.MAGNITUDE["bfloat16"])
    assert tolerances.wrong_answer("bfloat16", {"bfloat16": (2e-2, 2e-2, 0.03)}) == 0.03


def test_sigmoid_focal_loss_alpha_minus_one_5_percent_off_fails():
    """DeepLink's CPU library returns 1.2470 for this case where the answer is
    1.1855 (5.2% off, its alpha=-1 defect); the bfloat16 bound derived from
    the loss's depth (0.0646) let it pass."""
    pytest.importorskip("torch", reason="computes the case's reference")
    from conformance import expand, gen_data
    name = "sigmoid_focal_loss::bfloat16::8x4_8x4::alpha=-1.0,gamma=0.0,reduction=mean"
    cases = [c for c in expand.expand(expand.load_ops(), fnames=["diopiSigmoidFocalLoss"]) if c.name == name]
    assert len(cases) == 1, f"the configs no longer hold {name}"
    record = gen_data.run_case(cases[0])
    enc = record["outputs"]["out"]
    expected = float(dtypes.to_values(*store.decode_array(enc))[()])
    assert expected == pytest.approx(1.1855, abs=0.01)  # the case the issue reports
    wrong = dtypes.from_values(np.asarray(expected * 1.2470 / 1.1855), "bfloat16")
    msg, _ = checks.check_output("out", (wrong, "bfloat16"), enc, record.get("tol"), record.get("accumulation"))
    assert msg and "values differ" in msg
    # A 1% error fails as well, and the reference's own value passes.
    one = dtypes.from_values(np.asarray(expected * 1.0125), "bfloat16")
    assert checks.check_output("out", (one, "bfloat16"), enc, record.get("tol"), record.get("accumulation"))[0]
    right = store.decode_array(enc)[0]
    assert checks.check_output("out", (right, "bfloat16"), enc, record.get("tol"), record.get("accumulation")) == (None, None)
    # The bound without the cap is the one that let 5% pass.
    atol, rtol = tolerances.resolve("bfloat16", record.get("tol"), record.get("accumulation"))
    assert atol + rtol * expected > 0.05 * expected


def _suite_dir():
    d = os.environ.get("DIOPI_PROOF_DATA", paths.DEFAULT_DATA_DIR)
    if not os.path.exists(os.path.join(d, store.MANIFEST)):
        pytest.skip(f"no generated suite in {d}: run `python main.py --mode gen_data` first (scripts/demo.sh does)")
    return d


def test_every_case_of_the_generated_suite_rejects_a_wrong_answer():
    """Proves again, from the baselines themselves (not from what gen_data
    recorded), every case of the generated suite."""
    d = _suite_dir()
    man = store.read_manifest(d)
    failed, by_case = {}, {}
    for func in sorted(man["files"]):
        for record in store.load_function(d, func, man, lazy=True):
            p = proof.prove_record(record)
            if p.failed:
                failed[p.name] = p.failed
            by_case[p.name] = proof.case_outcome(p)
    total = proof.tally(by_case)
    assert total["cases"] > 0
    assert not failed, f"{len(failed)} cases accept a wrong answer, e.g. {sorted(failed.items())[:5]}"
    # A case is left unproven only for a reason a relative or discrete wrong answer cannot get around
    # (integer, bool, empty and NaN outputs are proven); a new reason must be named in tolerances/proof.
    allowed = {tolerances.ALL_ZERO, tolerances.ROUNDING_ZERO, tolerances.NONE_DEFINED, proof.RANDOM, proof.SHAPE_ONLY,
               proof.LARGER_WRONG}
    assert set(total["reasons"]) <= allowed, set(total["reasons"]) - allowed
    print(proof.run_line(total))


def test_the_proof_of_a_record_names_failures_exemptions_and_tightened_outputs():
    e = np.random.default_rng(3).uniform(0.01, 0.02, 16)
    loose = {"name": "x::float32::16", "outputs": {"out": _enc(e, "float32")}, "tol": {"float32": [1.0, 0.5, 10.0]}}
    p = proof.prove_record(loose)
    assert p.failed == ["out: zeros"]  # a wrong answer of 1000% leaves an atol above every element
    # ... and next to it the values are as good as constant
    assert p.exempt == {proof.LARGER_WRONG: ["out: 10"], tolerances.CONSTANT: ["out: mean"]}
    small = {"name": "y::float32::16", "outputs": {"out": _enc(e * 1e-3, "float32"), "n": 3, "ok": None}}
    p = proof.prove_record(small)
    assert not p.failed and [t[0] for t in p.tightened] == ["out"]
    assert p.exempt == {tolerances.ONE_VALUE: ["n: mean"]} and p.discrete == {"n"}
    entry = proof.function_entry([loose, small])
    assert entry["failed"] == {"x::float32::16": ["out: zeros"]} and sorted(entry["tightened"]) == ["x::float32::16", "y::float32::16"]
    assert proof.prove_record({"name": "r", "outputs": {}, "checks": []}).exempt == {proof.RANDOM: ["*"]}


def test_the_proof_judges_by_run_tests_rule():
    from conformance import compare
    e = np.random.default_rng(4).standard_normal(64)
    for tol in ((1e-4, 1e-4), (5e-3, 0.0), (0.0, 2e-3), (3.0, 0.0), (0.0, 1.5)):
        failed, _ = tolerances.prove(e, "float32", tol)
        assert ("wrong" in failed) == (compare.compare(e * 1.001, e, "float64", tol) is None), tol
        assert ("zeros" in failed) == (compare.compare(np.zeros_like(e), e, "float64", tol) is None), tol
        assert ("mean" in failed) == (compare.compare(np.full_like(e, e.mean()), e, "float64", tol) is None), tol


def test_the_run_summary_counts_the_tolerances_of_the_cases_run(tmp_path):
    """run_test's line on tolerances counts the cases it is given, by their own proofs."""
    import json

    from conformance import report, runner
    rng = np.random.default_rng(5)
    e = rng.standard_normal(16)
    records = [{"name": "ok::float32::16", "outputs": {"out": _enc(e, "float32")}},                      # proven
               {"name": "one::float32::0d", "outputs": {"out": _enc(np.array([1.5]), "float32")}},      # proven: zeros fail
               {"name": "zero::float32::4", "outputs": {"out": _enc(np.zeros(4), "float32")}},          # says why
               {"name": "small::float32::16", "outputs": {"out": _enc(e * 1e-6, "float32")}},           # tightened
               {"name": "loose::float32::16", "outputs": {"out": _enc(np.abs(e) * 1e-2, "float32")},    # accepts zeros
                "tol": {"float32": [1.0, 0.5, 10.0]}}]
    total = proof.run_totals(records)
    assert (total["cases"], total["proven"], total["exempt"], total["failed"], total["tightened"]) == (5, 3, 1, 1, 2)
    assert total["reasons"][tolerances.ALL_ZERO] == 1
    # One case fewer: every count follows the cases, none is fixed.
    fewer = proof.run_totals(records[:2])
    assert (fewer["cases"], fewer["proven"], fewer["exempt"], fewer["failed"], fewer["tightened"]) == (2, 2, 0, 0, 0)
    # The line is in the console summary, summary.json and report.html.
    rep = report.Report()
    rep.add(runner.WorkItem("diopiX", 0, "contiguous", "ok::float32::16", 1.0), {"verdict": "passed", "message": ""})
    rep.tolerance = total
    import io
    out = io.StringIO()
    rep.print_summary(stream=out)
    line = proof.run_line(total)
    assert "tolerances of the 5 cases run: 3 proven" in line and "1 accept a wrong answer" in line
    assert line in out.getvalue()
    rep.write(str(tmp_path), None, None, {})
    with open(tmp_path / "summary.json") as f:
        summary = json.load(f)
    assert summary["tolerance_proof"]["proven"] == 3 and summary["tolerance_proof"]["line"] == line
    assert "tolerances of the 5 cases run" in (tmp_path / "report.html").read_text()


def test_merge_adds_up_the_shards_tolerance_totals_counting_each_case_once(tmp_path):
    """--mode merge joins the tolerance totals of two shard reports; a case
    whose two layouts fell in different shards counts once."""
    import json

    from conformance import merge, report, runner
    from support import run_main
    rng = np.random.default_rng(6)
    e = rng.standard_normal(16)
    records = {"ok::float32::16": {"out": _enc(e, "float32")},                     # proven
               "zero::float32::4": {"out": _enc(np.zeros(4), "float32")},          # says why
               "small::float32::16": {"out": _enc(e * 1e-6, "float32")},           # proven, tightened
               "loose::float32::16": {"out": _enc(np.abs(e) * 1e-2, "float32")}}   # tightened, still accepts zeros
    tol = {"loose::float32::16": {"float32": [1.0, 0.5, 10.0]}}
    # The selection in its fixed order: "ok" in both layouts, so shard 1 and shard 2 each hold one of them.
    selection = [("ok::float32::16", "contiguous"), ("ok::float32::16", "strided"), ("zero::float32::4", "contiguous"),
                 ("small::float32::16", "contiguous"), ("loose::float32::16", "contiguous")]
    whole = proof.run_totals([{"name": n, "outputs": o, "tol": tol.get(n)} for n, o in records.items()])
    assert (whole["cases"], whole["proven"], whole["exempt"], whole["failed"], whole["tightened"]) == (4, 2, 1, 1, 2)
    dirs = []
    for k in (1, 2):
        mine = [(seq, key) for seq, key in enumerate(selection) if seq % 2 == k - 1]
        rep = report.Report()
        for seq, (name, layout) in mine:
            rep.add(runner.WorkItem("diopiX", seq, layout, name, 1.0, seq=seq), {"verdict": "passed", "message": ""})
        names = sorted({name for _, (name, _) in mine})
        rep.tolerance = proof.run_totals([{"name": n, "outputs": records[n], "tol": tol.get(n)} for n in names])
        meta = {"mode": "run_test", "library": {"vendor": "v", "version": "1"}, "impl_sha256": "0" * 64,
                "shard": {"index": k, "count": 2, "selection": "s" * 64, "selected": len(selection)}}
        d = tmp_path / f"s{k}"
        rep.write(str(d), "lib.so", "data", meta)
        dirs.append(d)
    shard_totals = [json.loads((d / "summary.json").read_text())["tolerance_proof"] for d in dirs]
    assert sum(t["cases"] for t in shard_totals) == 5  # "ok" is in both shards
    assert all("by_case" not in t for t in shard_totals)  # kept per case in the rows instead

    r = run_main("--mode", "merge", *map(str, dirs), "--report_dir", str(tmp_path / "merged"))
    assert r.returncode == 0, (r.stdout, r.stderr)  # every verdict passed
    merged = json.loads((tmp_path / "merged" / "summary.json").read_text())["tolerance_proof"]
    for k in ("cases", "proven", "exempt", "failed", "tightened", "reasons"):
        assert merged[k] == whole[k], k
    assert merged["line"] == proof.run_line(whole) and merged["line"] in r.stdout
    assert "tolerances of the 4 cases run: 2 proven" in (tmp_path / "merged" / "report.html").read_text()

    # Rows without their case's outcome (an older harness wrote them): no tolerance line rather than a partial count.
    old = json.loads((dirs[0] / "summary.json").read_text())
    shards = [old, json.loads((dirs[1] / "summary.json").read_text())]
    for c in old["cases"]:
        c.pop("tolerance_proof", None)
    assert merge.tolerance_totals([str(d) for d in dirs], shards) is None

    # A shard whose outcome for a shared case differs was proven on other baselines: refused.
    rows = json.loads((dirs[1] / "summary.json").read_text())
    for c in rows["cases"]:
        if c["case"] == "ok::float32::16":
            c["tolerance_proof"] = dict(c["tolerance_proof"], outcome="exempt")
    (dirs[1] / "summary.json").write_text(json.dumps(rows))
    with pytest.raises(merge.MergeError, match="tolerance proof differs"):
        merge.combine([str(d) for d in dirs])


def test_integer_bool_empty_and_nan_outputs_are_proven_by_a_discrete_wrong_answer(monkeypatch):
    """A 1% error of an integer, a bool, an empty output or NaN is no wrong
    answer; the proof tries one element off by one (flipped), one element
    more, a finite value where NaN is expected, through run_test's own
    comparison. Float outputs that are all zero stay unproven and say so."""
    from conformance import compare
    ints = {"name": "argmax::float32::4x5", "outputs": {"out": _enc(np.array([3, 0, 4, 4]), "int64")}}
    flags = {"name": "isnan::float32::3", "outputs": {"out": _enc(np.array([False, False, False]), "bool")}}
    empty = {"name": "abs::float32::0x5", "outputs": {"out": _enc(np.zeros((0, 5)), "float32")}}
    nan = {"name": "mean::float32::0", "outputs": {"out": _enc(np.array(np.nan), "float32")}}
    zero = {"name": "zeros::float32::3", "outputs": {"out": _enc(np.zeros(3), "float32")}}
    total = proof.run_totals([ints, flags, empty, nan, zero])
    assert (total["proven"], total["discrete"], total["exempt"], total["failed"]) == (4, 4, 1, 0)
    assert total["reasons"] == {tolerances.ALL_ZERO: 1}
    assert "4 of them with integer, bool, empty or all-NaN outputs" in proof.run_line(total)
    # A comparison that let integers be off by one would be caught: the proof uses run_test's rule.
    real = compare.compare

    def lenient(actual, expected, dtype, tol, defined=None):
        if np.issubdtype(np.asarray(expected).dtype, np.integer) and actual.shape == expected.shape:
            return None if np.all(np.abs(actual.astype(np.int64) - expected) <= 1) else compare.Mismatch("off")
        return real(actual, expected, dtype, tol, defined)
    monkeypatch.setattr(compare, "compare", lenient)
    assert proof.prove_record(ints).failed == ["out: wrong"]
    assert proof.run_totals([ints])["failed"] == 1
