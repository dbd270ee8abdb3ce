"""Run vendor code in worker processes only: a library that crashes, hangs,
exits, leaks or leaves the process changed costs the case that did it, and
the verdict names that case's function, never a later one's.

Workers come from a fork server (a process that isolated itself, loaded the
test runtime and the operator library and ran the library checks once), so
a crashed worker is replaced in milliseconds; when loading left the process
with threads (which a fork does not copy), each worker is a fork of the
harness that loads the library itself. A worker isolates itself
(conformance/sandbox.py: dies with its parent, closes inherited
descriptors, captures its stdout/stderr), then receives case references
(function, index, layout) and answers each with a result over a framed
channel (conformance/channel.py). Around every case it records what the
library printed and compares the process state with the state after
loading. The harness (this module's `run`):

- replaces a worker that died, overran its deadline, or left the process
  state changed, so later cases are judged in a clean process;
- re-runs a case that failed, crashed or timed out after other cases alone
  in a fresh worker: a failure that repeats alone is charged as is. One
  that does not is replayed in a fresh worker after the same earlier calls
  (the most recent ones that fit a budget) and, when it fails again there,
  after fewer of them, halving the gap up to PREFIX_TRIES replays: only
  then is it `order_dependent`, naming the shortest run of earlier calls
  found to make it fail. When it passes after them too, nothing shows that
  the order mattered (a busy machine makes a call slow once, not wrong
  twice): it passed, with a warning that says what was seen first;
- repeats a passing case whose call left more memory resident, once a
  case of its function did so before (in the same worker: a few warm-up
  calls, then a series) and charges `memory_growth`
  when resident memory grows with the number of calls (the slope per call,
  fitted over the series, is in the message); memory allocated once and
  kept, such as a cache, gives no slope;
- gives each case a time limit that follows the machine (conformance/
  pace.py): its limit times the slowdown measured now, plus the time the
  worker waited for a CPU, at most pace.CAP times the limit. A case that
  overran a quick limit (one set from the reference's own run time) is
  re-run alone in a fresh worker with the full --timeout, so a call that
  never returns is charged after both;
- runs every case it reports a verdict for: the remaining cases of a
  function that timed out twice (and, with --max_crashes_per_function N,
  of one that crashed N times) are `skipped` with that reason, never
  charged a verdict without running.

A worker's stdout and stderr go to a file the harness keeps open, so what a
library printed before it crashed is kept: its own last error line (an
abort's `what():`, a failed assertion) is in the crash's message, all of
it in the report row's output.
"""
import collections
import gc
import logging
import multiprocessing as mp
import multiprocessing.connection as mpc
import multiprocessing.reduction as mp_reduction
import os
import select
import signal
import socket
import sys
import time
import traceback

import diopi_header

from . import binding, channel, execute, fuzz, pace, regen, sandbox, store
from .verdicts import (BASELINE_REFUSED, CRASHED, FAILING, MEMORY_GROWTH, ORDER_DEPENDENT, PASSED, SKIPPED, STATE_CHANGED,
                       STRAY_WRITE, TIMEOUT, result as make_result)

log = logging.getLogger("conformance")

LOAD_TIMEOUT = 120.0        # seconds a worker may take to load the library and run the library checks
TIMEOUTS_PER_FUNCTION = 2   # after this many timeouts a function's remaining cases are not run
MEMORY_SUSPECT = 512 << 10  # when a second passing case of a function leaves this much more resident, it is repeated ...
MEMORY_QUICK = 0.1          # ... if it took at most this many seconds (a series is 10 to 26 replays) ...
MEMORY_WARMUP = 2           # ... first this many times (a cache fills, buffers reach their size) ...
MEMORY_REPEATS = 8          # ... then this many, resident memory measured after each, and when it grew
MEMORY_CONFIRM = 16         # ... this many more: a leak keeps its slope, the allocator's fragmentation levels off
MEMORY_SLOPE = 256 << 10    # charged when it grows by this much per library call or more in both series, ...
MEMORY_STEADY = 0.75        # ... at least at this share of the replays (a leak grows every time) ...
MEMORY_KEPT = 0.5           # ... and the second series' slope is at least this share of the first's
MEMORY_CHECKS = 2           # cases of one function repeated so at most
HISTORY = 5                 # earlier calls an order_dependent verdict names in its message (its "prefix" field has all)
PREFIX_BUDGET = 60.0        # seconds (as first run) of earlier calls a replay repeats at most ...
PREFIX_CALLS = 5000         # ... and calls at most
PREFIX_TRIES = 6            # replays that look for the shortest run of earlier calls that makes a case fail
PREFIX_SLACK = 3.0          # a replay's earlier calls may take this many times as long as they first did
FORK_SERVER = True          # workers are forked from a process that loaded the library (when it stayed single-threaded)
CONFIRMATIONS = 2           # failures of a function that repeated alone before its later ones are charged without a re-run


class WorkItem:
    __slots__ = ("func", "index", "layout", "name", "timeout", "limit", "tol", "mutation", "seq", "origin", "seconds")

    def __init__(self, func, index, layout, name, timeout, tol=None, mutation=None, seq=None, limit=None):
        self.func, self.index, self.layout, self.name, self.timeout = func, index, layout, name, timeout
        self.limit = max(timeout, limit or timeout)  # the full limit; timeout may be a quicker one
        self.tol = tol or {}      # the vendor's tolerance overrides for this case
        self.mutation = mutation  # fuzz mode: index into fuzz.mutations() of the case
        self.seq = seq            # place in the unsharded selection (a merge restores that order)
        self.origin = None        # a re-run: ("confirm" | "memory" | "slow" | "prefix", first result, earlier calls, state)
        self.seconds = None       # how long its answer took (set when it came)

    @property
    def dtype(self):
        """The case's dtype, from its name (`add::float16::2x3`)."""
        parts = self.name.split("::")
        return parts[1] if len(parts) > 2 else ""

    @property
    def label(self):
        return self.name + ("" if self.layout == "contiguous" else f" ({self.layout})")

    def again(self, kind, first, history, state=None):
        # A re-run after a quick limit ran out gets the full one, as does a replay after earlier calls.
        timeout = self.limit if kind in ("slow", "prefix") else self.timeout
        twin = WorkItem(self.func, self.index, self.layout, self.name, timeout, self.tol, self.mutation, self.seq, self.limit)
        twin.origin = (kind, first, list(history), state)
        return twin


# ---------------------------------------------------------------- the worker
def _load(impl_path, runtime_path, capture, send):
    """Loads the library and runs the library checks; returns (lib, info),
    or None after sending "fatal"."""
    try:
        lib = binding.Library(impl_path, runtime_path)
        info = dict(lib.info(), exported=lib.exported())
        info["checks"] = execute.library_checks(lib)
    except Exception as e:  # a Python-level failure; a crash or exit ends the worker instead
        send("fatal", f"{e}", capture.take())
        return None
    info["output"] = capture.take()
    info["memory_judged"] = not sandbox.sanitized()
    return lib, info


def _start(conn, key, parent_pid, impl_path, runtime_path, capture_fd):
    """What a worker and the fork server do first: isolate the process, load
    the library. Returns (send, capture, lib, info); lib is None when loading
    failed (the harness was told)."""
    fd = conn.fileno()
    capture = sandbox.isolate(parent_pid, [fd], capture_fd)

    def send(*msg):
        channel.send(fd, key, msg)

    lib, info = _load(impl_path, runtime_path, capture, send) or (None, None)
    # What a worker holds for its whole life (modules, the header model, the loaded library's objects)
    # leaves the cyclic collector's view, also for the workers the fork server forks from here: a full
    # collection, run before every reading of a memory series, then costs a millisecond instead of a
    # tenth of a second (a quarter of a clean run's worker time went to them).
    gc.collect()
    gc.freeze()
    return send, capture, lib, info


def _worker_main(conn, key, parent_pid, impl_path, runtime_path, data_dir, capture_fd, manifest):
    send, capture, lib, info = _start(conn, key, parent_pid, impl_path, runtime_path, capture_fd)
    if lib is None:
        return
    send("ready", info)
    _serve(conn, key, lib, capture, data_dir, manifest, info["memory_judged"])


def _replay(lib, record, layout, mutation, func):
    if mutation is not None:  # fuzz mode: one malformed call
        label, mutated = fuzz.mutations(diopi_header.load()[func], record)[mutation]
        return execute.run_fuzz(lib, mutated)
    return execute.run_case(lib, record, layout)


def _serve(conn, key, lib, capture, data_dir, manifest, judge_memory):
    """A worker's loop: one message per case, one answer each."""
    fd = conn.fileno()

    def send(*msg):
        channel.send(fd, key, msg)

    clean = sandbox.ProcessState()
    cache = {}  # the manifest comes read by the harness: a fresh worker need not parse it again

    def record_of(func, index, tol):
        nonlocal manifest
        if manifest is None:
            manifest = store.read_manifest(data_dir)
            gc.freeze()  # kept for the worker's life, like what _start froze
        if func not in cache:
            cache.clear()  # one function's cases at a time keeps memory flat
            cache[func] = store.load_function(data_dir, func, manifest, lazy=True)
        record = regen.expanded(cache[func][index])
        if tol:
            record = dict(record, tol=dict(record.get("tol") or {}, **tol))
        return record

    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        kind, func, index, layout, tol, extra, prefix = msg
        if prefix:
            # The earlier calls of another worker, replayed in their order
            # (their results do not matter), to see whether they make this case fail.
            for p_func, p_index, p_layout, p_tol, p_mutation in prefix:
                try:
                    _replay(lib, record_of(p_func, p_index, p_tol), p_layout, p_mutation, p_func)
                except Exception:
                    pass
            capture.take()
            send("prefix_done", len(prefix))
        try:
            record = record_of(func, index, tol)
        except (store.BaselineError, regen.RegenError) as e:
            send("result", make_result(BASELINE_REFUSED, f"baseline refused: {e}"))
            continue
        if kind == "repeat":  # the memory series: resident bytes and library calls after each replay
            series = []
            for n in extra:
                for _ in range(n):
                    execute.run_case(lib, record, layout)
                    # A replay's own garbage (NumPy arrays in reference cycles) stays resident until Python's
                    # cyclic collector runs, which looks like a leak of the library for a few dozen replays.
                    gc.collect()
                    series.append((sandbox.resident_bytes(), execute.calls))
                if not memory_grows(series):
                    break
            capture.take()
            send("repeat", series)
            continue
        before, started = sandbox.resident_bytes(), time.monotonic()
        try:
            res = _replay(lib, record, layout, extra, func)
        except Exception as e:
            res = make_result(execute.FAILED, f"harness error: {type(e).__name__}: {e}", trace=traceback.format_exc(limit=3))
        # The case's own time (the call, its checks and the comparison), as JUnit and the reports show it: measured
        # here, as the harness's round trip would add the pipe and its own bookkeeping.
        res["seconds"] = round(time.monotonic() - started, 6)
        grown = sandbox.resident_bytes() - before
        if grown >= MEMORY_SUSPECT and judge_memory:
            res["resident_growth"] = (grown, time.monotonic() - started)
        out = capture.take()
        if out:
            res["output"] = out
        changes = sandbox.ProcessState().changes(clean)
        if changes:
            was = f" (the case itself: {res['verdict']}" + (f": {res['message'][:200]})" if res.get("message") else ")")
            res = dict(res, verdict=STATE_CHANGED, message="left the process changed: " + "; ".join(changes) + was,
                       replace_worker=True)
        send("result", res)


# ---------------------------------------------------------------- the fork server
def _exit_code(status):
    """A waitpid status as multiprocessing's exitcode (-N: killed by signal N)."""
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _zygote_main(conn, key, parent_pid, impl_path, runtime_path, data_dir, capture_fd, manifest):
    """The fork server: loads the library once, then forks a ready worker
    per request. A crashed worker is so replaced in milliseconds instead of
    a second or more of loading. Forking is only safe while this process has
    a single thread (a forked child gets no copy of the others, e.g. an
    OpenMP team): when loading left threads, it says so and the harness
    starts its workers the ordinary way."""
    send, _, lib, info = _start(conn, key, parent_pid, impl_path, runtime_path, capture_fd)
    if lib is None:
        return
    fd = conn.fileno()
    forkable = len(sandbox.threads()) == 1
    send("ready", info, forkable)
    if not forkable:
        return
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    sock = socket.socket(fileno=os.dup(fd))
    me = os.getpid()
    while True:
        try:
            ready, _, _ = select.select([fd, wake_r], [], [])
        except InterruptedError:
            continue
        if wake_r in ready:
            os.read(wake_r, 512)
            while True:
                try:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == 0:
                    break
                send("exited", pid, _exit_code(status))
        if fd not in ready:
            continue
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        try:
            chan, out = mp_reduction.recvfds(sock, 2)
        except (EOFError, OSError, RuntimeError):
            return
        pid = os.fork()
        if pid == 0:  # the worker
            try:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                for extra in (fd, sock.fileno(), wake_r, wake_w, capture_fd):
                    os.close(extra)
                sandbox.die_with_parent(me)
                child_capture = sandbox.Capture(out)
                _serve(mpc.Connection(chan), msg[1], lib, child_capture, data_dir, manifest, info["memory_judged"])
            finally:
                os._exit(0)
        os.close(chan)
        os.close(out)
        send("forked", pid)


class _Zygote:
    """The harness's handle on the fork server."""

    def __init__(self, mpctx, impl_path, runtime_path, data_dir, load_timeout, manifest):
        self.key = channel.new_key()
        self.conn, child = mpctx.Pipe()
        self.capture_fd = sandbox.capture_file()
        self.proc = mpctx.Process(target=_zygote_main, args=(child, self.key, os.getpid(), impl_path, runtime_path, data_dir,
                                                             self.capture_fd, manifest), daemon=True)
        try:
            self.proc.start()
        finally:
            child.close()
        self.reader = channel.Reader(self.conn.fileno(), self.key)
        self.sock = socket.socket(fileno=os.dup(self.conn.fileno()))
        self.exits = {}      # pid -> exit code of a worker that ended
        self.pending = []    # messages read while waiting for another
        msg = _await_ready(self, load_timeout, os.path.basename(impl_path))
        self.info = msg[1]
        self.forkable = msg[2]
        if not self.forkable:
            self.close()

    def output(self):
        return sandbox.read_capture(self.capture_fd) if self.capture_fd is not None else ""

    def _read(self, timeout):
        """Reads the server's messages for up to `timeout` s; False once it is gone."""
        if mpc.wait([self.conn], timeout=timeout):
            alive = self.reader.feed()
            for msg, _, _ in self.reader.messages():
                if msg[0] == "exited":
                    self.exits[msg[1]] = msg[2]
                else:
                    self.pending.append(msg)
            return alive
        return True

    def spawn(self, worker_conn, capture_fd, key):
        """A forked worker serving `worker_conn` (its end of the pipe) with
        `capture_fd` as stdout and stderr; returns its _Forked, or None when
        the server is gone."""
        try:
            self.conn.send(("fork", key))
            mp_reduction.sendfds(self.sock, [worker_conn.fileno(), capture_fd])
        except OSError:
            return None
        deadline = time.monotonic() + pace.scaled(10.0)
        while time.monotonic() < deadline:
            for msg in self.pending:
                if msg[0] == "forked":
                    self.pending.remove(msg)
                    return _Forked(self, msg[1])
            if not self._read(0.5):
                return None
        return None

    def exit_code(self, pid, timeout):
        deadline = time.monotonic() + timeout
        while pid not in self.exits:
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(left):
                return self.exits.get(pid)
        return self.exits[pid]

    def close(self):
        if self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.join()
        self.sock.close()
        self.conn.close()
        if self.capture_fd is not None:
            os.close(self.capture_fd)
            self.capture_fd = None


class _Forked:
    """A worker the fork server started: the part of multiprocessing.Process
    the harness uses (it is the server's child, so the server reaps it)."""

    def __init__(self, zygote, pid):
        self.zygote, self.pid = zygote, pid
        self.exitcode = None

    def is_alive(self):
        if self.exitcode is None:
            self.zygote._read(0)
            self.exitcode = self.zygote.exits.pop(self.pid, None)
        return self.exitcode is None

    def join(self, timeout=None):
        if self.exitcode is None:
            code = self.zygote.exit_code(self.pid, 30.0 if timeout is None else timeout)
            if code is not None:
                self.exitcode = code
                self.zygote.exits.pop(self.pid, None)


def _await_ready(w, load_timeout, name):
    """The "ready" message of a starting worker or fork server `w` (with
    .conn, .reader, .proc, .output(), .close()); raises WorkerFailed when it
    ends or hangs while loading."""
    deadline = time.monotonic() + pace.scaled(load_timeout)
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not mpc.wait([w.conn], timeout=left):
            said = sandbox.error_line(w.output())
            w.close()
            raise WorkerFailed(f"{name}: loading the library did not finish within {load_timeout:.0f} s (hangs while loading?)"
                               + (f"; its last output: {said}" if said else ""))
        alive = w.reader.feed()
        for msg, _, _ in w.reader.messages():
            if msg[0] == "fatal":
                w.proc.join()
                w.close()
                raise WorkerFailed(f"{name}: {msg[1]}")
            if msg[0] == "ready":
                return msg
        if not alive:
            w.proc.join()
            said = sandbox.error_line(w.output())
            code = w.proc.exitcode
            w.close()
            raise WorkerFailed(f"{name}: the process loading it {_death(code)} before the library was ready"
                               + (f"; its last output: {said}" if said else ""))


# ---------------------------------------------------------------- the harness's side
class WorkerFailed(Exception):
    """The library could not be loaded: the message says how it failed."""


def _warm():
    """Parses the headers and builds the tables a worker uses once, here,
    before the fork, instead of in every worker (seconds each)."""
    from . import dtypes, enums
    binding.ffi()
    diopi_header.load()
    diopi_header.standard()
    dtypes.enum_value("float32")
    enums.error_code("diopiNoImplement")
    execute.error_codes()


class _Worker:
    def __init__(self, mpctx, impl_path, runtime_path, data_dir, load_timeout=LOAD_TIMEOUT, manifest=None, zygote=None):
        _warm()
        self.impl_path = impl_path
        self.key = channel.new_key()
        self.conn, child = mpctx.Pipe()
        self.capture_fd = sandbox.capture_file()
        self.reader = channel.Reader(self.conn.fileno(), self.key)
        self.item = None
        self.deadline = None
        self.history = []     # the items this worker ran, in order
        self.in_prefix = False  # replaying earlier calls before its case
        self.proc = zygote.spawn(child, self.capture_fd, self.key) if zygote is not None else None
        if self.proc is not None:
            child.close()
            self.info = zygote.info
            return
        self.proc = mpctx.Process(target=_worker_main, args=(child, self.key, os.getpid(), impl_path, runtime_path, data_dir,
                                                             self.capture_fd, manifest), daemon=True)
        try:
            self.proc.start()
        finally:
            child.close()
        self.info = _await_ready(self, load_timeout, os.path.basename(impl_path))[1]

    @property
    def parent(self):
        return self.conn

    def submit(self, item):
        self.item = item
        self.in_prefix = False
        prefix = None
        if item.origin and item.origin[0] == "prefix":
            prefix = [(p.func, p.index, p.layout, p.tol, p.mutation) for p in item.origin[3]["prefix"]]
            # The earlier calls get the time they took (a few times over), then the case its own limit.
            self._phase(sum(p.seconds or p.timeout for p in item.origin[3]["prefix"]) * PREFIX_SLACK + item.timeout)
            self.in_prefix = True
        elif item.origin and item.origin[0] == "memory":
            self._phase(item.timeout * (1 + MEMORY_WARMUP + MEMORY_REPEATS + MEMORY_CONFIRM))
        else:
            self._phase(item.timeout)
        if item.origin and item.origin[0] == "memory":
            self.conn.send(("repeat", item.func, item.index, item.layout, item.tol,
                            (MEMORY_WARMUP + MEMORY_REPEATS, MEMORY_CONFIRM), None))
        else:
            self.conn.send(("case", item.func, item.index, item.layout, item.tol, item.mutation, prefix))

    def _phase(self, budget):
        """Starts a time-bounded phase of `budget` seconds of an idle machine."""
        self.submitted = time.monotonic()
        self.budget = budget
        self.factor = pace.factor()
        self.waits = pace.waits(self.proc.pid)
        self.deadline = self.submitted + budget * self.factor

    def prefix_done(self):
        self.in_prefix = False
        self._phase(self.item.timeout)

    def overdue(self, now):
        """Whether the phase ran out of time. The limit follows the machine:
        the budget times the slowdown measured at the start or now
        (whichever is larger), plus the time the worker waited for a CPU,
        never more than pace.CAP times the budget."""
        if now < self.deadline:
            return False
        factor = max(self.factor, pace.factor())
        waited = pace.waited(self.proc.pid, self.waits) if pace.fixed() is None else 0.0
        allowed = min(self.budget * pace.CAP, self.budget * factor + waited)
        if now < self.submitted + allowed:
            self.deadline = self.submitted + allowed
            return False
        self.allowed = allowed
        return True

    def output(self):
        """What the worker printed since its last case ended (read after it died)."""
        return sandbox.read_capture(self.capture_fd) if self.capture_fd is not None else ""

    def close(self):
        self.conn.close()
        if self.capture_fd is not None:
            os.close(self.capture_fd)
            self.capture_fd = None

    def kill(self):
        if self.proc.is_alive():
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.join()
        self.close()

    def stop(self):
        try:
            self.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.kill()
        else:
            self.close()


def _death(exitcode):
    if exitcode is not None and exitcode < 0:
        try:
            return f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"was killed by signal {-exitcode}"
    return f"exited with code {exitcode}"


def probe(impl_path, runtime_path, load_timeout=LOAD_TIMEOUT):
    """What a worker learns when it loads the library: vendor, version,
    exported declared functions, the library checks, what it printed.
    Raises WorkerFailed when the library cannot be loaded."""
    mpctx = mp.get_context("fork")
    w = _Worker(mpctx, impl_path, runtime_path, None, load_timeout)
    w.stop()
    return w.info


def _stray(n, sample):
    return make_result(STRAY_WRITE, f"wrote {n} bytes into a file descriptor it did not open (the harness's result "
                                    f"channel): {bytes(sample[:40])!r}")


def _confirmable(res):
    return res["verdict"] in FAILING and res["verdict"] != TIMEOUT and not res.get("not_run")


def _size(n):
    return f"{n / 2**20:.1f} MiB" if abs(n) >= 1000 << 10 else f"{n / 2**10:.0f} KiB"


def _slope(points):
    """(bytes per call fitted by least squares, share of replays that grew) of
    [(resident bytes, calls so far)]; (0, 0) for fewer than 3 points."""
    if len(points) < 3:
        return 0.0, 0.0
    xs = [c for _, c in points]
    ys = [r for r, _ in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    if var == 0:
        return 0.0, 0.0
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var
    return slope, sum(1 for a, b in zip(ys, ys[1:]) if b > a) / (len(ys) - 1)


def _series(series):
    """The memory series split into the first and the confirming part
    (each starting from the point before it)."""
    start = MEMORY_WARMUP - 1
    cut = MEMORY_WARMUP + MEMORY_REPEATS - 1
    return series[start:cut + 1], series[cut:]


def memory_grows(series):
    """Whether the last part of a memory series measured so far grows like a leak."""
    first, rest = _series(series)
    slope, steady = _slope(rest if len(rest) > 1 else first)
    return slope >= MEMORY_SLOPE and steady >= MEMORY_STEADY


def memory_verdict(series):
    """A memory_growth result from a memory series (resident bytes and the
    library calls made so far, after each replay of one case), or None.
    The slope per call is fitted (least squares) over the replays after the
    warm-up, then over a second, longer series: a leak grows at nearly every
    replay and keeps its slope, where the allocator's own growth (a heap
    fragmented by outputs of varying size) slows down and levels off."""
    first, rest = _series(series)
    s1, steady1 = _slope(first)
    s2, steady2 = _slope(rest)
    if not (s1 >= MEMORY_SLOPE and steady1 >= MEMORY_STEADY and s2 >= MEMORY_SLOPE and steady2 >= MEMORY_STEADY
            and s2 >= MEMORY_KEPT * s1):
        return None
    points = first + rest[1:]
    calls = points[-1][1] - points[0][1]
    grown = points[-1][0] - points[0][0]
    slope, _ = _slope(points)
    return make_result(MEMORY_GROWTH, f"resident memory grows by about {_size(slope)} per call: {calls} calls of this case "
                                      f"(after {MEMORY_WARMUP} warm-up replays) grew it by {_size(grown)}, steadily "
                                      f"({_size(s1)} per call over the first {len(first) - 1} replays, {_size(s2)} over the "
                                      f"next {len(rest) - 1})", slope_bytes_per_call=int(slope), resident=[int(r) for r, _ in points])


def _names(items, most=HISTORY):
    """The last `most` of `items` by name, and how many came before them."""
    shown = ", ".join(i.label for i in items[-most:])
    return shown + (f" and {len(items) - most} before them" if len(items) > most else "")


def _prefix_plan(history):
    """How many of the last earlier calls a first replay repeats: all of
    them when they took at most PREFIX_BUDGET seconds and PREFIX_CALLS calls,
    else the most recent ones that fit (at least one)."""
    spent, k = 0.0, 0
    for it in reversed(history):
        spent += it.seconds if it.seconds is not None else it.timeout
        if k >= 1 and (spent > PREFIX_BUDGET or k >= PREFIX_CALLS):
            break
        k += 1
    return k


def _unconfirmed(first, history, tried, note):
    """The result of a case whose failure after earlier calls did not
    repeat alone nor after the earlier calls again: nothing shows that the
    order mattered (a busy machine makes a call slow, not wrong twice), so
    the case passed; the warning says what was seen."""
    what = first["verdict"] + (f" ({first['message'][:200]})" if first.get("message") else "")
    again = (f"after all {len(history)} of them" if tried >= len(history) else f"after the last {tried} of them")
    res = make_result(PASSED)
    res["warnings"] = [f"{what} after {len(history)} earlier calls in the same worker; passed alone in a fresh worker and "
                       f"{again} replayed in a fresh worker{note}, so it is not charged (a busy machine?)"]
    if first.get("output"):
        res["output"] = first["output"]
    return res


def _settle(item, res):
    """The final result of a re-run item, from its first result and this
    one, or ("again", next item) when another re-run must decide."""
    kind, first, history, state = item.origin
    if kind == "slow":
        if res["verdict"] == TIMEOUT:
            return make_result(TIMEOUT, f"no answer within {res.get('allowed', item.timeout):.1f} s (the full limit, alone in a fresh "
                                        f"worker; {first['message']} first)", **{k: v for k, v in res.items() if k == "output"})
        res = dict(res)
        res.setdefault("warnings", []).append(f"took longer than the quick limit ({first['message']}); "
                                              f"finished alone within the full {item.timeout:.1f} s")
        return res
    if kind == "memory":
        if isinstance(res, dict):  # the repeats crashed: that verdict is this case's
            return res
        charged = memory_verdict(res) if res else None
        if charged:
            return charged
        first = dict(first)
        first.pop("resident_growth", None)
        return first
    if kind == "confirm":
        if res["verdict"] != PASSED:
            # It fails alone too: the first verdict stands (a defect such as a heap
            # overrun may show differently in another process).
            first = dict(first)
            first["confirmed"] = f"alone in a fresh worker: {res['verdict']}"
            return first
        # Passed alone: replay the earlier calls in a fresh worker, then the case.
        k = _prefix_plan(history)
        return ("again", item.again("prefix", first, history, {"try": k, "lo": 0, "hi": None, "tries": 1, "best": None,
                                                                "prefix": history[-k:]}))
    # kind == "prefix": did the failure come back after the last state["try"] earlier calls?
    state = dict(state)
    k = state["try"]
    if res.get("prefix_broke"):
        return _unconfirmed(first, history, k, f" (replaying them ended the worker: {res['message'][:160]})")
    if res["verdict"] in FAILING:
        state["hi"], state["best"] = k, res
    else:
        state["lo"] = k
    if state["hi"] is None:
        return _unconfirmed(first, history, k, "")
    if state["tries"] < PREFIX_TRIES and state["hi"] - state["lo"] > 1:
        nxt = state["lo"] + (state["hi"] - state["lo"]) // 2
        state.update(tries=state["tries"] + 1, prefix=history[-nxt:], **{"try": nxt})
        return ("again", item.again("prefix", first, history, state))
    shortest = history[-state["hi"]:]
    again = state["best"]
    exact = state["hi"] - state["lo"] == 1
    n = len(shortest)
    calls = f"{n} earlier call{'s' if n != 1 else ''}"
    return make_result(ORDER_DEPENDENT, f"{first['verdict']} after {len(history)} earlier calls in the same worker, passed alone in "
                                        f"a fresh worker, and {again['verdict']} again in a fresh worker after "
                                        f"{'the ' + calls + ' that make it fail' if exact else 'the last ' + calls} "
                                        f"({_names(shortest)}): {again.get('message', '')[:300]}",
                       earlier=[i.label for i in shortest][-HISTORY:], prefix=[i.label for i in shortest],
                       first=first["verdict"], **{k2: v for k2, v in again.items() if k2 == "output"})


def run(items, impl_path, runtime_path, data_dir, jobs=1, on_result=None, load_timeout=LOAD_TIMEOUT, manifest=None,
        max_crashes=None):
    """Runs `items`; calls on_result(item, result) as each finishes (re-runs
    are resolved first: on_result sees each item once). Returns the library
    info of the first worker, with "workers_started" (worker processes this
    run started) and "forked" (whether they came from the fork server).
    Raises WorkerFailed when the library cannot be loaded at all.
    `manifest`: data_dir's manifest, if the caller has read it.
    `max_crashes`: after this many crashes of a function (final verdicts),
    its remaining cases are `skipped` with the reason (None: every case runs)."""
    mpctx = mp.get_context("fork")
    jobs = max(1, min(jobs, len(items) or 1))
    todo = collections.deque(items)
    timeouts = collections.Counter()
    crashes = collections.Counter()
    repeated = collections.Counter()  # function -> failures that repeated alone in a fresh worker
    order_dependent = set()           # functions one of whose failures did not repeat alone
    memory_checks = collections.Counter()
    grew = collections.Counter()      # function -> its passing cases that left MEMORY_SUSPECT more resident
    started = [0]
    log.debug("%d cases on %d worker processes (%s)", len(items), jobs, impl_path)
    if manifest is None and data_dir is not None:
        try:
            manifest = store.read_manifest(data_dir)
        except store.BaselineError:
            manifest = None  # each worker refuses its cases' baselines with the reason
    pace.measure()
    zygote = [None]
    if FORK_SERVER and items:
        _warm()
        # The fork server loads the library as a worker would: when that fails, the library is unusable.
        z = _Zygote(mpctx, impl_path, runtime_path, data_dir, load_timeout, manifest)
        started[0] += 1
        zygote[0] = z if z.forkable else None
        if not z.forkable:
            log.debug("the library started threads while loading: workers load it each")

    def new_worker():
        started[0] += 1
        z = zygote[0]
        if z is not None and not z.proc.is_alive():
            z.close()
            z = zygote[0] = None
        return _Worker(mpctx, impl_path, runtime_path, data_dir, load_timeout, manifest, zygote=z)

    workers = []
    idle = []
    busy = {}
    try:
        workers = [new_worker() for _ in range(jobs)]
        info = workers[0].info
        idle = list(workers)

        def report(item, res):
            if "seconds" not in res and item.seconds is not None:
                # A verdict the harness gave (a timeout, a crash): the time it waited for the answer.
                res = dict(res, seconds=round(item.seconds, 6))
            if res["verdict"] == TIMEOUT:
                timeouts[item.func] += 1  # final verdicts only: a re-run that finished does not count
            if res["verdict"] == CRASHED:
                crashes[item.func] += 1
            if on_result:
                on_result(item, res)

        def finish(w, item, res, dead):
            """Decides what a worker's answer (or death) means; returns whether
            the worker must be replaced."""
            if item.origin:
                final = _settle(item, res)
                if isinstance(final, tuple):
                    todo.appendleft(final[1])
                    return True
                if item.origin[0] == "memory":
                    log.debug("memory: %s (%s): %s replays in %.2f s -> %s", item.name, item.layout,
                              len(res) if isinstance(res, list) else "no", time.monotonic() - w.submitted, final["verdict"])
                if item.origin[0] in ("confirm", "prefix"):
                    if final["verdict"] == ORDER_DEPENDENT:
                        order_dependent.add(item.func)
                    elif final["verdict"] != PASSED:
                        repeated[item.func] += 1
                report(item, final)
                return dead or (isinstance(res, dict) and bool(res.get("replace_worker"))) or item.origin[0] == "prefix"
            earlier = w.history[:-1]  # the worker's history ends with this item
            if res["verdict"] == TIMEOUT and item.timeout < item.limit:  # only a quick limit ran out: try the full one
                todo.appendleft(item.again("slow", res, earlier))
                return True
            # A re-run costs a fresh worker: once a function's failures have
            # repeated alone twice (and none did not), its later ones stand;
            # never a timeout, which a busy machine can cause.
            settled = repeated[item.func] >= CONFIRMATIONS and item.func not in order_dependent
            if (dead or _confirmable(res)) and res["verdict"] != TIMEOUT and earlier and settled:
                res = dict(res, confirmed=f"not re-run: {repeated[item.func]} earlier failures of {item.func} repeated alone")
            elif dead and earlier:  # crashed or timed out after other cases: is it this case?
                todo.appendleft(item.again("confirm", res, earlier))
                return True
            elif not dead and _confirmable(res) and earlier:
                todo.appendleft(item.again("confirm", res, earlier))
                return bool(res.get("replace_worker"))
            if res.get("resident_growth") and res["verdict"] == PASSED and item.mutation is None:
                # A leak grows at every call, so a function is measured once a second case of it grew: one that
                # grew only once (a cache, a buffer sized at its first call) costs no series. Slow cases are left
                # to a quicker one of the function.
                grown, seconds = res["resident_growth"]
                grew[item.func] += 1
                if grew[item.func] >= 2 and seconds <= MEMORY_QUICK and memory_checks[item.func] < MEMORY_CHECKS:
                    memory_checks[item.func] += 1
                    log.debug("memory: %s (%s) left %s more resident; measuring a series", item.name, item.layout, _size(grown))
                    todo.appendleft(item.again("memory", res, w.history[:-1]))
                    return False
            res.pop("resident_growth", None)
            report(item, res)
            return dead or bool(res.get("replace_worker"))

        def died(w):
            """The result of a worker that ended during its call: how, and the
            last error line the library printed."""
            w.proc.join()
            death = _death(w.proc.exitcode)
            out = w.output()
            said = sandbox.error_line(out)
            res = make_result(CRASHED, f"the worker {death} during the call" + (f"; the library said: {said}" if said else ""),
                              death=death)
            if out:
                res["output"] = out
            return res

        def skip_reason(item):
            if timeouts[item.func] >= TIMEOUTS_PER_FUNCTION:
                return f"not run: {item.func} already timed out {timeouts[item.func]} times in this run"
            if max_crashes is not None and crashes[item.func] >= max_crashes:
                return (f"not run: {item.func} already crashed {crashes[item.func]} times in this run "
                        f"(--max_crashes_per_function {max_crashes})")
            return None

        while todo or busy:
            while idle and todo:
                item = todo.popleft()
                why = None if item.origin else skip_reason(item)
                if why:
                    report(item, make_result(SKIPPED, why, not_run=True))
                    continue
                w = idle.pop()
                if item.origin and item.origin[0] != "memory" and w.history:  # re-runs need a worker that ran nothing before
                    w.stop()
                    w = new_worker()
                try:
                    w.submit(item)
                except OSError:  # the worker died after its last answer (e.g. a thread a call left behind)
                    w.kill()
                    w = new_worker()
                    w.submit(item)
                w.history.append(item)
                busy[w.conn] = w
            if not busy:
                continue
            now = time.monotonic()
            wait_for = max(0.0, min(w.deadline for w in busy.values()) - now)
            ready = mpc.wait(list(busy), timeout=wait_for)
            done = []  # (worker, item, result, worker is dead)
            for conn in ready:
                w = busy[conn]
                alive = w.reader.feed()
                answered = False
                for msg, stray, sample in w.reader.messages():
                    if msg[0] == "prefix_done":
                        w.prefix_done()
                        continue
                    res = msg[1]
                    if msg[0] == "result" and stray:
                        res = dict(_stray(stray, sample), replace_worker=True)
                    done.append((w, w.item, res, False))
                    answered = True
                    break  # one answer per item
                if not answered and not alive:
                    res = died(w)
                    if w.in_prefix:
                        res = dict(res, prefix_broke=True)
                    done.append((w, w.item, res, True))
            now = time.monotonic()
            answered = {id(d[0]) for d in done}
            for conn, w in list(busy.items()):
                if id(w) not in answered and w.overdue(now):
                    out = w.output()
                    in_prefix = w.in_prefix
                    w.kill()
                    res = make_result(TIMEOUT, f"no answer within {w.allowed:.1f} s" + _limit_words(w), allowed=w.allowed)
                    if in_prefix:
                        res = dict(res, prefix_broke=True)
                    if out:
                        res["output"] = out
                    done.append((w, w.item, res if w.item.origin is None or w.item.origin[0] != "memory" else None, True))
            for w, item, res, dead in done:
                del busy[w.conn]
                if isinstance(res, dict) or res is None:
                    item.seconds = time.monotonic() - w.submitted
                replace = finish(w, item, res, dead)
                if replace:
                    log.debug("worker %d replaced after %s (%s)", w.proc.pid, item.name, item.layout)
                    w.kill()  # also closes a dead worker's channel and capture file
                    idle.append(new_worker())
                else:
                    idle.append(w)
    finally:
        aborted = sys.exc_info()[0] is not None  # interrupted: do not wait for cases in flight
        for w in idle + list(busy.values()):
            w.kill() if aborted else w.stop()
        if zygote[0] is not None:
            zygote[0].close()
    return dict(info, workers_started=started[0], forked=zygote[0] is not None)


def _limit_words(w):
    """How the limit of a case that ran out was chosen."""
    if w.allowed <= w.budget * 1.0001:
        return ""
    return f" (its limit {w.budget:.1f} s, stretched for a machine {w.allowed / w.budget:.1f}x slower than idle)"


def _isolated_main(conn, key, parent_pid, target, args):
    sandbox.die_with_parent(parent_pid)
    try:
        out = ("ok", target(*args))
    except Exception as e:
        out = ("error", f"{type(e).__name__}: {e}")
    channel.send(conn.fileno(), key, out)


def isolated(target, args, timeout, what):
    """target(*args) in a forked process that loads vendor code (e.g. the
    benchmark, which loads two libraries side by side); its stdout and
    stderr stay the console's. Raises WorkerFailed if it crashes, exits,
    or runs past `timeout` seconds."""
    mpctx = mp.get_context("fork")
    key = channel.new_key()
    parent, child = mpctx.Pipe()
    proc = mpctx.Process(target=_isolated_main, args=(child, key, os.getpid(), target, args), daemon=True)
    proc.start()
    child.close()
    reader = channel.Reader(parent.fileno(), key)
    timeout = pace.scaled(timeout)
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not mpc.wait([parent], timeout=left):
                raise WorkerFailed(f"{what}: no answer within {timeout:.0f} s")
            alive = reader.feed()
            for msg, _, _ in reader.messages():
                if msg[0] == "error":
                    raise WorkerFailed(f"{what}: {msg[1]}")
                return msg[1]
            if not alive:
                proc.join()
                raise WorkerFailed(f"{what}: the process {_death(proc.exitcode)}")
    finally:
        if proc.is_alive():
            os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        parent.close()
