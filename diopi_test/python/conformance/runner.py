"""Run cases in worker processes so that a crashing or hanging kernel costs
one case, not the run.

Each worker loads the test runtime and the operator library once, then
receives case references (function, index, layout) and answers with a
result. A worker that dies (signal) or overruns its deadline is replaced by
a fresh one and the case gets a `crashed` or `timeout` verdict.
"""
import logging
import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import signal
import time
import traceback

import diopi_header

from . import binding, execute, fuzz, regen, store

log = logging.getLogger("conformance")


class WorkItem:
    __slots__ = ("func", "index", "layout", "name", "timeout", "tol", "mutation", "seq")

    def __init__(self, func, index, layout, name, timeout, tol=None, mutation=None, seq=None):
        self.func, self.index, self.layout, self.name, self.timeout = func, index, layout, name, timeout
        self.tol = tol or {}      # the vendor's tolerance overrides for this case
        self.mutation = mutation  # fuzz mode: index into fuzz.mutations() of the case
        self.seq = seq            # place in the unsharded selection (a merge restores that order)


def _worker_main(conn, impl_path, runtime_path, data_dir):
    try:
        lib = binding.Library(impl_path, runtime_path)
        manifest = store.read_manifest(data_dir)
    except Exception as e:
        conn.send(("fatal", f"{e}"))
        return
    try:
        info = dict(lib.info(), checks=execute.library_checks(lib))
    except Exception as e:  # a Python-level failure; a crash ends the worker instead
        conn.send(("fatal", f"library checks: {e}"))
        return
    conn.send(("ready", info))
    cache = {}
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        func, index, layout, tol, mutation = msg
        try:
            if func not in cache:
                cache.clear()  # one function's cases at a time keeps memory flat
                cache[func] = store.load_function(data_dir, func, manifest, lazy=True)
            record = regen.expanded(cache[func][index])
            if mutation is not None:
                label, mutated = fuzz.mutations(diopi_header.load()[func], record)[mutation]
                result = execute.run_fuzz(lib, mutated)
            else:
                if tol:
                    record = dict(record, tol=dict(record.get("tol") or {}, **tol))
                result = execute.run_case(lib, record, layout)
        except (store.BaselineError, regen.RegenError) as e:
            result = {"verdict": execute.FAILED, "message": f"baseline refused: {e}"}
        except Exception as e:
            result = {"verdict": execute.FAILED, "message": f"harness error: {type(e).__name__}: {e}",
                      "trace": traceback.format_exc(limit=3)}
        conn.send(("result", result))


class WorkerFailed(Exception):
    pass


class _Worker:
    def __init__(self, mpctx, impl_path, runtime_path, data_dir):
        self.parent, child = mpctx.Pipe()
        self.proc = mpctx.Process(target=_worker_main, args=(child, impl_path, runtime_path, data_dir), daemon=True)
        self.proc.start()
        child.close()
        self.item = None
        self.deadline = None
        kind, payload = self._recv_start()
        if kind == "fatal":
            self.proc.join()
            raise WorkerFailed(payload)
        self.info = payload

    def _recv_start(self):
        if not self.parent.poll(120):
            self.kill()
            raise WorkerFailed("worker did not start within 120 s")
        try:
            return self.parent.recv()
        except EOFError:
            self.proc.join()
            raise WorkerFailed(f"worker died while loading the library ({_death(self.proc.exitcode)})") from None

    def submit(self, item):
        self.item = item
        self.deadline = time.monotonic() + item.timeout
        self.parent.send((item.func, item.index, item.layout, item.tol, item.mutation))

    def kill(self):
        if self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.join()

    def stop(self):
        try:
            self.parent.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.kill()


def _death(exitcode):
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit code {exitcode}"


def run(items, impl_path, runtime_path, data_dir, jobs=1, on_result=None):
    """Runs `items`; calls on_result(item, result) as each finishes.
    Raises WorkerFailed when the library cannot be loaded at all."""
    mpctx = mp.get_context("fork")
    jobs = max(1, min(jobs, len(items) or 1))
    todo = list(reversed(items))
    log.debug("%d cases on %d worker processes (%s)", len(items), jobs, impl_path)
    workers = [_Worker(mpctx, impl_path, runtime_path, data_dir) for _ in range(jobs)]
    info = workers[0].info
    idle = list(workers)
    busy = {}
    try:
        while todo or busy:
            while idle and todo:
                w = idle.pop()
                w.submit(todo.pop())
                busy[w.parent] = w
            now = time.monotonic()
            wait_for = max(0.0, min(w.deadline for w in busy.values()) - now)
            ready = mpc.wait(list(busy), timeout=wait_for)
            finished = []
            for conn in ready:
                w = busy[conn]
                try:
                    _, result = conn.recv()
                except (EOFError, OSError):
                    w.proc.join()
                    result = {"verdict": execute.CRASHED, "message": f"worker {_death(w.proc.exitcode)} during the call"}
                    w = None
                finished.append((conn, w, result))
            now = time.monotonic()
            for conn, w in list(busy.items()):
                if conn not in ready and now >= w.deadline:
                    w.kill()
                    finished.append((conn, None, {"verdict": execute.TIMEOUT,
                                                  "message": f"no answer within {w.item.timeout:.1f} s"}))
            for conn, w, result in finished:
                old = busy.pop(conn)
                if on_result:
                    on_result(old.item, result)
                if w is None:  # replace a dead or killed worker
                    log.debug("worker %d: %s on %s (%s); starting a new one", old.proc.pid, result["verdict"],
                              old.item.name, old.item.layout)
                    old.parent.close()
                    idle.append(_Worker(mpctx, impl_path, runtime_path, data_dir))
                else:
                    idle.append(w)
    finally:
        for w in idle + list(busy.values()):
            w.stop()
    return info
