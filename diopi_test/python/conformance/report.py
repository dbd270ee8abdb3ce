"""Console summary and report files of a run (CSV, JSON, JUnit XML, HTML).

summary.json carries every case's row and the run's shard spec, so that
`--mode merge` can rebuild one report from the reports of N shards.
"""
import contextlib
import csv
import fcntl
import json
import os
import re
import shlex
import sys
import time

from . import html_report, junit
from .rows import family_of, repro_command  # noqa: F401  (report.family_of, report.repro_command)
from .verdicts import FAILING, NOT_IMPLEMENTED, PASSED, SKIPPED, VERDICTS

# A dtype change in the adaptor's conversion summary, e.g. "input:int64->int32".
_DTYPE_CAST = re.compile(r"\b(?:u?int(?:8|16|32|64)|float(?:16|32|64)|bfloat16|bool|complex(?:64|128))->")

CSV_FIELDS = ["case", "function", "layout", "verdict", "reason", "max_abs", "max_rel", "mismatches", "first_index", "warnings", "output",
              "repro", "repro_c"]


def _csv_row(item, r, impl_lib, data_dir, meta):
    return {"case": item.name, "function": item.func, "layout": item.layout, "verdict": r["verdict"],
            "reason": r["message"], "max_abs": r.get("max_abs", ""), "max_rel": r.get("max_rel", ""),
            "mismatches": r.get("mismatches", ""), "first_index": r.get("first_index", ""),
            "warnings": "; ".join(r.get("warnings") or []), "output": (r.get("output") or "")[:1000],
            "repro": repro_command(item.name, item.layout, impl_lib, data_dir, meta.get("repro_options"), meta.get("repro_mode", "run_test")),
            "repro_c": r.get("repro_c", "")}  # run_test --repro: path of the C reproducer


@contextlib.contextmanager
def _replacing(path, newline=None):
    """A text file written beside `path` and moved over it when complete."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", newline=newline) as f:
        yield f
    os.replace(tmp, path)


def _plain(value):
    """JSON for what a worker may put in a result (numpy scalars and arrays)."""
    for attr in ("tolist", "item"):
        if hasattr(value, attr):
            return getattr(value, attr)()
    return str(value)


def _summary_json(summary, cases):
    """summary.json: the figures indented, then one line per case (a full
    suite has tens of thousands; indenting each would triple the file)."""
    text = json.dumps(summary, indent=1, sort_keys=True, default=_plain)
    rows = ",\n  ".join(json.dumps(c, sort_keys=True, default=_plain) for c in cases)
    return text[:-2] + ',\n "cases": [' + (f"\n  {rows}\n " if rows else "") + "]\n}\n"


def run_identity(argv=None):
    """What identifies a run in its report: id, start time, command line."""
    started = time.time()
    return {"run_id": time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(started)) + f"-{os.getpid()}",
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
            "command": " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv))}


_claimed = []  # lock files held for this process's lifetime


def claim_dir(report_dir, run_id):
    """The directory this run writes its reports into: `report_dir`, or
    `<report_dir>-<run_id>` while another live run holds `report_dir`, so
    that concurrent runs never overwrite each other's reports."""
    for d in (report_dir, f"{report_dir.rstrip('/')}-{run_id}"):
        os.makedirs(d, exist_ok=True)
        fd = os.open(os.path.join(d, ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        _claimed.append(fd)
        return d
    raise OSError(f"cannot lock a report directory beside {report_dir}")


JOURNAL = "rows.jsonl"
LIVE_INTERVAL = 30.0  # seconds between rewrites of the whole report while a run goes


class Report:
    def __init__(self):
        self.rows = []           # (item, result)
        self.per_func = {}
        self.converted = {}      # func -> [passed cases the adaptor converted, of which dtype casts]
        self.tolerance = None    # proof.run_totals of the cases run, when known
        self._live = None

    def start_live(self, report_dir, impl_lib, data_dir, meta, compare=None):
        """Writes the report as the run goes: every row is appended to
        rows.jsonl and every case not passed to error_report.csv at once;
        the whole report (status "running") is rewritten every
        LIVE_INTERVAL seconds, so a run killed midway leaves every case done
        so far. `finish()` writes the final report."""
        self._live = dict(dir=report_dir, impl_lib=impl_lib, data_dir=data_dir, meta=dict(meta), compare=compare,
                          last=time.monotonic())
        self.write(report_dir, impl_lib, data_dir, dict(meta, status="running"), compare=compare)
        self._journal = open(os.path.join(report_dir, JOURNAL), "w")
        self._csv = open(os.path.join(report_dir, "error_report.csv"), "a", newline="")
        self._csv_writer = csv.DictWriter(self._csv, fieldnames=CSV_FIELDS)
        for item, r in self.rows:
            self._append(item, r)

    def _append(self, item, result):
        live = self._live
        self._journal.write(json.dumps({"case": item.name, "function": item.func, "layout": item.layout, "result": result},
                                       sort_keys=True, default=_plain) + "\n")
        self._journal.flush()
        if result["verdict"] != PASSED or result.get("warnings"):
            self._csv_writer.writerow(_csv_row(item, result, live["impl_lib"], live["data_dir"], live["meta"]))
            self._csv.flush()
        if time.monotonic() - live["last"] > LIVE_INTERVAL:
            self.write(live["dir"], live["impl_lib"], live["data_dir"], dict(live["meta"], status="running"),
                       compare=live["compare"], keep_open=True)
            live["last"] = time.monotonic()

    def note(self, **fields):
        """Adds figures known only at the end of a live run to its summary.json."""
        self._live["meta"].update(fields)

    def finish(self, status="complete"):
        """The final report of a live run; `status` says whether it ran to the end."""
        live, self._live = self._live, None
        self._journal.close()
        self._csv.close()
        path = self.write(live["dir"], live["impl_lib"], live["data_dir"], dict(live["meta"], status=status), compare=live["compare"])
        if status == "complete":
            os.remove(os.path.join(live["dir"], JOURNAL))
        return path

    def add(self, item, result):
        self.rows.append((item, result))
        if self._live is not None:
            self._append(item, result)
        counts = self.per_func.setdefault(item.func, dict.fromkeys(VERDICTS, 0))
        counts[result["verdict"]] += 1
        conv = result.get("conversions")
        if conv and result["verdict"] == PASSED:
            c = self.converted.setdefault(item.func, [0, 0])
            c[0] += 1
            c[1] += bool(_DTYPE_CAST.search(conv))

    def conversion_summary(self):
        """Passed cases that went through the adaptor's conversions: (cases, of which
        dtype casts, functions)."""
        cases = sum(c[0] for c in self.converted.values())
        casts = sum(c[1] for c in self.converted.values())
        return cases, casts, len(self.converted)

    def totals(self):
        t = dict.fromkeys(VERDICTS, 0)
        for c in self.per_func.values():
            for k, v in c.items():
                t[k] += v
        return t

    def per_family(self):
        """family -> {"functions", "cases", "passed", "failed", "other"}; failed
        counts every failing verdict, other is not implemented and skipped."""
        out = {}
        for func, c in self.per_func.items():
            f = out.setdefault(family_of(func), {"functions": 0, "cases": 0, "passed": 0, "failed": 0, "other": 0})
            f["functions"] += 1
            f["cases"] += sum(c.values())
            f["passed"] += c[PASSED]
            f["failed"] += sum(c[k] for k in FAILING)
        for f in out.values():
            f["other"] = f["cases"] - f["passed"] - f["failed"]
        return out

    def failures(self):
        return [(i, r) for i, r in self.rows if r["verdict"] != PASSED]

    def layout_only_failures(self):
        """Functions all of whose failures are in non-contiguous layouts while
        their contiguous runs pass: the signature of ignored strides."""
        bad, contiguous_ok = {}, {}
        for item, r in self.rows:
            failing = r["verdict"] in FAILING
            if item.layout == "contiguous":
                contiguous_ok[item.func] = contiguous_ok.get(item.func, True) and not failing
            elif failing:
                bad[item.func] = True
        return sorted(f for f in bad if contiguous_ok.get(f))

    def print_summary(self, stream=sys.stdout, max_failures=20, verbose=False, label="run_test"):
        """A line per family, or with `verbose` a line per function and verdict
        column; then the first cases not passed and the closing lines that
        scripts read ("functions: ...", "<label>: N passed, N failed, N skipped")."""
        t = self.totals()
        if verbose:
            self._print_functions(stream, t)
        else:
            self._print_families(stream)
        fails = self.failures()
        if fails:
            print(f"\nfirst {min(len(fails), max_failures)} of {len(fails)} cases not passed:", file=stream)
            for item, r in fails[:max_failures]:
                print(f"  [{r['verdict']}] {item.name} ({item.layout}): {r['message'][:300]}", file=stream)
        blind = self.layout_only_failures()
        if blind:
            print(f"\nfailing only with non-contiguous layouts: {', '.join(blind)} (strides or memory format ignored?)", file=stream)
        warned = [(i, r) for i, r in self.rows if r.get("warnings")]
        if warned:
            item, r = warned[0]
            print(f"\nwarnings on {len(warned)} cases, e.g. {item.name} ({item.func}): {r['warnings'][0]}", file=stream)
        printed = sum(1 for _, r in self.rows if r.get("output"))
        if printed:
            print(f"the library printed during {printed} cases (kept per case in the reports' output column)", file=stream)
        cases, casts, funcs = self.conversion_summary()
        if cases:
            print(f"\npassed through the adaptor's conversions: {cases} cases of {funcs} functions "
                  f"({casts} only through dtype casts the vendor does not support natively)", file=stream)
        detail = ", ".join(f"{t[k]} {k}" for k in VERDICTS if k not in (PASSED, SKIPPED))
        implemented = sum(1 for c in self.per_func.values() if c[NOT_IMPLEMENTED] < sum(c.values()))
        print(f"\nfunctions: {len(self.per_func)} ({implemented} implemented), cases: {sum(t.values())} ({detail})", file=stream)
        if t[SKIPPED]:
            not_run = sum(1 for _, r in self.rows if r["verdict"] == SKIPPED and r.get("not_run"))
            print(f"skipped: {t[SKIPPED]} cases, each with its reason in the report ({not_run} not run after earlier "
                  f"timeouts or crashes of their function, {t[SKIPPED] - not_run} by the device config or "
                  "not applicable); every other case ran", file=stream)
        if self.tolerance is not None:
            print(self.tolerance_line(), file=stream)
        # Closing line: "failed" counts every failing verdict; not_implemented is neither.
        print(f"{label}: {t[PASSED]} passed, {sum(t[k] for k in FAILING)} failed, {t[SKIPPED]} skipped", file=stream)

    def _print_functions(self, stream, t):
        # Columns for the verdicts that occurred (passed always shown).
        cols = [v for v in VERDICTS if v == PASSED or t[v]]
        w = max([len(f) for f in self.per_func] + [8])
        cw = [max(len(c), 6) for c in cols]
        print(f"{'function':<{w}} " + " ".join(f"{c:>{n}}" for c, n in zip(cols, cw)), file=stream)
        for func in sorted(self.per_func):
            c = self.per_func[func]
            print(f"{func:<{w}} " + " ".join(f"{c[k]:>{n}}" for k, n in zip(cols, cw)), file=stream)

    def _print_families(self, stream):
        fams = self.per_family()
        cols = ["functions", "cases", "passed", "failed", "other"]
        w = max([len(f) for f in fams] + [len("family")])
        cw = [max(len(c), 6) for c in cols]
        print(f"{'family':<{w}} " + " ".join(f"{c:>{n}}" for c, n in zip(cols, cw)) + "   (--verbose: per function)", file=stream)
        for fam in sorted(fams):
            print(f"{fam:<{w}} " + " ".join(f"{fams[fam][k]:>{n}}" for k, n in zip(cols, cw)), file=stream)

    def tolerance_line(self):
        """The summary's line on the tolerances of the cases run (None when not proven)."""
        if self.tolerance is None:
            return None
        from .proof import run_line  # numpy: only when there is something to say
        return run_line(self.tolerance)

    def case_records(self):
        """Every row as plain data: what summary.json keeps and a merge reads back."""
        by_case = (self.tolerance or {}).get("by_case") or {}
        out = []
        for item, r in self.rows:
            row = {"case": item.name, "function": item.func, "index": item.index, "layout": item.layout,
                   "seq": item.seq, "timeout": item.timeout, "tol": item.tol, "result": r}
            if item.name in by_case:  # the case's part of the tolerance totals, which a merge adds up again
                row["tolerance_proof"] = by_case[item.name]
            out.append(row)
        return out

    def write(self, report_dir, impl_lib, data_dir, meta, compare=None, keep_open=False):
        """error_report.csv, summary.json, junit.xml and report.html, each
        replaced whole (a reader never sees half a file); `impl_lib` and
        `data_dir` are what the repro lines pass (None: the default), with the
        options in meta["repro_options"]; `compare` is another run's cases
        (html_report.load_cases) shown beside this one."""
        os.makedirs(report_dir, exist_ok=True)
        csv_path = os.path.join(report_dir, "error_report.csv")
        with _replacing(csv_path, newline="") as f:
            w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
            w.writeheader()
            for item, r in self.rows:
                if r["verdict"] != PASSED or r.get("warnings"):
                    w.writerow(_csv_row(item, r, impl_lib, data_dir, meta))
        if keep_open:  # a live run appends to the CSV it just replaced
            self._csv.close()
            self._csv = open(csv_path, "a", newline="")
            self._csv_writer = csv.DictWriter(self._csv, fieldnames=CSV_FIELDS)
        cases, casts, _ = self.conversion_summary()
        summary = dict(meta, totals=self.totals(), functions=self.per_func, families=self.per_family(),
                       adaptor={"converted_cases": cases, "cast_cases": casts, "per_function": self.converted},
                       repro_args={"impl_lib": impl_lib, "data_dir": data_dir, "options": meta.get("repro_options") or [],
                                     "mode": meta.get("repro_mode", "run_test")})
        if self.tolerance is not None:
            totals = {k: v for k, v in self.tolerance.items() if k != "by_case"}  # per case: in the case rows
            summary["tolerance_proof"] = dict(totals, line=self.tolerance_line())
        with _replacing(os.path.join(report_dir, "summary.json")) as f:
            f.write(_summary_json(summary, self.case_records()))
        repro_of = lambda item: repro_command(item.name, item.layout, impl_lib, data_dir, meta.get("repro_options"),  # noqa: E731
                                              meta.get("repro_mode", "run_test"))
        lib = meta.get("library") or {}
        shard = meta.get("shard") or {}
        properties = {"library": lib.get("vendor", ""), "impl_lib": meta.get("impl_lib", "")}
        sharded = shard.get("count", 1) > 1
        if sharded:
            properties["shard"] = f"{shard['index']}/{shard['count']}"
        junit.write(os.path.join(report_dir, "junit.xml"), self.rows, family_of=family_of, repro_of=repro_of,
                    properties=properties)
        title = f"DIOPI conformance: {lib.get('vendor') or os.path.basename(str(impl_lib))}"
        html_report.write(report_dir, html_report.case_rows(self.rows, family_of, repro_of),
                          title=title + (f" (shard {shard['index']}/{shard['count']})" if sharded else ""),
                          library=f"{lib.get('vendor', '')} {lib.get('version', '')} ({meta.get('impl_lib', '')})",
                          compare=compare, note=self.tolerance_line())
        return csv_path
