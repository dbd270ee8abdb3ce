"""The forked interpreters the device's tests run their scripts in (forked.py) behave as fresh ones: the same
output, exit status and error text for the same command, and a real subprocess where they cannot be the same."""
import os
import subprocess
import sys
import textwrap

import pytest

import forked

SHOW = textwrap.dedent("""
    import json, os, sys
    print(json.dumps({"argv": sys.argv, "name": __name__, "cwd": os.getcwd(), "path0": sys.path[0],
                      "var": os.environ.get("DIOPI_FORKED_PROBE"), "stdin": sys.stdin.read(),
                      "main_file": getattr(sys.modules["__main__"], "__file__", None)}))
    sys.stderr.write("to stderr\\n")
""")

CASES = {
    "code": ([sys.executable, "-c", SHOW, "a", "b c"], {}),
    "exit status": ([sys.executable, "-c", "import sys; print('x'); sys.exit(7)"], {}),
    "exit message": ([sys.executable, "-c", "raise SystemExit('gone')"], {}),
    "exception": ([sys.executable, "-c", "import torch\ndef f():\n    raise ValueError('boom')\nf()"], {}),
    "abort": ([sys.executable, "-c", "import os; os.abort()"], {}),
    "module": ([sys.executable, "-m", "json.tool", "--sort-keys"], {"input": '{"b": 1, "a": 2}'}),
    "missing module": ([sys.executable, "-m", "no_such_module_here"], {}),
    "script": ([sys.executable, "probe.py", "x"], {}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_forked_run_matches_a_fresh_interpreter(case, tmp_path):
    cmd, extra = CASES[case]
    (tmp_path / "probe.py").write_text(SHOW)
    kw = dict(capture_output=True, text=True, cwd=tmp_path, timeout=120, input=extra.get("input", "in"),
              env={**os.environ, "DIOPI_FORKED_PROBE": "set"})
    fresh = subprocess.run(cmd, **kw)
    fork = forked.run(cmd, preload=forked.TORCH, **kw)
    assert (fork.returncode, fork.stdout) == (fresh.returncode, fresh.stdout)
    # The error text is the same but for frames of the interpreter's own start-up (runpy's, for -m and scripts).
    strip = lambda err: [ln for ln in err.splitlines() if "<frozen runpy>" not in ln and "runpy.py" not in ln]
    assert strip(fork.stderr) == strip(fresh.stderr)


def test_the_run_is_a_fork_and_a_foreign_environment_is_not():
    code = "import sys; print('torch' in sys.modules)"  # imported before the code only in a fork
    assert forked.run([sys.executable, "-c", code], capture_output=True, text=True, preload=forked.TORCH).stdout == "True\n"
    env = {**os.environ, "PYTORCH_FORKED_PROBE": "1"}  # torch could read it when imported: a fresh interpreter
    assert forked.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                      preload=forked.TORCH).stdout == "False\n"


def test_a_timeout_kills_the_run():
    with pytest.raises(subprocess.TimeoutExpired):
        forked.run([sys.executable, "-c", "import time; time.sleep(60)"], timeout=2, preload=forked.TORCH)
