"""`--mode collective`: conformance of the collective interface (diopi/collective.h) on N ranks at once.

For each world size, the harness forks N rank processes (conformance/collective_rank.py), each isolated like a
run_test worker (it dies with the harness, its output is captured, it answers over a framed channel). Rank 0 makes
a unique id; the harness hands it to every rank, which joins the world communicator. Each case then goes to every
rank at once; each rank answers with what it received, and the harness compares with numpy's values
(conformance/collective_cases.py) and checks that ranks that must agree hold the same bytes.

A rank that crashes, exits or does not answer within --timeout gives the case a `crashed` or `timeout` verdict
naming the collective, the case and the rank; the ranks are then replaced (and a new world communicator created)
before the next case. After two timeouts of a function its remaining cases are skipped (not run, with that reason),
so a library that hangs cannot make the run last longer than a few timeouts. Deadlines follow the machine's pace
(conformance/pace.py). Nothing here loads the vendor library.
"""
import collections
import logging
import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import signal
import time
import traceback

import diopi_header

from . import binding, channel, collective_cases as cc, compare, pace, sandbox
from .runner import TIMEOUTS_PER_FUNCTION, WorkItem, _death
from .verdicts import (CRASHED, ERROR, FAILED, NO_MESSAGE, NOT_IMPLEMENTED, PASSED, SKIPPED, STRAY_WRITE, TIMEOUT,
                       result as make_result)

log = logging.getLogger("conformance")

WORLD = "world"


# ---------------------------------------------------------------- the rank process
def _rank_main(conn, key, parent_pid, impl_path, runtime_path, rank, world_size, capture_fd):
    from .collective_rank import Missing, Rank

    fd = conn.fileno()
    capture = sandbox.isolate(parent_pid, [fd], capture_fd)

    def send(*msg):
        channel.send(fd, key, msg)

    try:
        lib = binding.Library(impl_path, runtime_path)
        names = diopi_header.families().get(cc.FAMILY, []) + ["diopiMatmulAllReduce"]
        info = dict(lib.info(), exported=[n for n in names if lib.function(n) is not None])
    except Exception as e:  # a Python-level failure; a crash ends the process instead
        send("fatal", str(e), capture.take())
        return
    info["output"] = capture.take()
    send("ready", info)
    me = Rank(lib, rank, world_size)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if not msg or msg[0] is None:
            return
        cmd, rest = msg[0], msg[1:]
        try:
            if cmd == "uid":
                reply = me.unique_id()
            elif cmd == "init":
                reply = me.init(*rest)
            elif cmd == "describe":
                reply = (me.describe(*rest),)
            elif cmd == "destroy":
                reply = me.destroy(*rest)
            else:
                reply = (me.run(rest[0]),)
            send(cmd, "ok", *reply, capture.take())
        except Missing as e:
            send(cmd, "missing", str(e), capture.take())
        except Exception as e:
            send(cmd, "harness", f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=3)}", capture.take())


class RankFailed(Exception):
    """A rank died or did not answer in time: verdict, message, and what the ranks printed."""

    def __init__(self, verdict, message, output=""):
        super().__init__(message)
        self.verdict, self.message, self.output = verdict, message, output


class Ranks:
    """N rank processes of one world size."""

    def __init__(self, impl_path, runtime_path, world_size, load_timeout):
        binding.ffi()  # parse the headers once, before forking
        diopi_header.families()
        mpctx = mp.get_context("fork")
        self.world_size = world_size
        self.procs, self.conns, self.readers, self.keys = [], [], [], []
        # Each rank's output file is made here and kept open, so that what a rank printed before it died stays
        # readable (sandbox.capture_file).
        self.capture_fds = []
        for r in range(world_size):
            key = channel.new_key()
            parent, child = mpctx.Pipe()
            self.capture_fds.append(sandbox.capture_file())
            p = mpctx.Process(target=_rank_main, args=(child, key, os.getpid(), impl_path, runtime_path, r, world_size,
                                                        self.capture_fds[-1]), daemon=True)
            p.start()
            child.close()
            self.procs.append(p)
            self.conns.append(parent)
            self.readers.append(channel.Reader(parent.fileno(), key))
        self.stray = [0] * world_size
        self.info = self.collect(range(world_size), load_timeout, "loading the library", want="ready")[0]

    def send(self, rank, *msg):
        try:
            self.conns[rank].send(msg)
        except (BrokenPipeError, OSError):
            pass  # the rank is gone; collect() says so

    def collect(self, ranks, timeout, what, want=None):
        """{rank: reply} of one message from each of `ranks`; RankFailed when one dies or the time runs out."""
        ranks = list(ranks)
        # The limit follows the machine (conformance/pace.py), capped at pace.CAP times the written one, as a
        # run_test case's is: a rank that hangs costs at most CAP x --timeout per exchange, and a function at most
        # TIMEOUTS_PER_FUNCTION of those before its remaining cases are skipped, however slow the machine claims to be.
        timeout = pace.scaled(timeout)
        deadline = time.monotonic() + timeout
        got = {}
        while len(got) < len(ranks):
            waiting = [r for r in ranks if r not in got]
            left = deadline - time.monotonic()
            ready = mpc.wait([self.conns[r] for r in waiting], timeout=max(0.0, left)) if left > 0 else []
            if not ready:
                raise RankFailed(TIMEOUT, f"rank{'s' if len(waiting) > 1 else ''} {', '.join(map(str, waiting))} did not answer "
                                          f"within {timeout:.0f} s ({what})", self.output())
            for r in waiting:
                if self.conns[r] not in ready:
                    continue
                alive = self.readers[r].feed()
                for msg, stray, sample in self.readers[r].messages():
                    self.stray[r] += stray
                    if msg[0] == "fatal":
                        raise RankFailed(ERROR, f"rank {r}: {msg[1]}", msg[2])
                    got[r] = msg
                if r not in got and not alive:
                    until = time.monotonic() + 5
                    while self.procs[r].exitcode is None and time.monotonic() < until:
                        time.sleep(0.02)
                    how = _death(self.procs[r].exitcode) if self.procs[r].exitcode is not None else "closed its channel"
                    raise RankFailed(CRASHED, f"rank {r} {how} ({what})", self.output())
        return [got[r][1] if want == "ready" else got[r] for r in ranks]

    def output(self):
        """The last lines each rank printed (a dying rank's message among them)."""
        parts = []
        for r, fd in enumerate(self.capture_fds):
            text = sandbox.error_line(sandbox.read_capture(fd)) if fd is not None else ""
            if text:
                parts.append(f"rank {r}: {text}")
        return "\n".join(parts)

    def kill(self):
        for p in self.procs:
            if p.is_alive():
                try:
                    os.kill(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for p, c in zip(self.procs, self.conns):
            p.join(timeout=5)
            c.close()
        for i, fd in enumerate(self.capture_fds):
            if fd is not None:
                os.close(fd)
                self.capture_fds[i] = None

    def stop(self):
        for r in range(self.world_size):
            self.send(r, None)
        deadline = time.monotonic() + 5
        for p in self.procs:  # the isolated ranks closed their end of the sentinel pipe: poll, do not join
            while p.exitcode is None and time.monotonic() < deadline:
                time.sleep(0.02)
        self.kill()


# ---------------------------------------------------------------- communicators
def make_comm(ranks, key, members, timeout_ms, deadline_s):
    """Creates communicator `key` among the global ranks `members`; returns None or a (verdict, message) failure."""
    reply = ranks.collect_one(members[0], ("uid",), deadline_s, "diopiCommGetUniqueId")
    if reply[1] == "missing":
        return NOT_IMPLEMENTED, f"{reply[2]} is not exported by the library"
    rc, msg, uid = reply[2], reply[3], reply[4]
    if rc:
        return ERROR, f"diopiCommGetUniqueId on rank {members[0]} returned {_code(rc)}: {msg or '(no message)'}"
    for i, r in enumerate(members):
        ranks.send(r, "init", key, uid, len(members), i, timeout_ms)
    replies = ranks.collect(members, deadline_s, f"diopiCommInitRank of {len(members)} ranks")
    for r, rep in zip(members, replies):
        if rep[1] == "missing":
            return NOT_IMPLEMENTED, f"{rep[2]} is not exported by the library"
        if rep[1] != "ok":
            return ERROR, f"rank {r}: {rep[2]}"
        if rep[2]:
            return ERROR, f"diopiCommInitRank on rank {r} returned {_code(rep[2])}: {rep[3] or '(no message)'}"
    return None


def _collect_one(self, rank, msg, timeout, what):
    self.send(rank, *msg)
    return self.collect([rank], timeout, what)[0]


Ranks.collect_one = _collect_one


def _code(rc):
    return _names().get(rc, f"status {rc}")


def _names():
    return {v: k for k, v in diopi_header.error_codes().items()}


# ---------------------------------------------------------------- judging
def _status_verdict(rc, msg, expected_name):
    """The verdict of a status a case did not expect."""
    codes = diopi_header.error_codes()
    if rc == codes["diopiNoImplement"]:
        return NOT_IMPLEMENTED, "returned diopiNoImplement"
    if not msg:
        return NO_MESSAGE, f"returned {_code(rc)} with an empty diopiGetLastErrorString()"
    return ERROR, f"returned {_code(rc)} where {expected_name} was due: {msg}"


def judge(case, answers):
    """The verdict of one case from every rank's answer {rank: result dict}."""
    codes = diopi_header.error_codes()
    kind, ws = case["kind"], case["world_size"]
    output = "".join(a.get("output", "") for a in answers.values())
    extra = {"output": output[:4000]} if output else {}
    for r, a in sorted(answers.items()):
        if a.get("missing"):
            return make_result(NOT_IMPLEMENTED, f"{a['missing']} is not exported by the library", **extra)
    expect = case.get("expect") or ("error" if kind == "invalid" else "value")
    for r, a in sorted(answers.items()):
        rc, msg = a["status"], a["message"]
        if expect == "refuse":
            if rc == codes["diopiDtypeNotSupported"]:
                continue
            if rc == codes["diopiSuccess"]:
                return make_result(FAILED, f"rank {r}: accepted {case['op']} on {case['dtype']}, which the header refuses "
                                           "(diopiDtypeNotSupported)", **extra)
            v, m = _status_verdict(rc, msg, "diopiDtypeNotSupported")
            return make_result(v, f"rank {r}: {m}", **extra)
        if expect == "error":
            if rc == codes["diopiErrorOccurred"] and msg:
                continue
            if rc == codes["diopiSuccess"]:
                return make_result(FAILED, f"rank {r}: returned diopiSuccess for invalid arguments ({case['what'].replace('_', ' ')}); "
                                           "the header asks for diopiErrorOccurred", **extra)
            v, m = _status_verdict(rc, msg, "diopiErrorOccurred")
            return make_result(v, f"rank {r}: {m}", **extra)
        if kind == "peer_death":
            if rc == codes["diopiSuccess"]:
                return make_result(FAILED, f"rank {r}: the all-reduce returned diopiSuccess although rank {ws - 1} had died", **extra)
            if not msg:
                return make_result(NO_MESSAGE, f"rank {r}: returned {_code(rc)} after its peer died, with no message", **extra)
            arc, amsg, took = a["abort"]
            if arc:
                return make_result(ERROR, f"rank {r}: diopiCommAbort returned {_code(arc)}: {amsg}", **extra)
            continue
        if rc:
            v, m = _status_verdict(rc, msg, "diopiSuccess")
            return make_result(v, f"rank {r}: {m}", **extra)
    for r, a in sorted(answers.items()):
        for verdict, message in a["problems"]:
            return make_result(verdict, message, **extra)
    if expect != "value" or kind == "peer_death":
        if kind == "peer_death":
            waited = max(a.get("waited", 0.0) for a in answers.values())
            return make_result(PASSED, f"every other rank returned an error {waited:.1f} s after rank {ws - 1} died "
                                       f"(timeout {case['timeout_ms'] / 1000:g} s)", **extra)
        return make_result(PASSED, "", **extra)
    tol = cc.tolerance(case)
    for r, a in sorted(answers.items()):
        for name, want in cc.expected(case, r).items():
            if name not in a["outputs"]:
                return make_result(FAILED, f"rank {r}: {name} was not produced", **extra)
            got, dtype = a["outputs"][name]
            bad = compare.compare(got, want, case["dtype"], tol)
            if bad is not None:
                return make_result(FAILED, f"rank {r}, {name}: {bad.describe()}", max_abs=bad.max_abs, max_rel=bad.max_rel,
                                   mismatches=bad.count, first_index=list(bad.first_index), **extra)
    if kind in cc.IDENTICAL and len(answers) > 1:
        first = min(answers)
        for name, (arr0, _) in answers[first]["outputs"].items():
            if name == "out_half":  # the two halves of the world reduce different ranks
                continue
            for r, a in sorted(answers.items()):
                arr = a["outputs"].get(name, (None,))[0]
                if arr is not None and arr.tobytes() != arr0.tobytes():
                    differ = int((arr.reshape(-1).view(arr.dtype) != arr0.reshape(-1)).sum()) if arr.shape == arr0.shape else -1
                    return make_result(FAILED, f"rank-dependent result: rank {r}'s {name} differs from rank {first}'s in {differ} "
                                               "elements; every rank must receive the same bytes", **extra)
    return make_result(PASSED, "", **extra)


def judge_init(case, described, world_size):
    """The world communicator as the ranks describe it: ranks, size, one name, a version of this major."""
    names = set()
    major = diopi_header.macros().get("DIOPI_COMM_VER_MAJOR")
    for r, d in enumerate(described):
        if d["status"]:
            v, m = _status_verdict(d["status"], d.get("message", ""), "diopiSuccess")
            return make_result(v, f"rank {r}: describing the communicator: {m}")
        if d["rank"] != r or d["size"] != world_size:
            return make_result(FAILED, f"rank {r}: diopiCommGetRank/GetSize say rank {d['rank']} of {d['size']}, "
                                       f"the communicator was made as rank {r} of {world_size}")
        if not d["name"]:
            return make_result(FAILED, f"rank {r}: diopiCommGetName gave no name")
        names.add(d["name"])
        if major is not None and d["version"] // 1000 != major:
            return make_result(FAILED, f"rank {r}: diopiCommGetVersion says {d['version']}, the header's major version is {major}")
    if len(names) != 1:
        return make_result(FAILED, f"the ranks name the communicator differently: {sorted(names)}")
    return make_result(PASSED, f"named {names.pop()}")


# ---------------------------------------------------------------- the run
class World:
    """The rank processes of one world size and their world communicator, replaced after a failure."""

    def __init__(self, impl, runtime, world_size, timeout, load_timeout):
        self.impl, self.runtime, self.ws = impl, runtime, world_size
        self.timeout, self.load_timeout = timeout, load_timeout
        self.ranks = None
        self.info = None

    def comm_timeout_ms(self):
        # The library's own timeout ends a stuck exchange before the harness's deadline does: it follows the
        # machine's pace with the same cap (pace.scaled), so it stays half of that deadline on any machine.
        return int(pace.scaled(max(1.0, self.timeout / 2)) * 1000)

    def start(self):
        """(init result or None); None means the world communicator is up."""
        self.ranks = Ranks(self.impl, self.runtime, self.ws, self.load_timeout)
        self.info = self.ranks.info
        failed = make_comm(self.ranks, WORLD, list(range(self.ws)), self.comm_timeout_ms(), self.timeout + self.load_timeout)
        if failed:
            return make_result(*failed)
        for r in range(self.ws):
            self.ranks.send(r, "describe", WORLD)
        replies = self.ranks.collect(range(self.ws), self.timeout, "describing the communicator")
        described = []
        for r, rep in enumerate(replies):
            if rep[1] == "missing":
                return make_result(NOT_IMPLEMENTED, f"{rep[2]} is not exported by the library")
            if rep[1] != "ok":
                return make_result(ERROR, f"rank {r}: harness error: {rep[2]}")
            described.append(rep[2])
        return judge_init(None, described, self.ws)

    def drop(self):
        if self.ranks is not None:
            self.ranks.kill()
        self.ranks = None

    def close(self):
        if self.ranks is not None:
            self.ranks.stop()
        self.ranks = None


def _extra_comms(case, ws, timeout_ms):
    """(key, members, timeout_ms) of the communicators a case needs beside the world's."""
    if case["kind"] == "many_comms":
        out = [(f"c{i}", list(range(ws)), timeout_ms) for i in range(case["comms"])]
        if case["halves"]:
            half = ws // 2
            out += [("half", list(range(half)), timeout_ms), ("half", list(range(half, ws)), timeout_ms)]
        return out
    if case["kind"] == "peer_death":
        return [("short", list(range(ws)), case["timeout_ms"])]
    return []


def run_case(world, case):
    """One case on the world's ranks; the world is dropped (and restarted by the caller) after a failure."""
    ranks, ws = world.ranks, world.ws
    deadline = world.timeout
    extras = _extra_comms(case, ws, world.comm_timeout_ms())
    try:
        made = []
        for key, members, tms in extras:
            # The two halves are created at once: each half's ranks join their own communicator.
            failed = make_comm(ranks, key, members, tms, deadline)
            if failed:
                world.drop()
                verdict, message = failed
                return make_result(verdict, f"creating communicator {key} of ranks {members}: {message}")
            made.append((key, members))
        for r in range(ws):
            ranks.send(r, "case", case)
        if case["kind"] == "peer_death":
            survivors = list(range(ws - 1))
            limit = case["timeout_ms"] / 1000 * 1.5 + world.timeout
            replies = ranks.collect(survivors, limit, f"{case['func']} after rank {ws - 1} died")
            world.drop()  # one rank is gone: the next case gets fresh ranks
            answers = {r: _answer(r, rep) for r, rep in zip(survivors, replies)}
        else:
            replies = ranks.collect(range(ws), deadline, case["func"])
            answers = {r: _answer(r, rep) for r, rep in enumerate(replies)}
            for key, members in made:
                for r in members:
                    ranks.send(r, "destroy", key)
                ranks.collect(members, deadline, f"diopiCommDestroy of {key}")
    except RankFailed as e:
        world.drop()
        return make_result(e.verdict, e.message + f" in {case['name']}", **({"output": e.output} if e.output else {}))
    except HarnessError as e:
        world.drop()
        return make_result(FAILED, f"harness error: {e}")
    stray = sum(world.ranks.stray) if world.ranks else 0
    if stray:
        world.drop()
        return make_result(STRAY_WRITE, f"wrote {stray} bytes into a file descriptor it did not open (the harness's channel)")
    return judge(case, answers)


class HarnessError(Exception):
    pass


def _answer(rank, reply):
    if reply[1] == "missing":
        return {"missing": reply[2], "output": reply[3]}
    if reply[1] != "ok":
        raise HarnessError(f"rank {rank}: {reply[2]}")
    res = reply[2]
    res["output"] = reply[3] + res.get("output", "")
    return res


def select(world_sizes, fnames, case_names, dtypes_):
    """[(world size, [cases])] of the selection, in run order."""
    from . import expand

    out = []
    for ws in world_sizes:
        cases = [c for c in cc.expand(ws)
                 if (not fnames or expand.matches(c["func"], fnames) or c["kind"] == "init")
                 and (not case_names or c["name"] in case_names or c["kind"] == "init")
                 and (not dtypes_ or c["dtype"] in dtypes_ or c["dtype"] == "none")]  # a barrier has no dtype to filter
        if len(cases) > 1 or not (fnames or case_names or dtypes_):
            out.append((ws, cases))
    return out


def run(impl, runtime, selection, timeout, load_timeout, on_result):
    """Runs every selected case; calls on_result(item, result). Returns the library info (or {})."""
    info = {}
    seq = 0
    for ws, cases in selection:
        world = World(impl, runtime, ws, timeout, load_timeout)
        timeouts = collections.Counter()
        init_case = next(c for c in cases if c["kind"] == "init")
        down = None  # why the world cannot be set up: every later case is skipped with it

        def report(case, res):
            nonlocal seq
            on_result(WorkItem(case["func"], seq, case["layout"], case["name"], timeout, seq=seq), res)
            seq += 1

        try:
            res = world.start()
        except RankFailed as e:
            world.drop()
            res = make_result(e.verdict, e.message, **({"output": e.output} if e.output else {}))
        info = info or (world.info or {})
        report(init_case, res)
        if res["verdict"] == NOT_IMPLEMENTED:
            down = (NOT_IMPLEMENTED, res["message"])
        elif res["verdict"] != PASSED:
            down = (SKIPPED, f"no communicator of {ws} ranks (see {init_case['name']}: {res['verdict']})")
        for case in cases:
            if case is init_case:
                continue
            if down:
                report(case, make_result(*down))
                continue
            if timeouts[case["func"]] >= TIMEOUTS_PER_FUNCTION:
                report(case, make_result(SKIPPED, f"not run: {case['func']} timed out {timeouts[case['func']]} times", not_run=True))
                continue
            if world.ranks is None:
                try:
                    again = world.start()
                except RankFailed as e:
                    world.drop()
                    again = make_result(e.verdict, e.message)
                if again["verdict"] != PASSED:
                    down = (SKIPPED, f"the ranks could not be set up again after a failure ({again['verdict']}: {again['message'][:200]})")
                    report(case, make_result(*down))
                    continue
            res = run_case(world, case)
            if res["verdict"] == TIMEOUT:
                timeouts[case["func"]] += 1
            report(case, res)
        world.close()
    return info
