"""Replay one baseline case against the operator library (runs in a worker).

The worker's entry points: run_case (one case, with its re-run for the
second sentinel and the property checks of random operators), run_fuzz
(one malformed call) and library_checks. The rest lives by concern:
  arguments       the case record as one argument description
  call            that description as runtime tensors and cffi arguments
  checks          what is checked after a call
  verdicts        the verdicts and result records
  library_checks  the checks of the library as a whole
"""
import functools
import time

import diopi_header

from . import checks, random_checks, sandbox, store
from .arguments import CaseError, decoded_inputs, input_storage, scalar_stype  # noqa: F401  (imported from here)
from .call import Call, Tensor, read_handle  # noqa: F401  (imported from here)
from .library_checks import LIBRARY_CHECKS, run_all as library_checks  # noqa: F401  (imported from here)
from .verdicts import (BASELINE_REFUSED, CRASHED, ERROR, ERROR_ON_SUCCESS, FAILED, FAILING, GAP_WRITE, INPUT_MODIFIED, LATE_WRITE,  # noqa: F401
                       METADATA, NO_MESSAGE, NOT_IMPLEMENTED, OOB_WRITE, PASSED, SKIPPED, TIMEOUT, UNWRITTEN, VERDICTS,
                       is_no_implement, result)


def run_case(lib, record, layout="contiguous"):
    """Replays one case; returns a result dict with a verdict."""
    fn_model = diopi_header.load().get(record["func"])
    if fn_model is None:
        return result(SKIPPED, f"{record['func']} is not declared in this version of the headers")
    cfn = lib.function(record["func"])
    if cfn is None:
        return result(NOT_IMPLEMENTED, f"{record['func']} is not exported by the library")
    if record.get("checks") is not None:
        return _run_random(lib, fn_model, cfn, record, layout)
    first, _ = _run_once(lib, fn_model, cfn, record, layout, 0)
    if first["verdict"] == PASSED and checks.expected_has_sentinel(record, 0):
        first, _ = _run_once(lib, fn_model, cfn, record, layout, 1)
        first["sentinel_variant"] = 1  # a reproducer must pre-fill outputs the same way
    elif first["verdict"] == UNWRITTEN:
        # An element that still holds the sentinel may have been skipped or
        # computed as that value (a NaN where the reference is finite): a
        # second run with a finite, different sentinel tells which.
        second, _ = _run_once(lib, fn_model, cfn, record, layout, 1)
        if second["verdict"] == PASSED:
            return result(FAILED, "the result depends on the output's initial contents: wrong with outputs pre-filled "
                                  f"with NaN ({first['message'][:200]}), right with them pre-filled with -12345")
        if second["verdict"] != UNWRITTEN:
            second["sentinel_variant"] = 1
            return second
    return first


def _run_random(lib, fn_model, cfn, record, layout):
    """Property checks, then a second run with the same seed that must
    reproduce the first bit for bit."""
    first, produced = _run_once(lib, fn_model, cfn, record, layout, 0)
    if first["verdict"] != PASSED:
        return first
    problems = random_checks.run(record["checks"], produced, decoded_inputs(record))
    if problems:
        return result(FAILED, "; ".join(problems))
    second, again = _run_once(lib, fn_model, cfn, record, layout, 0)
    if second["verdict"] != PASSED:
        return second
    name = checks.first_difference(produced, again)
    if name is not None:
        return result(FAILED, f"{name}: the same seed gave different numbers on a second run")
    return result(PASSED)


def _error(lib, rc):
    """The result of a call that returned an error code for a valid case."""
    if int(rc) not in error_codes():
        return result(ERROR, f"returned {int(rc)}, which is not a diopiError_t value", code=int(rc))
    msg = lib.last_error()
    if is_no_implement(rc):
        return result(NOT_IMPLEMENTED, f"returned diopiNoImplement: {msg}")
    if not msg.strip():
        return result(NO_MESSAGE, f"returned error {rc} with an empty diopiGetLastErrorString()", code=int(rc))
    return result(ERROR, f"returned error {rc}: {msg}", code=int(rc))


_MEMORY_MESSAGES = {
    OOB_WRITE: lambda _: "wrote outside a tensor's storage (guard bytes overwritten)",
    GAP_WRITE: lambda names: "wrote into the storage of " + ", ".join(names) + " between its elements (outside the view)",
    METADATA: lambda change: f"changed tensor metadata: {change[0]} -> {change[1]}",
    INPUT_MODIFIED: lambda names: "modified read-only input " + ", ".join(names),
}


@functools.lru_cache(maxsize=None)
def error_codes():
    return frozenset(diopi_header.error_codes().values())


SETTLE = 0.1  # seconds a call's still-living threads get before its tensors are compared again
calls = 0     # library calls this process made (a memory slope is given per call)


def _late_writes(call, started):
    """(labels of tensors that changed during the settle time, threads still
    running after it, whether guard bytes were already broken at return) for
    a call that returned while threads it started live. Guard bytes broken
    before the call returned are an out-of-bounds write of the call itself,
    whoever's thread wrote them: only bytes that change after the return
    make a late write."""
    before = [t.storage_bytes() for t in call.tensors]
    guards = [call.lib.rt.dt_tensor_guard_ok(t.handle) == 1 for t in call.tensors]
    time.sleep(SETTLE)
    changed = [t.label for t, b, intact in zip(call.tensors, before, guards)
               if t.storage_bytes() != b or (intact and call.lib.rt.dt_tensor_guard_ok(t.handle) != 1)]
    return changed, sandbox.running(started), not all(guards)


def _call_and_watch(lib, cfn, call):
    """Calls; returns (rc, late-write result or None, warnings)."""
    global calls
    error_before = lib.last_error()
    threads_before = sandbox.threads()
    calls += 1
    rc = cfn(*call.args)
    synced = lib.rt.dt_context_sync(call.ctx)
    if rc == 0 and synced != 0:
        rc = synced  # queued work failed after the call returned (an asynchronous device reports it here)
    warnings = []
    started = sandbox.threads() - threads_before
    if started:
        changed, running, broken = _late_writes(call, started)
        if changed:
            later = (f"changed {', '.join(changed)} after it returned ({len(started)} threads it started were "
                     f"alive; {len(running)} still running {SETTLE * 1000:.0f} ms later)")
            if broken:  # the write during the call came first: that is the verdict
                return rc, result(OOB_WRITE, _MEMORY_MESSAGES[OOB_WRITE](None) + " before it returned, and " + later), warnings
            return rc, result(LATE_WRITE, later), warnings
        if running:
            warnings.append(f"{len(running)} threads it started were still running {SETTLE * 1000:.0f} ms after it returned")
    if rc == 0:
        error_after = lib.last_error()
        if error_after != error_before and error_after.strip():
            # The library's error state is no longer clean: later cases run in a fresh worker.
            return rc, result(ERROR_ON_SUCCESS, f"returned diopiSuccess and set diopiGetLastErrorString() to {error_after[:200]!r}",
                              replace_worker=True), warnings
    return rc, None, warnings


def _run_once(lib, fn_model, cfn, record, layout, variant):
    """One call; returns (result, produced outputs by name)."""
    produced = {}
    try:
        call = Call(lib, fn_model, record, layout, variant)
    except (CaseError, store.BaselineError) as e:
        return result(FAILED, f"case error: {e}"), produced
    try:
        rc, late, warnings = _call_and_watch(lib, cfn, call)
        if late is not None:
            return late, produced
        conversions = lib.conversions()
        if rc != 0:
            return _error(lib, rc), produced
        broken = checks.memory_problem(lib, call)
        if broken:
            verdict, detail = broken
            return result(verdict, _MEMORY_MESSAGES[verdict](detail)), produced
        problems, worst, unwritten = [], None, []
        for arg, get in call.outputs:
            try:
                value = get()
            except CaseError as e:
                problems.append(str(e))
                continue
            produced[arg.name] = value
            if record.get("checks") is not None:
                continue  # random outputs: property checks by the caller
            msg, mm = checks.check_output(arg.name, value, arg.expected, record.get("tol"), record.get("accumulation"))
            if msg:
                if checks.unwritten(arg, value):
                    unwritten.append(arg.name)
                problems.append(msg)
                if mm and worst is None:
                    worst = mm
        if problems:
            extra = {}
            if worst is not None:
                extra = {"max_abs": worst.max_abs, "max_rel": worst.max_rel, "mismatches": worst.count,
                         "first_index": list(worst.first_index)}
            verdict = UNWRITTEN if unwritten else FAILED
            prefix = f"left elements of {', '.join(unwritten)} unwritten; " if unwritten else ""
            return result(verdict, prefix + "; ".join(problems), **extra), produced
        res = result(PASSED, conversions=conversions) if conversions else result(PASSED)
        if warnings:
            res["warnings"] = warnings
        return res, produced
    finally:
        call.close()


_FUZZ_MEMORY_MESSAGES = {
    OOB_WRITE: lambda _: "wrote outside a tensor's storage",
    GAP_WRITE: lambda names: "wrote between the elements of " + ", ".join(names),
    METADATA: lambda _: "changed tensor metadata",
    INPUT_MODIFIED: lambda names: "modified read-only input " + ", ".join(names),
}


def run_fuzz(lib, record):
    """One malformed call: passes when the library returns a result or an
    error with a message, and stayed inside its tensors."""
    fn_model = diopi_header.load().get(record["func"])
    cfn = lib.function(record["func"]) if fn_model else None
    if cfn is None:
        return result(NOT_IMPLEMENTED, f"{record['func']} is not exported by the library")
    try:
        call = Call(lib, fn_model, record, "contiguous")
    except (CaseError, store.BaselineError, KeyError) as e:
        return result(SKIPPED, f"mutation not applicable: {e}")
    try:
        label = record["fuzz"]
        rc = cfn(*call.args)
        synced = lib.rt.dt_context_sync(call.ctx)
        if rc == 0 and synced != 0:
            rc = synced  # failed after it returned: reported at synchronization
        if rc != 0 and int(rc) not in error_codes():
            return result(ERROR, f"{label}: returned {int(rc)}, which is not a diopiError_t value")
        if rc != 0 and not lib.last_error().strip():
            return result(NO_MESSAGE, f"{label}: returned error {rc} with an empty diopiGetLastErrorString()")
        broken = checks.memory_problem(lib, call)
        if broken:
            verdict, detail = broken
            return result(verdict, f"{label}: " + _FUZZ_MEMORY_MESSAGES[verdict](detail))
        return result(PASSED, f"{label}: " + ("error: " + lib.last_error()[:200] if rc else "returned success"))
    finally:
        call.close()
