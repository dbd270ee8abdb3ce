"""Progress of a long run, with an ETA.

On a terminal: a tqdm bar (done/total, rate, ETA, verdict counts so far).
Anywhere else (a CI console, a log file): a plain line through the
`conformance` logger every `interval` seconds and every `step` of the run,
so a log shows the run moving without a redraw character in it.
"""
import contextlib
import logging
import sys
import time

from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

from .verdicts import FAILING, PASSED

log = logging.getLogger("conformance")


class _Bar(tqdm):
    # No monitor thread: the runner forks replacement workers mid-run, and a
    # fork should not copy a thread that may hold the bar's lock.
    monitor_interval = 0


def category(verdict):
    """passed, failed (any failing verdict) or other (not implemented, skipped)."""
    if verdict == PASSED:
        return "passed"
    return "failed" if verdict in FAILING else "other"


class Progress:
    """update(verdict) once per finished case; use as a context manager (or
    call close()) so the bar ends its line and the last plain line is out."""

    def __init__(self, total, label="run_test", stream=None, interval=10.0, step=0.1, tty=None):
        self.total, self.label = total, label
        self.stream = stream if stream is not None else sys.stderr
        self.interval, self.step = interval, step
        self.done = 0
        self.counts = {"passed": 0, "failed": 0, "other": 0}
        self.t0 = time.monotonic()
        self._next_time = self.t0 + interval
        self._next_frac = step
        self._reported = -1
        self._redirect = contextlib.ExitStack()
        # --log-level warning or error silences progress like any other info line.
        self.enabled = log.isEnabledFor(logging.INFO) and total > 0
        tty = self.stream.isatty() if tty is None else tty
        self.bar = None
        if self.enabled and tty:
            self.bar = _Bar(total=total, desc=label, unit="case", file=self.stream, dynamic_ncols=True,
                            smoothing=0.1, mininterval=0.2)
            # Log records written while the bar is drawn go above it instead of through it.
            self._redirect.enter_context(logging_redirect_tqdm(loggers=[log], tqdm_class=_Bar))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def update(self, verdict):
        self.done += 1
        self.counts[category(verdict)] += 1
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.set_postfix_str(self._counts_text(), refresh=False)
            self.bar.update(1)
            return
        now = time.monotonic()
        frac = self.done / self.total
        if now >= self._next_time or frac >= self._next_frac or self.done == self.total:
            self._line(now)
            self._next_time = now + self.interval
            while self._next_frac <= frac:
                self._next_frac += self.step

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.enabled and self._reported != self.done:
            self._line(time.monotonic())
        self._redirect.close()

    def _counts_text(self):
        return ", ".join(f"{n} {k}" for k, n in self.counts.items())

    def _line(self, now):
        elapsed = now - self.t0
        left = self.total - self.done
        eta = elapsed / self.done * left if self.done else None
        log.info("[%s] %d/%d cases (%.0f%%): %s; elapsed %s, ETA %s", self.label, self.done, self.total,
                 100.0 * self.done / self.total, self._counts_text(), _Bar.format_interval(elapsed),
                 "?" if eta is None else _Bar.format_interval(eta))
        self._reported = self.done
