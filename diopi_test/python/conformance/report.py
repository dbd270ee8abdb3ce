"""Progress, summary and report files of a run."""
import csv
import json
import os
import re
import shlex
import sys
import time

import diopi_header

from .execute import FAILING, NOT_IMPLEMENTED, PASSED, SKIPPED, VERDICTS

# A dtype change in the adaptor's conversion summary, e.g. "input:int64->int32".
_DTYPE_CAST = re.compile(r"\b(?:u?int(?:8|16|32|64)|float(?:16|32|64)|bfloat16|bool|complex(?:64|128))->")

CSV_FIELDS = ["case", "function", "layout", "verdict", "reason", "max_abs", "max_rel", "mismatches", "first_index", "repro", "repro_c"]


class Progress:
    """A one-line progress bar on a terminal; a line per 10% otherwise."""

    def __init__(self, total, stream=sys.stderr, label="run_test"):
        self.total, self.stream, self.done, self.label = total, stream, 0, label
        self.counts = dict.fromkeys(VERDICTS, 0)
        self.tty = stream.isatty()
        self.t0 = time.time()
        self._next_mark = 0.1

    def update(self, verdict):
        self.done += 1
        self.counts[verdict] += 1
        frac = self.done / max(self.total, 1)
        bad = self.done - self.counts[PASSED]
        if self.tty:
            width = 30
            fill = int(width * frac)
            self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} not passed: {bad}")
            self.stream.flush()
        elif frac >= self._next_mark or self.done == self.total:
            self.stream.write(f"[{self.label}] {self.done}/{self.total} cases, {bad} not passed, {time.time() - self.t0:.0f} s\n")
            self.stream.flush()
            while self._next_mark <= frac:
                self._next_mark += 0.1

    def close(self):
        if self.tty:
            self.stream.write("\n")


def repro_command(case, layout, impl_lib, data_dir):
    parts = ["python", "main.py", "--mode", "run_test", "--case", case, "--layout", layout]
    if impl_lib:
        parts += ["--impl_lib", impl_lib]
    if data_dir:
        parts += ["--data_dir", data_dir]
    return " ".join(shlex.quote(p) for p in parts)


class Report:
    def __init__(self):
        self.rows = []           # (item, result)
        self.per_func = {}
        self.converted = {}      # func -> [passed cases the adaptor converted, of which dtype casts]

    def add(self, item, result):
        self.rows.append((item, result))
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

    def print_summary(self, stream=sys.stdout, max_failures=20):
        # Columns for the verdicts that occurred (passed always shown).
        t = self.totals()
        cols = [v for v in VERDICTS if v == PASSED or t[v]]
        w = max([len(f) for f in self.per_func] + [8])
        cw = [max(len(c), 6) for c in cols]
        print(f"{'function':<{w}} " + " ".join(f"{c:>{n}}" for c, n in zip(cols, cw)), file=stream)
        for func in sorted(self.per_func):
            c = self.per_func[func]
            print(f"{func:<{w}} " + " ".join(f"{c[k]:>{n}}" for k, n in zip(cols, cw)), file=stream)
        fails = self.failures()
        if fails:
            print(f"\nfirst {min(len(fails), max_failures)} of {len(fails)} cases not passed:", file=stream)
            for item, r in fails[:max_failures]:
                print(f"  [{r['verdict']}] {item.name} ({item.layout}): {r['message'][:300]}", file=stream)
        blind = self.layout_only_failures()
        if blind:
            print(f"\nfailing only with non-contiguous layouts: {', '.join(blind)} (strides or memory format ignored?)", file=stream)
        cases, casts, funcs = self.conversion_summary()
        if cases:
            print(f"\npassed through the adaptor's conversions: {cases} cases of {funcs} functions "
                  f"({casts} only through dtype casts the vendor does not support natively)", file=stream)
        detail = ", ".join(f"{t[k]} {k}" for k in VERDICTS if k not in (PASSED, SKIPPED))
        implemented = sum(1 for c in self.per_func.values() if c[NOT_IMPLEMENTED] < sum(c.values()))
        print(f"\nfunctions: {len(self.per_func)} ({implemented} implemented), cases: {sum(t.values())} ({detail})", file=stream)
        # Closing line: "failed" counts every failing verdict; not_implemented is neither.
        print(f"run_test: {t[PASSED]} passed, {sum(t[k] for k in FAILING)} failed, {t[SKIPPED]} skipped", file=stream)

    def write(self, report_dir, impl_lib, data_dir, meta, compare=None):
        """error_report.csv, summary.json, junit.xml, cases.json and report.html;
        `compare` is another run's cases (html_report.load_cases) shown beside this one."""
        os.makedirs(report_dir, exist_ok=True)
        csv_path = os.path.join(report_dir, "error_report.csv")
        with open(csv_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
            w.writeheader()
            for item, r in self.failures():
                w.writerow({"case": item.name, "function": item.func, "layout": item.layout, "verdict": r["verdict"],
                            "reason": r["message"], "max_abs": r.get("max_abs", ""), "max_rel": r.get("max_rel", ""),
                            "mismatches": r.get("mismatches", ""), "first_index": r.get("first_index", ""),
                            "repro": repro_command(item.name, item.layout, impl_lib, data_dir),
                            "repro_c": r.get("repro_c", "")})  # run_test --repro: path of the C reproducer
        cases, casts, _ = self.conversion_summary()
        summary = dict(meta, totals=self.totals(), functions=self.per_func,
                       adaptor={"converted_cases": cases, "cast_cases": casts, "per_function": self.converted})
        with open(os.path.join(report_dir, "summary.json"), "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True)
        from . import html_report, junit
        fams = diopi_header.load()
        family_of = lambda func: fams[func].family if func in fams else "library"  # noqa: E731
        repro_of = lambda item: repro_command(item.name, item.layout, impl_lib, data_dir)  # noqa: E731
        junit.write(os.path.join(report_dir, "junit.xml"), self.rows, family_of=family_of, repro_of=repro_of,
                    properties={"library": (meta.get("library") or {}).get("vendor", ""), "impl_lib": meta.get("impl_lib", "")})
        lib = meta.get("library") or {}
        html_report.write(report_dir, html_report.case_rows(self.rows, family_of, repro_of),
                          title=f"DIOPI conformance: {lib.get('vendor') or os.path.basename(str(impl_lib))}",
                          library=f"{lib.get('vendor', '')} {lib.get('version', '')} ({meta.get('impl_lib', '')})",
                          compare=compare)
        return csv_path
