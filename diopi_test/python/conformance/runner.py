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
- repeats a case whose call left much more memory resident, in a fresh
  worker, and charges `memory_growth` when every repeat grows again;
- re-runs a case that overran a quick limit (one set from the reference's
  own run time) alone in a fresh worker with the full --timeout: a slow or
  loaded machine (a sanitizer build, other jobs) gets no false timeout,
  while a call that never returns is charged after both;
- gives the remaining cases of a function that timed out twice the
  `timeout` verdict without running them.
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
MEMORY_SUSPECT = 96 << 20   # a call that leaves this much more resident is repeated in a fresh worker
MEMORY_REPEATS = 4
MEMORY_PER_CALL = 32 << 20  # ... and charged when every repeat after the first grows by this much
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

    def again(self, kind, first, history):
        # A re-run after a quick limit ran out gets the full one.
        timeout = self.limit if kind == "slow" else self.timeout
        twin = WorkItem(self.func, self.index, self.layout, self.name, timeout, self.tol, self.mutation, self.seq, self.limit)
        twin.origin = (kind, first, list(history))
        return twin


# ---------------------------------------------------------------- the worker
def _worker_main(conn, key, parent_pid, impl_path, runtime_path, data_dir):
    fd = conn.fileno()
    capture = sandbox.isolate(parent_pid, [fd])

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
    clean = sandbox.ProcessState()
    send("ready", info)
    manifest, cache = None, {}
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
        if kind == "repeat":
            growth = []
            for _ in range(extra):
                before = sandbox.resident_bytes()
                execute.run_case(lib, record, layout)
                growth.append(sandbox.resident_bytes() - before)
            capture.take()
            send("repeat", growth)
            continue
        before = sandbox.resident_bytes()
        try:
            if extra is not None:  # fuzz mode: one malformed call
                label, mutated = fuzz.mutations(diopi_header.load()[func], record)[extra]
                res = execute.run_fuzz(lib, mutated)
            else:
                res = execute.run_case(lib, record, layout)
        except Exception as e:
            res = make_result(execute.FAILED, f"harness error: {type(e).__name__}: {e}", trace=traceback.format_exc(limit=3))
        grown = sandbox.resident_bytes() - before
        if grown >= MEMORY_SUSPECT:
            res["resident_growth"] = grown
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
    def __init__(self, mpctx, impl_path, runtime_path, data_dir, load_timeout=LOAD_TIMEOUT):
        _warm()
        self.impl_path = impl_path
        self.key = channel.new_key()
        self.parent, child = mpctx.Pipe()
        self.proc = mpctx.Process(target=_worker_main, args=(child, self.key, os.getpid(), impl_path, runtime_path, data_dir),
                                  daemon=True)
        self.proc.start()
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
                self.kill()
                raise WorkerFailed(f"{name}: loading the library did not finish within {load_timeout:.0f} s (hangs while loading?)")
            alive = self.reader.feed()
            for msg, _, _ in self.reader.messages():
                if msg[0] == "fatal":
                    self.proc.join()
                    raise WorkerFailed(f"{name}: {msg[1]}")
                if msg[0] == "ready":
                    return msg[1]
            if not alive:
                self.proc.join()
                raise WorkerFailed(f"{name}: the process loading it {_death(self.proc.exitcode)} before the library was ready")

    def submit(self, item):
        self.item = item
        self.deadline = time.monotonic() + item.timeout
        if item.origin and item.origin[0] == "memory":
            self.deadline += item.timeout * MEMORY_REPEATS
            self.parent.send(("repeat", item.func, item.index, item.layout, item.tol, MEMORY_REPEATS))
        else:
            self.parent.send(("case", item.func, item.index, item.layout, item.tol, item.mutation))

    def kill(self):
        if self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.join()
        self.parent.close()

    def stop(self):
        try:
            self.parent.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.kill()
        else:
            self.parent.close()


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
        growth = res
        mib = [g / 2**20 for g in growth]
        if len(mib) > 1 and min(mib[1:]) >= MEMORY_PER_CALL / 2**20:
            per = sum(mib[1:]) / len(mib[1:])
            return make_result(MEMORY_GROWTH, f"resident memory grows by about {per:.0f} MiB per call: {MEMORY_REPEATS} calls of "
                                              f"this case in a fresh worker grew it by " + ", ".join(f"{m:+.0f}" for m in mib) + " MiB",
                               growth=growth)
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


def run(items, impl_path, runtime_path, data_dir, jobs=1, on_result=None, load_timeout=LOAD_TIMEOUT):
    """Runs `items`; calls on_result(item, result) as each finishes (re-runs
    are resolved first: on_result sees each item once). Returns the library
    info of the first worker. Raises WorkerFailed when the library cannot be
    loaded at all."""
    mpctx = mp.get_context("fork")
    jobs = max(1, min(jobs, len(items) or 1))
    todo = collections.deque(items)
    timeouts = collections.Counter()
    repeated = collections.Counter()  # function -> failures that repeated alone in a fresh worker
    order_dependent = set()           # functions one of whose failures did not repeat alone
    log.debug("%d cases on %d worker processes (%s)", len(items), jobs, impl_path)

    def new_worker():
        return _Worker(mpctx, impl_path, runtime_path, data_dir, load_timeout)

    workers = [new_worker() for _ in range(jobs)]
    info = workers[0].info
    idle = list(workers)
    busy = {}

    def report(item, res):
        if res["verdict"] == TIMEOUT and not res.get("not_run"):
            timeouts[item.func] += 1  # final verdicts only: a re-run that finished does not count
        if on_result:
            on_result(item, res)

    def finish(w, item, res, dead):
        """Decides what a worker's answer (or death) means; returns whether
        the worker must be replaced."""
        if item.origin:
            final = _settle(item, res)
            if item.origin[0] == "confirm":
                if final["verdict"] == ORDER_DEPENDENT:
                    order_dependent.add(item.func)
                else:
                    repeated[item.func] += 1
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
        if res.get("resident_growth") and res["verdict"] == PASSED and item.mutation is None:
            todo.appendleft(item.again("memory", res, w.history[:-1]))
            return False
        report(item, res)
        return dead or bool(res.get("replace_worker"))

    try:
        while todo or busy:
            while idle and todo:
                item = todo.popleft()
                if not item.origin and timeouts[item.func] >= TIMEOUTS_PER_FUNCTION:
                    report(item, make_result(TIMEOUT, f"not run: {item.func} already timed out {timeouts[item.func]} times in this run",
                                             not_run=True))
                    continue
                w = idle.pop()
                if item.origin and w.history:  # re-runs need a worker that ran nothing before
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
                        w.proc.join()
                        done.append((w, w.item, make_result(CRASHED, f"the worker {_death(w.proc.exitcode)} during the call"), True))
            now = time.monotonic()
            answered = {id(d[0]) for d in done}
            for conn, w in list(busy.items()):
                if id(w) not in answered and now >= w.deadline:
                    w.kill()
                    res = make_result(TIMEOUT, f"no answer within {w.item.timeout:.1f} s")
                    done.append((w, w.item, res if w.item.origin is None or w.item.origin[0] != "memory"
                                 else [0] * MEMORY_REPEATS, True))
            for w, item, res, dead in done:
                del busy[w.parent]
                replace = finish(w, item, res, dead)
                if replace:
                    log.debug("worker %d replaced after %s (%s)", w.proc.pid, item.name, item.layout)
                    if not dead:
                        w.kill()
                    idle.append(new_worker())
                else:
                    idle.append(w)
    finally:
        aborted = sys.exc_info()[0] is not None  # interrupted: do not wait for cases in flight
        for w in idle + list(busy.values()):
            w.kill() if aborted else w.stop()
    return info


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
