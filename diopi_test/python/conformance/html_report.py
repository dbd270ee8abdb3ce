"""The conformance report for people: one self-contained HTML page.

A family x function matrix (verdict counts, pass counts per dtype and per
layout), every case not passed with its reason and repro line, filters
(function name, family, only what fails), and optionally a second run side
by side (impl/torch against impl/cpu, or yesterday against today): the other
run is read back from the case rows its summary.json keeps, so no second
copy of them is written.
The page needs no server and no network: data and script are inline.
"""
import html
import json
import os

from .rows import family_of, repro_command
from .verdicts import FAILING, VERDICTS

SUMMARY_FILE = "summary.json"


def case_row(func, name, layout, result, family, repro):
    """One case as the page draws it; `repro` is its repro line (used when not passed)."""
    parts = name.split("::")
    return {"function": func, "family": family or "other", "case": name, "dtype": parts[1] if len(parts) > 1 else "",
            "layout": layout, "verdict": result["verdict"], "message": (result.get("message") or "")[:500],
            "repro": repro if result["verdict"] != "passed" else ""}


def case_rows(rows, family_of, repro_of):
    """The per-case records of a run's (item, result) rows."""
    return [case_row(item.func, item.name, item.layout, r, family_of(item.func), repro_of(item)) for item, r in rows]


def load_cases(report_dir):
    """Another run's cases, from the rows its summary.json keeps."""
    path = os.path.join(report_dir, SUMMARY_FILE)
    with open(path) as f:
        data = json.load(f)
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise ValueError(f"{path} is not a run_test report of this harness (no case rows)")
    lib = data.get("library") or {}
    args = data.get("repro_args") or {}
    cases = [case_row(c["function"], c["case"], c["layout"], c["result"], family_of(c["function"]),
                      repro_command(c["case"], c["layout"], args.get("impl_lib"), args.get("data_dir"), args.get("options"),
                                    args.get("mode", "run_test")))
             for c in data["cases"]]
    return {"title": f"DIOPI conformance: {lib.get('vendor', '')}",
            "library": f"{lib.get('vendor', '')} {lib.get('version', '')} ({data.get('impl_lib', '')})", "cases": cases}


def write(report_dir, cases, title, library, compare=None, note=None):
    """Writes report.html into report_dir; `compare` is another run's
    load_cases() result, shown beside this one; `note` a line shown under the
    totals (the run's tolerance proof)."""
    os.makedirs(report_dir, exist_ok=True)
    data = {"title": title, "library": library, "cases": cases}
    # The verdicts come from verdicts.py, so a new one gets its column and its count without touching the page.
    page = _PAGE.replace("__TITLE__", html.escape(title)).replace(
        "__NOTE__", f'<p id="tolerance">{html.escape(note)}</p>' if note else "").replace(
        "__DATA__", json.dumps({"run": data, "other": compare, "verdicts": list(VERDICTS), "failing": list(FAILING)})
        .replace("</", "<\\/"))
    path = os.path.join(report_dir, "report.html")
    with open(path, "w") as f:
        f.write(page)
    return path


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin-top: .8em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #f0f0f0; position: sticky; top: 0; }
td.name, th.name { text-align: left; }
tr.family td { background: #e8eef8; font-weight: bold; text-align: left; }
.bad { background: #fbe3e3; } .good { background: #e6f4e6; } .na { color: #999; }
#failures li { margin: .3em 0; } code { font-size: 12px; background: #f6f6f6; }
.controls > * { margin-right: 1em; }
</style></head>
<body>
<h1>__TITLE__</h1>
<p id="libs"></p>
<div class="controls">
  <input id="filter" placeholder="function name contains...">
  <select id="family"><option value="">all families</option></select>
  <label><input type="checkbox" id="failing"> only functions with cases not passed</label>
</div>
<p id="totals"></p>
__NOTE__
<table id="matrix"><thead></thead><tbody></tbody></table>
<h2>Cases not passed</h2>
<ol id="failures"></ol>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const run = DATA.run, other = DATA.other;
const FAILING = new Set(DATA.failing);
// Every verdict in the harness's order, then any this page does not know (a newer report): none is left out.
const VERDICTS = DATA.verdicts.concat([...new Set(run.cases.map(c => c.verdict))].filter(v => !DATA.verdicts.includes(v)).sort());
const QUIET = new Set(["passed", "skipped", "not_implemented"]);  // verdicts that fail nothing

function group(cases) {
  const funcs = new Map();
  for (const c of cases) {
    if (!funcs.has(c.function)) funcs.set(c.function, {family: c.family, verdicts: {}, dtypes: {}, layouts: {}, cases: []});
    const f = funcs.get(c.function);
    f.verdicts[c.verdict] = (f.verdicts[c.verdict] || 0) + 1;
    for (const [key, val] of [["dtypes", c.dtype], ["layouts", c.layout]]) {
      if (!val) continue;
      const slot = f[key][val] || (f[key][val] = [0, 0]);
      slot[1] += 1;
      if (c.verdict === "passed") slot[0] += 1;
    }
    f.cases.push(c);
  }
  return funcs;
}

const mine = group(run.cases), theirs = other ? group(other.cases) : null;
const dtypes = [...new Set(run.cases.map(c => c.dtype).filter(Boolean))].sort();
const layouts = [...new Set(run.cases.map(c => c.layout))].sort();
const used = VERDICTS.filter(v => run.cases.some(c => c.verdict === v));

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function ratio(slot) { return slot ? slot[0] + "/" + slot[1] : ""; }
function notPassed(f) { return f.cases.some(c => !QUIET.has(c.verdict)); }

document.getElementById("libs").textContent = "this run: " + (run.library || "?") +
  (other ? "  |  compared with: " + (other.library || "?") : "");
const fams = [...new Set([...mine.values()].map(f => f.family))].sort();
for (const fam of fams) document.getElementById("family").appendChild(el("option", {value: fam}, fam));

const head = document.querySelector("#matrix thead");
const hr = el("tr");
hr.appendChild(el("th", {class: "name"}, "function"));
for (const v of used) hr.appendChild(el("th", {"data-verdict": v, class: FAILING.has(v) ? "failing" : ""}, v));
for (const d of dtypes) hr.appendChild(el("th", {}, d));
for (const l of layouts) hr.appendChild(el("th", {}, l));
if (theirs) { hr.appendChild(el("th", {}, "other: passed")); hr.appendChild(el("th", {}, "other: not passed")); }
head.appendChild(hr);

function render() {
  const text = document.getElementById("filter").value.toLowerCase();
  const fam = document.getElementById("family").value;
  const onlyFailing = document.getElementById("failing").checked;
  const body = document.querySelector("#matrix tbody");
  body.replaceChildren();
  const fails = document.getElementById("failures");
  fails.replaceChildren();
  let shown = 0, lastFam = null;
  const names = [...mine.keys()].sort((a, b) => (mine.get(a).family + a).localeCompare(mine.get(b).family + b));
  for (const name of names) {
    const f = mine.get(name);
    if (text && !name.toLowerCase().includes(text)) continue;
    if (fam && f.family !== fam) continue;
    if (onlyFailing && !notPassed(f)) continue;
    if (f.family !== lastFam) {
      const fr = el("tr", {class: "family"});
      fr.appendChild(el("td", {colspan: String(1 + used.length + dtypes.length + layouts.length + (theirs ? 2 : 0))}, f.family));
      body.appendChild(fr);
      lastFam = f.family;
    }
    const tr = el("tr", {class: "function", "data-function": name});
    tr.appendChild(el("td", {class: "name"}, name));
    for (const v of used) {
      const n = f.verdicts[v] || 0;
      tr.appendChild(el("td", {class: n && !QUIET.has(v) ? "bad" : "", "data-verdict": v}, n ? String(n) : ""));
    }
    for (const d of dtypes) {
      const s = f.dtypes[d];
      tr.appendChild(el("td", {class: s ? (s[0] === s[1] ? "good" : "bad") : "na"}, ratio(s)));
    }
    for (const l of layouts) {
      const s = f.layouts[l];
      tr.appendChild(el("td", {class: s ? (s[0] === s[1] ? "good" : "bad") : "na"}, ratio(s)));
    }
    if (theirs) {
      const o = theirs.get(name);
      const passed = o ? (o.verdicts.passed || 0) : 0;
      const total = o ? o.cases.length : 0;
      tr.appendChild(el("td", {class: o ? "" : "na"}, o ? String(passed) : "absent"));
      tr.appendChild(el("td", {class: o && total - passed ? "bad" : ""}, o ? String(total - passed) : ""));
    }
    body.appendChild(tr);
    shown += 1;
    for (const c of f.cases) {
      if (c.verdict === "passed") continue;
      const li = el("li", {"data-function": name});
      li.appendChild(el("b", {}, "[" + c.verdict + "] "));
      li.appendChild(document.createTextNode(c.case + " (" + c.layout + "): " + c.message + " "));
      if (c.repro) li.appendChild(el("code", {}, c.repro));
      fails.appendChild(li);
    }
  }
  if (!fails.children.length) fails.appendChild(el("li", {}, "none"));
  const t = {};
  for (const c of run.cases) t[c.verdict] = (t[c.verdict] || 0) + 1;
  document.getElementById("totals").textContent = shown + " functions shown; cases: " +
    used.map(v => (t[v] || 0) + " " + v).join(", ");
}
for (const id of ["filter", "family", "failing"]) document.getElementById(id).addEventListener("input", render);
document.getElementById("failing").addEventListener("change", render);
render();
</script>
</body></html>
"""
