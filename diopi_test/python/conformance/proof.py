"""The proof that every case's tolerance can fail (numpy only).

For each output of a baseline record, the bound run_test compares it with
(checks.output_tolerance) must reject the expected values off by
tolerances.WRONG, all zeros, and their mean (tolerances.prove); a check that
cannot apply names its reason. gen_data proves every case it writes and
records the outcome per function in the manifest; `write_summary` collects
the whole folder's into tolerance_proof.json; tests/test_tolerance_proof.py
proves the whole generated suite again from the baselines themselves.
"""
import dataclasses
import json
import os

import numpy as np

from . import checks, sampled, store, tolerances

FILE = "tolerance_proof.json"
RANDOM = "random operator: checked by properties, not values"
SHAPE_ONLY = "no stored values"
LARGER_WRONG = "a larger wrong answer than WRONG (the config's tol_reason says why)"


@dataclasses.dataclass
class CaseProof:
    name: str
    failed: list = dataclasses.field(default_factory=list)      # "output: check" whose wrong answer passes
    exempt: dict = dataclasses.field(default_factory=dict)      # reason -> ["output: check", ...]
    tightened: list = dataclasses.field(default_factory=list)   # (output, [atol, rtol] uncapped, [atol, rtol] capped)
    discrete: set = dataclasses.field(default_factory=set)      # outputs proven with a discrete wrong answer

    def as_entry(self):
        out = {}
        if self.failed:
            out["failed"] = self.failed
        if self.exempt:
            out["exempt"] = self.exempt
        if self.tightened:
            out["tightened"] = [[o, list(b), list(a)] for o, b, a in self.tightened]
        return out


def prove_record(record):
    """The CaseProof of one (expanded or lazily loaded) baseline record."""
    p = CaseProof(record.get("name", "?"))
    if record.get("checks") is not None:
        p.exempt[RANDOM] = ["*"]
        return p
    for name, enc in record.get("outputs", {}).items():
        _prove_output(p, name, enc, record.get("tol"), record.get("accumulation"))
    return p


def _prove_output(p, name, enc, tol_over, accumulation):
    if enc is None:
        return
    if isinstance(enc, list):
        for i, e in enumerate(enc):
            _prove_output(p, f"{name}[{i}]", e, tol_over, accumulation)
        return
    if isinstance(enc, (bool, int, float)) and not store.is_encoded_array(enc):
        if isinstance(enc, float):
            values, dtype, tol = np.array([enc]), "float64", checks.number_tolerance(tol_over)
        else:
            values, dtype, tol = np.array([enc]), "bool" if isinstance(enc, bool) else "int64", None
        if tolerances.is_discrete(values, dtype, tol):
            p.discrete.add(name)
        _record(p, name, *tolerances.prove(values, dtype, tol))
        return
    if store.is_spec(enc) and not sampled.is_sampled(enc):
        p.exempt.setdefault(SHAPE_ONLY, []).append(name)
        return
    values, dtype, mask = checks.expected_values(enc)
    tol = checks.output_tolerance(enc, tol_over, accumulation)
    wrong = None
    if tol is not None:
        before = tolerances.resolve(dtype, tol_over, accumulation)
        if tuple(before) != tuple(tol):
            p.tightened.append((name, before, tol))
        wrong = tolerances.wrong_answer(dtype, tol_over)
        if wrong > tolerances.WRONG.get(dtype, wrong):
            p.exempt.setdefault(LARGER_WRONG, []).append(f"{name}: {wrong:g}")
    if tolerances.is_discrete(values if mask is None else values[mask], dtype, tol):
        p.discrete.add(name)
    _record(p, name, *tolerances.prove(values, dtype, tol, mask, wrong))


def _record(p, name, failed, exempt):
    p.failed.extend(f"{name}: {check}" for check in failed)
    for check, reason in exempt.items():
        p.exempt.setdefault(reason, []).append(f"{name}: {check}")


def function_entry(records):
    """What the manifest keeps of one function's proofs: counts, and the
    cases that failed or were tightened, by name. "exempt" counts, per
    reason, the cases left unproven (case_outcome) that give it."""
    proofs = [prove_record(r) for r in records]
    entry = {"cases": len(proofs), "failed": {}, "tightened": {}, "exempt": {}}
    for pr in proofs:
        if pr.failed:
            entry["failed"][pr.name] = pr.failed
        if pr.tightened:
            entry["tightened"][pr.name] = [[o, [float(x) for x in b], [float(x) for x in a]] for o, b, a in pr.tightened]
        outcome = case_outcome(pr)
        if outcome["outcome"] == "exempt":
            for reason in outcome["reasons"]:
                entry["exempt"][reason] = entry["exempt"].get(reason, 0) + 1
    return entry


def summarize(entries):
    """Totals over function entries: cases, failed, tightened, exempt per reason."""
    total = {"cases": 0, "failed": 0, "tightened": 0, "exempt": {}}
    for e in entries:
        total["cases"] += e["cases"]
        total["failed"] += len(e["failed"])
        total["tightened"] += len(e["tightened"])
        for reason, n in e["exempt"].items():
            total["exempt"][reason] = total["exempt"].get(reason, 0) + n
    return total


def summary_line(total):
    ex = ", ".join(f"{n} {reason}" for reason, n in sorted(total["exempt"].items(), key=lambda kv: -kv[1]))
    return (f"tolerances: {total['cases'] - total['failed']} of {total['cases']} cases reject a wrong answer "
            f"({total['failed']} do not); {total['tightened']} tightened to their outputs' magnitude; "
            f"cases left unproven, by reason: {ex or 'none'}")


def run_totals(records):
    """What a run_test summary says of the tolerances of the cases it ran:
    `records` are those cases' baseline records with the run's tolerance (a
    device config's allowance included). Each case counts once (its layouts
    share the bound): `proven` when each output rejects the WRONG error and a
    constant output (zeros or the mean: one is enough, as a single value is
    its own mean), `exempt` when a check that cannot apply leaves that
    unproven and says why, `failed` when a wrong answer passes; `tightened`
    counts the cases whose bound was capped by their outputs' magnitude.
    "by_case" keeps each case's outcome (case_outcome), so that the reports
    of shards can be merged into the totals of one run (merge_totals)."""
    return tally({r.get("name", "?"): case_outcome(prove_record(r)) for r in records})


def case_outcome(p):
    """One case's part of the run totals: {"outcome": proven|exempt|failed,
    "tightened": bool, "reasons": [why a check cannot apply, ...]}."""
    if p.failed:
        outcome, reasons = "failed", []
    else:
        unproven = _unproven(p)
        outcome, reasons = ("exempt", unproven) if unproven else ("proven", [])
    return {"outcome": outcome, "tightened": bool(p.tightened), "discrete": outcome == "proven" and bool(p.discrete),
            "reasons": reasons}


def tally(by_case):
    """The run totals of {case name: case_outcome}."""
    total = {"cases": 0, "proven": 0, "discrete": 0, "exempt": 0, "failed": 0, "tightened": 0, "reasons": {}, "by_case": by_case}
    for o in by_case.values():
        total["cases"] += 1
        total[o["outcome"]] += 1
        total["discrete"] += bool(o.get("discrete"))
        total["tightened"] += bool(o["tightened"])
        for reason in o["reasons"]:
            total["reasons"][reason] = total["reasons"].get(reason, 0) + 1
    return total


def _unproven(p):
    """The reasons that leave a case without failures unproven (sorted; empty
    when it is proven). An output is proven when it rejects its wrong answer
    (WRONG, or a discrete one: tolerances.is_discrete) and, unless discrete,
    a constant output (zeros or the mean: one is enough, as a single value is
    its own mean); a discrete output's constants are either rejected or are
    the answer itself."""
    whole = [r for r in (RANDOM, SHAPE_ONLY, LARGER_WRONG) if r in p.exempt]
    if whole:
        return whole
    unproven = {}  # output -> {check: reason} of the checks that could not apply
    for reason, items in p.exempt.items():
        for entry in items:
            output, _, check = entry.rpartition(": ")
            unproven.setdefault(output, {})[check] = reason
    reasons = set()
    for output, c in unproven.items():
        if "wrong" in c:
            reasons.add(c["wrong"])
        elif {"zeros", "mean"} <= set(c) and output not in p.discrete:
            reasons.update((c["zeros"], c["mean"]))
    return sorted(reasons)


def run_line(total):
    """The one line of run_test's summary about its cases' tolerances."""
    wrong = "/".join(f"{v:.1%}" for v in sorted(set(tolerances.WRONG.values()), reverse=True))
    discrete = total.get("discrete", 0)
    how = (f" ({discrete} of them with integer, bool, empty or all-NaN outputs, proven by a changed element or shape)"
           if discrete else "")
    return (f"tolerances of the {total['cases']} cases run: {total['proven']} proven to reject a {wrong} error and "
            f"a constant output{how}, {total['tightened']} tightened to their outputs' magnitude, {total['exempt']} "
            f"say why a check cannot apply, {total['failed']} accept a wrong answer")


def write_summary(data_dir, manifest):
    """tolerance_proof.json in `data_dir`: the totals and, per function, the
    cases whose bound failed its proof or was tightened. Returns the totals."""
    per_func = {f: rec["tolerance"] for f, rec in manifest.get("files", {}).items() if isinstance(rec.get("tolerance"), dict)}
    total = summarize(per_func.values())
    doc = {"totals": total, "wrong_answer": tolerances.WRONG, "rtol_cap": tolerances.RTOL_CAP,
           "magnitude": tolerances.MAGNITUDE,
           "failed": {f: e["failed"] for f, e in sorted(per_func.items()) if e["failed"]},
           "tightened": {f: e["tightened"] for f, e in sorted(per_func.items()) if e["tightened"]}}
    path = os.path.join(data_dir, FILE)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    os.replace(tmp, path)
    return total
