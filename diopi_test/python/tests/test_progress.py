"""Progress: a tqdm bar with an ETA on a terminal, plain periodic lines
through the `conformance` logger elsewhere, nothing below --log-level info."""
import io
import logging
import re

import pytest

from conformance import progress

VERDICTS = ["passed", "failed", "crashed", "skipped", "passed", "not_implemented", "passed"]


@pytest.fixture
def lines():
    logger = logging.getLogger("conformance")
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    old = logger.level, logger.handlers[:], logger.propagate
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    yield logger, out
    logger.setLevel(old[0])
    logger.handlers[:] = old[1]
    logger.propagate = old[2]


def _want(verdicts):
    cats = [progress.category(v) for v in verdicts]
    return cats.count("passed"), cats.count("failed"), cats.count("other")


def test_plain_lines_every_step_with_counts_and_eta(lines):
    _, out = lines
    stream = io.StringIO()  # not a terminal
    with progress.Progress(len(VERDICTS), stream=stream, interval=3600, step=0.5) as bar:
        for v in VERDICTS:
            bar.update(v)
    got = [re.match(r"\[run_test\] (\d+)/(\d+) cases \(\d+%\): (\d+) passed, (\d+) failed, (\d+) other; "
                    r"elapsed [\d:]+, ETA [\d:]+$", ln) for ln in out.getvalue().splitlines()]
    assert got and all(got), out.getvalue()
    # a line at half way and one at the end, not one per case
    done = [int(m.group(1)) for m in got]
    assert done == [(len(VERDICTS) + 1) // 2, len(VERDICTS)]
    half = VERDICTS[:done[0]]
    assert tuple(int(got[0].group(i)) for i in (3, 4, 5)) == _want(half)
    assert tuple(int(got[-1].group(i)) for i in (3, 4, 5)) == _want(VERDICTS)
    assert stream.getvalue() == ""  # plain lines go through logging, never to the bar's stream


def test_time_interval_alone_brings_lines(lines):
    _, out = lines
    with progress.Progress(len(VERDICTS), stream=io.StringIO(), interval=0, step=2.0) as bar:
        for v in VERDICTS:
            bar.update(v)
    assert len(out.getvalue().splitlines()) == len(VERDICTS)


def test_terminal_gets_a_bar_with_counts(lines):
    _, out = lines
    stream = io.StringIO()
    with progress.Progress(3, stream=stream, tty=True) as bar:
        for v in VERDICTS[:3]:
            bar.update(v)
    last = stream.getvalue().split("\r")[-1]
    p, f, o = _want(VERDICTS[:3])
    assert "3/3" in last and f"{p} passed, {f} failed, {o} other" in last, stream.getvalue()
    assert out.getvalue() == ""


def test_silent_above_info(lines):
    logger, out = lines
    logger.setLevel(logging.WARNING)
    stream = io.StringIO()
    with progress.Progress(3, stream=stream, tty=True) as bar:
        for v in VERDICTS[:3]:
            bar.update(v)
    with progress.Progress(3, stream=stream) as bar:
        for v in VERDICTS[:3]:
            bar.update(v)
    assert stream.getvalue() == "" and out.getvalue() == ""
