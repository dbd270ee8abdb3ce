"""How fast the machine is now, so that time limits follow it.

A time limit is written for an idle machine. When other jobs share the
cores, every call takes longer by the share of a core it gets, and a fixed
limit turns that load into false timeouts. `factor()` is the slowdown now:

- the contention of a short calibration (a busy loop of CALIBRATION
  seconds of wall time, against the CPU time this process got during it),
  taken at start and again every PERIOD seconds;
- the run queue: the 1-minute load average per core (it lags, but it sees
  the load that came while this process slept).

The larger of the two, never below 1 and never above CAP: a limit is
stretched at most CAP times, so a call that never returns is still caught
in bounded time. The environment variable DIOPI_TIME_SCALE fixes the
factor (a number >= 1) instead, e.g. for a machine known to be slow; no
waiting time is added then.

`waited(pid, before)` is the time a process's threads spent runnable but waiting
for a CPU (Linux schedstat): the harness adds it to a case's limit, since
it is time the case did not get.
"""
import os
import subprocess
import time

CAP = 8.0          # a limit grows at most this many times
CALIBRATION = 0.02  # seconds of wall time of one calibration
PERIOD = 5.0       # seconds between calibrations

_last = [None, 0.0]  # factor, when measured


def _contention():
    """Wall time over CPU time of a short busy loop: 1 on an idle core, N when
    N runnable threads share it."""
    wall0, cpu0 = time.monotonic(), time.thread_time()
    n = 0
    while time.monotonic() - wall0 < CALIBRATION:
        n += 1
    wall, cpu = time.monotonic() - wall0, time.thread_time() - cpu0
    return wall / cpu if cpu > 0 else CAP


def _run_queue():
    try:
        return os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:
        return 1.0


def fixed():
    """DIOPI_TIME_SCALE as a number, or None when unset or not a number >= 1."""
    text = os.environ.get("DIOPI_TIME_SCALE")
    try:
        value = float(text) if text else None
    except ValueError:
        return None
    return value if value is not None and value >= 1 else None


def measure():
    """The slowdown now (a fresh calibration)."""
    value = fixed()
    if value is None:
        value = min(CAP, max(1.0, _contention(), _run_queue()))
    _last[0], _last[1] = value, time.monotonic()
    return value


def factor():
    """The slowdown, calibrated again when the last calibration is older than PERIOD."""
    if _last[0] is None or time.monotonic() - _last[1] >= PERIOD:
        return measure()
    return _last[0]


def scaled(seconds):
    """`seconds` of an idle machine on this machine now, at most CAP times
    `seconds` (DIOPI_TIME_SCALE included): a limit that follows the machine
    still ends a call that never returns in bounded time."""
    return seconds * min(factor(), CAP)


def run(cmd, seconds, popen=subprocess.Popen, **kwargs):
    """subprocess.run(cmd, **kwargs) with a limit that follows the machine:
    `seconds` of an idle machine times the largest slowdown seen while it
    runs (measured again every PERIOD), never more than CAP times `seconds`.
    Raises subprocess.TimeoutExpired (its `timeout` the limit reached) after
    killing the process when the limit runs out. `popen` starts the process
    (a subclass of subprocess.Popen, e.g. the tests' forking one)."""
    if kwargs.pop("capture_output", False):
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    start, worst = time.monotonic(), min(factor(), CAP)
    with popen(cmd, **kwargs) as proc:
        while True:
            allowed = seconds * worst
            left = allowed - (time.monotonic() - start)
            if left <= 0:
                proc.kill()
                out, err = proc.communicate()
                raise subprocess.TimeoutExpired(cmd, allowed, out, err)
            try:
                out, err = proc.communicate(timeout=min(left, PERIOD))
                return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
            except subprocess.TimeoutExpired:
                worst = max(worst, min(factor(), CAP))


def waits(pid):
    """{thread id: nanoseconds it spent runnable but waiting for a CPU} of
    process `pid` (empty when the kernel does not say)."""
    out = {}
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                out[t] = int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return out


def waited(pid, before):
    """Seconds process `pid` waited for a CPU since `before` (a waits()
    snapshot): the largest over its threads, since a call waits for its
    slowest thread."""
    now = waits(pid)
    return max([n - before.get(t, 0) for t, n in now.items()] + [0]) / 1e9
