"""Compiled plans, built with the system C compiler and cached on disk.

    compile_native(native, functions)     # attach the plan's library: from the cache, else built

The key is a digest of everything the library depends on: the emitted C (the
plan: graph, bound arguments, memory layout), the mapping file, the
standard's headers, the vendor library (its bytes and the functions it
exports), this generator's version and the compiler command. An entry that
does not load or was built for another key is removed and built again. The
cache lives in $DIOPI_GRAPH_CACHE, else ~/.cache/diopi_torch/graphs.

Building runs in a background thread by default (DIOPI_GRAPH_COMPILE=async):
the plan's interpreter serves the runs meanwhile, and the library is used
from the next run after it is attached. DIOPI_GRAPH_COMPILE=sync builds
before the first run; =off never builds (the interpreter only). Without a
compiler (no `cc` on PATH, or DIOPI_GRAPH_CC pointing nowhere) the
interpreter serves every run.
"""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
import time

from ..ops import mapping
from . import emit, stats

_pending = []
_pending_lock = threading.Lock()
_CFLAGS = ["-std=c11", "-O1", "-fPIC", "-shared", "-Wall", "-Werror"]


def cache_dir():
    d = os.environ.get("DIOPI_GRAPH_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "diopi_torch", "graphs")
    os.makedirs(d, exist_ok=True)
    return d


def mode():
    m = os.environ.get("DIOPI_GRAPH_COMPILE", "async")
    if m not in ("async", "sync", "off"):
        raise ValueError(f"DIOPI_GRAPH_COMPILE must be async, sync or off, not {m!r}")
    return m


def compiler():
    """The C compiler command, or None when there is none."""
    cc = os.environ.get("DIOPI_GRAPH_CC", "cc")
    return shutil.which(cc)


def include_dir():
    import diopi_header
    return diopi_header.INCLUDE_DIR


@functools.lru_cache(maxsize=None)
def _file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@functools.lru_cache(maxsize=8)
def _inputs_digest(library, exported):
    import diopi_header
    h = hashlib.sha256()
    h.update(f"generator {emit.GENERATOR_VERSION}\n".encode())
    h.update(_file_digest(mapping.DEFAULT_PATH).encode())
    for header in diopi_header.HEADERS:
        h.update(_file_digest(header).encode())
    h.update(_file_digest(library).encode())
    h.update(",".join(sorted(exported)).encode())
    return h.hexdigest()


def key_of(plan, library, exported, cc):
    """The digest naming a plan's library (without the key line the source embeds)."""
    h = hashlib.sha256()
    h.update(_inputs_digest(library, exported).encode())
    h.update(" ".join([cc or ""] + _CFLAGS).encode())
    h.update(plan.text.encode())
    return h.hexdigest()[:40]


def _build(source, out, cc):
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=os.path.dirname(out)) as tmp:
        c = os.path.join(tmp, "graph.c")
        so = os.path.join(tmp, "graph.so")
        with open(c, "w") as f:
            f.write(source)
        proc = subprocess.run([cc, *_CFLAGS, "-I", include_dir(), c, "-o", so], capture_output=True, text=True)
        stats.record_cache("compiler_invocations")
        if proc.returncode != 0:
            raise RuntimeError(f"building a compiled graph failed ({cc}):\n{proc.stderr[-4000:]}")
        shutil.copyfile(c, out[:-3] + ".c")  # kept beside the library for reading
        os.replace(so, out)  # atomic: a reader sees the old entry or the whole new one
    stats.record_cc(time.perf_counter() - t0)


def compile_native(native, functions, library, exported):
    """Attach `native`'s compiled library, building it when the cache has no usable entry.
    Returns "" when attached, else why not (the interpreter then goes on serving)."""
    cc = compiler()
    if cc is None:
        stats.record_cache("no_compiler")
        return "no C compiler"
    key = key_of(native.plan, library, exported, cc)
    path = os.path.join(cache_dir(), f"{key}.so")
    if os.path.exists(path):
        why = native.attach(path, key)
        if not why:
            stats.record_cache("hits")
            return ""
        stats.record_cache("rebuilt")
        try:
            os.remove(path)
        except OSError:
            pass
    else:
        stats.record_cache("misses")
    _build(emit.emit(native.plan, functions, key), path, cc)
    return native.attach(path, key)


def schedule(native, functions, library, exported):
    """Compile according to DIOPI_GRAPH_COMPILE (see the module's docstring)."""
    m = mode()
    if m == "off":
        return
    if m == "sync":
        why = compile_native(native, functions, library, exported)
        if why and why != "no C compiler":
            raise RuntimeError(f"diopi graph {native.name}: compiled library unusable: {why}")
        return

    def work():
        try:
            native.compile_error = compile_native(native, functions, library, exported)
        except Exception as e:  # the interpreter keeps serving; the reason is kept for the report
            native.compile_error = f"{type(e).__name__}: {e}"
    t = threading.Thread(target=work, name=f"diopi-graph-cc-{native.name}", daemon=True)
    with _pending_lock:
        _pending.append(t)
    t.start()


def wait():
    """Wait until every scheduled build has finished (benchmarks call it before timing)."""
    while True:
        with _pending_lock:
            if not _pending:
                return
            t = _pending.pop()
        t.join()
