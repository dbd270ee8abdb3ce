"""The Markdown operator reference (diopi_header.reference) and its
checked-in copy, docs/operators.md, which must match the headers."""
import collections
import os
import re
import shutil
import subprocess
import sys

import pytest

import diopi_header
from diopi_header import model, reference
from diopi_header.__main__ import main

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
# The recipe for a new operator regenerates the reference; tests/test_adding_an_operator.py
# does so for a copy of the headers and points these tests at that copy's reference.
DOC = os.environ.get("DIOPI_OPERATOR_REFERENCE") or os.path.join(REPO, "docs", "operators.md")
REGENERATE = "python3 -m diopi_header reference docs/operators.md"


@pytest.fixture(scope="module")
def text():
    return reference.render(diopi_header.standard())


def sections(text):
    """Heading text -> the lines under it up to the next heading of any level."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"#{1,6} (.+)$", line)
        if m:
            cur = out.setdefault(m.group(1), [])
        elif cur is not None:
            cur.append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def test_checked_in_reference_is_current(capsys):
    # This is how CI notices a header change without a regenerated reference.
    rc = main(["reference", DOC, "--check"])
    assert rc == 0, f"docs/operators.md is stale; run from the repository root: {REGENERATE}"
    assert "up to date" in capsys.readouterr().out


def test_every_function_is_listed_exactly_once(text):
    operators, _, rest = text.partition("\n## Enums\n")
    headings = collections.Counter(re.findall(r"^### (\w+)$", operators, re.M))
    assert headings == collections.Counter(list(diopi_header.load()))
    toc = [line for line in text.split("\n## Contents\n")[1].split("\n## ")[0].splitlines()
           if line.startswith("- [Family: ")]
    linked = collections.Counter(re.findall(r"\[(diopi\w+)\]\(#", "\n".join(toc)))
    assert linked == collections.Counter(list(diopi_header.load()))
    runtime = rest.split("\n## Runtime functions\n")[1]
    assert collections.Counter(re.findall(r"^### (\w+)$", runtime, re.M)) == \
        collections.Counter(list(diopi_header.runtime_functions()))


def test_families_appear_in_header_order(text):
    found = re.findall(r"^## Family: (\w+)$", text, re.M)
    assert found == list(diopi_header.families())


def test_documented_dtypes_appear_in_each_section(text):
    secs = sections(text)
    checked = 0
    for fn in diopi_header.load().values():
        sec = secs[fn.name]
        listed = re.search(r"^Documented dtypes: (.*?)\. Declared in `diopi/(\S+)`", sec, re.M)
        assert listed, f"{fn.name}: no dtype line"
        want = {d for p in fn.params for d in p.dtypes}
        assert set(listed.group(1).split(", ")) - {"none"} == want, fn.name
        assert listed.group(2) == fn.header
        for p in fn.params:
            if p.dtypes:
                row = next(line for line in sec.splitlines() if line.startswith(f"| `{p.name}` |"))
                assert row.split(" | ")[3] == ", ".join(p.dtypes), (fn.name, p.name)
                checked += 1
    assert checked > 0, "no parameter of the model documents a dtype"


def test_roles_are_spelled_for_readers(text):
    secs = sections(text)
    funcs = diopi_header.load().values()
    inout = next((fn, p) for fn in funcs for p in fn.params if p.role == model.INOUT and not p.optional)
    optional = next((fn, p) for fn in funcs for p in fn.params if p.optional and p.role == model.INPUT)
    for (fn, p), role in ((inout, "in-place"), (optional, "input, optional")):
        row = next(line for line in secs[fn.name].splitlines() if line.startswith(f"| `{p.name}` |"))
        assert f"| {role} |" in row, row


def test_enums_list_every_enumerator(text):
    secs = sections(text)
    for enum in diopi_header.enums().values():
        for e in enum.enumerators:
            assert f"| `{e.name}` | {e.value} |" in secs[enum.name], (enum.name, e.name)


def test_signature_is_the_declaration():
    fn = diopi_header.load()["diopiAdd"]
    flat = re.sub(r"\s+", " ", reference.c_signature(fn)).replace("( ", "(")
    assert flat == f"{fn.returns} {fn.name}(" + ", ".join(f"{p.ctype} {p.name}" for p in fn.params) + ");"


def test_escape_keeps_formulas_literal():
    assert reference._escape("|x| < a*b, shape[0]") == r"\|x\| \< a\*b, shape\[0\]"
    assert reference._escape("see `a|b*c` here") == r"see `a\|b*c` here"


def test_output_does_not_depend_on_where_the_headers_are(tmp_path, text):
    shutil.copytree(os.path.join(diopi_header.INCLUDE_DIR, "diopi"), tmp_path / "diopi")
    assert reference.render(diopi_header.standard_in(str(tmp_path))) == text


def test_markdown_structure(text):
    markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py is not installed; the structure check parses the Markdown")
    parser = markdown_it.MarkdownIt("commonmark").enable("table")
    tokens = parser.parse(text)
    slugs = [reference.slug(tokens[i + 1].content) for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert len(slugs) == len(set(slugs)), "two headings share an anchor"
    targets = [c.attrs["href"] for t in tokens for c in (t.children or []) if c.type == "link_open"]
    assert targets and all(h.startswith("#") and h[1:] in slugs for h in targets), "a contents link has no heading"
    # Below the contents, doc text must stay literal: formulas like a*b*c or
    # [0] must not turn into emphasis, links or HTML.
    body = text[text.index("\n## Family: "):]
    markup = {c.type for t in parser.parse(body) for c in (t.children or [])}
    assert not markup & {"em_open", "strong_open", "link_open", "html_inline"}, markup
    # A table ignores extra cells, so a stray pipe is only visible in the source.
    width = None
    for line in body.splitlines():
        if not line.startswith("| "):
            width = None
            continue
        cells = len(re.split(r"(?<!\\)\|", line)) - 2
        width = width or cells  # the header row sets the table's width
        assert cells == width, line


def test_check_cli_on_a_modified_copy(tmp_path, text):
    (tmp_path / "docs").mkdir()
    copy = tmp_path / "docs" / "operators.md"
    copy.write_text(text.replace("### diopiAdd\n", "### diopiAdd (edited)\n", 1))
    cmd = [sys.executable, "-m", "diopi_header", "reference", "docs/operators.md", "--check"]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [f"docs/operators.md is stale: run {REGENERATE}"]
    copy.write_text(text)
    assert subprocess.run(cmd, cwd=tmp_path, capture_output=True).returncode == 0


def test_write_then_check(tmp_path, capsys):
    out = str(tmp_path / "ref.md")
    assert main(["reference", out, "--check"]) == 1  # missing file
    assert main(["reference", out]) == 0
    assert main(["reference", out, "--check"]) == 0
    mtime = os.stat(out).st_mtime_ns
    assert main(["reference", out]) == 0
    assert os.stat(out).st_mtime_ns == mtime, "an unchanged reference was rewritten"
    assert "unchanged" in capsys.readouterr().out


def test_bad_include_dir_is_one_line_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "diopi_header", "reference", str(tmp_path / "x.md"),
                        "--include", str(tmp_path / "nowhere")], capture_output=True, text=True)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "cannot read the headers" in r.stderr
    assert not (tmp_path / "x.md").exists()
