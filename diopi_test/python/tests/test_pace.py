"""Time limits follow the machine (conformance/pace.py) but never past pace.CAP
times the written limit, so a hang is still caught in bounded time."""
import subprocess
import sys

import pytest

from conformance import collective, pace


@pytest.fixture
def scale(monkeypatch):
    def set_scale(value):
        monkeypatch.setenv("DIOPI_TIME_SCALE", str(value))
        pace.measure()
    yield set_scale
    monkeypatch.delenv("DIOPI_TIME_SCALE", raising=False)
    pace.measure()


def test_a_limit_is_stretched_but_capped(scale):
    scale(3)
    assert pace.scaled(10) == 30
    scale(50)  # a machine claimed 50x slower still gets at most CAP times the limit
    assert pace.scaled(10) == 10 * pace.CAP


def test_the_collective_deadlines_are_capped(scale):
    scale(50)
    world = collective.World("impl", "runtime", 2, timeout=10.0, load_timeout=30.0)
    # The library's own timeout: half the written --timeout, stretched as far as the cap allows.
    assert world.comm_timeout_ms() == int(5.0 * pace.CAP * 1000)
    scale(2)
    assert world.comm_timeout_ms() == 10000


def test_a_paced_subprocess_gets_the_stretched_limit_and_no_more(scale):
    sleep = [sys.executable, "-c", "import time, sys; time.sleep(float(sys.argv[1]))"]
    scale(4)
    # 0.5 s written, 2 s allowed on a machine 4x slower: a 1 s process ends in time.
    assert pace.run(sleep + ["1"], 0.5, capture_output=True).returncode == 0
    scale(1000)
    # A process that never ends is stopped at CAP times the written limit.
    with pytest.raises(subprocess.TimeoutExpired) as e:
        pace.run(sleep + ["600"], 0.25, capture_output=True)
    assert e.value.timeout == 0.25 * pace.CAP
