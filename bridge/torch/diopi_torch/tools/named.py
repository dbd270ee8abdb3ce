"""Named fallback: chosen operators run on the CPU, the rest stays on DIOPI.

    with diopi_torch.fallback(ops=["gelu", "aten::softmax", "diopiSilu"]):
        loss = model(**batch).loss
    DIOPI_FALLBACK_OPS=gelu,softmax python train.py
    diopi_torch.set_fallback("cpu", ops=["gelu"])

A name is an ATen operator (with or without `aten::`) or a DIOPI function.
An ATen name takes in every overload the device serves with DIOPI
(`add` -> add.Tensor, add.out), its in-place form (`gelu` -> gelu_) and the
underscored form its composite calls (`softmax` -> _softmax); an overload
name (`add.Tensor`) only itself. A DIOPI function name takes in every ATen
operator served by it. Such calls are counted as fallbacks with reason
"named" in stats(), and are allowed under DIOPI_FALLBACK=error. A name that
matches nothing is a ValueError with a "did you mean".
"""
from __future__ import annotations

import contextlib
import difflib
import functools

from .. import _C
from ..ops import mapping

_persistent: frozenset = frozenset()   # set_fallback(..., ops=) and DIOPI_FALLBACK_OPS
_scoped: list = []                       # names added by the fallback() contexts in force


@functools.lru_cache(maxsize=1)
def _known():
    """(ATen overloads the device serves, DIOPI functions of the header, {DIOPI function: overloads})."""
    functions = mapping.header_functions()
    amap = mapping.load(functions=functions)
    served = {}
    for e in amap.entries:
        served.setdefault(e.diopi, set()).add(e.aten)
    return tuple(amap.aten_ops), frozenset(functions), {k: frozenset(v) for k, v in served.items()}


def resolve(names):
    """The exact names the extension matches (ATen overloads and DIOPI
    functions) for user-written `names`; ValueError for one that matches nothing."""
    if isinstance(names, str):
        names = [names]
    overloads, functions, _ = _known()
    bases = {}
    for ov in overloads:
        bases.setdefault(ov.split(".")[0], []).append(ov)
    out = set()
    for raw in names:
        name = str(raw).strip()
        if not name:
            continue
        bare = name[len("aten::"):] if name.startswith("aten::") else name
        if bare in functions:
            out.add(bare)
            continue
        if "." in bare:
            if bare in overloads:
                out.add(bare)
                continue
        else:
            hits = [ov for b in (bare, bare + "_", "_" + bare) for ov in bases.get(b, [])]
            if hits:
                out.update(hits)
                continue
        raise ValueError(_unknown(name, bare, overloads, functions, bases))
    return frozenset(out)


def _unknown(name, bare, overloads, functions, bases):
    known = list(bases) + list(overloads) + sorted(functions)
    close = difflib.get_close_matches(bare, known, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    if _is_aten(bare):
        return (f"aten::{bare} has no DIOPI kernel on this device, so it cannot fall back by name (it runs on the CPU "
                f"already, or ATen decomposes it into operators that can be named){hint}")
    return f"unknown operator {name!r}: neither an ATen operator the device serves nor a DIOPI function{hint}"


def _is_aten(bare):
    try:
        import torch
        base, _, ov = bare.partition(".")
        packet = getattr(torch.ops.aten, base)
        return not ov or hasattr(packet, ov)
    except (ImportError, AttributeError, RuntimeError):
        return False


def _apply():
    names = set(_persistent)
    for s in _scoped:
        names |= s
    _C.extension().diopi_torch_set_named_fallback(",".join(sorted(names)).encode())


def set_named(names):
    """Replaces the lasting set of named fallbacks (set_fallback(ops=) and DIOPI_FALLBACK_OPS)."""
    global _persistent
    _persistent = resolve(names or [])
    _apply()
    return sorted(_persistent)


def current():
    """The exact names falling back by name now."""
    names = set(_persistent)
    for s in _scoped:
        names |= s
    return sorted(names)


@contextlib.contextmanager
def fallback(ops):
    """Runs `ops` on the CPU inside the block (added to any named already)."""
    resolved = resolve(ops)
    _scoped.append(resolved)
    _apply()
    try:
        yield sorted(resolved)
    finally:
        _scoped.remove(resolved)
        _apply()
