"""python -m diopi_torch.suite: the single-process model suite (runner.py); scripts/models.sh runs it."""
import sys

from .runner import main

sys.exit(main())
