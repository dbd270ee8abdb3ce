"""What a worker does so that one library call cannot disturb the next
(runs in the worker process; Linux, glibc).

- `isolate(keep_fd)`: the worker dies with its parent, closes every file
  descriptor it inherited except its channel, reads /dev/null on stdin and
  sends its stdout and stderr into a capture file the harness holds too, so
  a library's output is kept per case instead of interleaving with the
  console, what it printed before it crashed is not lost, and a library
  that writes into stray descriptors cannot reach the report files or
  another worker's channel.
- `ProcessState`: the process-wide settings a kernel may change and must
  give back (floating-point environment, signal dispositions, working
  directory, environment variables, umask), compared after every case.
- `threads()`, `resident_bytes()`: what a call left running or resident.
"""
import ctypes
import ctypes.util
import hashlib
import os
import re
import signal
import tempfile

_libc = ctypes.CDLL(None, use_errno=True)
try:
    _libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
except OSError:  # no libm to ask: the floating-point check is skipped
    _libm = None

_PR_SET_PDEATHSIG = 1
_CAPTURE_LIMIT = 4096   # bytes of a case's output kept in the report: the first and the last half of it
_IONBF = 2              # glibc's setvbuf mode "unbuffered"


def die_with_parent(parent_pid):
    """SIGKILL this process when the harness process ends, even by kill -9."""
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def capture_file():
    """An anonymous file for a worker's stdout and stderr. The harness makes
    it before the worker starts and keeps a descriptor, so that it can read
    what a worker printed before it died (an abort's `what():` line)."""
    fd, path = tempfile.mkstemp(prefix="diopi-worker-out-")
    os.unlink(path)
    return fd


def read_capture(fd):
    """What is in a capture file now (since the worker's last take): its
    first and last _CAPTURE_LIMIT / 2 bytes, the middle left out."""
    end = os.lseek(fd, 0, os.SEEK_END)
    if end <= 0:
        return ""
    if end <= _CAPTURE_LIMIT:
        return os.pread(fd, end, 0).decode(errors="replace")
    half = _CAPTURE_LIMIT // 2
    head = os.pread(fd, half, 0).decode(errors="replace")
    tail = os.pread(fd, half, end - half).decode(errors="replace")
    return f"{head}\n... ({end - 2 * half} bytes left out) ...\n{tail}"


def last_lines(text, count=3, limit=300):
    """The last `count` non-empty lines of a library's output, on one line."""
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()][-count:]
    out = " | ".join(lines)
    return out if len(out) <= limit else "..." + out[-limit:]


# Lines of a crash's output that say where, not what: stack frames and the
# lines that introduce them (libtorch's "frame #36: _start + 0x21", glibc's
# backtrace, gdb-style "#3 0x...", "Exception raised from ...").
_FRAME = re.compile(r"^(frame #\d+|#\d+\s+0x|\s*at \S+:\d+|\S*\(\+0x[0-9a-f]+\)|\[0x[0-9a-f]+\]$|0x[0-9a-f]+\b|"
                    r"Exception raised from |Backtrace:|Stack trace|=+ Backtrace|\*\*\* Begin stack trace|"
                    r"Memory map:|[0-9a-f]+-[0-9a-f]+ [r-][w-][x-][ps])", re.IGNORECASE)
# The line that says what went wrong, best first.
_SAYS = (re.compile(r"what\(\):"), re.compile(r"Assertion .* failed"),
         re.compile(r"\b(error|fatal|abort|panic|terminate|exception|fault|signal|SIG[A-Z]+)\b", re.IGNORECASE))


def error_line(text, limit=300):
    """The library's own last error line in `text` (a crash's output): the
    last C++ `what():` line, else the last failed assertion, else the last
    line naming an error, else the last line that is not a stack frame; on
    one line, at most `limit` characters ("" for no output)."""
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    lines = [ln for ln in lines if not _FRAME.match(ln) and not ln.startswith("... (")]
    pick = None
    for pattern in _SAYS:
        found = [ln for ln in lines if pattern.search(ln)]
        if found:
            pick = found[-1]
            break
    if pick is None and lines:
        pick = lines[-1]
    if pick is None:
        return ""
    return pick if len(pick) <= limit else pick[:limit - 3] + "..."


class Capture:
    """fd 1 and 2 go to the capture file `fd`; `take()` returns what was
    written since the last take and rewinds."""

    def __init__(self, fd):
        self.fd = fd
        for target in (1, 2):
            os.dup2(fd, target)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        # C stdio buffers stdout written to a file; abort() and a fatal signal
        # do not flush it, so a crashing library's last lines would be lost.
        try:
            _libc.setvbuf(ctypes.c_void_p.in_dll(_libc, "stdout"), None, _IONBF, 0)
        except (ValueError, AttributeError):  # not glibc: stdout stays buffered
            pass

    def take(self):
        text = read_capture(self.fd)
        if text:
            os.ftruncate(self.fd, 0)
            os.lseek(self.fd, 0, os.SEEK_SET)
        return text


def isolate(parent_pid, keep_fds, capture_fd):
    """Makes the current (freshly forked) process a worker sandbox; returns
    its Capture. `keep_fds`: descriptors the worker itself needs;
    `capture_fd`: the capture file (see capture_file)."""
    die_with_parent(parent_pid)
    keep = set(keep_fds) | {0, 1, 2, capture_fd}
    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 1024))
    for fd in fds:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass
    return Capture(capture_fd)


# ---------------------------------------------------------------- process state
class _Sigaction(ctypes.Structure):
    # glibc x86_64/aarch64 `struct sigaction`: handler, mask (1024 bits), flags, restorer.
    _fields_ = [("handler", ctypes.c_void_p), ("mask", ctypes.c_ulong * 16), ("flags", ctypes.c_int),
                ("restorer", ctypes.c_void_p)]


_SIGNALS = [s for s in range(1, signal.NSIG if hasattr(signal, "NSIG") else 65) if s not in (signal.SIGKILL, signal.SIGSTOP)]


def _signal_dispositions():
    # Taken around every case: the loop keeps its ctypes objects bound once.
    out = {}
    act = _Sigaction()
    ref, sigaction = ctypes.byref(act), _libc.sigaction
    for sig in _SIGNALS:
        if sigaction(sig, None, ref) == 0:
            out[sig] = (act.handler or 0, act.flags)
    return out


def _fenv():
    """The floating-point control state: rounding mode, exception masks and
    (x86-64) the MXCSR control bits incl. flush-to-zero and denormals-are-zero.
    Sticky exception flags are not state a kernel must restore."""
    if _libm is None:
        return None
    buf = ctypes.create_string_buffer(64)  # fenv_t is 32 bytes on x86-64, smaller elsewhere
    if _libm.fegetenv(buf) != 0:
        return None
    raw = buf.raw
    if os.uname().machine in ("x86_64", "amd64"):
        control_word = int.from_bytes(raw[0:2], "little")
        mxcsr = int.from_bytes(raw[28:32], "little")
        return ("x87", control_word, "mxcsr", mxcsr & ~0x3F)
    return ("round", _libm.fegetround())


def _environment():
    environ = ctypes.POINTER(ctypes.c_char_p).in_dll(_libc, "environ")
    items, i = [], 0
    while environ[i] is not None:
        items.append(environ[i])
        i += 1
    return sorted(items)


def _umask():
    old = os.umask(0o022)
    os.umask(old)
    return old


def _fenv_words(state):
    if state and state[0] == "x87":
        cw, mx = state[1], state[3]
        modes = {0: "to nearest", 1: "down", 2: "up", 3: "toward zero"}
        return (f"x87 control word 0x{cw:04x}, MXCSR 0x{mx:04x} (rounding {modes[(mx >> 13) & 3]}"
                f"{', flush-to-zero' if mx & 0x8000 else ''}{', denormals-are-zero' if mx & 0x40 else ''}"
                f"{', exceptions unmasked' if (~mx >> 7) & 0x3F else ''})")
    return repr(state)


class ProcessState:
    """A snapshot of what a call must leave as it found it."""

    def __init__(self):
        self.fenv = _fenv()
        self.signals = _signal_dispositions()
        try:
            self.cwd = os.getcwd()
        except OSError:
            self.cwd = None
        self.env = _environment()
        self.umask = _umask()

    def changes(self, before):
        """What changed since `before`, as short phrases (empty: nothing)."""
        out = []
        if self.fenv != before.fenv:
            out.append(f"floating-point environment: {_fenv_words(before.fenv)} -> {_fenv_words(self.fenv)}")
        changed = () if self.signals == before.signals else \
            sorted(s for s in set(before.signals) | set(self.signals) if before.signals.get(s) != self.signals.get(s))
        if changed:
            names = []
            for s in changed:
                try:
                    names.append(signal.Signals(s).name)
                except ValueError:
                    names.append(f"signal {s}")
            out.append("signal handlers of " + ", ".join(names))
        if self.cwd != before.cwd:
            out.append(f"working directory: {before.cwd} -> {self.cwd}")
        if self.env != before.env:
            old, new = set(before.env), set(self.env)
            keys = sorted({e.split(b"=", 1)[0].decode(errors="replace") for e in old ^ new})
            out.append("environment variables " + ", ".join(keys[:5]) + (" ..." if len(keys) > 5 else ""))
        if self.umask != before.umask:
            out.append(f"umask: {before.umask:03o} -> {self.umask:03o}")
        return out


def digest(items):
    return hashlib.sha256(b"\0".join(items)).hexdigest()


# ---------------------------------------------------------------- threads and memory
def threads():
    """Thread ids of this process."""
    try:
        return set(int(t) for t in os.listdir("/proc/self/task"))
    except OSError:
        return set()


def running(tids):
    """Those of `tids` that still exist and are running or runnable."""
    out = []
    for t in tids:
        try:
            with open(f"/proc/self/task/{t}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state == "R":
            out.append(t)
    return out


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def sanitized():
    """Whether AddressSanitizer's runtime is loaded: its quarantine keeps
    freed memory resident, so resident memory says nothing about leaks
    (LeakSanitizer does)."""
    try:
        ctypes.CDLL(None).__asan_init
    except AttributeError:
        return False
    return True


def resident_bytes():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0
