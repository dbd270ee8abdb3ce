"""Run vendor code in worker processes only: a library that crashes, hangs,
exits, leaks or leaves the process changed costs the case that did it, and
the verdict names that case's function, never a later one's.

Each worker (a fork of the harness) first isolates itself (conformance/
sandbox.py: dies with the harness, closes inherited descriptors, captures
its stdout/stderr), loads the test runtime and the operator library, runs
the library checks and reports "ready". It then receives case references
(function, index, layout) and answers each with a result over a framed
channel (conformance/channel.py). Around every case it records what the
library printed and compares the process state with the state after
loading. The harness (this module's `run`):

- replaces a worker that died, overran its deadline, or left the process
  state changed, so later cases are judged in a clean process;
- re-runs a failing case alone in a fresh worker when that worker had run
  other cases first: only a failure that repeats alone is charged as is, one
  that does not is `order_dependent` and names the earlier calls (a crash
  is confirmed the same way);
- repeats a passing case whose call left more memory resident, once a
  case of its function did so before (in the same worker: a few warm-up
  calls, then a series) and charges `memory_growth`
  when resident memory grows with the number of calls (the slope per call,
  fitted over the series, is in the message); memory allocated once and
  kept, such as a cache, gives no slope;
- re-runs a case that overran a quick limit (one set from the reference's
  own run time) alone in a fresh worker with the full --timeout: a slow or
  loaded machine (a sanitizer build, other jobs) gets no false timeout,
  while a call that never returns is charged after both;
- gives the remaining cases of a function that timed out twice the
  `timeout` verdict without running them, and likewise charges `crashed`
  without running them to the remaining cases of a function that crashed
  the same way on every case it ran, at least twice, alone in a fresh worker
  and in two dtypes: a library with a few functions that crash on every
  case then costs no fresh worker per case.

A worker's stdout and stderr go to a file the harness keeps open, so what a
library printed before it crashed (an abort's `what():` line) is in the
crash's report row.
"""
import collections
import logging
import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import signal
import sys
import time
import traceback

import diopi_header

from . import binding, channel, execute, fuzz, regen, sandbox, store
from .verdicts import (BASELINE_REFUSED, CRASHED, FAILING, MEMORY_GROWTH, ORDER_DEPENDENT, PASSED, STATE_CHANGED,
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
CRASHES_PER_FUNCTION = 2    # after this many identical crashes, and no other verdict, a function's remaining cases are not run
HISTORY = 5                 # earlier calls an order_dependent verdict names
CONFIRMATIONS = 2           # failures of a function that repeated alone before its later ones are charged without a re-run


class WorkItem:
    __slots__ = ("func", "index", "layout", "name", "timeout", "limit", "tol", "mutation", "seq", "origin")

    def __init__(self, func, index, layout, name, timeout, tol=None, mutation=None, seq=None, limit=None):
        self.func, self.index, self.layout, self.name, self.timeout = func, index, layout, name, timeout
        self.limit = max(timeout, limit or timeout)  # the full limit; timeout may be a quicker one
        self.tol = tol or {}      # the vendor's tolerance overrides for this case
        self.mutation = mutation  # fuzz mode: index into fuzz.mutations() of the case
        self.seq = seq            # place in the unsharded selection (a merge restores that order)
        self.origin = None        # a re-run: ("confirm" | "memory" | "slow", first result, earlier calls)

    @property
    def dtype(self):
        """The case's dtype, from its name (`add::float16::2x3`)."""
        parts = self.name.split("::")
        return parts[1] if len(parts) > 2 else ""

    def again(self, kind, first, history):
        # A re-run after a quick limit ran out gets the full one.
        timeout = self.limit if kind == "slow" else self.timeout
        twin = WorkItem(self.func, self.index, self.layout, self.name, timeout, self.tol, self.mutation, self.seq, self.limit)
        twin.origin = (kind, first, list(history))
        return twin


# ---------------------------------------------------------------- the worker
def _worker_main(conn, key, parent_pid, impl_path, runtime_path, data_dir, capture_fd, manifest):
    fd = conn.fileno()
    capture = sandbox.isolate(parent_pid, [fd], capture_fd)

    def send(*msg):
        channel.send(fd, key, msg)

    try:
        lib = binding.Library(impl_path, runtime_path)
        info = dict(lib.info(), exported=lib.exported())
        info["checks"] = execute.library_checks(lib)
    except Exception as e:  # a Python-level failure; a crash or exit ends the worker instead
        send("fatal", f"{e}", capture.take())
        return
    info["output"] = capture.take()
    info["memory_judged"] = judge_memory = not sandbox.sanitized()
    clean = sandbox.ProcessState()
    send("ready", info)
    cache = {}  # the manifest comes read by the harness: a fresh worker need not parse it again
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        kind, func, index, layout, tol, extra = msg
        try:
            if manifest is None:
                manifest = store.read_manifest(data_dir)
            if func not in cache:
                cache.clear()  # one function's cases at a time keeps memory flat
                cache[func] = store.load_function(data_dir, func, manifest, lazy=True)
            record = regen.expanded(cache[func][index])
            if tol:
                record = dict(record, tol=dict(record.get("tol") or {}, **tol))
        except (store.BaselineError, regen.RegenError) as e:
            send("result", make_result(BASELINE_REFUSED, f"baseline refused: {e}"))
            continue
        if kind == "repeat":  # the memory series: resident bytes and library calls after each replay
            series = []
            for n in extra:
                for _ in range(n):
                    execute.run_case(lib, record, layout)
                    series.append((sandbox.resident_bytes(), execute.calls))
                if not memory_grows(series):
                    break
            capture.take()
            send("repeat", series)
            continue
        before, started = sandbox.resident_bytes(), time.monotonic()
        try:
            if extra is not None:  # fuzz mode: one malformed call
                label, mutated = fuzz.mutations(diopi_header.load()[func], record)[extra]
                res = execute.run_fuzz(lib, mutated)
            else:
                res = execute.run_case(lib, record, layout)
        except Exception as e:
            res = make_result(execute.FAILED, f"harness error: {type(e).__name__}: {e}", trace=traceback.format_exc(limit=3))
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
    def __init__(self, mpctx, impl_path, runtime_path, data_dir, load_timeout=LOAD_TIMEOUT, manifest=None):
        _warm()
        self.impl_path = impl_path
        self.key = channel.new_key()
        self.parent, child = mpctx.Pipe()
        self.capture_fd = sandbox.capture_file()
        self.proc = mpctx.Process(target=_worker_main, args=(child, self.key, os.getpid(), impl_path, runtime_path, data_dir,
                                                             self.capture_fd, manifest), daemon=True)
        try:
            self.proc.start()
        finally:
            child.close()
        self.reader = channel.Reader(self.parent.fileno(), self.key)
        self.item = None
        self.deadline = None
        self.history = []     # names of the cases this worker ran
        self.info = self._ready(load_timeout)

    def _ready(self, load_timeout):
        deadline = time.monotonic() + load_timeout
        name = os.path.basename(self.impl_path)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not mpc.wait([self.parent], timeout=left):
                said = sandbox.last_lines(self.output())
                self.kill()
                raise WorkerFailed(f"{name}: loading the library did not finish within {load_timeout:.0f} s (hangs while loading?)"
                                   + (f"; its last output: {said}" if said else ""))
            alive = self.reader.feed()
            for msg, _, _ in self.reader.messages():
                if msg[0] == "fatal":
                    self.proc.join()
                    self._close()
                    raise WorkerFailed(f"{name}: {msg[1]}")
                if msg[0] == "ready":
                    return msg[1]
            if not alive:
                self.proc.join()
                said = sandbox.last_lines(self.output())
                self._close()
                raise WorkerFailed(f"{name}: the process loading it {_death(self.proc.exitcode)} before the library was ready"
                                   + (f"; its last output: {said}" if said else ""))

    def submit(self, item):
        self.item = item
        self.submitted = time.monotonic()
        self.deadline = self.submitted + item.timeout
        if item.origin and item.origin[0] == "memory":
            self.deadline += item.timeout * (MEMORY_WARMUP + MEMORY_REPEATS + MEMORY_CONFIRM)
            self.parent.send(("repeat", item.func, item.index, item.layout, item.tol,
                              (MEMORY_WARMUP + MEMORY_REPEATS, MEMORY_CONFIRM)))
        else:
            self.parent.send(("case", item.func, item.index, item.layout, item.tol, item.mutation))

    def output(self):
        """What the worker printed since its last case ended (read after it died)."""
        return sandbox.read_capture(self.capture_fd) if self.capture_fd is not None else ""

    def _close(self):
        self.parent.close()
        if self.capture_fd is not None:
            os.close(self.capture_fd)
            self.capture_fd = None

    def kill(self):
        if self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.join()
        self._close()

    def stop(self):
        try:
            self.parent.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.kill()
        else:
            self._close()


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


def _settle(item, res):
    """The final result of a re-run item, from its first result and this one."""
    kind, first, history = item.origin
    if kind == "slow":
        if res["verdict"] == TIMEOUT:
            return make_result(TIMEOUT, f"no answer within {item.timeout:.1f} s (the full limit, alone in a fresh worker; "
                                        f"{first['message']} first)")
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
    earlier = ", ".join(history[-HISTORY:]) + (f" and {len(history) - HISTORY} before them" if len(history) > HISTORY else "")
    if res["verdict"] == PASSED:
        return make_result(ORDER_DEPENDENT, f"{first['verdict']} after {len(history)} earlier calls in the same worker "
                                            f"({earlier}), passed alone in a fresh worker: {first.get('message', '')[:300]}",
                           earlier=history[-HISTORY:])
    # It fails alone too: the first verdict stands (a defect such as a heap
    # overrun may show differently in another process).
    first = dict(first)
    first["confirmed"] = f"alone in a fresh worker: {res['verdict']}"
    return first


def run(items, impl_path, runtime_path, data_dir, jobs=1, on_result=None, load_timeout=LOAD_TIMEOUT, manifest=None):
    """Runs `items`; calls on_result(item, result) as each finishes (re-runs
    are resolved first: on_result sees each item once). Returns the library
    info of the first worker, with "workers_started" (worker processes this
    run started). Raises WorkerFailed when the library cannot be loaded at
    all. `manifest`: data_dir's manifest, if the caller has read it."""
    mpctx = mp.get_context("fork")
    jobs = max(1, min(jobs, len(items) or 1))
    todo = collections.deque(items)
    timeouts = collections.Counter()
    repeated = collections.Counter()  # function -> failures that repeated alone in a fresh worker
    order_dependent = set()           # functions one of whose failures did not repeat alone
    memory_checks = collections.Counter()
    grew = collections.Counter()      # function -> its passing cases that left MEMORY_SUSPECT more resident
    crashes = {}                      # function -> its crashes alone in a fresh worker: count, deaths, dtypes
    ran_otherwise = set()             # functions a case of which ran to another verdict than crashed
    dtypes_of = collections.defaultdict(set)
    for it in items:
        dtypes_of[it.func].add(it.dtype)
    started = [0]
    log.debug("%d cases on %d worker processes (%s)", len(items), jobs, impl_path)
    if manifest is None and data_dir is not None:
        try:
            manifest = store.read_manifest(data_dir)
        except store.BaselineError:
            manifest = None  # each worker refuses its cases' baselines with the reason

    def new_worker():
        started[0] += 1
        return _Worker(mpctx, impl_path, runtime_path, data_dir, load_timeout, manifest)

    workers = [new_worker() for _ in range(jobs)]
    info = workers[0].info
    idle = list(workers)
    busy = {}

    def report(item, res):
        if res["verdict"] == TIMEOUT and not res.get("not_run"):
            timeouts[item.func] += 1  # final verdicts only: a re-run that finished does not count
        if res["verdict"] != CRASHED and not res.get("not_run"):
            ran_otherwise.add(item.func)
        if on_result:
            on_result(item, res)

    def crashed_alone(item, res):
        c = crashes.setdefault(item.func, {"count": 0, "deaths": set(), "dtypes": set()})
        c["count"] += 1
        c["deaths"].add(res.get("death"))
        c["dtypes"].add(item.dtype)

    def presumed_crash(item):
        """The result of a case not run because its function crashed the
        same way on every case it ran (or None: run it)."""
        c = crashes.get(item.func)
        if (not c or c["count"] < CRASHES_PER_FUNCTION or len(c["deaths"]) != 1 or item.func in ran_otherwise
                or item.func in order_dependent or len(c["dtypes"]) < min(2, len(dtypes_of[item.func]))):
            return None
        (death,) = c["deaths"]
        return make_result(CRASHED, f"not run: {item.func} {death} on every case of it that ran ({c['count']}, alone in a fresh "
                                    f"worker; {', '.join(sorted(c['dtypes']))}), so its remaining cases are charged without a "
                                    f"fresh worker each", not_run=True, death=death)

    def finish(w, item, res, dead):
        """Decides what a worker's answer (or death) means; returns whether
        the worker must be replaced."""
        if item.origin:
            final = _settle(item, res)
            if item.origin[0] == "memory":
                log.debug("memory: %s (%s): %s replays in %.2f s -> %s", item.name, item.layout,
                          len(res) if isinstance(res, list) else "no", time.monotonic() - w.submitted, final["verdict"])
            if item.origin[0] == "confirm":
                if final["verdict"] == ORDER_DEPENDENT:
                    order_dependent.add(item.func)
                else:
                    repeated[item.func] += 1
                    if final["verdict"] == CRASHED and isinstance(res, dict) and res["verdict"] == CRASHED:
                        crashed_alone(item, final)
            report(item, final)
            return dead or (isinstance(res, dict) and bool(res.get("replace_worker")))
        earlier = w.history[:-1]  # the worker's history ends with this item
        if res["verdict"] == TIMEOUT and item.timeout < item.limit:  # only a quick limit ran out: try the full one
            todo.appendleft(item.again("slow", res, earlier))
            return True
        # A re-run costs a fresh worker: once a function's failures have
        # repeated alone twice (and none did not), its later ones stand.
        settled = repeated[item.func] >= CONFIRMATIONS and item.func not in order_dependent
        if (dead or _confirmable(res)) and earlier and settled:
            res = dict(res, confirmed=f"not re-run: {repeated[item.func]} earlier failures of {item.func} repeated alone")
        elif dead and earlier:  # crashed after other cases: is it this case?
            todo.appendleft(item.again("confirm", res, earlier))
            return True
        elif not dead and _confirmable(res) and earlier:
            todo.appendleft(item.again("confirm", res, earlier))
            return bool(res.get("replace_worker"))
        elif dead:
            crashed_alone(item, res)
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
        """The result of a worker that ended during its call: how, and what
        the library printed last."""
        w.proc.join()
        death = _death(w.proc.exitcode)
        out = w.output()
        said = sandbox.last_lines(out)
        res = make_result(CRASHED, f"the worker {death} during the call" + (f"; the library's last output: {said}" if said else ""),
                          death=death)
        if out:
            res["output"] = out
        return res

    try:
        while todo or busy:
            while idle and todo:
                item = todo.popleft()
                if not item.origin and timeouts[item.func] >= TIMEOUTS_PER_FUNCTION:
                    report(item, make_result(TIMEOUT, f"not run: {item.func} already timed out {timeouts[item.func]} times in this run",
                                             not_run=True))
                    continue
                presumed = None if item.origin or item.mutation is not None else presumed_crash(item)
                if presumed:
                    report(item, presumed)
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
                w.history.append(item.name + ("" if item.layout == "contiguous" else f" ({item.layout})"))
                busy[w.parent] = w
            if not busy:
                continue
            now = time.monotonic()
            wait_for = max(0.0, min(w.deadline for w in busy.values()) - now)
            ready = mpc.wait(list(busy), timeout=wait_for)
            done = []  # (worker, item, result, worker is dead)
            for conn in ready:
                w = busy[conn]
                alive = w.reader.feed()
                for msg, stray, sample in w.reader.messages():
                    res = msg[1]
                    if msg[0] == "result" and stray:
                        res = dict(_stray(stray, sample), replace_worker=True)
                    done.append((w, w.item, res, False))
                    break  # one answer per item
                else:
                    if not alive:
                        done.append((w, w.item, died(w), True))
            now = time.monotonic()
            answered = {id(d[0]) for d in done}
            for conn, w in list(busy.items()):
                if id(w) not in answered and now >= w.deadline:
                    out = w.output()
                    w.kill()
                    res = make_result(TIMEOUT, f"no answer within {w.item.timeout:.1f} s")
                    if out:
                        res["output"] = out
                    done.append((w, w.item, res if w.item.origin is None or w.item.origin[0] != "memory" else None, True))
            for w, item, res, dead in done:
                del busy[w.parent]
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
    return dict(info, workers_started=started[0])


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
