"""The harness's documented entry point: `python main.py --mode ...` from this folder.

The CLI lives in conformance/cli.py, which the installed console script
`diopi-conformance` runs too.
"""
import sys

from conformance.cli import main  # `python main.py` puts this folder first on sys.path

if __name__ == "__main__":
    sys.exit(main())
