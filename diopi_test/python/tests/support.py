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
