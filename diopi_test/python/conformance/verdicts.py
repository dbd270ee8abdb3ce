"""Verdicts: what one replayed case (or library check) came to.

Each verdict is counted on its own in reports; a result is a plain dict
{"verdict", "message", ...extra fields the reports show}.
"""
from . import enums

PASSED = "passed"
FAILED = "failed"                  # wrong values, shape or dtype
ERROR = "error"                    # returned an error code for a valid case
NO_MESSAGE = "no_message"          # returned an error code and an empty diopiGetLastErrorString()
CRASHED = "crashed"                # the worker died (signal)
TIMEOUT = "timeout"                # no answer before the deadline
OOB_WRITE = "oob_write"            # wrote into the guard zone around a storage
INPUT_MODIFIED = "input_modified"  # changed a read-only input
UNWRITTEN = "unwritten"            # left output elements as the sentinel it was given
METADATA = "metadata_changed"      # changed shape/stride/dtype/offset of a tensor it does not own
NOT_IMPLEMENTED = "not_implemented"
SKIPPED = "skipped"
VERDICTS = (PASSED, FAILED, ERROR, NO_MESSAGE, CRASHED, TIMEOUT, OOB_WRITE, INPUT_MODIFIED, UNWRITTEN, METADATA,
            NOT_IMPLEMENTED, SKIPPED)
# Verdicts that fail a run (not_implemented and skipped do not).
FAILING = (FAILED, ERROR, NO_MESSAGE, CRASHED, TIMEOUT, OOB_WRITE, INPUT_MODIFIED, UNWRITTEN, METADATA)


def result(verdict, message="", **extra):
    r = {"verdict": verdict, "message": message}
    r.update(extra)
    return r


def is_no_implement(rc):
    return rc == enums.error_code("diopiNoImplement")
