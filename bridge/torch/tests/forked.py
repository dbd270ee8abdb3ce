"""Fresh Python interpreters for the tests, forked from one that has already done the imports.

A test that runs model code on the device runs it in a new interpreter (`python -c CODE`), so that what it
checks (the library's load, the device's threads, the interpreter's shutdown, an abort) happens as in a
user's script and cannot harm pytest's own process. Most of such a run's CPU time was its imports: torch
with Dynamo and transformers' model code take 4 to 7 s of CPU before the code's first line, in each of a few
hundred runs per test session.

`Popen` and `run` here are subprocess's, for `[sys.executable, "-c", code, *args]` (and `-m module`,
`script.py`): the process is forked from a zygote (one per pytest process and kind of imports, started on
first use) that imported torch and, for model scripts, Dynamo and transformers' model code, and nothing else:
it never loads a DIOPI library, never touches the device, starts no thread of its own. The fork then runs
the code as the fresh interpreter would: its own pid, standard streams, working directory, environment, argv
and `sys.path[0]`, a fresh `__main__`, an uncaught exception printed with exit status 1, and the
interpreter's own shutdown. The imports are kept out of the cyclic collector's sight (`gc.freeze`), so a
run's shutdown does not spend a second collecting torch.

What cannot be the same is settled before the fork or refused: torch reads some environment variables when
it is imported, so a run whose environment differs from the zygote's in anything but the variables read
later (DIOPI_*, which only the device reads; the rendezvous of torch.distributed) is started as a real
subprocess, as is any other command; PyTorch's autoloading of out-of-tree devices (`import torch` with
$DIOPI_IMPL_LIB set) is done again in the fork, as the fresh interpreter's `import torch` would. A test
that checks what is imported (`sys.modules`) passes `preload=TORCH`, or runs a real subprocess when even
torch must be absent.
"""
from __future__ import annotations

import atexit
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading

# What a zygote imports before it forks, one zygote per kind. TORCH is what `import torch` imports (the device's
# package included, through its autoloading entry point): for runs that check what the device itself imports
# (Dynamo must not be among it). MODELS adds what the model and compile-route scripts import: Dynamo and the
# decompositions behind the Python meta kernels, transformers' model and generation code.
TORCH = "import torch"
MODELS = """
import torch, torch._dynamo, torch._decomp.decompositions, torch.distributed
import transformers, transformers.generation.utils, transformers.modeling_utils
import transformers.models.llama.modeling_llama
"""

_ZYGOTE = r"""
import builtins, gc, importlib.machinery, json, os, runpy, signal, socket, struct, sys, types
listener = socket.socket(fileno=int(sys.argv.pop(1)))
parent = os.getppid()
exec(sys.argv.pop(1))  # the imports
gc.collect()
gc.freeze()

def reap(*_):
    # Waited for, not ignored: a reaped waiter's CPU time (with its run's) is added to this process's, and this
    # process's to pytest's when it ends, so the CPU a test session used is counted where it is measured.
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass

def stop(*_):
    reap()
    os._exit(0)

signal.signal(signal.SIGTERM, stop)

def exactly(conn, n):
    data = b""
    while len(data) < n:
        more = conn.recv(n - len(data))
        if not more:
            raise EOFError
        data += more
    return data

def serve():
    # Returns only in a forked run, with its request and standard streams.
    listener.settimeout(1.0)
    while True:
        reap()
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            if os.getppid() != parent:  # pytest ended without saying so
                stop()
            continue
        conn.settimeout(None)
        try:
            head, fds, _, _ = socket.recv_fds(conn, 8, 3)
            head += exactly(conn, 8 - len(head))
            job = json.loads(exactly(conn, struct.unpack("<Q", head)[0]))
        except (OSError, EOFError, ValueError):
            conn.close()
            continue
        if os.fork() == 0:
            # The waiter: forks the run, tells the client its pid, then its wait status.
            listener.close()
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            pid = os.fork()
            if pid == 0:
                conn.close()
                return job, fds
            for fd in fds:
                os.close(fd)
            try:
                conn.sendall(struct.pack("<q", pid))
                _, status = os.waitpid(pid, 0)
                conn.sendall(struct.pack("<q", status))
            finally:
                os._exit(0)
        conn.close()
        for fd in fds:
            os.close(fd)

job, fds = serve()
del serve, exactly, listener
for target, fd in enumerate(fds):
    os.dup2(fd, target)
for fd in set(fds):
    if fd > 2:
        os.close(fd)
os.chdir(job["cwd"])
os.environ.clear()
os.environ.update(job["env"])
autoload = job["autoload"]
module, script = job["module"], job["script"]
if module:  # python -m: argv[0] becomes the module's file, sys.path[0] the working directory
    sys.argv[:] = ["-m"] + job["args"]
    sys.path[0] = os.getcwd()
else:
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    if script:  # python script.py: argv[0] the script as given, __file__ and sys.path[0] absolute
        sys.argv[:] = [job["given"]] + job["args"]
        sys.path[0] = os.path.dirname(script)
        main.__file__, main.__cached__ = script, None
        main.__loader__ = importlib.machinery.SourceFileLoader("__main__", script)
        with open(script, "rb") as f:
            code = compile(f.read(), script, "exec")
    else:
        sys.argv[:] = ["-c"] + job["args"]
        code = compile(job["code"], "<string>", "exec")
del job, fds, target, fd
try:
    if autoload:
        torch._import_device_backends()  # what this run's `import torch` would have done
    if module:
        runpy._run_module_as_main(module, alter_argv=True)
    else:
        exec(code, main.__dict__)
except SystemExit:
    raise
except BaseException as e:
    e.__traceback__ = e.__traceback__.tb_next  # printed as python -c prints it: without this frame
    sys.excepthook(type(e), e, e.__traceback__)
    sys.exit(1)
"""


# Environment variables a fork may set after the imports: read only by the device, by torch.distributed when a
# process group starts (the launcher's rendezvous), and pytest's own.
_LATE = {"PYTEST_CURRENT_TEST", "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}


def _late(name):
    return name.startswith("DIOPI_") or name in _LATE


def _early(env):
    return {k: v for k, v in env.items() if not _late(k)}


def _autoload(env):
    return bool(env.get("DIOPI_IMPL_LIB")) and env.get("TORCH_DEVICE_BACKEND_AUTOLOAD", "1").lower() not in (
        "0", "false", "off", "no")


class _Zygote:
    def __init__(self, preload):
        self.dir = tempfile.mkdtemp(prefix="diopi-zygote-")
        self.path = os.path.join(self.dir, "socket")
        self.env = _early(os.environ)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.path)
        listener.listen(16)
        self.log = open(os.path.join(self.dir, "zygote.log"), "wb")
        self.proc = subprocess.Popen([sys.executable, "-c", _ZYGOTE, str(listener.fileno()), preload],
                                     pass_fds=[listener.fileno()], stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=self.log, env=self.env, cwd="/")
        listener.close()

    def alive(self):
        return self.proc.poll() is None

    def close(self):
        if self.alive():
            self.proc.terminate()  # it reaps its waiters first (their CPU time counts as this process's)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        try:
            os.unlink(self.path)
            os.unlink(self.log.name)
            os.rmdir(self.dir)
        except OSError:
            pass


_zygotes = {}
_lock = threading.Lock()


def _same_early(env, preload):
    """Whether `env` agrees with the zygote's (the one running, else the one that would start now) in every
    variable read before the fork; checked before a zygote is started for nothing."""
    z = _zygotes.get(preload)
    base = z.env if z is not None and z.alive() else _early(os.environ)
    return _early(env) == base


def _get(preload):
    with _lock:
        z = _zygotes.get(preload)
        if z is None or not z.alive():
            z = _zygotes[preload] = _Zygote(preload)
            atexit.register(z.close)
        return z


def _forkable(args, kwargs):
    """(option, code, module or script, arguments) when `args` is a `python -c`, `python -m` or `python
    script.py` command the zygote can run, else None."""
    if isinstance(args, (str, bytes)) or len(args) < 2 or args[0] != sys.executable:
        return None
    if args[1] in ("-c", "-m"):
        if len(args) < 3:
            return None
    elif not str(args[1]).endswith(".py"):
        return None
    else:
        args = [args[0], "script"] + list(args[1:])
    if any(kwargs.get(k) for k in ("shell", "preexec_fn", "pass_fds", "user", "group", "extra_groups",
                                   "start_new_session", "executable")):
        return None
    if kwargs.get("process_group") is not None or kwargs.get("umask", -1) != -1:
        return None
    return [str(a) for a in args[1:]]


class Popen(subprocess.Popen):
    """subprocess.Popen; a `python -c`, `-m` or script command is forked from the zygote (see the module's doc)."""

    def __init__(self, args, preload=MODELS, **kwargs):
        self._fork = _forkable(args, kwargs)
        self._preload = preload
        self._conn = None
        super().__init__(args, **kwargs)

    def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo,
                       creationflags, shell, p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite,
                       restore_signals, gid, gids, uid, umask, start_new_session, process_group):
        env = dict(os.environ if env is None else env)
        zygote = _get(self._preload) if self._fork is not None and _same_early(env, self._preload) else None
        if zygote is None:
            return super()._execute_child(args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo,
                                          creationflags, shell, p2cread, p2cwrite, c2pread, c2pwrite, errread,
                                          errwrite, restore_signals, gid, gids, uid, umask, start_new_session,
                                          process_group)
        # The run's standard streams: what Popen made for it, else this process's own (as a child inherits them).
        fds = [p2cread if p2cread != -1 else 0, c2pwrite if c2pwrite != -1 else 1, errwrite if errwrite != -1 else 2]
        option, what, rest = self._fork[0], self._fork[1], self._fork[2:]
        job = {"code": what if option == "-c" else None, "module": what if option == "-m" else None,
               "script": os.path.abspath(os.path.join(os.fsdecode(cwd or "."), what)) if option == "script" else None,
               "given": what, "args": rest, "env": env,
               "cwd": os.path.abspath(os.fsdecode(cwd)) if cwd is not None else os.getcwd(),
               "autoload": _autoload(env)}
        payload = json.dumps(job).encode()
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            conn.connect(zygote.path)
            socket.send_fds(conn, [struct.pack("<Q", len(payload))], fds)
            conn.sendall(payload)
            self.pid = struct.unpack("<q", self._read(conn, 8))[0]
        except BaseException:
            conn.close()
            raise
        finally:
            self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)
        self._conn = conn
        self._child_created = True

    @staticmethod
    def _read(conn, n):
        data = b""
        while len(data) < n:
            more = conn.recv(n - len(data))
            if not more:
                raise ChildProcessError("the zygote's waiter went away")
            data += more
        return data

    def _try_wait(self, wait_flags):
        if self._conn is None:
            return super()._try_wait(wait_flags)
        self._conn.setblocking(not (wait_flags & os.WNOHANG))
        try:
            status = struct.unpack("<q", self._read(self._conn, 8))[0]
        except BlockingIOError:
            return (0, 0)
        finally:
            self._conn.setblocking(True)
        self._conn.close()
        self._conn = None
        return (self.pid, status)

    def _internal_poll(self, _deadstate=None, **kwargs):
        if self._conn is None:
            return super()._internal_poll(_deadstate, **kwargs)
        if self.returncode is None and self._waitpid_lock.acquire(False):
            try:
                pid, status = self._try_wait(os.WNOHANG)
                if pid == self.pid:
                    self._handle_exitstatus(status)
            finally:
                self._waitpid_lock.release()
        return self.returncode


def run(args, *, input=None, capture_output=False, timeout=None, check=False, **kwargs):
    """subprocess.run with `Popen` above (`preload=TORCH` for a run that must not find Dynamo imported)."""
    if capture_output:
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    with Popen(args, **kwargs) as proc:
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise
        except BaseException:
            proc.kill()
            raise
    if check and proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, args, out, err)
    return subprocess.CompletedProcess(args, proc.returncode, out, err)
