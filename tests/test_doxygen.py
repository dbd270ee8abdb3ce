"""docs/Doxyfile builds the headers' HTML reference with no warning (the
configuration makes any warning an error), and the pages document every
declared function with the brief of its doc block."""
import html
import os
import re
import shutil
import subprocess

import pytest

import diopi_header

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(shutil.which("doxygen") is None, reason="Doxygen is not installed (scripts/setup.sh installs it)")
def test_doxygen_reference_documents_every_function(tmp_path):
    with open(os.path.join(ROOT, "docs", "Doxyfile")) as f:
        config = f.read() + f"\nOUTPUT_DIRECTORY = {tmp_path}\n"  # the test writes nothing into build/
    run = subprocess.run(["doxygen", "-"], input=config, cwd=os.path.join(ROOT, "docs"), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    assert "warning" not in run.stderr.lower(), run.stderr[-3000:]
    out = tmp_path / "doxygen-html"
    pages = {h: (out / (h.replace("_", "__").replace(".", "_8") + ".html")).read_text()
             for h in diopi_header.HEADER_NAMES}  # every header the model parses has its page
    funcs = diopi_header.load()
    assert len(funcs) > 400
    for fn in funcs.values():
        page = pages[fn.header]
        assert f"</span>{fn.name}()</h2>" in page, fn.name  # its own entry, titled by its name
    add = funcs["diopiAdd"]
    words = " ".join(add.brief.split()[:6])
    assert words in " ".join(html.unescape(re.sub(r"<[^>]+>", " ", pages["functions.h"])).split()), words
