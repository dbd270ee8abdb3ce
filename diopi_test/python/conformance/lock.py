"""The data folder's lock: gen_data writes baselines alone, and nothing
reads a folder while it is being written.

gen_data holds an exclusive flock on `<data>/.lock` (with its pid written in
the file) for as long as it writes; the modes that read baselines hold a
shared one for as long as they run, so gen_data does not remove a file a
replay still needs either. Either side waits up to WAIT_SECONDS (environment
DIOPI_LOCK_WAIT overrides it) for the other and then gives up with a
BaselineError naming the holder. flock locks die with their process, so a
killed gen_data never leaves a folder locked.
"""
import contextlib
import fcntl
import os
import time

from .store import BaselineError

LOCK_FILE = ".lock"
WAIT_SECONDS = 30.0
_POLL = 0.1


def _wait_seconds():
    text = os.environ.get("DIOPI_LOCK_WAIT")
    if text is None:
        return WAIT_SECONDS
    try:
        return max(0.0, float(text))
    except ValueError:
        raise BaselineError(f"DIOPI_LOCK_WAIT must be a number of seconds, got {text!r}") from None


def _holder(f):
    try:
        f.seek(0)
        text = f.read(32).decode("ascii", "replace").strip()
    except OSError:
        return "pid unknown"
    return f"pid {text}" if text.isdigit() else "pid unknown"


def _acquire(f, mode, wait):
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(f.fileno(), mode | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(_POLL)


@contextlib.contextmanager
def writing(data_dir, wait=None):
    """Held by gen_data while it writes `data_dir` (created if missing)."""
    os.makedirs(data_dir, exist_ok=True)
    fd = os.open(os.path.join(data_dir, LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o644)
    with os.fdopen(fd, "r+b", buffering=0) as f:
        if not _acquire(f, fcntl.LOCK_EX, _wait_seconds() if wait is None else wait):
            # Readers hold shared locks and write no pid: a pid in the file
            # is a writer's (the file is cleared when a writer is done).
            holder = _holder(f)
            who = f"gen_data ({holder})" if holder != "pid unknown" else "another run"
            raise BaselineError(f"baselines in {data_dir} are in use by {who}; try again when it has finished")
        try:
            f.truncate(0)
            f.write(str(os.getpid()).encode())
            yield
        finally:
            f.truncate(0)
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


@contextlib.contextmanager
def reading(data_dir, wait=None):
    """Held while a mode reads `data_dir`. The lock file is created when
    missing, so a gen_data started later still sees the reader; a folder
    that does not exist, or where it cannot be created (read-only), is read
    as it is."""
    path = os.path.join(data_dir, LOCK_FILE)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    except FileNotFoundError:  # no folder: the mode reports the missing baselines
        fd = None
    except OSError:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            fd = None
    if fd is None:
        yield
        return
    with os.fdopen(fd, "rb", buffering=0) as f:
        if not _acquire(f, fcntl.LOCK_SH, _wait_seconds() if wait is None else wait):
            raise BaselineError(f"baselines in {data_dir} are being written by gen_data ({_holder(f)}); "
                                "run again when it has finished")
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
