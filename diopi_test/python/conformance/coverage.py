"""Coverage: per family, how many declared functions the library exports,
how many have cases (configs), baselines (manifest) and pass (last report)."""
import csv
import json
import os

import diopi_header

from . import execute

COLUMNS = ("declared", "implemented", "configs", "baselines", "passing")


def collect(exported=None, manifest=None, summary=None, configured=None):
    """Rows of (family, counts) plus a totals row. Inputs are optional; a
    missing source leaves its column empty (None). `exported`: the declared
    functions the library exports (as a worker found them)."""
    exported = set(exported) if exported is not None else None
    baselined = set(manifest["files"]) if manifest is not None else None
    passing = None
    if summary is not None:
        passing = {f for f, c in summary["functions"].items()
                   if c.get("passed", 0) and not any(c.get(v, 0) for v in execute.FAILING + (execute.NOT_IMPLEMENTED,))}
    rows = []
    for family, funcs in sorted(diopi_header.families().items()):
        fs = set(funcs)
        rows.append((family, {
            "declared": len(fs),
            "implemented": len(fs & exported) if exported is not None else None,
            "configs": len(fs & configured) if configured is not None else None,
            "baselines": len(fs & baselined) if baselined is not None else None,
            "passing": len(fs & passing) if passing is not None else None,
        }))
    total = {k: (None if any(r[k] is None for _, r in rows) else sum(r[k] for _, r in rows)) for k in COLUMNS}
    return rows, total


def missing(exported, configured):
    """Declared functions without an export or without cases."""
    declared = set(diopi_header.load())
    exported = set(exported) if exported is not None else declared
    return sorted(declared - exported), sorted(declared - (configured or declared))


def print_table(rows, total, stream):
    w = max(len(f) for f, _ in rows + [("total", None)])
    print(f"{'family':<{w}} " + " ".join(f"{c:>11}" for c in COLUMNS), file=stream)
    for family, r in rows + [("total", total)]:
        print(f"{family:<{w}} " + " ".join(f"{'-' if r[c] is None else r[c]:>11}" for c in COLUMNS), file=stream)


def write_csv(path, rows, total):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(("family",) + COLUMNS)
        for family, r in rows + [("total", total)]:
            w.writerow([family] + ["" if r[c] is None else r[c] for c in COLUMNS])


def load_summary(report_dir):
    path = os.path.join(report_dir, "summary.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)
