"""The harness's documented entry point: `python main.py --mode ...` from this folder.

The CLI lives in conformance/cli.py, which the installed console script
`diopi-conformance` runs too.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from conformance.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
