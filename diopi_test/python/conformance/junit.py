"""JUnit XML for CI systems: one test case per case x layout (run_test), or per graph (graph_replay).

`classname` is family.function (the header's family), `name` is the case
and its layout; a failing verdict becomes <failure> (or <error> for crashes
and timeouts) whose message is the verdict, the reason and the one-line
command that reproduces just this case; skipped and not implemented cases
are <skipped> with their reason. Written with the standard library so the
replaying side needs nothing more.
"""
import xml.etree.ElementTree as ET

from .verdicts import FAILING, NOT_IMPLEMENTED, PASSED, SKIPPED

# Verdicts that mean the library did not answer at all.
_ERRORS = ("crashed", "timeout")


def write(path, rows, family_of, repro_of, suite_name="diopi conformance", properties=None):
    """rows: (item, result) pairs; family_of(func) -> family; repro_of(item) -> command."""
    suite = ET.Element("testsuite", name=suite_name)
    if properties:
        props = ET.SubElement(suite, "properties")
        for k, v in properties.items():
            ET.SubElement(props, "property", name=str(k), value=str(v))
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_time = 0.0
    for item, r in rows:
        verdict = r["verdict"]
        seconds = float(r.get("seconds", 0.0) or 0.0)
        total_time += seconds
        case = ET.SubElement(suite, "testcase", classname=f"{family_of(item.func) or 'other'}.{item.func}",
                             name=f"{item.name}::{item.layout}", time=f"{seconds:.6f}")
        counts["tests"] += 1
        message = r.get("message", "") or ""
        if verdict in FAILING:
            tag = "error" if verdict in _ERRORS else "failure"
            counts["errors" if tag == "error" else "failures"] += 1
            text = f"{verdict}: {message}\nrepro: {repro_of(item)}"
            el = ET.SubElement(case, tag, type=verdict, message=f"{verdict}: {message}"[:1000])
            el.text = text
        elif verdict in (SKIPPED, NOT_IMPLEMENTED):
            counts["skipped"] += 1
            ET.SubElement(case, "skipped", type=verdict, message=f"{verdict}: {message}"[:1000])
        elif verdict != PASSED:  # a verdict unknown to this writer is never silently a pass
            counts["failures"] += 1
            ET.SubElement(case, "failure", type=verdict, message=f"{verdict}: {message}"[:1000])
    for k, v in counts.items():
        suite.set(k, str(v))
    suite.set("time", f"{total_time:.3f}")
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path


# graph_replay's verdicts: failed is a <failure>; error (the compiler or run returned an error, or the worker
# died) and refused (a file not run) are <error>s; declined is <skipped> (not a pass, and not the library's fault).
_GRAPH_TAGS = {"failed": "failure", "error": "error", "refused": "error", "declined": "skipped"}


def write_graphs(path, rows, repro, suite_name="diopi graph replay"):
    """rows: graph_replay's report rows (graph, verdict, message); repro: the command that replays the folder."""
    suite = ET.Element("testsuite", name=suite_name)
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for r in rows:
        verdict, message = r["verdict"], r.get("message", "") or ""
        case = ET.SubElement(suite, "testcase", classname="graph_replay", name=r["graph"], time="0")
        counts["tests"] += 1
        if verdict == "passed":
            continue
        tag = _GRAPH_TAGS.get(verdict, "failure")  # a verdict unknown to this writer is never silently a pass
        counts[{"failure": "failures", "error": "errors", "skipped": "skipped"}[tag]] += 1
        el = ET.SubElement(case, tag, type=verdict, message=f"{verdict}: {message}"[:1000])
        if tag != "skipped":
            el.text = f"{verdict}: {message}\nrepro: {repro}"
    for k, v in counts.items():
        suite.set(k, str(v))
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path
