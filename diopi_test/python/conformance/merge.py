"""`--mode merge`: one report from the report directories of `run_test
--shard K/N` runs, with the totals one unsharded run would have.

Each shard's summary.json holds its shard spec, the digest of the whole
selection (shard.py), the tested library's identity and every case's row.
Shards are refused unless they are all N shards of one selection on one
library, each once, with no case in two of them.
"""
import json
import os

from . import runner

SUMMARY = "summary.json"


class MergeError(ValueError):
    pass


def load(report_dir):
    """A shard's summary.json, checked for what a merge needs."""
    if not os.path.isdir(report_dir):
        raise MergeError(f"{report_dir}: no such report directory")
    path = os.path.join(report_dir, SUMMARY)
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise MergeError(f"{report_dir} has no {SUMMARY}: not a run_test report directory") from None
    except json.JSONDecodeError as e:
        raise MergeError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict) or data.get("mode") != "run_test":
        raise MergeError(f"{path} is not the report of a run_test run")
    shard = data.get("shard")
    if not isinstance(shard, dict) or not isinstance(data.get("cases"), list) or "selection" not in shard:
        raise MergeError(f"{path} has no shard spec or case rows (written by an older harness?): run that shard again")
    return data


def _library(data):
    lib = data.get("library") or {}
    return lib.get("vendor"), lib.get("version"), data.get("impl_sha256")


def _describe(lib):
    vendor, version, digest = lib
    return f"{vendor} {version} (sha256 {str(digest)[:12]})"


def check(dirs, shards):
    """Raises MergeError unless `shards` (load() of each of `dirs`) are the N
    shards of one run, each once."""
    real = {}
    for d in dirs:
        key = os.path.realpath(d)
        if key in real:
            raise MergeError(f"{d} is given twice")
        real[key] = d
    first, d0 = shards[0], dirs[0]
    n = first["shard"]["count"]
    seen = {}
    for d, s in zip(dirs, shards):
        spec = s["shard"]
        if spec["count"] != n:
            raise MergeError(f"{d} is shard {spec['index']}/{spec['count']} but {d0} is one of {n} shards: "
                             "shards of different splits do not merge")
        if _library(s) != _library(first):
            raise MergeError(f"{d} tested {_describe(_library(s))}, {d0} tested {_describe(_library(first))}: "
                             "merge only shards of one library")
        if spec["selection"] != first["shard"]["selection"]:
            raise MergeError(f"{d} ran another selection than {d0} (cases, baselines, device config or timeout differ): "
                             "merge only shards run with the same options on the same baselines")
        if spec["index"] in seen:
            raise MergeError(f"{seen[spec['index']]} and {d} are both shard {spec['index']}/{n}")
        seen[spec["index"]] = d
    missing = [f"{k}/{n}" for k in range(1, n + 1) if k not in seen]
    if missing:
        raise MergeError(f"missing shard{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                         f"(given: {', '.join(f'{k}/{n}' for k in sorted(seen))})")


def combine(dirs):
    """(meta, repro_args, rows, tolerance) of the merged run: rows are
    (WorkItem, result) pairs in the order of the unsharded selection, library
    checks last; tolerance is the merged run's tolerance totals
    (tolerance_totals)."""
    shards = [load(d) for d in dirs]
    check(dirs, shards)
    owner, rows = {}, []
    for d, s in zip(dirs, shards):
        for c in s["cases"]:
            key = (c["case"], c["layout"])
            if key in owner:
                raise MergeError(f"case {c['case']} ({c['layout']}) is in both {owner[key]} and {d}")
            owner[key] = d
            item = runner.WorkItem(c["function"], c["index"], c["layout"], c["case"], c["timeout"], c.get("tol"), seq=c["seq"])
            rows.append((item, c["result"]))
    first = shards[0]
    for d, s in zip(dirs, shards):
        if s.get("status", "complete") != "complete":
            raise MergeError(f"{d} holds the report of a run that did not finish ({s['status']}): run that shard again")
    selected = first["shard"]["selected"]
    replayed = sum(1 for item, _ in rows if item.index >= 0)  # library checks have no baseline index
    if replayed != selected:
        raise MergeError(f"the shards hold {replayed} cases but their selection has {selected}: "
                         "a report directory is incomplete or was altered")
    rows.sort(key=lambda row: (row[0].seq is None, row[0].seq if row[0].seq is not None else 0))
    keep = ("mode", "library", "impl_lib", "impl_sha256", "runtime_lib", "data_dir", "model_name", "device_config", "repro_options")
    meta = {k: first.get(k) for k in keep}
    meta["shard"] = {"index": 1, "count": 1, "selection": first["shard"]["selection"], "selected": selected,
                     "merged_from": [os.path.abspath(d) for d in dirs]}
    return meta, first.get("repro_args") or {}, rows, tolerance_totals(dirs, shards)


def tolerance_totals(dirs, shards):
    """proof.tally of the cases the shards ran, from the per-case outcomes in
    their rows: a case's layouts may fall in different shards, so adding the
    shards' own totals would count it twice. None when a shard has no
    tolerance totals (its baselines were not proven, or an older harness
    wrote it): a partial count would be a false figure."""
    from .proof import tally
    by_case = {}
    for d, s in zip(dirs, shards):
        if not isinstance(s.get("tolerance_proof"), dict):
            return None
        mine = {c["case"] for c in s["cases"] if c.get("tolerance_proof") is not None}
        if len(mine) != s["tolerance_proof"].get("cases"):
            return None  # rows without their case's outcome (an older harness): the totals cannot be joined
        for c in s["cases"]:
            outcome = c.get("tolerance_proof")
            if outcome is None:
                continue  # library checks and skipped cases are not proven
            earlier = by_case.setdefault(c["case"], outcome)
            if earlier != outcome:
                raise MergeError(f"case {c['case']}: its tolerance proof differs between the shards "
                                 f"({earlier['outcome']} and {outcome['outcome']} in {d}): "
                                 "the baselines were changed between shards")
    return tally(by_case)
