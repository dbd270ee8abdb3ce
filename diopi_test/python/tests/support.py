"""Helpers shared by the harness tests."""
import os
import subprocess
import sys

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)
MAIN = os.path.join(PYTHON_DIR, "main.py")


def run_main(*args, env=None, timeout=600):
    """Runs main.py in a subprocess; returns CompletedProcess."""
    return subprocess.run([sys.executable, MAIN, *args], capture_output=True, text=True, cwd=PYTHON_DIR, env=env, timeout=timeout)


def save_cases(data_dir, func, cases, family="test"):
    """Stores records as gen_data commits them (with the manifest index the
    loader checks them against); returns the manifest record."""
    from conformance import store
    cases = [dict(c, dtype=c.get("dtype", "float32"), layouts=c.get("layouts", ["contiguous"])) for c in cases]
    index = [[c["name"], c["dtype"], c["layouts"], 0] for c in cases]
    return store.commit_function(str(data_dir), func, cases, {"index": index, "family": family}, {})
