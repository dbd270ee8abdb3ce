"""Verdicts: what one replayed case (or library check) came to.

Each verdict is counted on its own in reports; a result is a plain dict
{"verdict", "message", ...extra fields the reports show}.
"""
from . import enums

PASSED = "passed"
FAILED = "failed"                  # wrong values, shape or dtype
ERROR = "error"                    # returned an error code for a valid case, or a value that is no diopiError_t
NO_MESSAGE = "no_message"          # returned an error code and an empty diopiGetLastErrorString()
ERROR_ON_SUCCESS = "error_on_success"  # returned diopiSuccess and set a new error string
CRASHED = "crashed"                # the worker died (signal or exit) during this case's call, also alone in a fresh worker
TIMEOUT = "timeout"                # no answer before the deadline (which follows the machine's pace), also alone in a fresh worker
OOB_WRITE = "oob_write"            # wrote into the guard zone around a storage
GAP_WRITE = "gap_write"            # wrote into a strided output's storage outside its view (the gaps)
LATE_WRITE = "late_write"          # changed its tensors after it returned (threads it started kept working)
INPUT_MODIFIED = "input_modified"  # changed a read-only input
UNWRITTEN = "unwritten"            # left output elements as the sentinel it was given
METADATA = "metadata_changed"      # changed shape/stride/dtype/offset of a tensor it does not own
STATE_CHANGED = "state_changed"    # left process state changed (floating-point environment, signal handlers, cwd, env)
STRAY_WRITE = "stray_write"        # wrote into a file descriptor it did not open (the harness's channel)
MEMORY_GROWTH = "memory_growth"    # every call leaves more memory resident
ORDER_DEPENDENT = "order_dependent"  # failed after other calls, passed alone, failed again after the same calls replayed
NOT_IMPLEMENTED = "not_implemented"
SKIPPED = "skipped"                # not run, with the reason (device config, or its function timed out / crashed too often)
BASELINE_REFUSED = "baseline_refused"  # the case's baseline is missing, altered or corrupt: a data problem, not the library's
VERDICTS = (PASSED, FAILED, ERROR, NO_MESSAGE, ERROR_ON_SUCCESS, CRASHED, TIMEOUT, OOB_WRITE, GAP_WRITE, LATE_WRITE, INPUT_MODIFIED, UNWRITTEN,
            METADATA, STATE_CHANGED, STRAY_WRITE, MEMORY_GROWTH, ORDER_DEPENDENT, NOT_IMPLEMENTED, SKIPPED, BASELINE_REFUSED)
# Verdicts that fail a run (not_implemented, skipped and baseline_refused do not: the last has its own exit code).
FAILING = (FAILED, ERROR, NO_MESSAGE, ERROR_ON_SUCCESS, CRASHED, TIMEOUT, OOB_WRITE, GAP_WRITE, LATE_WRITE, INPUT_MODIFIED, UNWRITTEN, METADATA,
           STATE_CHANGED, STRAY_WRITE, MEMORY_GROWTH, ORDER_DEPENDENT)


def result(verdict, message="", **extra):
    r = {"verdict": verdict, "message": message}
    r.update(extra)
    return r


def is_no_implement(rc):
    return rc == enums.error_code("diopiNoImplement")
